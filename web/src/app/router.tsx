import { lazy, Suspense, type ReactNode } from 'react';
import { createHashRouter } from 'react-router-dom';
import { PublicOnly, RequireLogin } from './guards.tsx';
import { LoginPage } from '../features/session/index.ts';
import { BigScreenPage } from '../features/dashboard/index.ts';
import { currentLanguage, loadConsoleCatalogues } from '../shared/i18n.ts';
import { loadUiLocale } from '../shared/uiLocale.ts';

// Each public page and the console (antd's providers, the menu, route tree, tags, alert popup) load with their
// path: the login page does not download the console or antd, and a signed-in start does not download the login
// page. The console and the 404 page render once the active language's antd and dayjs locale is there; the
// console also waits for its catalogues and the screens' titles (the public pages need only the boot ones).
const NotFoundPage = lazy(() =>
  Promise.all([import('./NotFoundPage.tsx'), loadUiLocale(currentLanguage())]).then(([m]) => ({
    default: m.NotFoundPage,
  })),
);
const Console = lazy(() =>
  Promise.all([import('./Console.tsx'), loadConsoleCatalogues(), loadUiLocale(currentLanguage())]).then(([m]) => ({
    default: m.Console,
  })),
);
const loading = (page: ReactNode): ReactNode => <Suspense fallback={null}>{page}</Suspense>;

/**
 * Hash routing (spec §2). Public: /login and /404. Everything else sits under the main layout,
 * which resolves the path against the routes the user may open ('/' to /home, groups to their first
 * child, the rest to /404) and renders the screen.
 */
export const router = createHashRouter([
  {
    path: '/login',
    element: <PublicOnly>{loading(<LoginPage />)}</PublicOnly>,
  },
  { path: '/404', element: loading(<NotFoundPage />) },
  // The big screen (spec §2): outside the main layout and without antd; the page picks the variant the user may see.
  { path: '/digitalGallery', element: <RequireLogin>{loading(<BigScreenPage variant="common" />)}</RequireLogin> },
  { path: '/digitalGallery-xqh', element: <RequireLogin>{loading(<BigScreenPage variant="xqh" />)}</RequireLogin> },
  {
    path: '*',
    element: <RequireLogin>{loading(<Console />)}</RequireLogin>,
  },
]);
