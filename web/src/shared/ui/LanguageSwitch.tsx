import type { ReactElement } from 'react';
import { Button, Dropdown } from 'antd';
import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Language } from '@geosentry/contract';
import { currentLanguage, setLanguage } from '../i18n.ts';

/** Language names are shown in their own language, so anyone can find theirs. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文', ko: '한국어' };

/**
 * Language switch (the stored choice wins over the browser language).
 * Test hooks: [data-testid="lang-switch"], then [data-testid="lang-en" | "lang-zh" | "lang-ko"].
 */
export function LanguageSwitch({ className }: { className?: string }): ReactElement {
  const { t } = useTranslation('common');
  const lang = currentLanguage();
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        selectedKeys: [lang],
        items: (Object.keys(LANGUAGE_NAMES) as Language[]).map((l) => ({
          key: l,
          label: (
            <span data-testid={`lang-${l}`} lang={l} className="gs-lang-item">
              <span>{LANGUAGE_NAMES[l]}</span>
              {l === lang ? <CheckOutlined /> : null}
            </span>
          ),
        })),
        onClick: ({ key }) => setLanguage(key as Language),
      }}
    >
      <Button
        type="text"
        className={className}
        icon={<GlobalOutlined />}
        data-testid="lang-switch"
        aria-label={t('header.language')}
      >
        <span className="gs-lang-current">{LANGUAGE_NAMES[lang]}</span>
      </Button>
    </Dropdown>
  );
}
