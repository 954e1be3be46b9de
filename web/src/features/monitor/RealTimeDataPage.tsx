import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Card, Col, Empty, Flex, Row, Segmented, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import type { RealTimeDevice } from '@geosentry/contract';
import { DeviceStateTag } from '../devices/index.ts';
import { useTableScrollY } from '../../shared/table/useTableScrollY.ts';
import { ModulePicker, SitePicker } from './shared/Pickers.tsx';
import { LiveBadge } from './shared/LiveBadge.tsx';
import { Sparkline } from './shared/Sparkline.tsx';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { mainQuantity, useDeviceTrail, useLiveDevices, type LiveReading } from './shared/useLiveDevices.ts';
import { fmtValue, useQuantityText } from './shared/format.ts';
import { fmtTime } from './shared/timeRange.ts';
import { useTimeZone, withZone } from '../../shared/useTimeZone.ts';
import './monitor.css';

/** A cell that flashes when its value changed by a push (the key restarts the animation). */
export function Flash({
  at,
  children,
  testId,
}: {
  at: number | undefined;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <span key={at ?? 0} className={at ? 'gs-monitor-flash' : undefined} data-testid={testId}>
      {children}
    </span>
  );
}

/** Monitor > Real-time data: the newest values of a site's devices, updated live from the socket. */
export default function RealTimeDataPage() {
  const { t } = useTranslation('monitor');
  const { label: zoneLabel } = useTimeZone();
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const [moduleId, setModuleId] = useState<number | undefined>();
  const [view, setView] = useState<'table' | 'charts'>('table');
  const siteDevices = useSiteDevices(platformId);
  const live = useLiveDevices(platformId, moduleId);
  const text = useQuantityText();
  const [tableTop, scrollY] = useTableScrollY(72);

  const quantityColumns = useMemo(() => {
    if (moduleId === undefined) return null;
    return text.catalogue
      .quantities(moduleId)
      .filter((q) => q.key !== 'battery' && q.key !== 'voltage')
      .map((q) => ({ key: q.key, title: q.unit ? `${q.text} (${q.unit})` : q.text }));
  }, [moduleId, text]);

  const columns: TableColumnsType<RealTimeDevice> = [
    {
      key: 'deviceName',
      title: t('col.device'),
      width: 180,
      fixed: 'left',
      render: (_, d) => (
        <Flex vertical>
          <strong className="gs-ellipsis">{d.deviceName}</strong>
          <span className="gs-muted" style={{ fontSize: 12 }}>
            {d.number}
          </span>
        </Flex>
      ),
    },
    { key: 'moduleName', title: t('col.module'), width: 130, dataIndex: 'moduleName', ellipsis: true },
    {
      key: 'state',
      title: t('col.state'),
      width: 100,
      render: (_, d) => (
        <Flash at={live.flash.get(`${d.deviceId}:state`)} testId={`rt-state-${d.deviceId}`}>
          <DeviceStateTag state={d.state} />
        </Flash>
      ),
    },
    {
      key: 'lastReadingAt',
      title: withZone(t('col.lastTime'), zoneLabel),
      width: 170,
      render: (_, d) => (
        <Flash at={live.flash.get(`${d.deviceId}:time`)} testId={`rt-time-${d.deviceId}`}>
          {fmtTime(d.lastReadingAt)}
        </Flash>
      ),
    },
    ...(quantityColumns
      ? quantityColumns.map((c) => ({
          key: c.key,
          title: c.title,
          width: 130,
          render: (_: unknown, d: RealTimeDevice) => (
            <Flash at={live.flash.get(`${d.deviceId}:${c.key}`)} testId={`rt-value-${d.deviceId}-${c.key}`}>
              {text.show(d.moduleId, c.key, d.values, '')}
            </Flash>
          ),
        }))
      : [
          {
            key: 'values',
            title: t('col.values'),
            render: (_: unknown, d: RealTimeDevice) => <ValueList device={d} flash={live.flash} />,
          },
        ]),
    {
      key: 'trend',
      title: t('col.trend'),
      width: 170,
      render: (_, d) => <TrendCell device={d} live={live.live.get(d.deviceId)} />,
    },
    {
      key: 'battery',
      title: t('col.battery'),
      width: 90,
      render: (_, d) => (
        <Flash at={live.flash.get(`${d.deviceId}:battery`)}>
          {d.battery === null ? '-' : `${fmtValue(d.battery)} %`}
        </Flash>
      ),
    },
    {
      key: 'voltage',
      title: t('col.voltage'),
      width: 90,
      render: (_, d) => (
        <Flash at={live.flash.get(`${d.deviceId}:voltage`)}>
          {d.voltage === null ? '-' : `${fmtValue(d.voltage)} V`}
        </Flash>
      ),
    },
  ];

  const noSites = !sitesLoading && sites.length === 0;
  return (
    <Flex vertical gap={12} data-testid="monitor-realtime">
      <Card className="gs-monitor-toolbar" variant="borderless">
        <Flex gap={12} wrap align="center">
          <h5 className="gs-section-title">{t('realtime.title')}</h5>
          <SitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={sitesLoading} />
          <ModulePicker devices={siteDevices.data ?? []} value={moduleId} onChange={setModuleId} />
          <Segmented<'table' | 'charts'>
            data-testid="rt-view"
            value={view}
            onChange={setView}
            options={[
              { value: 'table', label: t('realtime.viewTable') },
              { value: 'charts', label: t('realtime.viewCharts') },
            ]}
          />
          <div style={{ flex: 1 }} />
          <LiveBadge connected={live.connected} supported={live.supported} />
        </Flex>
      </Card>
      {live.query.isError ? <Alert type="error" showIcon title={t('error.load')} /> : null}
      <Card variant="borderless" styles={{ body: { padding: 12 } }}>
        {noSites ? (
          <Empty description={t('empty.noSites')} />
        ) : view === 'table' ? (
          <div ref={tableTop}>
            <Table<RealTimeDevice>
              data-testid="rt-table"
              rowKey="deviceId"
              size="middle"
              columns={columns}
              dataSource={live.devices}
              loading={live.query.isLoading}
              pagination={false}
              scroll={{ x: 1000, y: scrollY }}
              locale={{ emptyText: <Empty description={t('empty.noDevices')} /> }}
            />
          </div>
        ) : live.devices.length === 0 ? (
          <Empty description={t('empty.noDevices')} />
        ) : (
          <Row gutter={[12, 12]} data-testid="rt-charts">
            {live.devices.map((d) => (
              <Col key={d.deviceId} xs={24} md={12} xl={8} xxl={6}>
                <DeviceChartCard device={d} live={live.live.get(d.deviceId)} />
              </Col>
            ))}
          </Row>
        )}
      </Card>
    </Flex>
  );
}

