import { useCallback, useEffect, useReducer } from 'react';
import type { RouteNode } from '../route-tree.ts';

/** A tab of the tab bar (spec §2: a view entry has name, path, title; title default 'no-name'). */
export interface VisitedView {
  /** The route pattern (its full path); the name of the view. */
  name: string;
  /** The concrete pathname: one tab per path. */
  path: string;
  search: string;
  titleKey: string | undefined;
  affix: boolean;
  noCache: boolean;
  /** Has been opened (pinned tabs are listed before their first visit but mounted only then). */
  mounted: boolean;
  /** Bumped by "refresh" to remount the view. */
  version: number;
}

type Action =
  | { type: 'visit'; node: RouteNode; path: string; search: string }
  | { type: 'sync'; affix: RouteNode[]; allowed: Set<string> }
  | { type: 'close'; path: string }
  | { type: 'closeOthers'; path: string }
  | { type: 'closeAll' }
  | { type: 'refresh'; path: string };

const fromNode = (node: RouteNode, path: string, search: string, mounted: boolean): VisitedView => ({
  name: node.fullPath,
  path,
  search,
  titleKey: node.route.titleKey,
  affix: Boolean(node.route.affix),
  noCache: Boolean(node.route.noCache),
  mounted,
  version: 0,
});

function reducer(views: VisitedView[], a: Action): VisitedView[] {
  switch (a.type) {
    case 'visit': {
      const i = views.findIndex((v) => v.path === a.path);
      if (i < 0) return [...views, fromNode(a.node, a.path, a.search, true)];
      const v = views[i]!;
      if (v.mounted && v.search === a.search) return views;
      const next = [...views];
      next[i] = { ...v, search: a.search, mounted: true };
      return next;
    }
    case 'sync': {
      // Drop views the user may no longer open; add pinned screens not yet listed (in front).
      const kept = views.filter((v) => a.allowed.has(v.name));
      const missing = a.affix
        .filter((n) => !kept.some((v) => v.path === n.fullPath))
        .map((n) => fromNode(n, n.fullPath, '', false));
      if (missing.length === 0 && kept.length === views.length) return views;
      return [...missing, ...kept];
    }
    case 'close':
      return views.filter((v) => v.path !== a.path || v.affix);
    case 'closeOthers':
      return views.filter((v) => v.affix || v.path === a.path);
    case 'closeAll':
      return views.filter((v) => v.affix);
    case 'refresh':
      return views.map((v) => (v.path === a.path ? { ...v, version: v.version + 1 } : v));
  }
}

export interface VisitedViewsApi {
  views: VisitedView[];
  visit: (node: RouteNode, path: string, search: string) => void;
  /** Each returns the views that remain, so the caller can decide where to go. */
  close: (path: string) => VisitedView[];
  closeOthers: (path: string) => VisitedView[];
  closeAll: () => VisitedView[];
  refresh: (path: string) => void;
}

/** The tab bar's list: a path already open is not added twice; pinned tabs cannot be closed. */
export function useVisitedViews(affix: RouteNode[], allowed: Set<string>): VisitedViewsApi {
  const [views, dispatch] = useReducer(reducer, affix, (nodes) => nodes.map((n) => fromNode(n, n.fullPath, '', false)));
  useEffect(() => dispatch({ type: 'sync', affix, allowed }), [affix, allowed]);
  const visit = useCallback(
    (node: RouteNode, path: string, search: string) => dispatch({ type: 'visit', node, path, search }),
    [],
  );
  const close = useCallback(
    (path: string) => {
      dispatch({ type: 'close', path });
      return reducer(views, { type: 'close', path });
    },
    [views],
  );
  const closeOthers = useCallback(
    (path: string) => {
      dispatch({ type: 'closeOthers', path });
      return reducer(views, { type: 'closeOthers', path });
    },
    [views],
  );
  const closeAll = useCallback(() => {
    dispatch({ type: 'closeAll' });
    return reducer(views, { type: 'closeAll' });
  }, [views]);
  const refresh = useCallback((path: string) => dispatch({ type: 'refresh', path }), []);
  return { views, visit, close, closeOthers, closeAll, refresh };
}
