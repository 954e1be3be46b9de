import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { Alert, Card, Col, Empty, Flex, Row, Select, Space, Table, Typography } from 'antd';
import type { PlatformType, ReservoirSectionView } from '@geosentry/contract';
import { usePermission } from '../../shared/session.ts';
import { useSiteReadings } from '../../shared/socket.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { LiveStatus, NoSite, StateTag, ViewSitePicker, ViewToolbar, fmtTime, fmtValue } from './common.tsx';
import { STATE_COLORS, useViewSite } from './live.ts';
import { damGeometry, niceTicks, waterPolygon, type Pt } from './damGeometry.ts';
import { fetchReservoirSection, fetchSections, viewKeys } from './viewsApi.ts';

const W = 1000;
const H_MAX = 540;
const PAD = { l: 78, r: 40, t: 64, b: 56 };
const WATER = '#4a90d9';

/** The dam cross-section as SVG: the dam body, the reservoir up to the current level, the phreatic line. */
function DamDrawing({ v }: { v: ReservoirSectionView }) {
  const { t } = useTranslation('monitorViews');
  const top = v.capacity.length > 0 ? Math.max(...v.capacity.map((r) => r.waterLevelElevation)) : null;
  const g = damGeometry(v.upstreamCoords, v.bottomElevation, top);
  if (!g) return <Empty description={t('reservoir.noCoords')} />;
  const damW = g.maxX - g.minX || 1;
  // The reservoir reaches half a dam width beyond the upstream toe.
  const waterReach = damW * 0.55;
  const x0 = g.dir === 1 ? g.minX - waterReach : g.minX;
  const x1 = g.dir === 1 ? g.maxX : g.maxX + waterReach;
  const y0 = g.crestY - (g.bottomY - g.crestY) * 0.12;
  const y1 = g.bottomY;
  const k = Math.min((W - PAD.l - PAD.r) / (x1 - x0 || 1), (H_MAX - PAD.t - PAD.b) / (y1 - y0 || 1));
  // The drawing is as tall as the section needs (at most H_MAX).
  const H = Math.max(320, Math.round((y1 - y0) * k + PAD.t + PAD.b));
  const offX = PAD.l + (W - PAD.l - PAD.r - (x1 - x0) * k) / 2;
  const offY = H - PAD.b - (y1 - y0) * k;
  const sx = (x: number) => offX + (x - x0) * k;
  const sy = (y: number) => offY + (y - y0) * k;
  const pts = (list: readonly Pt[]) => list.map((p) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
  const edgeX = g.dir === 1 ? x0 : x1;
  const level = v.waterLevel.value;
  const waterY = level !== null && g.yOf ? Math.max(g.crestY, Math.min(g.bottomY, g.yOf(level))) : null;
  const water = waterY !== null ? waterPolygon(g.face, waterY, edgeX) : null;
  const entry = water ? water[1]! : null;

  // Phreatic line: from where the reservoir meets the face, through the piezometers (evenly across the dam),
  // down to the downstream toe.
  const piezos = v.phreatic.filter((p) => p.level !== null);
  const startX = entry?.x ?? g.face[g.face.length - 1]!.x;
  const endX = g.downstreamToe.x;
  const wells = v.phreatic.map((p, i) => {
    const x = startX + ((i + 1) / (v.phreatic.length + 1)) * (endX - startX);
    const y = p.level !== null && g.yOf ? Math.max(g.crestY, Math.min(g.bottomY, g.yOf(p.level))) : null;
    return { p, x, y };
  });
  const line: Pt[] = [
    ...(entry ? [entry] : []),
    ...wells.filter((w) => w.y !== null).map((w) => ({ x: w.x, y: w.y! })),
    ...(piezos.length > 0 || entry ? [{ x: g.downstreamToe.x, y: g.downstreamToe.y }] : []),
  ];

  const ticks = g.elevOf ? niceTicks(g.elevOf(y1), g.elevOf(y0), 7) : [];
  const crestElevation = g.elevOf ? g.elevOf(g.crestY) : null;
  const labelX = sx(edgeX) + (g.dir === 1 ? 12 : -12);
  const anchor = g.dir === 1 ? 'start' : 'end';

  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      className="gs-dam-svg"
      role="img"
      aria-label={t('reservoir.drawing')}
      data-testid="dam-svg"
    >
      <defs>
        <linearGradient id="gs-water" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#7fb6ec" stopOpacity="0.9" />
          <stop offset="1" stopColor="#2f6fb5" stopOpacity="0.95" />
        </linearGradient>
        <pattern id="gs-dam-fill" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="10" height="10" fill="#d9c9a8" />
          <line x1="0" y1="0" x2="0" y2="10" stroke="#c8b48e" strokeWidth="3" />
        </pattern>
      </defs>
      {/* Elevation grid */}
      {ticks.map((e) => {
        const y = sy(g.yOf!(e));
        return (
          <g key={e}>
            <line x1={PAD.l} x2={W - PAD.r} y1={y} y2={y} stroke="#e6ebf1" strokeDasharray="3 4" />
            <text x={PAD.l - 8} y={y + 4} textAnchor="end" fontSize={12} fill="#6b7785">
              {fmtValue(e, 2)}
            </text>
          </g>
        );
      })}
      {g.elevOf ? (
        <text x={16} y={22} fontSize={12} fill="#6b7785">
          {t('reservoir.elevationAxis')}
        </text>
      ) : null}
      {/* Foundation */}
      <rect x={PAD.l} y={sy(g.bottomY)} width={W - PAD.l - PAD.r} height={14} fill="#8d7b63" />
      {/* Reservoir */}
      {water ? (
        <polygon points={pts(water)} fill="url(#gs-water)" stroke={WATER} strokeWidth={1} data-testid="dam-water" />
      ) : null}
      {/* Dam body */}
      <polygon
        points={pts(g.outline)}
        fill="url(#gs-dam-fill)"
        stroke="#6d5c43"
        strokeWidth={2}
        data-testid="dam-body"
      />
      {/* Phreatic line */}
      {line.length >= 2 ? (
        <polyline
          points={pts(line)}
          fill="none"
          stroke="#1565c0"
          strokeWidth={2.5}
          strokeDasharray="8 5"
          data-testid="dam-phreatic"
        />
      ) : null}
      {/* Piezometers */}
      {wells.map(({ p, x, y }, i) => (
        <g key={p.deviceId} data-testid={`dam-piezo-${p.deviceId}`}>
          <line
            x1={sx(x)}
            x2={sx(x)}
            y1={sy(g.bottomY)}
            y2={sy(g.crestY) + 6}
            stroke="#5b6570"
            strokeWidth={3}
            opacity={0.6}
          />
          {y !== null ? (
            <circle cx={sx(x)} cy={sy(y)} r={6} fill={STATE_COLORS[p.state]} stroke="#fff" strokeWidth={2} />
          ) : null}
          <text
            x={sx(x)}
            y={sy(g.crestY) - 10 - (i % 2) * 16}
            textAnchor="middle"
            fontSize={12}
            fill="#33404d"
            fontWeight={600}
          >
            {p.deviceName}
          </text>
          {y !== null ? (
            <text x={sx(x) + 9} y={sy(y) - 8} fontSize={12} fill="#0d47a1" fontWeight={600}>
              {fmtValue(p.level, 2)} m
            </text>
          ) : null}
        </g>
      ))}
      {/* Water level mark */}
      {waterY !== null && level !== null ? (
        <g data-testid="dam-level">
          <line x1={sx(edgeX)} x2={sx(entry!.x)} y1={sy(waterY)} y2={sy(waterY)} stroke="#0d47a1" strokeWidth={2} />
          <path d={`M ${labelX + (g.dir === 1 ? 8 : -8)} ${sy(waterY) - 4} l -7 -11 h 14 z`} fill="#0d47a1" />
          <text
            x={labelX + (g.dir === 1 ? 22 : -22)}
            y={sy(waterY) - 8}
            textAnchor={anchor}
            fontSize={15}
            fontWeight={700}
            fill="#0d47a1"
          >
            {t('reservoir.levelMark', { value: fmtValue(level, 2) })}
          </text>
          {v.volume !== null ? (
            <text
              x={labelX + (g.dir === 1 ? 22 : -22)}
              y={sy(waterY) + 20}
              textAnchor={anchor}
              fontSize={13}
              fill="#fff"
            >
              {t('reservoir.volumeMark', { value: fmtValue(v.volume, 2) })}
            </text>
          ) : null}
        </g>
      ) : null}
      {/* Crest and bottom */}
      {crestElevation !== null ? (
        <text
          x={sx(g.face[g.face.length - 1]!.x) + (g.dir === 1 ? -8 : 8)}
          y={sy(g.crestY) + 4}
          textAnchor={g.dir === 1 ? 'end' : 'start'}
          fontSize={12}
          fill="#6d5c43"
        >
          {t('reservoir.crestMark', { value: fmtValue(crestElevation, 2) })}
        </text>
      ) : null}
      {v.bottomElevation !== null ? (
        <text x={W - PAD.r} y={sy(g.bottomY) + 32} textAnchor="end" fontSize={12} fill="#6b7785">
          {t('reservoir.bottomMark', { value: fmtValue(v.bottomElevation, 2) })}
        </text>
      ) : null}
      {/* Legend */}
      <g transform={`translate(${PAD.l}, ${H - 14})`} fontSize={12} fill="#33404d">
        <rect x={0} y={-10} width={16} height={10} fill="url(#gs-water)" />
        <text x={22} y={0}>
          {t('reservoir.legendWater')}
        </text>
        <line x1={130} x2={160} y1={-5} y2={-5} stroke="#1565c0" strokeWidth={2.5} strokeDasharray="8 5" />
        <text x={166} y={0}>
          {t('reservoir.legendPhreatic')}
        </text>
        <rect x={300} y={-10} width={16} height={10} fill="url(#gs-dam-fill)" stroke="#6d5c43" />
        <text x={322} y={0}>
          {t('reservoir.legendDam')}
        </text>
      </g>
    </svg>
  );
}

