import { useCallback, useEffect, useReducer } from 'react';
import type { RouteNode } from '../route-tree.ts';

/** At most this many views stay mounted (hidden ones keep their state); the least recently used leaves first. */
export const MAX_LIVE_VIEWS = 10;

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
  /**
   * Kept mounted (shown or hidden). False for pinned tabs before their first visit, for tabs restored after a
   * refresh, and for views evicted from the cache of live views: such a view renders afresh from its URL when opened.
   */
  mounted: boolean;
  /** When it was last shown (a counter; higher is more recent): the cache of live views evicts the lowest. */
  used: number;
  /** Bumped by "refresh" to remount the view. */
  version: number;
}

type Action =
  | { type: 'visit'; node: RouteNode; path: string; search: string }
  | { type: 'restore'; owner: string; views: VisitedView[] }
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
  used: 0,
  version: 0,
});

/** A view that takes memory: mounted and cached (a noCache view lives only while it is the active one). */
const isLive = (v: VisitedView, activePath: string): boolean => v.mounted && (!v.noCache || v.path === activePath);

/**
 * Unmounts the least recently used views beyond MAX_LIVE_VIEWS; the active one stays. Their tabs stay too.
 */
export function evict(views: VisitedView[], activePath: string, max = MAX_LIVE_VIEWS): VisitedView[] {
  const live = views.filter((v) => isLive(v, activePath));
  if (live.length <= max) return views;
  const leaving = new Set(
    live
      .filter((v) => v.path !== activePath)
      .sort((a, b) => a.used - b.used)
      .slice(0, live.length - max)
      .map((v) => v.path),
  );
  return views.map((v) => (leaving.has(v.path) ? { ...v, mounted: false } : v));
}

export interface TabsState {
  /** Whose tabs these are (the storage key's user part; '' when unknown: then nothing is stored). */
  owner: string;
  views: VisitedView[];
}

export function reducer(state: TabsState, a: Action): TabsState {
  const views = viewsReducer(state.views, a);
  if (a.type === 'restore') return { owner: a.owner, views };
  return views === state.views ? state : { ...state, views };
}

function viewsReducer(views: VisitedView[], a: Action): VisitedView[] {
  switch (a.type) {
    case 'visit': {
      const used = Math.max(0, ...views.map((v) => v.used)) + 1;
      const i = views.findIndex((v) => v.path === a.path);
      if (i < 0) return evict([...views, { ...fromNode(a.node, a.path, a.search, true), used }], a.path);
      const v = views[i]!;
      if (v.mounted && v.search === a.search && v.used === used - 1) return views;
      const next = [...views];
      next[i] = { ...v, search: a.search, mounted: true, used };
      return evict(next, a.path);
    }
    case 'restore':
      return a.views;
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

/** What a refresh keeps of a tab: where it leads. Its title and kind come from the route tree again. */
interface StoredTab {
  path: string;
  search: string;
}

const STORAGE_PREFIX = 'geosentry:tabs:';

/**
 * The tabs of one user, kept in sessionStorage: they survive a refresh of this browser tab, each browser tab has
 * its own, and they are gone when it closes. Keyed by user, so another user signing in here starts afresh.
 */
export function tabsStorageKey(owner: string): string {
  return STORAGE_PREFIX + owner;
}

export function serializeTabs(views: readonly VisitedView[]): string {
  return JSON.stringify(views.map((v): StoredTab => ({ path: v.path, search: v.search })));
}

/**
 * The stored tabs that still lead to a screen the user may open (resolve: the permitted screen of a path, or
 * null), in their order, none mounted: each renders from its URL when opened. Anything unreadable gives none.
 */
export function parseTabs(raw: string | null, resolve: (path: string) => RouteNode | null): VisitedView[] {
  if (!raw) return [];
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  const out: VisitedView[] = [];
  for (const t of stored as Partial<StoredTab>[]) {
    if (typeof t?.path !== 'string' || !t.path.startsWith('/')) continue;
    const search = typeof t.search === 'string' && (t.search === '' || t.search.startsWith('?')) ? t.search : '';
    const node = resolve(t.path);
    if (!node?.route.element || out.some((v) => v.path === t.path)) continue;
    out.push(fromNode(node, t.path, search, false));
  }
  return out;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function loadTabs(owner: string, resolve: (path: string) => RouteNode | null): VisitedView[] {
  if (!owner) return [];
  try {
    return parseTabs(storage()?.getItem(tabsStorageKey(owner)) ?? null, resolve);
  } catch {
    return [];
  }
}

/** Stores the owner's tabs and forgets any other user's (a shared browser shows nobody the tabs of another). */
function saveTabs(owner: string, views: readonly VisitedView[]): void {
  const s = storage();
  if (!s || !owner) return;
  try {
    for (let i = s.length - 1; i >= 0; i--) {
      const k = s.key(i);
      if (k?.startsWith(STORAGE_PREFIX) && k !== tabsStorageKey(owner)) s.removeItem(k);
    }
    s.setItem(tabsStorageKey(owner), serializeTabs(views));
  } catch {
    /* storage full or refused: the tabs just do not survive a refresh */
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

export interface VisitedViewsOptions {
  /** Pinned screens: listed first, and never closed. */
  affix: RouteNode[];
  /** The route patterns the user may open: tabs to others are dropped. */
  allowed: Set<string>;
  /** Who is signed in (a stable user key; '' when unknown): whose stored tabs to restore and keep. */
  owner: string;
  /** The permitted screen a path leads to, or null (used to restore stored tabs). */
  resolve: (path: string) => RouteNode | null;
}

/**
 * The tab bar's list: a path already open is not added twice; pinned tabs cannot be closed. At most
 * MAX_LIVE_VIEWS views stay mounted; the tabs (paths, searches, order) are stored per user and come back
 * after a refresh.
 */
export function useVisitedViews({ affix, allowed, owner, resolve }: VisitedViewsOptions): VisitedViewsApi {
  const [state, dispatch] = useReducer(reducer, null, (): TabsState => ({
    owner,
    views: viewsReducer(loadTabs(owner, resolve), { type: 'sync', affix, allowed }),
  }));
  const { views } = state;
  // Another user signed in without this layout unmounting (a sign-in in another browser tab): their own tabs.
  useEffect(() => {
    if (owner === state.owner) return;
    dispatch({
      type: 'restore',
      owner,
      views: viewsReducer(loadTabs(owner, resolve), { type: 'sync', affix, allowed }),
    });
  }, [owner, state.owner, resolve, affix, allowed]);
  useEffect(() => dispatch({ type: 'sync', affix, allowed }), [affix, allowed]);
  useEffect(() => saveTabs(state.owner, state.views), [state]);
  const visit = useCallback(
    (node: RouteNode, path: string, search: string) => dispatch({ type: 'visit', node, path, search }),
    [],
  );
  const close = useCallback(
    (path: string) => {
      dispatch({ type: 'close', path });
      return viewsReducer(views, { type: 'close', path });
    },
    [views],
  );
  const closeOthers = useCallback(
    (path: string) => {
      dispatch({ type: 'closeOthers', path });
      return viewsReducer(views, { type: 'closeOthers', path });
    },
    [views],
  );
  const closeAll = useCallback(() => {
    dispatch({ type: 'closeAll' });
    return viewsReducer(views, { type: 'closeAll' });
  }, [views]);
  const refresh = useCallback((path: string) => dispatch({ type: 'refresh', path }), []);
  return { views, visit, close, closeOthers, closeAll, refresh };
}
