import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button, Input, Select } from 'antd';
import type { ReactNode } from 'react';
import type { AreaRow } from '@geosentry/contract';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { formatTime } from '../../shared/time.ts';
import { AREA_SORT_FIELDS, areaKeys, fetchAreas, type AreaListParams } from './areasApi.ts';
import { LevelTag } from './common.tsx';

/** The areas list of both screens: server paging, sort and filters (site, name) in the address. */
export function useAreaList(live: boolean) {
  const table = useServerTable<AreaListParams>(
    { pageNum: 1, pageSize: 20, sortField: 'level', sortOrder: 'descend' },
    AREA_SORT_FIELDS,
    {
      filters: { platformId: 'number', name: 'string' },
    },
  );
  const list = useQuery({
    queryKey: areaKeys.list(table.params),
    queryFn: () => fetchAreas(table.params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
    refetchInterval: live ? 15_000 : false,
  });
  return { table, list };
}

export function AreaTable({
  tableId,
  state,
  extraColumns = [],
  actions,
  onRow,
  selected,
}: {
  tableId: string;
  state: ReturnType<typeof useAreaList>;
  extraColumns?: ServerColumn<AreaRow>[];
  actions?: ReactNode;
  onRow?: (r: AreaRow) => void;
  selected?: number | undefined;
}) {
  const { t } = useTranslation('areas');
  const { options } = useSiteOptions();
  const { table, list } = state;
  const columns: ServerColumn<AreaRow>[] = [
    { title: t('col.name'), dataIndex: 'name', key: 'name', width: 160, sortable: true, hideable: false },
    { title: t('col.site'), dataIndex: 'platformName', key: 'platformName', width: 150, sortable: true },
    {
      title: t('col.level'),
      dataIndex: 'level',
      key: 'level',
      width: 100,
      sortable: true,
      render: (v: number) => <LevelTag level={v} />,
    },
    { title: t('col.devices'), dataIndex: 'devices', key: 'devices', width: 90, align: 'right', sortable: true },
    { title: t('col.alerting'), dataIndex: 'alerting', key: 'alerting', width: 100, align: 'right' },
    {
      title: t('col.updatedAt'),
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      width: 160,
      sortable: true,
      optional: true,
      render: (v: string) => formatTime(v),
    },
    ...extraColumns,
  ];
  return (
    <ServerTable<AreaRow>
      tableId={tableId}
      rowKey="id"
      data-testid="area-table"
      table={table}
      query={list}
      columns={columns}
      totalText={(n) => t('total', { count: n })}
      empty={t('empty')}
      rowClassName={(r) => (r.id === selected ? 'ant-table-row-selected' : '')}
      onRow={(r) => ({ onClick: () => onRow?.(r), style: onRow ? { cursor: 'pointer' } : undefined })}
      filters={
        <>
          <Select<number>
            data-testid="area-site"
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 180 }}
            placeholder={t('allSites')}
            value={table.params.platformId}
            options={options}
            onChange={(v) => table.setFilter({ platformId: v ?? undefined })}
          />
          <Input.Search
            allowClear
            style={{ width: 170 }}
            placeholder={t('col.name')}
            defaultValue={table.params.name}
            onSearch={(v) => table.setFilter({ name: v.trim() || undefined })}
          />
          <Button onClick={() => table.resetFilters()}>{t('reset')}</Button>
        </>
      }
      actions={actions}
    />
  );
}
