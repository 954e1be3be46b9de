import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Card, Col, Empty, Flex, Row, Spin } from 'antd';
import type { Language, RealTimeDevice } from '@geosentry/contract';
import { DeviceStateTag } from '../devices/index.ts';
import { ModulePicker, SitePicker } from './shared/Pickers.tsx';
import { LiveBadge } from './shared/LiveBadge.tsx';
import { Sparkline } from './shared/Sparkline.tsx';
import { useChosenSite, useMonitorSites, useSiteDevices } from '../../shared/monitorSites.ts';
import { mainQuantity, useDeviceTrail, useLiveDevices, type LiveReading } from './shared/useLiveDevices.ts';
import { fmtValue, useQuantityText, windName } from './shared/format.ts';
import { isWindDirectionKey } from './shared/wind.ts';
import { fmtTime } from './shared/timeRange.ts';
import { Flash } from './RealTimeDataPage.tsx';
import './monitor.css';

/** Monitor > Real-time data (cards): a card per device with big current values and a sparkline, live. */
export default function RealtimeCardsPage() {
  const { t } = useTranslation('monitor');
  const { sites, isLoading: sitesLoading } = useMonitorSites();
  const [platformId, setPlatformId] = useChosenSite(sites);
  const [moduleId, setModuleId] = useState<number | undefined>();
  const siteDevices = useSiteDevices(platformId);
  const live = useLiveDevices(platformId, moduleId);
  return (
    <Flex vertical gap={12} data-testid="monitor-cards">
      <Card className="gs-monitor-toolbar" variant="borderless">
        <Flex gap={12} wrap align="center">
          <h5 className="gs-section-title">{t('cards.title')}</h5>
          <SitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={sitesLoading} />
          <ModulePicker devices={siteDevices.data ?? []} value={moduleId} onChange={setModuleId} />
          <div style={{ flex: 1 }} />
          <LiveBadge connected={live.connected} supported={live.supported} />
        </Flex>
      </Card>
      {live.query.isError ? <Alert type="error" showIcon title={t('error.load')} /> : null}
      {live.query.isLoading ? (
        <Flex justify="center" style={{ padding: 48 }}>
          <Spin />
        </Flex>
      ) : live.devices.length === 0 ? (
        <Card variant="borderless">
          <Empty description={!sitesLoading && sites.length === 0 ? t('empty.noSites') : t('empty.noDevices')} />
        </Card>
      ) : (
        <Row gutter={[12, 12]}>
          {live.devices.map((d) => (
            <Col key={d.deviceId} xs={24} sm={12} lg={8} xxl={6}>
              <BigCard device={d} live={live.live.get(d.deviceId)} flash={live.flash} />
            </Col>
          ))}
        </Row>
      )}
    </Flex>
  );
}

/** A wind direction as its compass name (16 points) with the angle beside it; '--' while the wind is still. */
function WindValue({ angle, values, lang }: { angle: number; values: Record<string, number>; lang: Language }) {
  const name = windName(angle, values, lang);
  if (name === '--') return <span className="gs-monitor-big">--</span>;
  return (
    <>
      <span className="gs-monitor-big">{name}</span> <span className="gs-muted">{fmtValue(angle)}°</span>
    </>
  );
}

function BigCard({
  device: d,
  live,
  flash,
}: {
  device: RealTimeDevice;
  live: LiveReading[] | undefined;
  flash: Map<string, number>;
}) {
  const { t } = useTranslation('monitor');
  const text = useQuantityText();
  const q = mainQuantity(d);
  const points = useDeviceTrail(d.deviceId, q, live, { ts: d.lastReadingAt, values: d.values });
  const keys = Object.keys(d.units).filter((k) => k !== 'battery' && k !== 'voltage');
  return (
    <Card
      variant="borderless"
      data-testid={`card-${d.deviceId}`}
      title={
        <Flex justify="space-between" align="center" gap={8}>
          <strong className="gs-ellipsis" title={`${d.deviceName} (${d.number})`}>
            {d.deviceName}
          </strong>
          <Flash at={flash.get(`${d.deviceId}:state`)}>
            <DeviceStateTag state={d.state} />
          </Flash>
        </Flex>
      }
      styles={{ body: { paddingTop: 12 } }}
    >
      <span className="gs-muted" style={{ fontSize: 12 }}>
        {d.moduleName} · {d.number}
      </span>
      <Flex wrap gap="8px 20px" style={{ margin: '8px 0', minHeight: 52 }}>
        {keys.slice(0, 4).map((k) => {
          const meta = text.meta(d.moduleId, k);
          return (
            <Flex vertical key={k} style={{ minWidth: 0 }}>
              <span className="gs-muted gs-ellipsis" style={{ fontSize: 12 }} title={meta.label}>
                {meta.label}
              </span>
              <Flash at={flash.get(`${d.deviceId}:${k}`)} testId={`card-value-${d.deviceId}-${k}`}>
                {isWindDirectionKey(k) && d.values[k] !== undefined ? (
                  <WindValue angle={d.values[k]} values={d.values} lang={text.lang} />
                ) : (
                  <>
                    <span className="gs-monitor-big">{fmtValue(d.values[k])}</span>{' '}
                    <span className="gs-muted">{d.units[k] ?? meta.unit}</span>
                  </>
                )}
              </Flash>
            </Flex>
          );
        })}
      </Flex>
      {points.length > 0 ? (
        <Sparkline points={points} height={64} unit={q ? d.units[q] : ''} />
      ) : (
        <Flex align="center" justify="center" style={{ height: 64 }}>
          <span className="gs-muted">{t('empty.noData')}</span>
        </Flex>
      )}
      <Flex justify="space-between" style={{ marginTop: 8, fontSize: 12 }} wrap gap={4}>
        <Flash at={flash.get(`${d.deviceId}:time`)}>
          <span className="gs-muted" style={{ fontSize: 12 }}>
            {fmtTime(d.lastReadingAt)}
          </span>
        </Flash>
        <span className="gs-muted" style={{ fontSize: 12 }}>
          {[
            d.battery !== null ? `${t('col.battery')} ${fmtValue(d.battery)}%` : null,
            d.voltage !== null ? `${t('col.voltage')} ${fmtValue(d.voltage)} V` : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      </Flex>
    </Card>
  );
}
