import { lazy, Suspense, type ReactNode } from 'react';
import { createHashRouter } from 'react-router-dom';
import { PublicOnly, RequireAuth } from './guards.tsx';
import { LoginPage } from '../features/session/index.ts';
import { loadCatalogues } from '../shared/i18n.ts';

// Each public page and the main layout (menu, route tree, tags, alert popup) load with their path: the login page
// does not download the console, and a signed-in start does not download the login page.
const NotFoundPage = lazy(() => import('./NotFoundPage.tsx').then((m) => ({ default: m.NotFoundPage })));
// The layout renders once every catalogue of the language is there (the public pages need only the boot ones).
const MainLayout = lazy(() =>
  Promise.all([import('./layout/MainLayout.tsx'), loadCatalogues()]).then(([m]) => ({ default: m.MainLayout })),
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
  {
    path: '*',
    element: <RequireAuth>{loading(<MainLayout />)}</RequireAuth>,
  },
]);
