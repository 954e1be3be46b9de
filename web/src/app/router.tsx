import { lazy, Suspense, type ReactNode } from 'react';
import { createHashRouter } from 'react-router-dom';
import { PublicOnly, RequireLogin } from './guards.tsx';
import { LoginPage } from '../features/session/index.ts';
import { BigScreenPage } from '../features/dashboard/index.ts';
import { currentLanguage, loadCatalogues, loadConsoleCatalogues } from '../shared/i18n.ts';
import { getSession } from '../shared/session.ts';
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
  Promise.all([
    import('./Console.tsx'),
    loadConsoleCatalogues(),
    loadUiLocale(currentLanguage()),
    loadStartScreen(),
  ]).then(([m]) => ({
    default: m.Console,
  })),
);

/**
 * The screen the console opens on, loaded with the console: its code (a lazy screen), and the catalogues it waits
 * for, so the layout's first render shows it instead of a skeleton that the screen replaces a render later.
 * Never fails: a screen that cannot load shows its error as it did.
 */
async function loadStartScreen(): Promise<void> {
  try {
    const [{ appRoutes }, { buildNodes, filterRoutes, findNode }] = await Promise.all([
      import('./routes.tsx'),
      import('./route-tree.ts'),
    ]);
    const pathname = router.state.location.pathname;
    const node = findNode(buildNodes(filterRoutes(appRoutes, getSession())), pathname === '/' ? '/home' : pathname);
    if (!node?.route.element) return;
    await Promise.all([loadLazy(node.route.element), node.route.consoleCatalogues ? null : loadCatalogues()]);
  } catch {
    // The screen loads when it renders, as without this.
  }
}

/**
 * Starts a React.lazy component's load and resolves once it is there: its first render then does not suspend.
 * (React's lazy object: `_init(_payload)` returns the component when loaded, throws the pending promise before.)
 */
function loadLazy(component: unknown): Promise<unknown> {
  const lazyObject = component as { $$typeof?: symbol; _init?: (payload: unknown) => unknown; _payload?: unknown };
  if (lazyObject.$$typeof !== Symbol.for('react.lazy') || typeof lazyObject._init !== 'function')
    return Promise.resolve();
  try {
    lazyObject._init(lazyObject._payload);
    return Promise.resolve();
  } catch (pending) {
    return Promise.resolve(pending).catch(() => undefined);
  }
}
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
