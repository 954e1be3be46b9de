import { useEffect, useState, type ReactElement } from 'react';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { Language } from '@geosentry/contract';
import { currentLanguage } from './shared/i18n.ts';
import { hasUiLocale, loadUiLocale, activateUiLocale } from './shared/uiLocale.ts';
import { isCancel } from './shared/api.ts';
import { router } from './app/router.tsx';
import { ApiEventsBridge } from './app/ApiEventsBridge.tsx';
import './app/shell.css';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The request layer already shows errors; a cancelled call (a newer one replaced it) is retried once.
      retry: (count, error) => isCancel(error) && count < 1,
      refetchOnWindowFocus: false,
    },
  },
});

const FONT =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans KR', sans-serif";

/** Providers: antd (locale and theme follow the language), react-query, the hash router, API events. */
export function App(): ReactElement {
  useTranslation(); // re-render on language change
  const lang = currentLanguage();
  // antd's and dayjs' locale of the language (main.tsx loads the first one before rendering; after a switch, the
  // previous one stays until the new one is there).
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
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

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
        <QueryClientProvider client={queryClient}>
          <ApiEventsBridge />
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
