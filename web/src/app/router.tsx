import { createHashRouter } from 'react-router-dom';
import { MainLayout } from './layout/MainLayout.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';
import { PublicOnly, RequireAuth } from './guards.tsx';
import { LoginPage } from '../features/session/LoginPage.tsx';

/**
 * Hash routing (spec §2). Public: /login and /404. Everything else sits under the main layout,
 * which resolves the path against the routes the user may open ('/' to /home, groups to their first
 * child, the rest to /404) and renders the screen.
 */
export const router = createHashRouter([
  {
    path: '/login',
    element: (
      <PublicOnly>
        <LoginPage />
      </PublicOnly>
    ),
  },
  { path: '/404', element: <NotFoundPage /> },
  {
    path: '*',
    element: (
      <RequireAuth>
        <MainLayout />
      </RequireAuth>
    ),
  },
]);
