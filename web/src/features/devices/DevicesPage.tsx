import { useCallback, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button, Card, Flex, Input, Popconfirm, Select, Table, Tag, Tooltip, Typography, message } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  DeploymentUnitOutlined,
  DownloadOutlined,
  PlusOutlined,
  ReloadOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { DEVICE_STATES, type DeviceFileFormat, type DeviceRow } from '@geosentry/contract';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchAllTerminals, terminalKeys } from '../terminals/index.ts';
import {
  DEVICE_SORT_FIELDS,
  deleteDevice,
  deviceDetailPath,
  deviceKeys,
  downloadExport,
  fetchDevices,
  unbindDevice,
  type DeviceListParams,
} from './devicesApi.ts';
import { DeviceFormDrawer } from './DeviceFormDrawer.tsx';
import { DeviceImportModal } from './DeviceImportModal.tsx';
import { DeviceStateTag } from './DeviceStateTag.tsx';

/**
 * Information > Monitoring devices: server-paged, filtered and sorted devices with add, edit, unbind, delete,
 * bulk import and export.
 */
export default function DevicesPage() {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
  const [msg, msgHolder] = message.useMessage();
  const [tableTop, scrollY] = useTableScrollY();
  const catalogue = useMonitorTypes();
  const sites = useSiteOptions();
  const table = useServerTable<DeviceListParams>({ pageNum: 1, pageSize: 20 }, DEVICE_SORT_FIELDS);
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState('');
  const [editing, setEditing] = useState<DeviceRow | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState<DeviceFileFormat | null>(null);

  const list = useQuery({
    queryKey: deviceKeys.list(params),
    queryFn: () => fetchDevices(params),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const terminals = useQuery({
    queryKey: terminalKeys.ofSite(params.platformId),
    queryFn: () => fetchAllTerminals(params.platformId),
    retry: retryUnlessCancelled,
  });
  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
        queryClient.invalidateQueries({ queryKey: terminalKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['site-modules'] }),
      ]),
    [queryClient],
  );

  const remove = useMutation({
    mutationFn: (id: number) => deleteDevice(id),
    onSuccess: () => {
      void msg.success(t('messages.deleted'));
      table.afterDelete(list.data?.list.length ?? 0);
      void refresh();
    },
  });
  const unbind = useMutation({
    mutationFn: (id: number) => unbindDevice(id),
    onSuccess: () => {
      void msg.success(t('messages.unbound'));
      void refresh();
    },
  });

  const exportAs = (format: DeviceFileFormat) => {
    setExporting(format);
    downloadExport(format, params)
      .then(() => void msg.success(t('messages.exported')))
      // Spec §8: a failed download shows 'unsuccessful' for one second.
      .catch(() => void msg.error(t('messages.exportFailed'), 1))
      .finally(() => setExporting(null));
  };

  const resetFilters = () => {
    setKeywordInput('');
    table.setParams((p) => ({ pageNum: 1, pageSize: p.pageSize, sortField: p.sortField, sortOrder: p.sortOrder }));
  };

  const sortable = (key: string) => ({ key, sorter: true, sortOrder: table.sortOrderOf(key) });
  const dash = (v: string | number | null) => (v === null || v === '' ? '-' : v);

  const columns: TableColumnsType<DeviceRow> = [
    {
      title: t('fields.deviceName'),
      dataIndex: 'deviceName',
      width: 180,
      fixed: 'left',
      ellipsis: true,
      ...sortable('deviceName'),
      render: (v: string, row) => (
        <Link to={deviceDetailPath(row)} data-testid="device-detail-link">
          {v}
        </Link>
      ),
    },
    { title: t('fields.number'), dataIndex: 'number', width: 150, ellipsis: true, ...sortable('number') },
    {
      title: t('fields.moduleId'),
      dataIndex: 'moduleId',
      width: 170,
      ...sortable('moduleId'),
      render: (v: number) => catalogue.label(v),
    },
    {
      title: t('fields.state'),
      dataIndex: 'state',
      width: 110,
      ...sortable('state'),
      render: (v: DeviceRow['state']) => <DeviceStateTag state={v} />,
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      width: 160,
      ellipsis: true,
      ...sortable('platformName'),
      render: (v: string | null, row) => (row.bound ? dash(v) : <Tag>{t('list.unbound')}</Tag>),
    },
    {
      title: t('fields.terminal'),
      dataIndex: 'terminalName',
      width: 150,
      ellipsis: true,
      ...sortable('terminalName'),
      render: dash,
    },
    {
      title: t('fields.lastSeenAt'),
      dataIndex: 'lastSeenAt',
      width: 170,
      ...sortable('lastSeenAt'),
      render: (v: string | null) =>
        v ? formatTime(v) : <Typography.Text type="secondary">{t('list.never')}</Typography.Text>,
    },
    { title: t('fields.ip'), dataIndex: 'ip', key: 'ip', width: 140, render: dash },
    { title: t('fields.port'), dataIndex: 'port', key: 'port', width: 80, render: dash },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      width: 170,
      ...sortable('createdAt'),
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_v, row) => (
        <Flex gap={0} wrap={false}>
          <Button type="link" size="small" data-testid="device-edit" onClick={() => setEditing(row)}>
            {t('actions.edit')}
          </Button>
          {row.bound ? (
            <Popconfirm
              title={t('confirm.unbindTitle', { name: row.deviceName })}
              description={<div style={{ maxWidth: 320 }}>{t('confirm.unbindContent')}</div>}
              okText={t('actions.unbind')}
              okButtonProps={{ danger: true, 'data-testid': 'device-unbind-confirm' }}
              cancelText={t('common.cancel')}
              onConfirm={() => unbind.mutateAsync(row.deviceId).catch(() => undefined)}
            >
              <Button type="link" size="small" data-testid="device-unbind">
                {t('actions.unbind')}
              </Button>
            </Popconfirm>
          ) : (
            <Button type="link" size="small" disabled>
              {t('actions.unbind')}
            </Button>
          )}
          <Popconfirm
            title={t('confirm.deleteTitle', { name: row.deviceName })}
            description={<div style={{ maxWidth: 320 }}>{t('confirm.deleteContent')}</div>}
            okText={t('actions.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'device-delete-confirm' }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.deviceId).catch(() => undefined)}
          >
            <Button type="link" size="small" danger data-testid="device-delete">
              {t('actions.delete')}
            </Button>
          </Popconfirm>
        </Flex>
      ),
    },
  ];

  const headerActions = (
    <Flex gap={8} wrap>
      <Tooltip title={t('actions.exportHint')}>
        <Button
          icon={<DownloadOutlined />}
          data-testid="device-export-csv"
          loading={exporting === 'csv'}
          onClick={() => exportAs('csv')}
        >
          {t('actions.exportCsv')}
        </Button>
      </Tooltip>
      <Tooltip title={t('actions.exportHint')}>
        <Button
          icon={<DownloadOutlined />}
          data-testid="device-export-xlsx"
          loading={exporting === 'xlsx'}
          onClick={() => exportAs('xlsx')}
        >
          {t('actions.exportXlsx')}
        </Button>
      </Tooltip>
      <Button icon={<UploadOutlined />} data-testid="device-import" onClick={() => setImporting(true)}>
        {t('actions.import')}
      </Button>
      <Button type="primary" icon={<PlusOutlined />} data-testid="device-add" onClick={() => setEditing(null)}>
        {t('actions.add')}
      </Button>
    </Flex>
  );

  return (
    <Flex vertical gap={16}>
      {msgHolder}
      <PageHeaderCard
        icon={<DeploymentUnitOutlined />}
        title={t('title')}
        description={t('description')}
        extra={headerActions}
      />
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex justify="space-between" align="flex-start" gap={12} style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center" style={{ flex: 1, minWidth: 320 }}>
            <Input.Search
              allowClear
              data-testid="device-search"
              style={{ width: 240 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
            />
            <Select<number>
              allowClear
              id="device-filter-site"
              style={{ width: 180 }}
              placeholder={t('filters.site')}
              value={params.platformId}
              loading={sites.isLoading}
              options={sites.options}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v) => table.setFilter({ platformId: v ?? undefined, terminalId: undefined })}
            />
            <Select<number>
              allowClear
              id="device-filter-module"
              style={{ width: 200 }}
              placeholder={t('filters.module')}
              value={params.moduleId}
              options={catalogue.options}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v) => table.setFilter({ moduleId: v ?? undefined })}
            />
            <Select<number>
              allowClear
              id="device-filter-terminal"
              style={{ width: 180 }}
              placeholder={t('filters.terminal')}
              value={params.terminalId}
              loading={terminals.isLoading}
              options={(terminals.data ?? []).map((x) => ({ value: x.terminalId, label: x.name }))}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v) => table.setFilter({ terminalId: v ?? undefined })}
            />
            <Select
              allowClear
              id="device-filter-state"
              style={{ width: 140 }}
              placeholder={t('filters.state')}
              value={params.state}
              options={DEVICE_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
              onChange={(v) => table.setFilter({ state: v ?? undefined })}
            />
            <Button onClick={resetFilters}>{t('filters.reset')}</Button>
          </Flex>
          <Tooltip title={t('actions.reload')}>
            <Button icon={<ReloadOutlined />} aria-label={t('actions.reload')} onClick={() => void refresh()} />
          </Tooltip>
        </Flex>
        <div ref={tableTop}>
          <Table<DeviceRow>
            rowKey="deviceId"
            size="middle"
            data-testid="device-table"
            columns={columns}
            dataSource={list.data?.list ?? []}
            loading={list.isFetching}
            onChange={table.onChange}
            scroll={{ x: 1680, y: scrollY }}
            pagination={{
              current: params.pageNum,
              pageSize: params.pageSize,
              total: list.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: PAGE_SIZES,
              showTotal: (total) => t('list.total', { count: total }),
            }}
          />
        </div>
      </Card>
      <DeviceFormDrawer
        open={editing !== undefined}
        device={editing ?? null}
        defaultPlatformId={params.platformId}
        onClose={() => setEditing(undefined)}
        onSaved={(added) => {
          void msg.success(t(added ? 'messages.added' : 'messages.saved'));
          setEditing(undefined);
          void refresh();
        }}
      />
      <DeviceImportModal
        open={importing}
        defaultPlatformId={params.platformId}
        onClose={() => setImporting(false)}
        onImported={refresh}
      />
    </Flex>
  );
}
