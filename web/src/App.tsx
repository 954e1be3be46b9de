import { useEffect, type ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from './shared/i18n.ts';
import { isCancel } from './shared/api.ts';
import { router } from './app/router.tsx';
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

/**
 * The root: react-query and the hash router. antd's providers wrap the console and the 404 page only
 * (app/ConsoleProviders.tsx, loaded with them), so the login page stays light.
 */
export function App(): ReactElement {
  useTranslation(); // re-render on language change
  const lang = currentLanguage();
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
