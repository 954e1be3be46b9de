/**
 * ServerTable: the one list of the console (issue 16 part 4). Paging, server sort and filters come from
 * `useServerTable` (./serverTable.ts), which also keeps them in the page's address; this component draws them.
 *
 * Use (see features/users/UsersPage.tsx, roles/RolesPage.tsx, audit/AuditPage.tsx):
 *
 *   const table = useServerTable<UserListParams>({ pageNum: 1, pageSize: 20 }, USER_SORT_FIELDS, {
 *     filters: { keyword: 'string', roleId: 'number', enabled: 'boolean' },   // written as ?keyword=..&roleId=..
 *   });
 *   const list = useQuery({ queryKey: userKeys.list(table.params), queryFn: () => fetchUsers(table.params),
 *     placeholderData: keepPreviousData, retry: retryUnlessCancelled });
 *   const columns: ServerColumn<UserRow>[] = [
 *     { key: 'account', title: t('fields.account'), dataIndex: 'account', width: 200, sortable: true, hideable: false },
 *     { key: 'email', title: t('fields.email'), dataIndex: 'email', width: 200 },     // text: ellipsis + tooltip
 *     { key: 'actions', title: t('fields.actions'), width: 240, render: ... },       // 'actions': fixed right
 *   ];
 *   return (
 *     <ListPage icon={<TeamOutlined />} title={t('title')} description={t('description')}>
 *       <ServerTable<UserRow> tableId="users" rowKey="id" table={table} query={list} columns={columns}
 *         filters={<Input.Search ... onSearch={(v) => table.setFilter({ keyword: v || undefined })} />}
 *         actions={<Button type="primary">{t('actions.add')}</Button>} />
 *     </ListPage>
 *   );
 *
 * Columns: `key` (required; the sort field for `sortable`, the name in column settings) and `width` (required,
 * px; the table scrolls sideways past their sum, so the fixed Actions column never covers data). A column
 * without `render` shows its text on one line, cut with an ellipsis and shown whole in a tooltip; `ellipsis:
 * false` turns that off. `hideable: false` keeps a column out of the column settings (the first column and
 * Actions always are); `hidden: true` hides it until the user shows it; `optional: true` shows it only while the
 * table is wide enough for it (it hides data by default: only for columns nobody looks for first). Every shown
 * column stays reachable: the table scrolls sideways exactly as far as the columns reach, so the fixed Actions
 * column never hides one for good; put the key columns first. The user's choice is kept in
 * localStorage per user and `tableId`.
 * States: loading (spinner over the rows), empty (translated), failed (translated, with the server's message
 * and a Try again button). Other antd Table props (rowSelection, expandable, data-testid, size...) pass through.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Checkbox, Empty, Flex, Popover, Result, Table, Tooltip } from 'antd';
import type { TableColumnType, TableProps } from 'antd';
import { ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { readCurrentUser } from '../currentUser.ts';
import { PAGE_SIZES, type PagedParams } from './serverTable.ts';
import { useTableScrollY } from './useTableScrollY.ts';

export type ServerColumn<T> = Omit<TableColumnType<T>, 'key' | 'width' | 'ellipsis'> & {
  /** Sort field (with `sortable`), column-settings name; 'actions' marks the Actions column (fixed right). */
  key: string;
  /** Width in px: the table's sideways scroll is the sum of the shown columns' widths. */
  width: number;
  /** Sorted by the server on `key` (which must be one of the hook's sort fields). */
  sortable?: boolean;
  /** Whether the user may hide it in the column settings (default true). */
  hideable?: boolean;
  /** Hidden until the user shows it. */
  hidden?: boolean;
  /**
   * Shown only while the table has room for it (at 1280 px wide, say), so key columns are never pushed under
   * the Actions column. A number orders them: 1 leaves first, then 2...; `true` leaves last, from the right.
   * Hiding other columns makes room.
   */
  optional?: boolean | number;
  /** One line with ellipsis and tooltip (default for columns without render); false to wrap. */
  ellipsis?: boolean;
};

