import { describe, expect, it } from 'vitest';
import { withCleanNumbers, type EChartOption } from './EChart.tsx';

type Fmt = (v: unknown) => string;

describe('chart numbers without float noise', () => {
  it('gives tooltips and value axes formatValue unless they format their own numbers', () => {
    const o = withCleanNumbers({
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'time' },
      yAxis: [{ type: 'value' }, { type: 'value', axisLabel: { formatter: '{value} %' } }],
      series: [{ type: 'line', data: [[0, 959.9999999999994]] }],
    }) as unknown as {
      tooltip: { valueFormatter: Fmt };
      xAxis: { axisLabel?: unknown };
      yAxis: { axisLabel: { formatter: unknown } }[];
    };
    expect(o.tooltip.valueFormatter(959.9999999999994)).toBe('960');
    expect(o.tooltip.valueFormatter(0.1 + 0.2)).toBe('0.3');
    expect(o.xAxis.axisLabel).toBeUndefined();
    expect((o.yAxis[0]!.axisLabel.formatter as Fmt)(0.30000000000000004)).toBe('0.3');
    expect(o.yAxis[1]!.axisLabel.formatter).toBe('{value} %');

    const own: EChartOption = { tooltip: { valueFormatter: () => 'x' }, yAxis: { name: 'mm' } };
    const kept = withCleanNumbers(own) as unknown as {
      tooltip: { valueFormatter: Fmt };
      yAxis: { axisLabel: { formatter: Fmt } };
    };
    expect(kept.tooltip.valueFormatter(1)).toBe('x');
    expect(kept.yAxis.axisLabel.formatter(2.0000000000000004)).toBe('2');
  });
});
