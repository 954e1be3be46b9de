import { useCallback, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Button, Flex, Input, Popconfirm, Select, Tag, Tooltip, Typography, message } from 'antd';
import { DeploymentUnitOutlined, DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { DEVICE_STATES, type DeviceFileFormat, type DeviceRow } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { formatTime } from '../../shared/time.ts';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchAllTerminals, terminalKeys } from '../terminals/index.ts';
import { RegionFilter } from '../regions/index.ts';
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
  const catalogue = useMonitorTypes();
  const sites = useSiteOptions();
  const table = useServerTable<DeviceListParams>({ pageNum: 1, pageSize: 20 }, DEVICE_SORT_FIELDS, {
    filters: {
      keyword: 'string',
      platformId: 'number',
      moduleId: 'number',
      terminalId: 'number',
      state: 'string',
      regionCode: 'string',
    },
  });
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
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
    table.resetFilters();
  };

  const dash = (v: string | number | null) => (v === null || v === '' ? '-' : v);

  const columns: ServerColumn<DeviceRow>[] = [
    {
      title: t('fields.deviceName'),
      dataIndex: 'deviceName',
      key: 'deviceName',
      width: 150,
      ellipsis: true,
      sortable: true,
      render: (v: string, row) => (
        <Link to={deviceDetailPath(row)} data-testid="device-detail-link">
          {v}
        </Link>
      ),
    },
    { key: 'number', title: t('fields.number'), dataIndex: 'number', width: 115, sortable: true },
    {
      title: t('fields.moduleId'),
      dataIndex: 'moduleId',
      key: 'moduleId',
      width: 140,
      sortable: true,
      ellipsis: true,
      render: (v: number) => catalogue.label(v),
    },
    {
      title: t('fields.state'),
      dataIndex: 'state',
      key: 'state',
      width: 90,
      sortable: true,
      render: (v: DeviceRow['state']) => <DeviceStateTag state={v} />,
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      key: 'platformName',
      width: 140,
      ellipsis: true,
      sortable: true,
      render: (v: string | null, row) => (row.bound ? dash(v) : <Tag>{t('list.unbound')}</Tag>),
    },
    {
      title: t('fields.terminal'),
      dataIndex: 'terminalName',
      key: 'terminalName',
      width: 150,
      sortable: true,
      optional: 4,
    },
    {
      title: t('fields.lastSeenAt'),
      dataIndex: 'lastSeenAt',
      key: 'lastSeenAt',
      width: 165,
      sortable: true,
      render: (v: string | null) =>
        v ? formatTime(v) : <Typography.Text type="secondary">{t('list.never')}</Typography.Text>,
    },
    { key: 'ip', title: t('fields.ip'), dataIndex: 'ip', width: 140, optional: 3 },
    { key: 'port', title: t('fields.port'), dataIndex: 'port', width: 80, optional: 2 },
    {
      title: t('fields.createdAt'),
      dataIndex: 'createdAt',
      key: 'createdAt',
      width: 170,
      sortable: true,
      optional: 1,
      render: (v: string) => formatTime(v),
    },
    {
      title: t('fields.actions'),
      key: 'actions',
      width: 170,
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
    <ListPage icon={<DeploymentUnitOutlined />} title={t('title')} description={t('description')} extra={headerActions}>
      {msgHolder}
      <ServerTable<DeviceRow>
        tableId="devices"
        rowKey="deviceId"
        data-testid="device-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(total) => t('list.total', { count: total })}
        filters={
          <>
            <Input.Search
              allowClear
              data-testid="device-search"
              style={{ width: 220 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
            />
            <Select<number>
              allowClear
              id="device-filter-site"
              style={{ width: 160 }}
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
              style={{ width: 180 }}
              placeholder={t('filters.module')}
              value={params.moduleId}
              options={catalogue.options}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v) => table.setFilter({ moduleId: v ?? undefined })}
            />
            <Select<number>
              allowClear
              id="device-filter-terminal"
              style={{ width: 160 }}
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
              style={{ width: 130 }}
              placeholder={t('filters.state')}
              value={params.state}
              options={DEVICE_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
              onChange={(v) => table.setFilter({ state: v ?? undefined })}
            />
            <RegionFilter
              data-testid="device-filter-region"
              placeholder={t('filters.region')}
              value={table.params.regionCode}
              onChange={(regionCode) => table.setFilter({ regionCode })}
            />
            <Button onClick={resetFilters}>{t('filters.reset')}</Button>
          </>
        }
      />
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
    </ListPage>
  );
}