/** What ServerTable needs of the list query (a react-query result fits). */
export interface ServerTableQuery<T> {
  data?: { list: readonly T[]; total: number } | undefined;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** What ServerTable needs of `useServerTable`. */
export interface ServerTableState {
  params: PagedParams;
  onChange: NonNullable<TableProps<never>['onChange']>;
  sortOrderOf: (field: string) => 'ascend' | 'descend' | null;
}

export interface ServerTableProps<T> extends Omit<
  TableProps<T>,
  'columns' | 'dataSource' | 'pagination' | 'onChange' | 'loading' | 'scroll' | 'footer'
> {
  /** Names the table for its column settings (stored per user): e.g. 'users', 'alerts.values'. */
  tableId: string;
  table: ServerTableState;
  query: ServerTableQuery<T>;
  columns: ServerColumn<T>[];
  /** Left of the bar above the table: the filters. */
  filters?: ReactNode;
  /** Right of the bar: page actions (Add, Export...), before the reload and column-settings buttons. */
  actions?: ReactNode;
  /** Reload (default: the query's refetch). */
  onReload?: () => unknown;
  /** Page sizes offered (default 10, 20, 50, 100). */
  pageSizes?: number[];
  /** What an empty list says (default: common "No data"), e.g. "No alerts". */
  empty?: ReactNode;
  /** The pagination's total text (default: common "N in total"). */
  totalText?: (total: number) => ReactNode;
  /** Room kept below the table body for the vertical scroll height (see useTableScrollY). */
  footer?: number;
  'data-testid'?: string;
}

const storeKey = (tableId: string) => `geosentry.table.${readCurrentUser().id ?? 'anon'}.${tableId}.hidden`;

function readHidden(tableId: string): string[] | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(storeKey(tableId)) ?? 'null');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
  } catch {
    return null;
  }
}

const errorText = (e: unknown): string | undefined => (e instanceof Error ? e.message : undefined);

const textCell = (v: unknown): ReactNode => {
  if (v === null || v === undefined || v === '') return '-';
  const s = String(v);
  return (
    <Tooltip placement="topLeft" title={s}>
      <span>{s}</span>
    </Tooltip>
  );
};

