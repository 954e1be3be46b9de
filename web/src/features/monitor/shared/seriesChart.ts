import type { HistoryPoint } from '@geosentry/contract';
import type { EChartOption } from '../../../shared/charts/EChart.tsx';
import { formatInZone, isBrowserZone, offsetMinutes, userTimeZone, zoneLabel } from '../../../shared/time.ts';
import { fmtValue } from './format.ts';

export interface ChartSeries {
  name: string;
  unit: string;
  points: readonly HistoryPoint[];
  /** Which y axis (0 left, 1 right). */
  yAxis?: number;
  /** Which field to draw (default value). */
  field?: 'value' | 'rate' | 'acceleration' | 'variation';
  /** Draw the min/max band of aggregated points. */
  band?: boolean;
  color?: string;
  dashed?: boolean;
  /** Draw as bars (bucket totals such as rainfall per hour or day). */
  bar?: boolean;
}

const PALETTE = ['#1677ff', '#fa8c16', '#52c41a', '#eb2f96', '#722ed1', '#13c2c2'];

/**
 * Instants moved by the zone's offset, for a chart drawn in UTC (ECharts draws time axes in the browser's zone
 * or in UTC only): its ticks then fall on the zone's midnights and hours. Offsets are kept per quarter hour.
 */
export function zoneShift(zone: string): (ms: number) => number {
  const cache = new Map<number, number>();
  return (ms) => {
    const q = Math.floor(ms / 900_000);
    let off = cache.get(q);
    if (off === undefined) {
      off = offsetMinutes(ms, zone) * 60_000;
      cache.set(q, off);
    }
    return ms + off;
  };
}

/**
 * A time chart with data zoom (inside + slider), optional min/max band, one or two y axes. Drawn in the zone
 * (the user's by default): the time axis is named after the zone when it is not the browser's.
 */
export function timeChartOption(
  series: readonly ChartSeries[],
  labels: { min: string; max: string },
  zone: string = userTimeZone(),
): EChartOption {
  const at = zoneShift(zone);
  // Shifted instants read as UTC are the zone's wall clock.
  const wall = (v: number, pattern?: string) => formatInZone(v, 'UTC', pattern);
  const zoneName = isBrowserZone(zone) ? null : zoneLabel(zone);
  // Always at least one y axis (an empty chart with no axis breaks the data zoom).
  const axes = [...new Set([0, ...series.map((s) => s.yAxis ?? 0)])].sort();
  const unitOf = (axis: number) => series.find((s) => (s.yAxis ?? 0) === axis)?.unit ?? '';
  const out: NonNullable<EChartOption['series']> = [];
  series.forEach((raw, i) => {
    const s = { ...raw, color: raw.color ?? PALETTE[i % PALETTE.length] };
    const field = s.field ?? 'value';
    const data = s.points
      .map((p) => [at(Date.parse(p.ts)), p[field]] as [number, number | null])
      .filter((p): p is [number, number] => p[1] !== null && p[1] !== undefined);
    if (s.band && s.points.some((p) => p.min !== undefined && p.max !== undefined)) {
      const stack = `band-${i}`;
      out.push({
        name: `${s.name} ${labels.min}`,
        type: 'line',
        yAxisIndex: s.yAxis ?? 0,
        data: s.points.map((p) => [at(Date.parse(p.ts)), p.min ?? p.value]),
        stack,
        symbol: 'none',
        lineStyle: { opacity: 0 },
        tooltip: { show: false },
        silent: true,
      });
      out.push({
        name: `${s.name} ${labels.max}`,
        type: 'line',
        yAxisIndex: s.yAxis ?? 0,
        data: s.points.map((p) => [at(Date.parse(p.ts)), (p.max ?? p.value) - (p.min ?? p.value)]),
        stack,
        symbol: 'none',
        lineStyle: { opacity: 0 },
        areaStyle: { color: s.color ?? '#1677ff', opacity: 0.15 },
        tooltip: { show: false },
        silent: true,
      });
    }
    if (s.bar) {
      out.push({
        name: s.name,
        type: 'bar',
        yAxisIndex: s.yAxis ?? 0,
        data,
        barMaxWidth: 24,
        itemStyle: { color: s.color },
      });
      return;
    }
    out.push({
      name: s.name,
      type: 'line',
      yAxisIndex: s.yAxis ?? 0,
      data,
      showSymbol: data.length < 60,
      symbolSize: 5,
      sampling: 'lttb',
      connectNulls: false,
      lineStyle: { width: 1.6, ...(s.dashed ? { type: 'dashed' as const } : {}) },
      ...(s.color
        ? {
            itemStyle: { color: s.color },
            lineStyle: { width: 1.6, color: s.color, ...(s.dashed ? { type: 'dashed' as const } : {}) },
          }
        : {}),
    });
  });
  const shown = series.map((s) => s.name);
  return {
    animation: false,
    useUTC: true,
    grid: { left: 56, right: axes.length > 1 ? 64 : 24, top: 40, bottom: zoneName ? 84 : 72 },
    legend: { top: 4, data: shown, type: 'scroll' },
    tooltip: {
      trigger: 'axis',
      confine: true,
      valueFormatter: (v: unknown) => fmtValue(typeof v === 'number' ? v : null),
      axisPointer: {
        type: 'cross',
        label: {
          formatter: (p: { axisDimension?: string; value: unknown }) =>
            p.axisDimension === 'x' ? wall(p.value as number) : fmtValue(Number(p.value)),
        },
      },
    },
    xAxis: {
      type: 'time',
      ...(zoneName
        ? { name: zoneName, nameLocation: 'middle' as const, nameGap: 28, nameTextStyle: { color: '#8c8c8c' } }
        : {}),
    },
    yAxis: axes.map((a, i) => ({
      type: 'value' as const,
      scale: true,
      name: unitOf(a),
      position: i === 0 ? ('left' as const) : ('right' as const),
      splitLine: { show: i === 0 },
    })),
    dataZoom: [
      { type: 'inside', filterMode: 'none' },
      {
        type: 'slider',
        height: 22,
        bottom: 12,
        filterMode: 'none',
        labelFormatter: (v: number) => wall(v, 'YYYY-MM-DD HH:mm'),
      },
    ],
    series: out,
  };
}