/** The capacity curve (level up, volume right) with the current point. */
function CapacityCurve({ v }: { v: ReservoirSectionView }) {
  const { t } = useTranslation('monitorViews');
  const rows = [...v.capacity].sort((a, b) => a.waterLevelElevation - b.waterLevelElevation);
  if (rows.length < 2) return <Typography.Text type="secondary">{t('reservoir.noCapacity')}</Typography.Text>;
  const w = 300;
  const h = 150;
  const p = { l: 44, r: 10, t: 10, b: 26 };
  const [v0, v1] = [rows[0]!.waterVolume, rows[rows.length - 1]!.waterVolume];
  const [e0, e1] = [rows[0]!.waterLevelElevation, rows[rows.length - 1]!.waterLevelElevation];
  const x = (vol: number) => p.l + ((vol - v0) / (v1 - v0 || 1)) * (w - p.l - p.r);
  const y = (e: number) => h - p.b - ((e - e0) / (e1 - e0 || 1)) * (h - p.t - p.b);
  const path = rows.map((r) => `${x(r.waterVolume).toFixed(1)},${y(r.waterLevelElevation).toFixed(1)}`).join(' ');
  const level = v.waterLevel.value;
  return (
    <svg
      viewBox={`0 0 ${w} ${h}`}
      width="100%"
      role="img"
      aria-label={t('reservoir.capacityCurve')}
      data-testid="dam-capacity"
    >
      <line x1={p.l} x2={p.l} y1={p.t} y2={h - p.b} stroke="#d0d7de" />
      <line x1={p.l} x2={w - p.r} y1={h - p.b} y2={h - p.b} stroke="#d0d7de" />
      <text x={p.l - 4} y={p.t + 8} textAnchor="end" fontSize={10} fill="#6b7785">
        {fmtValue(e1, 1)}
      </text>
      <text x={p.l - 4} y={h - p.b} textAnchor="end" fontSize={10} fill="#6b7785">
        {fmtValue(e0, 1)}
      </text>
      <text x={p.l} y={h - 8} fontSize={10} fill="#6b7785">
        {fmtValue(v0, 1)}
      </text>
      <text x={w - p.r} y={h - 8} textAnchor="end" fontSize={10} fill="#6b7785">
        {fmtValue(v1, 1)}
      </text>
      <polyline points={path} fill="none" stroke={WATER} strokeWidth={2} />
      {level !== null && v.volume !== null ? (
        <g>
          <line x1={p.l} x2={x(v.volume)} y1={y(level)} y2={y(level)} stroke="#0d47a1" strokeDasharray="3 3" />
          <line x1={x(v.volume)} x2={x(v.volume)} y1={y(level)} y2={h - p.b} stroke="#0d47a1" strokeDasharray="3 3" />
          <circle cx={x(v.volume)} cy={y(level)} r={4.5} fill="#0d47a1" />
        </g>
      ) : null}
    </svg>
  );
}

