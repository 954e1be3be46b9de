import type { ReactElement } from 'react';
import { PhoneOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../public-config.ts';

/** Footer with the copyright and the support phone line of the deployment (spec §1). */
export function PageFooter({ className }: { className?: string }): ReactElement {
  const { t } = useTranslation('common');
  const { copyright, supportPhone } = useBranding();
  return (
    <footer className={className ?? 'gs-footer'} data-testid="page-footer">
      {copyright ? <span>{copyright}</span> : null}
      {supportPhone ? (
        <span className="gs-footer-phone">
          <PhoneOutlined /> {t('footer.support', { phone: supportPhone })}
        </span>
      ) : null}
    </footer>
  );
}
