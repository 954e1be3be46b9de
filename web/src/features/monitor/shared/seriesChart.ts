import type { HistoryPoint } from '@geosentry/contract';
import type { EChartOption } from '../../../shared/charts/EChart.tsx';
import { fmtTime } from './timeRange.ts';
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
}

const PALETTE = ['#1677ff', '#fa8c16', '#52c41a', '#eb2f96', '#722ed1', '#13c2c2'];

/** A time chart with data zoom (inside + slider), optional min/max band, one or two y axes. */
export function timeChartOption(series: readonly ChartSeries[], labels: { min: string; max: string }): EChartOption {
  // Always at least one y axis (an empty chart with no axis breaks the data zoom).
  const axes = [...new Set([0, ...series.map((s) => s.yAxis ?? 0)])].sort();
  const unitOf = (axis: number) => series.find((s) => (s.yAxis ?? 0) === axis)?.unit ?? '';
  const out: NonNullable<EChartOption['series']> = [];
  series.forEach((raw, i) => {
    const s = { ...raw, color: raw.color ?? PALETTE[i % PALETTE.length] };
    const field = s.field ?? 'value';
    const data = s.points
      .map((p) => [Date.parse(p.ts), p[field]] as [number, number | null])
      .filter((p): p is [number, number] => p[1] !== null && p[1] !== undefined);
    if (s.band && s.points.some((p) => p.min !== undefined && p.max !== undefined)) {
      const stack = `band-${i}`;
      out.push({
        name: `${s.name} ${labels.min}`,
        type: 'line',
        yAxisIndex: s.yAxis ?? 0,
        data: s.points.map((p) => [Date.parse(p.ts), p.min ?? p.value]),
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
        data: s.points.map((p) => [Date.parse(p.ts), (p.max ?? p.value) - (p.min ?? p.value)]),
        stack,
        symbol: 'none',
        lineStyle: { opacity: 0 },
        areaStyle: { color: s.color ?? '#1677ff', opacity: 0.15 },
        tooltip: { show: false },
        silent: true,
      });
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
    grid: { left: 56, right: axes.length > 1 ? 64 : 24, top: 40, bottom: 72 },
    legend: { top: 4, data: shown, type: 'scroll' },
    tooltip: {
      trigger: 'axis',
      confine: true,
      valueFormatter: (v: unknown) => fmtValue(typeof v === 'number' ? v : null),
      axisPointer: {
        type: 'cross',
        label: {
          formatter: (p: { axisDimension?: string; value: unknown }) =>
            p.axisDimension === 'x' ? fmtTime(p.value as number) : fmtValue(Number(p.value)),
        },
      },
    },
    xAxis: { type: 'time' },
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
        labelFormatter: (v: number) => fmtTime(v).slice(0, 16),
      },
    ],
    series: out,
  };
}
