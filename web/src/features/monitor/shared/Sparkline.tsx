import { useMemo } from 'react';
import { theme } from 'antd';
import { EChart } from '../../../shared/charts/EChart.tsx';
import type { Point } from './point.ts';
import { fmtTime } from './timeRange.ts';

/** A small line of the last readings, with a tooltip. */
export function Sparkline({
  points,
  height = 60,
  unit = '',
  color,
  testId,
}: {
  points: readonly Point[];
  height?: number;
  unit?: string;
  color?: string;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const c = color ?? token.colorPrimary;
  const option = useMemo(
    () => ({
      animation: false,
      grid: { left: 2, right: 2, top: 4, bottom: 2 },
      tooltip: {
        trigger: 'axis' as const,
        confine: true,
        formatter: (ps: unknown) => {
          const p = (ps as { value: [number, number] }[])[0];
          return p ? `${fmtTime(p.value[0])}<br/><b>${p.value[1]}</b> ${unit}` : '';
        },
      },
      xAxis: { type: 'time' as const, show: false },
      yAxis: { type: 'value' as const, show: false, scale: true },
      series: [
        {
          type: 'line' as const,
          data: points as Point[],
          showSymbol: points.length < 2,
          symbolSize: 4,
          lineStyle: { width: 1.5, color: c },
          itemStyle: { color: c },
          areaStyle: { color: c, opacity: 0.12 },
        },
      ],
    }),
    [points, unit, c],
  );
  return <EChart option={option} height={height} data-testid={testId} />;
}
