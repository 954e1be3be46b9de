import { useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Language } from '@geosentry/contract';
import { currentLanguage } from '../shared/i18n.ts';
import { hasUiLocale, loadUiLocale, activateUiLocale } from '../shared/uiLocale.ts';
import { ApiEventsBridge } from './ApiEventsBridge.tsx';

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans KR', sans-serif";

/**
 * antd's providers (locale and theme follow the language) and the bridge that shows the request layer's messages.
 * They wrap the console and the 404 page, and load with them: the login page is plain HTML and CSS, so it does not
 * download antd. The module that lazy-loads this one loads the active language's antd and dayjs locale first
 * (loadUiLocale), so the first render has it.
 */
export function ConsoleProviders({ children }: { children: ReactNode }): ReactElement {
  useTranslation(); // re-render on language change
  const lang = currentLanguage();
  // After a language switch, the previous locale stays until the new one is there.
  const [shown, setShown] = useState<Language>(lang);
  useEffect(() => {
    let live = true;
    if (hasUiLocale(lang)) setShown(lang);
    else void loadUiLocale(lang).then(() => live && setShown(lang));
    return () => {
      live = false;
    };
  }, [lang]);
  const locale = activateUiLocale(hasUiLocale(lang) ? lang : shown);
  return (
    <ConfigProvider
      locale={locale}
      theme={{
        algorithm: theme.defaultAlgorithm,
        token: { colorPrimary: '#1668dc', borderRadius: 6, fontFamily: FONT, colorBgLayout: '#f0f2f5' },
        components: {
          Layout: {
            headerBg: '#ffffff',
            headerHeight: 56,
            headerPadding: '0 12px',
            siderBg: '#001529',
            bodyBg: '#f0f2f5',
          },
          Menu: { darkItemBg: '#001529', darkSubMenuItemBg: '#000c17', itemHeight: 44 },
        },
      }}
    >
      <AntdApp>
        <ApiEventsBridge />
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}
