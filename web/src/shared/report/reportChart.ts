import type { ReportChart } from '@geosentry/contract';
import { formatInZone } from '../time.ts';
import type { EChartOption } from '../charts/EChart.tsx';

/** The axis of a report chart as an ECharts axis: time in the document's zone, value, log or category. */
function axisOf(a: ReportChart['x'], zone: string, isX: boolean): Record<string, unknown> {
  const name = a.label ? (a.unit ? `${a.label} (${a.unit})` : a.label) : a.unit;
  const base: Record<string, unknown> = {
    name,
    nameLocation: isX ? 'middle' : 'end',
    nameGap: isX ? 28 : 12,
    min: a.min,
    max: a.max,
    scale: a.min === undefined && a.max === undefined && !isX,
  };
  switch (a.scale) {
    case 'time':
      return {
        ...base,
        type: 'time',
        axisLabel: { hideOverlap: true, formatter: (v: number) => formatInZone(v, zone, 'MM-DD HH:mm') },
      };
    case 'log':
      return { ...base, type: 'log', logBase: 10, scale: false };
    case 'category':
      return { ...base, type: 'category', data: a.categories ?? [], scale: false };
    default:
      return { ...base, type: 'value' };
  }
}

/**
 * The ECharts option of a report chart: its series ([x, y] points, x in epoch ms on a time axis), threshold
 * lines as dashed horizontal mark lines, times in the tooltip and on the axis in the document's zone.
 */
export function reportChartOption(chart: ReportChart, zone: string): EChartOption {
  const series = chart.series.map((s, i) => {
    const type = s.style === 'bar' ? 'bar' : s.style === 'scatter' ? 'scatter' : 'line';
    return {
      name: s.name,
      type,
      data: s.points,
      showSymbol: type === 'line' ? s.points.length <= 60 : undefined,
      step: s.style === 'step' ? 'end' : undefined,
      connectNulls: false,
      lineStyle: s.dashed ? { type: 'dashed' } : undefined,
      itemStyle: s.colour ? { color: s.colour } : undefined,
      markLine:
        i === 0 && chart.lines && chart.lines.length > 0
          ? {
              symbol: 'none',
              silent: true,
              data: chart.lines.map((l) => ({
                yAxis: l.value,
                name: l.label,
                lineStyle: { type: 'dashed', color: l.colour ?? '#d4380d' },
                label: { formatter: `${l.label}: ${l.value}`, position: 'insideEndTop' },
              })),
            }
          : undefined,
    };
  });
  const timeX = chart.x.scale === 'time';
  return {
    animation: false,
    grid: { left: 64, right: 32, top: 40, bottom: 48, containLabel: true },
    legend: { type: 'scroll', top: 0 },
    tooltip: {
      trigger: 'axis',
      ...(timeX
        ? {
            axisPointer: {
              label: { formatter: (p: { value: number }) => formatInZone(p.value, zone, 'YYYY-MM-DD HH:mm:ss') },
            },
          }
        : {}),
    },
    xAxis: axisOf(chart.x, zone, true),
    yAxis: axisOf(chart.y, zone, false),
    series,
  } as EChartOption;
}
