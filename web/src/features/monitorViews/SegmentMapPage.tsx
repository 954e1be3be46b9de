import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { Button, Card, Col, Empty, Flex, Row, Tag, Typography } from 'antd';
import { AreaChartOutlined } from '@ant-design/icons';
import { SECTION_PLATFORM_TYPES, type SectionRow, type ViewDevice } from '@geosentry/contract';
import { usePermission } from '../../shared/session.ts';
import { useMonitorTypes } from '../../shared/catalogue.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import {
  DeviceValues,
  LiveStatus,
  NoSite,
  StateDot,
  ViewSitePicker,
  ViewToolbar,
  fmtTime,
  fmtValue,
} from './common.tsx';
import { STATE_COLORS, countStates, useSiteOverview, useViewSite } from './live.ts';
import { fetchSections, viewKeys } from './viewsApi.ts';

/** A small outline of the section's upstream face (pixels, y down). */
function Profile({ s }: { s: SectionRow }) {
  const pts = s.upstreamCoords;
  if (pts.length < 2) return <div style={{ height: 70 }} />;
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const k = Math.min(200 / (x1 - x0 || 1), 60 / (y1 - y0 || 1));
  const path = pts.map((p) => `${(10 + (p.x - x0) * k).toFixed(1)},${(65 - (y1 - p.y) * k).toFixed(1)}`).join(' ');
  return (
    <svg viewBox="0 0 220 72" width="100%" height={72} aria-hidden>
      <polygon points={path} fill="#e8dcc4" stroke="#8d7b63" strokeWidth={1.5} />
      <line x1={0} x2={220} y1={66} y2={66} stroke="#8d7b63" strokeWidth={2} />
    </svg>
  );
}

/**
 * Monitor > section display (segmentMap): the sections of a site, each with its core-wall devices, their states
 * and newest values; reservoir and river sections open in the reservoir view. Test hook: segment-card-<id>.
 */
export default function SegmentMapPage() {
  const { t } = useTranslation('monitorViews');
  const types = useMonitorTypes();
  const mayReservoir = usePermission('monitor:reservoirMap');
  const mayRiver = usePermission('monitor:riverMap');
  const { sites, platformId, setPlatformId, loading } = useViewSite(SECTION_PLATFORM_TYPES);
  const live = useSiteOverview(platformId);
  const sections = useQuery({
    queryKey: viewKeys.sections(platformId),
    queryFn: () => fetchSections(platformId!),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const byId = useMemo(() => new Map(live.devices.map((d) => [d.deviceId, d])), [live.devices]);
  const bound = new Map((live.overview?.sections ?? []).map((s) => [s.segmentId, s.deviceIds]));
  const site = live.overview;
  const mayOpen = site ? (site.type === 'reservoir' && mayReservoir) || (site.type === 'river' && mayRiver) : false;

  return (
    <div className="gs-view-page" data-testid="view-segment">
      <ViewToolbar extra={<LiveStatus connected={live.connected} supported={live.supported} />}>
        <ViewSitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={loading} />
      </ViewToolbar>
      {platformId === undefined ? (
        <NoSite loading={loading} />
      ) : !sections.data ? (
        <Card loading />
      ) : sections.data.length === 0 ? (
        <Card>
          <Empty description={t('empty.noSections')} />
        </Card>
      ) : (
        <Row gutter={[12, 12]}>
          {sections.data.map((s) => {
            const devices = (bound.get(s.segmentId) ?? [])
              .map((id) => byId.get(id))
              .filter((d): d is ViewDevice => !!d);
            const counts = countStates(devices);
            const worst = (['alarm', 'alert', 'abnormal', 'normal', 'offline'] as const).find((k) => counts[k] > 0);
            return (
              <Col key={s.segmentId} xs={24} lg={12} xxl={8}>
                <Card
                  size="small"
                  data-testid={`segment-card-${s.segmentId}`}
                  style={{ borderTop: `3px solid ${worst ? STATE_COLORS[worst] : '#d9d9d9'}`, height: '100%' }}
                  title={
                    <Flex gap={8} align="center">
                      <span>{s.name}</span>
                      <Tag>{t('segment.devices', { count: devices.length })}</Tag>
                    </Flex>
                  }
                  extra={
                    mayOpen ? (
                      <Link to={`/monitor/reservoirMap?platformId=${s.platformId}&segmentId=${s.segmentId}`}>
                        <Button size="small" icon={<AreaChartOutlined />}>
                          {t('segment.openView')}
                        </Button>
                      </Link>
                    ) : null
                  }
                >
                  <Row gutter={12}>
                    <Col span={9}>
                      <Profile s={s} />
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {t('reservoir.bottom')}:{' '}
                        {s.bottomElevation === null ? '-' : `${fmtValue(s.bottomElevation, 2)} m`}
                      </Typography.Text>
                      <br />
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {t('segment.source')}: {t(`segment.sources.${s.waterLevelSource}`)}
                        {s.waterLevelSource === 'manual' && s.manualWaterLevel !== null
                          ? ` (${fmtValue(s.manualWaterLevel, 2)} m)`
                          : ''}
                      </Typography.Text>
                    </Col>
                    <Col span={15}>
                      {devices.length === 0 ? (
                        <Typography.Text type="secondary">{t('segment.noDevices')}</Typography.Text>
                      ) : (
                        <Flex vertical gap={6}>
                          {devices.map((d) => (
                            <Flex key={d.deviceId} gap={8} align="flex-start">
                              <span style={{ paddingTop: 5 }}>
                                <StateDot state={d.state} />
                              </span>
                              <Flex vertical style={{ minWidth: 0 }}>
                                <Typography.Text strong ellipsis>
                                  {d.deviceName}{' '}
                                  <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 400 }}>
                                    {types.label(d.moduleId)}
                                  </Typography.Text>
                                </Typography.Text>
                                <DeviceValues device={d} max={3} />
                                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                                  {fmtTime(d.lastReadingAt)}
                                </Typography.Text>
                              </Flex>
                            </Flex>
                          ))}
                        </Flex>
                      )}
                    </Col>
                  </Row>
                  {s.info ? (
                    <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }} ellipsis={{ rows: 2 }}>
                      {s.info}
                    </Typography.Paragraph>
                  ) : null}
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
    </div>
  );
}
