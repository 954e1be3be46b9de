import { useCallback, useState } from 'react';
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

/**
 * Paging, sorting and filters of a server-side table: every change asks the server again; a new filter,
 * sort or page size starts from the first page.
 */
export function useServerTable<P extends PagedParams>(initial: P, sortFields: readonly string[]) {
  const [params, setParams] = useState<P>(initial);

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

  return { params, setParams, setFilter, onChange, sortOrderOf, afterDelete };
}
