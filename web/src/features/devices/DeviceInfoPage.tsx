import { useMemo, useState } from 'react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Badge, Card, Col, Flex, Input, Row, Select, Statistic, Table, Tag, Typography, theme } from 'antd';
import type { TableColumnsType } from 'antd';
import { DatabaseOutlined } from '@ant-design/icons';
import { DEVICE_STATES, type DeviceOption, type DeviceRow, type DeviceState } from '@geosentry/contract';
import { hasPermission, useSession } from '../../shared/session.ts';
import { PageHeaderCard } from '../../shared/ui/PageHeaderCard.tsx';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { formatTime } from '../../shared/time.ts';
import { PAGE_SIZES, useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchSiteModules, moduleKeys } from '../monitorTypes/index.ts';
import {
  DEVICE_SORT_FIELDS,
  countDevices,
  deviceDetailPath,
  deviceKeys,
  fetchDeviceOptions,
  fetchDevices,
  type DeviceListParams,
} from './devicesApi.ts';
import { DeviceStateTag } from './DeviceStateTag.tsx';

const STATE_BADGE: Record<DeviceState, 'success' | 'warning' | 'error' | 'processing' | 'default'> = {
  normal: 'success',
  alert: 'warning',
  alarm: 'error',
  abnormal: 'error',
  offline: 'default',
};

/**
 * Information > Device information: a read-only overview of the devices of a site: how many are in each state,
 * the site's monitor types, and the devices (server-paged). Users without the device management right see the
 * pickers' list of their data scope.
 */
