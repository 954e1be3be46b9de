import { useEffect, useState, type ReactElement, type RefObject } from 'react';
import { VerticalAlignTopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';

/** Back to top (spec §2): shown once the main area has scrolled 240 px, drawn as antd's float button. */
export function BackTop({ target }: { target: RefObject<HTMLElement | null> }): ReactElement | null {
  const { t } = useTranslation('common');
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const el = target.current;
    if (!el) return;
    const onScroll = (): void => setShown(el.scrollTop > 240);
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [target]);
  if (!shown) return null;
  return (
    <button
      type="button"
      className="gs-back-top"
      data-testid="back-top"
      aria-label={t('header.backTop')}
      title={t('header.backTop')}
      onClick={() => target.current?.scrollTo({ top: 0, behavior: 'smooth' })}
    >
      <VerticalAlignTopOutlined />
    </button>
  );
}
