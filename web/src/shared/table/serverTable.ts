import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import type { TablePaginationConfig } from 'antd';

type SortOrder = 'ascend' | 'descend' | null;

export const PAGE_SIZES = [10, 20, 50, 100];

export interface PagedParams {
  pageNum: number;
  pageSize: number;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

type Sorter = { columnKey?: unknown; order?: SortOrder | undefined };

/** How a filter is written in the address: `?status=1&platformIds=3,4&keyword=dam`. */
export type FilterKind = 'string' | 'number' | 'boolean' | 'numbers' | 'strings';

/**
 * Keep the table state in the address (spec: a refresh or a shared link shows the same list): page, pageSize,
 * sort, order and each filter named here, with how its value is written. Names must not collide with other
 * search parameters of the page (e.g. `platformId` of the data screens).
 */
export interface UrlState<P> {
  filters?: { [K in keyof P]?: FilterKind };
}

const BASE_KEYS = ['page', 'pageSize', 'sort', 'order'] as const;

function readFilter(kind: FilterKind, raw: string): unknown {
  switch (kind) {
    case 'string':
      return raw === '' ? undefined : raw;
    case 'number': {
      const n = Number(raw);
      return raw !== '' && Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined;
    case 'numbers': {
      const list = raw
        .split(',')
        .map(Number)
        .filter((n) => Number.isFinite(n));
      return list.length ? list : undefined;
    }
    case 'strings': {
      const list = raw.split(',').filter(Boolean);
      return list.length ? list : undefined;
    }
  }
}

const writeFilter = (v: unknown): string | undefined =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)
    ? undefined
    : Array.isArray(v)
      ? v.join(',')
      : String(v);

/** The table state found in the address, over the defaults. */
function fromSearch<P extends PagedParams>(
  sp: URLSearchParams,
  initial: P,
  sortFields: readonly string[],
  url: UrlState<P>,
): P {
  const out: P = { ...initial };
  const page = Number(sp.get('page'));
  if (Number.isInteger(page) && page >= 1) out.pageNum = page;
  const size = Number(sp.get('pageSize'));
  if (Number.isInteger(size) && size >= 1 && size <= 500) out.pageSize = size;
  const sort = sp.get('sort');
  const order = sp.get('order');
  if (sort && sortFields.includes(sort) && (order === 'ascend' || order === 'descend')) {
    out.sortField = sort;
    out.sortOrder = order;
  }
  for (const [key, kind] of Object.entries(url.filters ?? {}) as [string, FilterKind][]) {
    const raw = sp.get(key);
    if (raw !== null) (out as Record<string, unknown>)[key] = readFilter(kind, raw);
  }
  return out;
}

/** The address with this table's state written over it (defaults left out); other parameters are kept. */
function toSearch<P extends PagedParams>(base: URLSearchParams, p: P, initial: P, url: UrlState<P>): URLSearchParams {
  const sp = new URLSearchParams(base);
  const set = (k: string, v: string | undefined) => (v === undefined ? sp.delete(k) : sp.set(k, v));
  set('page', p.pageNum === 1 ? undefined : String(p.pageNum));
  set('pageSize', p.pageSize === initial.pageSize ? undefined : String(p.pageSize));
  const sorted = p.sortField && p.sortOrder && (p.sortField !== initial.sortField || p.sortOrder !== initial.sortOrder);
  set('sort', sorted ? p.sortField : undefined);
  set('order', sorted ? p.sortOrder : undefined);
  for (const key of Object.keys(url.filters ?? {})) set(key, writeFilter((p as Record<string, unknown>)[key]));
  return sp;
}

/**
 * Paging, sorting and filters of a server-side table: every change asks the server again; a new filter,
 * sort or page size starts from the first page.
 *
 * With `url`, the state lives in the address of the page (see UrlState): it is read from it on mount and on
 * back/forward, and written to it (replacing the history entry) on every change. A view kept alive behind
 * another tab neither reads nor writes the other page's address.
 */
export function useServerTable<P extends PagedParams>(initial: P, sortFields: readonly string[], url?: UrlState<P>) {
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const own = useRef(location.pathname);
  const initialRef = useRef(initial);
  const urlRef = useRef(url);
  const [params, setParams] = useState<P>(() => (url ? fromSearch(search, initial, sortFields, url) : initial));
  const here = location.pathname === own.current;
  const ownSearch = url && here ? location.search : null;
  const paramsRef = useRef(params);
  paramsRef.current = params;
  const searchRef = useRef(location.search);
  searchRef.current = location.search;

  /** Writes the state to this page's address when it differs (replacing the history entry). */
  const write = useCallback(
    (p: P) => {
      const u = urlRef.current;
      if (!u) return;
      const current = new URLSearchParams(searchRef.current);
      const next = toSearch(current, p, initialRef.current, u);
      if (next.toString() !== current.toString()) setSearch(next, { replace: true });
    },
    [setSearch],
  );

  // The address changed (back/forward, a pasted link, the tab bar): adopt it. An address without any of this
  // table's parameters (the menu link) gets the current state written back.
  useEffect(() => {
    const u = urlRef.current;
    if (!u || ownSearch === null) return;
    const sp = new URLSearchParams(ownSearch);
    const keys = [...BASE_KEYS, ...Object.keys(u.filters ?? {})];
    const p = paramsRef.current;
    if (!keys.some((k) => sp.has(k))) {
      write(p);
      return;
    }
    const next = fromSearch(sp, initialRef.current, sortFields, u);
    const same = (a: P) => toSearch(new URLSearchParams(), a, initialRef.current, u).toString();
    if (same(next) !== same(p)) setParams(next);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when this page's address changes
  }, [ownSearch]);

  // The state changed: write it to this page's address.
  useEffect(() => {
    if (here) write(params);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on state changes only
  }, [params]);

  const setFilter = useCallback((patch: Partial<P>) => setParams((p) => ({ ...p, ...patch, pageNum: 1 })), []);

  const onChange = useCallback(
    (pagination: TablePaginationConfig, _filters: unknown, sorter: Sorter | Sorter[]) => {
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      const key = typeof s?.columnKey === 'string' ? s.columnKey : undefined;
      const field = s?.order && key && sortFields.includes(key) ? key : undefined;
      const order = field ? (s?.order ?? undefined) : undefined;
      setParams((p) => {
        const sortChanged = field !== p.sortField || order !== p.sortOrder;
        const pageSize = pagination.pageSize ?? p.pageSize;
        return {
          ...p,
          sortField: field,
          sortOrder: order === null ? undefined : order,
          pageSize,
          pageNum: sortChanged || pageSize !== p.pageSize ? 1 : (pagination.current ?? 1),
        };
      });
    },
    [sortFields],
  );

  const sortOrderOf = (field: string): SortOrder | null =>
    params.sortField === field ? (params.sortOrder ?? null) : null;

  /** After a delete emptied the last page, go one page back. */
  const afterDelete = (rowsOnPage: number) => {
    if (rowsOnPage <= 1 && params.pageNum > 1) setParams((p) => ({ ...p, pageNum: p.pageNum - 1 }));
  };

  /** Clears the filters (page size and sort stay). */
  const resetFilters = useCallback(
    () =>
      setParams((p) => ({
        ...initialRef.current,
        pageSize: p.pageSize,
        sortField: p.sortField,
        sortOrder: p.sortOrder,
        pageNum: 1,
      })),
    [],
  );

  return { params, setParams, setFilter, resetFilters, onChange, sortOrderOf, afterDelete };
}
