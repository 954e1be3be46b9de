import { describe, expect, it } from 'vitest';
import type { ReportChart } from '@geosentry/contract';
import { cellText, columnTitle } from './cells.ts';
import { dispositionName } from './disposition.ts';
import { reportChartOption } from './reportChart.ts';

describe('report cells', () => {
  it('pads numbers to the column decimals without rounding again', () => {
    const col = { label: 'Disp', kind: 'number' as const, decimals: 2 };
    expect(cellText(1.5, col, 'UTC')).toBe('1.50');
    expect(cellText(1.01, col, 'UTC')).toBe('1.01');
    expect(cellText(-0.1 - 0.2, { ...col, decimals: 1 }, 'UTC')).toBe('-0.3');
    expect(cellText(null, col, 'UTC')).toBe('');
    expect(cellText(12.345, { label: 'x', kind: 'number' }, 'UTC')).toBe('12.345');
  });
  it('shows times in the document zone', () => {
    const col = { label: 'Time', kind: 'time' as const };
    expect(cellText('2026-11-01T16:30:00.000Z', col, 'Asia/Shanghai')).toBe('2026-11-02 00:30:00');
    expect(cellText('2026-11-01T16:30:00.000Z', col, 'UTC')).toBe('2026-11-01 16:30:00');
  });
  it('names the unit in the column title', () => {
    expect(columnTitle({ label: 'Displacement', unit: 'mm' })).toBe('Displacement (mm)');
    expect(columnTitle({ label: 'Site' })).toBe('Site');
  });
});

describe('download names', () => {
  it('prefers the RFC 5987 name and falls back', () => {
    expect(dispositionName(`attachment; filename="r.xlsx"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.xlsx`, 'x')).toBe(
      '报告.xlsx',
    );
    expect(dispositionName('attachment; filename="r.pdf"', 'x')).toBe('r.pdf');
    expect(dispositionName(null, 'x.pdf')).toBe('x.pdf');
  });
});

interface Opt {
  xAxis: { type: string; axisLabel: { formatter: (v: number) => string } };
  yAxis: { type: string; name: string };
  series: { markLine: { data: { yAxis: number }[] } }[];
}

describe('report charts', () => {
  it('maps axes and threshold lines', () => {
    const chart: ReportChart = {
      title: 'c',
      x: { scale: 'time' },
      y: { scale: 'log', label: 'PPV', unit: 'mm/s' },
      series: [{ name: 's', points: [[0, 1]] }],
      lines: [{ label: 'Alarm', value: 5 }],
    };
    const o = reportChartOption(chart, 'UTC') as unknown as Opt;
    expect(o.xAxis.type).toBe('time');
    expect(o.yAxis.type).toBe('log');
    expect(o.yAxis.name).toBe('PPV (mm/s)');
    expect(o.series[0]?.markLine.data[0]?.yAxis).toBe(5);
    expect(o.xAxis.axisLabel.formatter(Date.UTC(2026, 0, 2, 3, 4))).toBe('01-02 03:04');
  });
});