function Stat({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="gs-stat">
      <Typography.Text type="secondary">{label}</Typography.Text>
      <span className="gs-stat-v" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

/**
 * Monitor > reservoir view / river view (one path, spec §2): a section of a reservoir or river drawn from its
 * upstream-face coordinates, with the current water level, the stored volume (capacity table, interpolated)
 * and the phreatic line through the core-wall piezometers. Test hooks: dam-section, dam-svg, dam-level-value,
 * dam-volume-value.
 */
export default function ReservoirMapPage() {
  const { t } = useTranslation('monitorViews');
  const reservoirRole = usePermission('monitor:reservoirMap');
  const riverRole = usePermission('monitor:riverMap');
  const kinds = useMemo<PlatformType[]>(
    () => [...(reservoirRole ? (['reservoir'] as const) : []), ...(riverRole ? (['river'] as const) : [])],
    [reservoirRole, riverRole],
  );
  const { sites, platformId, setPlatformId, loading } = useViewSite(kinds);
  const [search, setSearch] = useSearchParams();
  const sections = useQuery({
    queryKey: viewKeys.sections(platformId),
    queryFn: () => fetchSections(platformId!),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const fromUrl = Number(search.get('segmentId'));
  const list = sections.data ?? [];
  const segmentId = list.some((s) => s.segmentId === fromUrl) ? fromUrl : list[0]?.segmentId;
  const setSegment = (id: number) =>
    setSearch(
      (p) => {
        const n = new URLSearchParams(p);
        n.set('segmentId', String(id));
        return n;
      },
      { replace: true },
    );
  const view = useQuery({
    queryKey: viewKeys.reservoir(platformId, segmentId),
    queryFn: () => fetchReservoirSection(platformId!, segmentId!),
    enabled: platformId !== undefined && segmentId !== undefined,
    retry: retryUnlessCancelled,
    refetchInterval: 60_000,
  });
  const v = view.data;

  // A reading of the level device or a piezometer refreshes the view (at most every 2 s).
  const watched = useMemo(
    () => new Set([v?.waterLevel.deviceId ?? -1, ...(v?.phreatic.map((p) => p.deviceId) ?? [])]),
    [v],
  );
  const timer = useRef<number | undefined>(undefined);
  const refetch = view.refetch;
  const onEvent = useCallback(
    (e: { deviceId: number }) => {
      if (!watched.has(e.deviceId) || timer.current !== undefined) return;
      timer.current = window.setTimeout(() => {
        timer.current = undefined;
        void refetch();
      }, 2000);
    },
    [watched, refetch],
  );
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const socket = useSiteReadings(platformId === undefined ? null : [platformId], onEvent);

  const crest = v ? Math.max(...v.upstreamCoords.map((p) => p.elevation ?? -Infinity)) : -Infinity;
  const freeboard = v && v.waterLevel.value !== null && Number.isFinite(crest) ? crest - v.waterLevel.value : null;

  return (
    <div className="gs-view-page" data-testid="view-reservoir">
      <ViewToolbar extra={<LiveStatus connected={socket.connected} supported={socket.supported} />}>
        <ViewSitePicker sites={sites} value={platformId} onChange={setPlatformId} loading={loading} />
        <Space size={6}>
          <Typography.Text type="secondary">{t('pick.section')}</Typography.Text>
          <Select<number>
            id="dam-section"
            data-testid="dam-section"
            style={{ width: 200 }}
            placeholder={t('pick.section')}
            value={segmentId}
            onChange={setSegment}
            loading={sections.isLoading}
            options={list.map((s) => ({ value: s.segmentId, label: s.name }))}
            notFoundContent={t('empty.noSections')}
          />
        </Space>
      </ViewToolbar>
      {platformId === undefined ? (
        <NoSite loading={loading} />
      ) : sections.isSuccess && list.length === 0 ? (
        <Card>
          <Empty description={t('empty.noSections')} />
        </Card>
      ) : !v ? (
        <Card loading />
      ) : (
        <Row gutter={[12, 12]} wrap={false}>
          <Col flex="auto" style={{ minWidth: 0 }}>
            <Card
              size="small"
              title={v.name}
              extra={v.info ? <Typography.Text type="secondary">{v.info}</Typography.Text> : null}
            >
              {v.upstreamCoords.length < 3 ? (
                <Alert type="info" showIcon title={t('reservoir.noCoords')} />
              ) : (
                <>
                  <DamDrawing v={v} />
                  {!v.upstreamCoords.some((p) => p.elevation !== undefined) && v.capacity.length === 0 ? (
                    <Alert type="warning" showIcon style={{ marginTop: 8 }} title={t('reservoir.noScale')} />
                  ) : null}
                </>
              )}
            </Card>
          </Col>
          <Col flex="330px">
            <Flex vertical gap={12}>
              <Card size="small" title={t('reservoir.figures')}>
                <Stat
                  label={t('reservoir.level')}
                  testId="dam-level-value"
                  value={v.waterLevel.value === null ? '-' : `${fmtValue(v.waterLevel.value, 2)} m`}
                />
                <Stat
                  label={t('reservoir.volume')}
                  testId="dam-volume-value"
                  value={v.volume === null ? '-' : fmtValue(v.volume, 2)}
                />
                <Stat
                  label={t('reservoir.freeboard')}
                  value={freeboard === null ? '-' : `${fmtValue(freeboard, 2)} m`}
                />
                <Stat
                  label={t('reservoir.bottom')}
                  value={v.bottomElevation === null ? '-' : `${fmtValue(v.bottomElevation, 2)} m`}
                />
                <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0', fontSize: 12 }}>
                  {v.waterLevel.from === 'manual'
                    ? t('reservoir.fromManual')
                    : v.waterLevel.from === 'device'
                      ? t('reservoir.fromDevice', { name: v.waterLevel.deviceName, time: fmtTime(v.waterLevel.ts) })
                      : t('reservoir.fromNone')}
                </Typography.Paragraph>
              </Card>
              <Card
                size="small"
                title={t('reservoir.capacityCurve')}
                extra={
                  v.capacityOf ? (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {t(`reservoir.capacityOf.${v.capacityOf}`)}
                    </Typography.Text>
                  ) : null
                }
              >
                <CapacityCurve v={v} />
              </Card>
              <Card size="small" title={t('reservoir.phreatic')}>
                <Table
                  size="small"
                  rowKey="deviceId"
                  pagination={false}
                  dataSource={v.phreatic}
                  locale={{ emptyText: t('reservoir.noPiezometers') }}
                  columns={[
                    { key: 'n', title: t('col.device'), render: (_, p) => p.deviceName, ellipsis: true },
                    {
                      key: 'l',
                      title: t('reservoir.piezoLevel'),
                      width: 90,
                      render: (_, p) => (p.level === null ? '-' : fmtValue(p.level, 2)),
                    },
                    { key: 's', title: t('col.state'), width: 84, render: (_, p) => <StateTag state={p.state} /> },
                  ]}
                />
              </Card>
            </Flex>
          </Col>
        </Row>
      )}
    </div>
  );
}