function ValueList({ device: d, flash }: { device: RealTimeDevice; flash: Map<string, number> }) {
  const text = useQuantityText();
  const keys = Object.keys(d.units).filter((k) => k !== 'battery' && k !== 'voltage');
  const extra = Object.keys(d.values).filter((k) => !(k in d.units));
  if (keys.length + extra.length === 0) return <>-</>;
  return (
    <div className="gs-monitor-values">
      {[...keys, ...extra].map((k) => (
        <span key={k} className="gs-monitor-value">
          <span className="gs-monitor-q">{text.meta(d.moduleId, k).label}</span>
          <Flash at={flash.get(`${d.deviceId}:${k}`)} testId={`rt-value-${d.deviceId}-${k}`}>
            {text.show(d.moduleId, k, d.values, d.units[k])}
          </Flash>
        </span>
      ))}
    </div>
  );
}

/** The small live chart of a table row: the main quantity's last readings. */
function TrendCell({ device: d, live }: { device: RealTimeDevice; live: LiveReading[] | undefined }) {
  const text = useQuantityText();
  const q = mainQuantity(d);
  const points = useDeviceTrail(d.deviceId, q, live, { ts: d.lastReadingAt, values: d.values });
  if (points.length === 0) return <span className="gs-muted">-</span>;
  return <Sparkline points={points} height={36} unit={q ? text.meta(d.moduleId, q).unit : ''} />;
}

/** A device's live chart: its main quantity over the last readings, appended from the socket. */
export function DeviceChartCard({ device: d, live }: { device: RealTimeDevice; live: LiveReading[] | undefined }) {
  const { t } = useTranslation('monitor');
  const text = useQuantityText();
  const q = mainQuantity(d);
  const points = useDeviceTrail(d.deviceId, q, live, { ts: d.lastReadingAt, values: d.values });
  const meta = q ? text.meta(d.moduleId, q) : { label: '-', unit: '' };
  return (
    <Card
      size="small"
      title={
        <Flex justify="space-between" align="center" gap={8}>
          <span className="gs-ellipsis" title={d.deviceName}>
            {d.deviceName}
          </span>
          <DeviceStateTag state={d.state} />
        </Flex>
      }
      data-testid={`rt-chart-${d.deviceId}`}
    >
      <span className="gs-muted">
        {meta.label}: {q ? text.show(d.moduleId, q, d.values, d.units[q]) : '-'}
      </span>
      {points.length > 0 ? (
        <Sparkline points={points} height={110} unit={meta.unit} />
      ) : (
        <Flex align="center" justify="center" style={{ height: 110 }}>
          <span className="gs-muted">{t('empty.noData')}</span>
        </Flex>
      )}
    </Card>
  );
}