export function ServerTable<T extends object>(props: ServerTableProps<T>) {
  const { tableId, table, query, columns, filters, actions, onReload, footer, totalText, pageSizes, empty, ...rest } =
    props;
  const { t } = useTranslation('common');
  const [tableTop, scrollY] = useTableScrollY(footer);

  const always = (c: ServerColumn<T>, i: number) => c.hideable === false || i === 0 || c.key === 'actions';
  const [hidden, setHidden] = useState<string[]>(
    () => readHidden(tableId) ?? columns.filter((c) => c.hidden).map((c) => c.key),
  );
  const saveHidden = (next: string[] | null) => {
    const value = next ?? columns.filter((c) => c.hidden).map((c) => c.key);
    setHidden(value);
    try {
      if (next === null) localStorage.removeItem(storeKey(tableId));
      else localStorage.setItem(storeKey(tableId), JSON.stringify(next));
    } catch {
      // Storage full or refused: the choice lasts for this view only.
    }
  };

  // The expand and selection columns antd adds.
  const controls = (rest.expandable ? 48 : 0) + (rest.rowSelection ? 32 : 0);
  // The width the table has: optional columns are shown only while they fit in it.
  const [box, setBox] = useState<HTMLElement | null>(null);
  const boxRef = useCallback((el: HTMLElement | null) => setBox(el), []);
  const [room, setRoom] = useState<number | null>(null);
  useEffect(() => {
    if (!box || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setRoom(box.clientWidth || null));
    ro.observe(box);
    return () => ro.disconnect();
  }, [box]);

  const shown = useMemo(() => {
    const chosen = columns.filter((c, i) => always(c, i) || !hidden.includes(c.key));
    if (room === null) return chosen;
    let width = chosen.reduce((sum, c) => sum + c.width, 0) + controls;
    const dropped = new Set<string>();
    const rank = (c: ServerColumn<T>) => (typeof c.optional === 'number' ? c.optional : Number.MAX_SAFE_INTEGER);
    const leaving = chosen
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => c.optional)
      .sort((a, b) => rank(a.c) - rank(b.c) || b.i - a.i);
    for (const { c } of leaving) {
      if (width <= room) break;
      dropped.add(c.key);
      width -= c.width;
    }
    return chosen.filter((c) => !dropped.has(c.key));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- always() is pure
  }, [columns, hidden, room, controls]);

  const antColumns: TableColumnType<T>[] = shown.map((c) => {
    const { sortable, hideable: _h, hidden: _hd, optional: _o, ellipsis, ...col } = c;
    const oneLine = ellipsis ?? !col.render;
    return {
      ...col,
      ...(sortable ? { sorter: true, sortOrder: table.sortOrderOf(c.key) } : {}),
      ...(c.key === 'actions' ? { fixed: 'right' as const } : {}),
      ...(oneLine ? { ellipsis: col.render ? true : { showTitle: false } } : {}),
      ...(oneLine && !col.render ? { render: textCell } : {}),
    };
  });
  const scrollX = shown.reduce((sum, c) => sum + c.width, 0) + controls;

  const settings = (
    <Flex vertical gap={4} style={{ maxHeight: 360, overflowY: 'auto' }} data-testid="table-columns-menu">
      {columns.map((c, i) =>
        always(c, i) ? null : (
          <Checkbox
            key={c.key}
            checked={!hidden.includes(c.key)}
            onChange={(e) => saveHidden(e.target.checked ? hidden.filter((k) => k !== c.key) : [...hidden, c.key])}
          >
            {typeof c.title === 'function' ? c.key : (c.title as ReactNode)}
          </Checkbox>
        ),
      )}
      <Button size="small" type="link" style={{ alignSelf: 'flex-start', padding: 0 }} onClick={() => saveHidden(null)}>
        {t('table.columnsReset')}
      </Button>
    </Flex>
  );

  const failed = query.isError && !query.data;
  const emptyText = failed ? (
    <Result
      status="error"
      title={t('table.loadFailed')}
      subTitle={errorText(query.error)}
      extra={
        <Button type="primary" onClick={() => void (onReload ?? query.refetch)()} data-testid="table-retry">
          {t('action.retry')}
        </Button>
      }
    />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty ?? t('table.empty')} />
  );

  return (
    <div ref={boxRef}>
      <Flex justify="space-between" align="center" gap={12} wrap style={{ marginBottom: 16 }}>
        <Flex gap={12} wrap align="center">
          {filters}
        </Flex>
        <Flex gap={8} wrap align="center">
          {actions}
          <Tooltip title={t('table.reload')}>
            <Button
              icon={<ReloadOutlined />}
              aria-label={t('table.reload')}
              data-testid="table-reload"
              onClick={() => void (onReload ?? query.refetch)()}
            />
          </Tooltip>
          <Popover trigger="click" placement="bottomRight" title={t('table.columns')} content={settings}>
            <Tooltip title={t('table.columns')}>
              <Button icon={<SettingOutlined />} aria-label={t('table.columns')} data-testid="table-columns" />
            </Tooltip>
          </Popover>
        </Flex>
      </Flex>
      <div ref={tableTop}>
        <Table<T>
          size="middle"
          {...rest}
          columns={antColumns}
          dataSource={(query.data?.list ?? []) as T[]}
          loading={query.isFetching}
          onChange={table.onChange as TableProps<T>['onChange']}
          scroll={{ x: scrollX, y: scrollY }}
          locale={{ emptyText }}
          pagination={{
            current: table.params.pageNum,
            pageSize: table.params.pageSize,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: pageSizes ?? PAGE_SIZES,
            showTotal: (total) => (totalText ? totalText(total) : t('table.total', { count: total })),
          }}
        />
      </div>
    </div>
  );
}
