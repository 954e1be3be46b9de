import { Activity, Suspense, createElement, use, type ReactElement, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Skeleton } from 'antd';
import type { RouteNode } from '../route-tree.ts';
import type { VisitedView } from './visited-views.ts';
import { ViewBoundary } from './ViewBoundary.tsx';
import { loadCatalogues } from '../../shared/i18n.ts';

/** Renders its children once every catalogue of the language is there (the console loads only its own). */
function AllCatalogues({ children }: { children: ReactNode }): ReactNode {
  use(loadCatalogues());
  return children;
}

/**
 * Renders the open views. Cached views stay mounted but hidden (React Activity: state kept, effects
 * paused) so returning to a tab shows it as it was; views marked noCache live only while active. At most
 * MAX_LIVE_VIEWS stay mounted (visited-views.ts unmounts the least recently used): a tab whose view left renders
 * afresh from its address when opened.
 * Each view sees its own location (useLocation/useParams) even while hidden.
 */
export function ViewHost({
  views,
  activePath,
  nodes,
}: {
  views: VisitedView[];
  activePath: string | null;
  nodes: Map<string, RouteNode>;
}): ReactElement {
  return (
    <>
      {views.map((v) => {
        const active = v.path === activePath;
        if (!active && (!v.mounted || v.noCache)) return null;
        const route = nodes.get(v.name)?.route;
        const element = route?.element;
        if (!element) return null;
        return (
          <Activity key={`${v.path}#${v.version}`} mode={active ? 'visible' : 'hidden'}>
            <div className="gs-view" data-view-path={v.path}>
              <Routes location={v.path + v.search}>
                <Route
                  path={v.name}
                  element={
                    <ViewBoundary>
                      <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} className="gs-view-loading" />}>
                        {route.consoleCatalogues ? (
                          createElement(element)
                        ) : (
                          <AllCatalogues>{createElement(element)}</AllCatalogues>
                        )}
                      </Suspense>
                    </ViewBoundary>
                  }
                />
              </Routes>
            </div>
          </Activity>
        );
      })}
    </>
  );
}
