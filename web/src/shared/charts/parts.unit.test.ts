import { describe, expect, it } from 'vitest';
import { partsOf } from './parts.ts';

describe('partsOf: the ECharts parts an option needs', () => {
  it('takes series types, marks and the components the option names', () => {
    expect(
      partsOf({
        tooltip: { trigger: 'axis' },
        xAxis: { type: 'time' },
        yAxis: {},
        dataZoom: [{ type: 'inside' }],
        series: [{ type: 'line', markLine: { data: [] } }, { type: 'bar' }],
      }),
    ).toEqual(['bar', 'dataZoom', 'grid', 'line', 'marks', 'tooltip']);
  });
  it('a pie with a legend needs no grid, and an unknown series type adds nothing', () => {
    expect(partsOf({ legend: { bottom: 0 }, series: { type: 'pie' } })).toEqual(['legend', 'pie']);
    expect(partsOf({ series: [{ type: 'sankey' }], title: { text: 'x' }, dataset: { source: [] } })).toEqual([
      'dataset',
      'title',
    ]);
  });
});