export default function DeviceInfoPage() {
  const { t } = useTranslation('devices');
  const session = useSession();
  const canList = hasPermission('information:device', session);
  const [tableTop, scrollY] = useTableScrollY();
  const { token } = theme.useToken();
  const stateColor: Record<DeviceState, string> = {
    normal: token.colorSuccess,
    alert: token.colorWarning,
    alarm: token.colorError,
    abnormal: token.volcano6,
    offline: token.colorTextSecondary,
  };
  const catalogue = useMonitorTypes();
  const sites = useSiteOptions();
  const table = useServerTable<DeviceListParams>({ pageNum: 1, pageSize: 20 }, DEVICE_SORT_FIELDS);
  const { params } = table;
  const [keywordInput, setKeywordInput] = useState('');
  const site = { platformId: params.platformId };

  const list = useQuery({
    queryKey: deviceKeys.list(params),
    queryFn: () => fetchDevices(params, true),
    enabled: canList,
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const counts = useQueries({
    queries: DEVICE_STATES.map((state) => ({
      queryKey: deviceKeys.count({ ...site, moduleId: params.moduleId, state }),
      queryFn: () => countDevices({ ...site, moduleId: params.moduleId, state }),
      enabled: canList,
      retry: retryUnlessCancelled,
    })),
  });
  const modules = useQuery({
    queryKey: moduleKeys.of(params.platformId ?? 0),
    queryFn: () => fetchSiteModules(params.platformId!),
    enabled: params.platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  // Without information:device: the pickers' list (filtered by site and type on the server).
  const options = useQuery({
    queryKey: deviceKeys.options({ platformId: params.platformId, moduleId: params.moduleId }),
    queryFn: () => fetchDeviceOptions({ platformId: params.platformId, moduleId: params.moduleId }),
    enabled: !canList,
    retry: retryUnlessCancelled,
  });
  const optionRows = useMemo(() => {
    const k = params.keyword?.toLowerCase();
    return (options.data ?? []).filter(
      (d) =>
        (!k || d.deviceName.toLowerCase().includes(k) || d.number.toLowerCase().includes(k)) &&
        (!params.state || d.state === params.state),
    );
  }, [options.data, params.keyword, params.state]);

  const sortable = (key: string) => (canList ? { key, sorter: true, sortOrder: table.sortOrderOf(key) } : { key });
  const nameCell = (v: string, row: { deviceId: number; number: string }) => (
    <Link to={deviceDetailPath(row)} data-testid="device-detail-link">
      {v}
    </Link>
  );

  const columns: TableColumnsType<DeviceRow> = [
    { title: t('fields.deviceName'), dataIndex: 'deviceName', width: 180, ...sortable('deviceName'), render: nameCell },
    { title: t('fields.number'), dataIndex: 'number', width: 150, ...sortable('number') },
    {
      title: t('fields.moduleId'),
      dataIndex: 'moduleId',
      width: 170,
      ...sortable('moduleId'),
      render: (v: number) => catalogue.label(v),
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      width: 160,
      ...sortable('platformName'),
      render: (v: string | null) => v ?? <Tag>{t('list.unbound')}</Tag>,
    },
    {
      title: t('fields.terminal'),
      dataIndex: 'terminalName',
      width: 150,
      ...sortable('terminalName'),
      render: (v: string | null) => v ?? '-',
    },
    {
      title: t('fields.state'),
      dataIndex: 'state',
      width: 110,
      ...sortable('state'),
      render: (v: DeviceState) => <DeviceStateTag state={v} />,
    },
    {
      title: t('fields.lastSeenAt'),
      dataIndex: 'lastSeenAt',
      width: 170,
      ...sortable('lastSeenAt'),
      render: (v: string | null) =>
        v ? formatTime(v) : <Typography.Text type="secondary">{t('list.never')}</Typography.Text>,
    },
  ];
  const optionColumns: TableColumnsType<DeviceOption> = [
    { title: t('fields.deviceName'), dataIndex: 'deviceName', key: 'deviceName', width: 180, render: nameCell },
    { title: t('fields.number'), dataIndex: 'number', key: 'number', width: 150 },
    { title: t('fields.moduleId'), dataIndex: 'moduleName', key: 'moduleName', width: 170 },
    { title: t('fields.site'), dataIndex: 'platformName', key: 'platformName', width: 160 },
    {
      title: t('fields.state'),
      dataIndex: 'state',
      key: 'state',
      width: 110,
      render: (v: DeviceState) => <DeviceStateTag state={v} />,
    },
  ];

  const total = canList ? counts.reduce((n, c) => n + (c.data ?? 0), 0) : (options.data ?? []).length;

  return (
    <Flex vertical gap={16}>
      <PageHeaderCard
        icon={<DatabaseOutlined />}
        title={t('info.title')}
        description={t('info.description')}
        extra={
          <Select<number>
            allowClear
            id="device-info-site"
            style={{ width: 240 }}
            placeholder={t('info.allSites')}
            value={params.platformId}
            loading={sites.isLoading}
            options={sites.options}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={(v) => table.setFilter({ platformId: v ?? undefined, moduleId: undefined })}
          />
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} xl={4}>
          <Card
            variant="borderless"
            hoverable
            size="small"
            onClick={() => table.setFilter({ state: undefined })}
            style={{ outline: params.state === undefined ? `2px solid ${token.colorPrimaryBorder}` : undefined }}
          >
            <Statistic title={t('info.total')} value={total} />
          </Card>
        </Col>
        {DEVICE_STATES.map((s, i) => (
          <Col xs={12} md={8} xl={4} key={s}>
            <Card
              variant="borderless"
              hoverable
              size="small"
              data-testid={`device-info-count-${s}`}
              onClick={() => table.setFilter({ state: params.state === s ? undefined : s })}
              style={{ outline: params.state === s ? `2px solid ${token.colorPrimaryBorder}` : undefined }}
            >
              <Statistic
                title={
                  <Badge
                    status={STATE_BADGE[s]}
                    color={s === 'abnormal' ? 'volcano' : undefined}
                    text={t(`state.${s}`)}
                  />
                }
                value={canList ? (counts[i]?.data ?? 0) : (options.data ?? []).filter((d) => d.state === s).length}
                styles={{ content: { color: stateColor[s] } }}
              />
            </Card>
          </Col>
        ))}
      </Row>
      {params.platformId !== undefined ? (
        <Card variant="borderless" size="small" title={t('info.modulesOfSite')}>
          <Flex gap={8} wrap>
            {(modules.data ?? []).length === 0 ? (
              <Typography.Text type="secondary">{t('info.noModules')}</Typography.Text>
            ) : (
              (modules.data ?? []).map((m) => (
                <Tag.CheckableTag
                  key={m.moduleId}
                  checked={params.moduleId === m.moduleId}
                  onChange={(on) => table.setFilter({ moduleId: on ? m.moduleId : undefined })}
                >
                  {catalogue.label(m.moduleId)} ({m.deviceCount})
                </Tag.CheckableTag>
              ))
            )}
          </Flex>
        </Card>
      ) : null}
      <Card variant="borderless" styles={{ body: { paddingBottom: 8 } }}>
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
          <Input.Search
            allowClear
            style={{ width: 260 }}
            placeholder={t('filters.keyword')}
            value={keywordInput}
            onChange={(e) => setKeywordInput(e.target.value)}
            onSearch={(v) => table.setFilter({ keyword: v.trim() || undefined })}
          />
          <Select<number>
            allowClear
            style={{ width: 220 }}
            placeholder={t('filters.module')}
            value={params.moduleId}
            options={catalogue.options}
            showSearch={{ optionFilterProp: 'label' }}
            onChange={(v) => table.setFilter({ moduleId: v ?? undefined })}
          />
        </Flex>
        <div ref={tableTop}>
          {canList ? (
            <Table<DeviceRow>
              rowKey="deviceId"
              size="middle"
              data-testid="device-info-table"
              columns={columns}
              dataSource={list.data?.list ?? []}
              loading={list.isFetching}
              onChange={table.onChange}
              scroll={{ x: 1100, y: scrollY }}
              pagination={{
                current: params.pageNum,
                pageSize: params.pageSize,
                total: list.data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES,
                showTotal: (n) => t('list.total', { count: n }),
              }}
            />
          ) : (
            <Table<DeviceOption>
              rowKey="deviceId"
              size="middle"
              data-testid="device-info-table"
              columns={optionColumns}
              dataSource={optionRows}
              loading={options.isFetching}
              scroll={{ x: 800, y: scrollY }}
              pagination={{
                showSizeChanger: true,
                pageSizeOptions: PAGE_SIZES,
                defaultPageSize: 20,
                showTotal: (n) => t('list.total', { count: n }),
              }}
            />
          )}
        </div>
      </Card>
    </Flex>
  );
}
