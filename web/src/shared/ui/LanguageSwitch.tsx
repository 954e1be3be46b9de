import { useState, type ComponentType, type ReactElement } from 'react';
import type { DropdownProps } from 'antd';
import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Language } from '@geosentry/contract';
import { currentLanguage, setLanguage } from '../i18n.ts';

/** Language names are shown in their own language, so anyone can find theirs. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文', ko: '한국어' };

// A plain button (the login page loads no antd); the menu (antd's Dropdown and Menu) loads on the first click: the
// login page does not download it for a switch most people never open. (Not earlier, on hover: the button is re-made when the menu wraps it, and a click in
// progress would be lost.)

/**
 * Language switch (the stored choice wins over the browser language).
 * Test hooks: [data-testid="lang-switch"], then [data-testid="lang-en" | "lang-zh" | "lang-ko"].
 */
export function LanguageSwitch({ className }: { className?: string }): ReactElement {
  const { t } = useTranslation('common');
  const lang = currentLanguage();
  const [Dropdown, setDropdown] = useState<ComponentType<DropdownProps> | null>(null);
  const [open, setOpen] = useState(false);
  const button = (
    <button
      type="button"
      className={`gs-lang-switch${className ? ` ${className}` : ''}`}
      data-testid="lang-switch"
      aria-label={t('header.language')}
      // Before the menu code is there, a click asks for it and opens the menu once it has loaded.
      onClick={
        Dropdown
          ? undefined
          : () => {
              setOpen(true);
              void import('antd/es/dropdown').then((m) => setDropdown(() => m.default));
            }
      }
    >
      <GlobalOutlined />
      <span className="gs-lang-current">{LANGUAGE_NAMES[lang]}</span>
    </button>
  );
  if (!Dropdown) return button;
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
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
        onClick: ({ key }) => {
          setOpen(false);
          setLanguage(key as Language);
        },
      }}
    >
      {button}
    </Dropdown>
  );
}
