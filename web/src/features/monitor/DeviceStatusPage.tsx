import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Card, Col, Empty, Flex, Input, Row, Statistic, Table, theme } from 'antd';
import type { TableColumnsType } from 'antd';
import { DEVICE_STATES, type DeviceState, type RealTimeDevice } from '@geosentry/contract';
import { useSiteReadings, type SiteEvent } from '../../shared/socket.ts';
import { DeviceStateTag } from '../devices/index.ts';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { SitePicker } from './shared/Pickers.tsx';
import { LiveBadge } from './shared/LiveBadge.tsx';
import { useChosenSite, useMonitorSites } from '../../shared/monitorSites.ts';
import { useQuantityText } from './shared/format.ts';
import { fmtTime } from './shared/timeRange.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import { fetchDeviceStatus, liveKeys } from './monitorApi.ts';
import { Flash } from './RealTimeDataPage.tsx';
import './monitor.css';

/** Monitor > Device status: how many devices of a site are in each state, and the devices, with live state changes. */
export default function DeviceStatusPage() {
  const { t } = useTranslation('monitor');
  const { label: zoneLabel } = useTimeZone();
  const { token } = theme.useToken();
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const [stateFilter, setStateFilter] = useState<DeviceState | undefined>();
  const [keyword, setKeyword] = useState('');
  const [tableTop, scrollY] = useTableScrollY(72);
  const text = useQuantityText();
  const q = useQuery({
    queryKey: liveKeys.status(platformId),
    queryFn: () => fetchDeviceStatus(platformId!),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const [rows, setRows] = useState<RealTimeDevice[]>([]);
  const [flash, setFlash] = useState<Map<number, number>>(new Map());
  useEffect(() => setRows(q.data?.devices ?? []), [q.data]);

  const onEvent = useCallback((e: SiteEvent) => {
    setRows((list) =>
      list.map((d) => {
        if (d.deviceId !== e.deviceId) return d;
        if (e.type === 'deviceState') return { ...d, state: e.state, online: e.state !== 'offline' };
        return { ...d, values: { ...d.values, ...e.values }, lastReadingAt: e.ts, lastSeenAt: e.ts, online: true };
      }),
    );
    if (e.type === 'deviceState') setFlash((f) => new Map(f).set(e.deviceId, Date.now()));
  }, []);
  const socket = useSiteReadings(platformId === undefined ? null : [platformId], onEvent);

  const counts = useMemo(() => {
    const c = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as Record<DeviceState, number>;
    for (const d of rows) c[d.state]++;
    return c;
  }, [rows]);
  const online = rows.filter((d) => d.online).length;
  const shown = rows.filter(
    (d) =>
      (!stateFilter || d.state === stateFilter) &&
      (!keyword ||
        d.deviceName.toLowerCase().includes(keyword.toLowerCase()) ||
        d.number.toLowerCase().includes(keyword.toLowerCase())),
  );
  const colors: Record<DeviceState, string> = {
    normal: token.colorSuccess,
    alert: token.colorWarning,
    alarm: token.colorError,
    abnormal: token.volcano6,
    offline: token.colorTextSecondary,
  };

  const columns: TableColumnsType<RealTimeDevice> = [
    {
      key: 'deviceName',
      title: t('col.device'),
      dataIndex: 'deviceName',
      width: 180,
      ellipsis: true,
      sorter: (a, b) => a.deviceName.localeCompare(b.deviceName),
    },
    { key: 'number', title: t('col.number'), dataIndex: 'number', width: 140, ellipsis: true },
    { key: 'moduleName', title: t('col.module'), dataIndex: 'moduleName', width: 140, ellipsis: true },
    {
      key: 'state',
      title: t('col.state'),
      width: 110,
      sorter: (a, b) => DEVICE_STATES.indexOf(a.state) - DEVICE_STATES.indexOf(b.state),
      render: (_, d) => (
        <Flash at={flash.get(d.deviceId)} testId={`status-state-${d.deviceId}`}>
          <DeviceStateTag state={d.state} />
        </Flash>
      ),
    },
    {
      key: 'online',
      title: t('col.online'),
      width: 100,
      render: (_, d) => (
        <Badge status={d.online ? 'success' : 'default'} text={d.online ? t('status.online') : t('status.offline')} />
      ),
    },
    {
      key: 'lastSeenAt',
      title: withZone(t('col.lastTime'), zoneLabel),
      width: 170,
      render: (_, d) => fmtTime(d.lastReadingAt ?? d.lastSeenAt),
    },
    {
      key: 'values',
      title: t('col.values'),
      render: (_, d) =>
        Object.keys(d.values).length === 0 ? (
          '-'
        ) : (
          <div className="gs-monitor-values">
            {[...Object.keys(d.units), ...Object.keys(d.values).filter((k) => !(k in d.units))]
              .filter((k) => d.values[k] !== undefined)
              .map((k) => (
                <span key={k} className="gs-monitor-value">
                  <span className="gs-monitor-q">{text.meta(d.moduleId, k).label}</span>
                  {text.show(d.moduleId, k, d.values, d.units[k])}
                </span>
              ))}
          </div>
        ),
    },
  ];

  return (
    <Flex vertical gap={12} data-testid="monitor-status">
      <Card className="gs-monitor-toolbar" variant="borderless">
        <Flex gap={12} wrap align="center">
          <h5 className="gs-section-title">{t('status.title')}</h5>
          <SitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={sitesLoading} />
          <Input.Search
            allowClear
            style={{ width: 220 }}
            placeholder={t('status.search')}
            onSearch={setKeyword}
            onChange={(e) => !e.target.value && setKeyword('')}
          />
          <div style={{ flex: 1 }} />
          <LiveBadge connected={socket.connected} supported={socket.supported} />
        </Flex>
      </Card>
      {q.isError ? <Alert type="error" showIcon title={t('error.load')} /> : null}
      <Row gutter={[12, 12]}>
        <Col flex="1" style={{ minWidth: 140 }}>
          <Card
            variant="borderless"
            size="small"
            hoverable
            onClick={() => setStateFilter(undefined)}
            style={{ outline: stateFilter === undefined ? `2px solid ${token.colorPrimary}` : undefined }}
            data-testid="status-count-all"
          >
            <Statistic
              title={t('status.total')}
              value={rows.length}
              suffix={
                <span className="gs-muted" style={{ fontSize: 13 }}>
                  {t('status.onlineOf', { count: online })}
                </span>
              }
            />
          </Card>
        </Col>
        {DEVICE_STATES.map((s) => (
          <Col flex="1" key={s} style={{ minWidth: 120 }}>
            <Card
              variant="borderless"
              size="small"
              hoverable
              onClick={() => setStateFilter(stateFilter === s ? undefined : s)}
              style={{ outline: stateFilter === s ? `2px solid ${colors[s]}` : undefined }}
              data-testid={`status-count-${s}`}
            >
              <Statistic title={<DeviceStateTag state={s} />} value={counts[s]} valueStyle={{ color: colors[s] }} />
            </Card>
          </Col>
        ))}
      </Row>
      <Card variant="borderless" styles={{ body: { padding: 12 } }}>
        {!sitesLoading && sites.length === 0 ? (
          <Empty description={t('empty.noSites')} />
        ) : (
          <div ref={tableTop}>
            <Table<RealTimeDevice>
              data-testid="status-table"
              rowKey="deviceId"
              size="middle"
              columns={columns}
              dataSource={shown}
              loading={q.isLoading}
              pagination={{ defaultPageSize: 20, showSizeChanger: true, pageSizeOptions: [10, 20, 50, 100] }}
              scroll={{ x: 1000, y: scrollY }}
              locale={{ emptyText: <Empty description={t('empty.noDevices')} /> }}
            />
          </div>
        )}
      </Card>
    </Flex>
  );
}
