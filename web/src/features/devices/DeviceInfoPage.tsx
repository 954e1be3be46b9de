import { useState, type ReactNode } from 'react';
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Badge, Button, Card, Col, Flex, Input, Row, Select, Statistic, Tag, Typography, theme } from 'antd';
import { DatabaseOutlined } from '@ant-design/icons';
import { DEVICE_STATES, type DeviceRow, type DeviceState } from '@geosentry/contract';
import { ListPage } from '../../shared/table/ListPage.tsx';
import { ServerTable, type ServerColumn } from '../../shared/table/ServerTable.tsx';
import { formatTime } from '../../shared/time.ts';
import { useServerTable } from '../../shared/table/serverTable.ts';
import { useSiteOptions } from '../../shared/sites.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchSiteModules, moduleKeys } from '../monitorTypes/index.ts';
import {
  DEVICE_SORT_FIELDS,
  countDevices,
  deviceDetailPath,
  deviceKeys,
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
 * Information > Device information: a read-only overview of the devices of the caller's data scope: how many
 * are in each state, a site's monitor types, and the devices in the shared ServerTable (paged, sorted and
 * filtered by the server, the state in the address). The device list route also answers information:commonDevice,
 * the permission of this screen.
 */
export default function DeviceInfoPage() {
  const { t } = useTranslation('devices');
  const queryClient = useQueryClient();
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
  // By site first, as the overview read before it was paged on the server.
  const table = useServerTable<DeviceListParams>(
    { pageNum: 1, pageSize: 20, sortField: 'platformName', sortOrder: 'ascend' },
    DEVICE_SORT_FIELDS,
    {
      filters: { platformId: 'number', moduleId: 'number', state: 'string', keyword: 'string' },
    },
  );
  const { params, setFilter } = table;
  const [keywordInput, setKeywordInput] = useState(params.keyword ?? '');
  const site = { platformId: params.platformId, moduleId: params.moduleId, keyword: params.keyword };

  const list = useQuery({
    queryKey: deviceKeys.list(params),
    queryFn: () => fetchDevices(params, true),
    placeholderData: keepPreviousData,
    retry: retryUnlessCancelled,
  });
  const all = useQuery({
    queryKey: deviceKeys.count(site),
    queryFn: () => countDevices(site),
    retry: retryUnlessCancelled,
  });
  const counts = useQueries({
    queries: DEVICE_STATES.map((state) => ({
      queryKey: deviceKeys.count({ ...site, state }),
      queryFn: () => countDevices({ ...site, state }),
      retry: retryUnlessCancelled,
    })),
  });
  const modules = useQuery({
    queryKey: moduleKeys.of(params.platformId ?? 0),
    queryFn: () => fetchSiteModules(params.platformId!),
    enabled: params.platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
      queryClient.invalidateQueries({ queryKey: moduleKeys.all }),
    ]);

  const columns: ServerColumn<DeviceRow>[] = [
    {
      title: t('fields.deviceName'),
      dataIndex: 'deviceName',
      key: 'deviceName',
      width: 180,
      sortable: true,
      ellipsis: true,
      render: (v: string, row) => (
        <Link to={deviceDetailPath(row)} data-testid="device-detail-link" title={v}>
          {v}
        </Link>
      ),
    },
    { title: t('fields.number'), dataIndex: 'number', key: 'number', width: 140, sortable: true },
    {
      title: t('fields.moduleId'),
      dataIndex: 'moduleId',
      key: 'moduleId',
      width: 160,
      sortable: true,
      ellipsis: true,
      render: (v: number) => catalogue.label(v),
    },
    {
      title: t('fields.site'),
      dataIndex: 'platformName',
      key: 'platformName',
      width: 180,
      sortable: true,
      ellipsis: true,
      render: (v: string | null) => v ?? <Tag>{t('list.unbound')}</Tag>,
    },
    {
      title: t('fields.terminal'),
      dataIndex: 'terminalName',
      key: 'terminalName',
      width: 150,
      sortable: true,
      optional: 1,
    },
    {
      title: t('fields.state'),
      dataIndex: 'state',
      key: 'state',
      width: 100,
      sortable: true,
      render: (v: DeviceState) => <DeviceStateTag state={v} />,
    },
    {
      title: t('fields.lastSeenAt'),
      dataIndex: 'lastSeenAt',
      key: 'lastSeenAt',
      width: 170,
      sortable: true,
      optional: 2,
      render: (v: string | null) =>
        v ? formatTime(v) : <Typography.Text type="secondary">{t('list.never')}</Typography.Text>,
    },
  ];

  const stateCard = (s: DeviceState | undefined, title: ReactNode, value: number, color?: string) => (
    <Card
      variant="borderless"
      hoverable
      size="small"
      data-testid={`device-info-count-${s ?? 'all'}`}
      onClick={() => setFilter({ state: s === undefined || params.state === s ? undefined : s })}
      style={{ outline: params.state === s ? `2px solid ${token.colorPrimaryBorder}` : undefined }}
    >
      <Statistic title={title} value={value} styles={color ? { content: { color } } : undefined} />
    </Card>
  );

  const above = (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} xl={4}>
          {stateCard(undefined, t('info.total'), all.data ?? 0)}
        </Col>
        {DEVICE_STATES.map((s, i) => (
          <Col xs={12} md={8} xl={4} key={s}>
            {stateCard(
              s,
              <Badge status={STATE_BADGE[s]} color={s === 'abnormal' ? 'volcano' : undefined} text={t(`state.${s}`)} />,
              counts[i]?.data ?? 0,
              stateColor[s],
            )}
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
                  onChange={(on) => setFilter({ moduleId: on ? m.moduleId : undefined })}
                >
                  {catalogue.label(m.moduleId)} ({m.deviceCount})
                </Tag.CheckableTag>
              ))
            )}
          </Flex>
        </Card>
      ) : null}
    </>
  );

  return (
    <ListPage icon={<DatabaseOutlined />} title={t('info.title')} description={t('info.description')} above={above}>
      <ServerTable<DeviceRow>
        tableId="devices.info"
        rowKey="deviceId"
        data-testid="device-info-table"
        table={table}
        query={list}
        columns={columns}
        onReload={() => void refresh()}
        totalText={(n) => t('list.total', { count: n })}
        filters={
          <>
            <Select<number>
              allowClear
              id="device-info-site"
              data-testid="device-info-site"
              style={{ width: 180 }}
              placeholder={t('info.allSites')}
              value={params.platformId}
              loading={sites.isLoading}
              options={sites.options}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v) => setFilter({ platformId: v ?? undefined, moduleId: undefined })}
            />
            <Select<number>
              allowClear
              data-testid="device-info-module"
              style={{ width: 180 }}
              placeholder={t('filters.module')}
              value={params.moduleId}
              options={catalogue.options}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(v) => setFilter({ moduleId: v ?? undefined })}
            />
            <Select<DeviceState>
              allowClear
              data-testid="device-info-state"
              style={{ width: 140 }}
              placeholder={t('filters.state')}
              value={params.state}
              options={DEVICE_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
              onChange={(v) => setFilter({ state: v ?? undefined })}
            />
            <Input.Search
              allowClear
              data-testid="device-info-search"
              style={{ width: 220 }}
              placeholder={t('filters.keyword')}
              value={keywordInput}
              onChange={(e) => setKeywordInput(e.target.value)}
              onSearch={(v) => setFilter({ keyword: v.trim() || undefined })}
            />
            <Button
              onClick={() => {
                setKeywordInput('');
                table.resetFilters();
              }}
            >
              {t('filters.reset')}
            </Button>
          </>
        }
      />
    </ListPage>
  );
}
