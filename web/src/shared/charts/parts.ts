import type { echarts } from './echarts.ts';

/** What echarts.use takes: a series type's or component's installer. */
export type Installer = Parameters<typeof echarts.use>[0];

/**
 * The parts of ECharts a chart may need, each a chunk of its own (parts/*.ts). To use a series type or component
 * not listed: add a file under parts/, a loader here, a test in partsOf, and its option type to EChartOption.
 */
export const PARTS = {
  line: () => import('./parts/line.ts'),
  bar: () => import('./parts/bar.ts'),
  scatter: () => import('./parts/scatter.ts'),
  pie: () => import('./parts/pie.ts'),
  gauge: () => import('./parts/gauge.ts'),
  grid: () => import('./parts/grid.ts'),
  tooltip: () => import('./parts/tooltip.ts'),
  legend: () => import('./parts/legend.ts'),
  title: () => import('./parts/title.ts'),
  dataset: () => import('./parts/dataset.ts'),
  dataZoom: () => import('./parts/dataZoom.ts'),
  marks: () => import('./parts/marks.ts'),
} satisfies Record<string, () => Promise<{ part: Installer }>>;

export type Part = keyof typeof PARTS;
const SERIES: ReadonlySet<string> = new Set<Part>(['line', 'bar', 'scatter', 'pie', 'gauge']);
const asList = (v: unknown): Record<string, unknown>[] =>
  (Array.isArray(v) ? v : v ? [v] : []).filter((x): x is Record<string, unknown> => !!x && typeof x === 'object');

/** The parts an option needs: its series types, and the components it names. */
export function partsOf(option: Record<string, unknown>): Part[] {
  const parts = new Set<Part>();
  for (const s of asList(option.series)) {
    const type = typeof s.type === 'string' ? s.type : '';
    if (SERIES.has(type)) parts.add(type as Part);
    if (s.markLine || s.markArea || s.markPoint) parts.add('marks');
  }
  if (option.xAxis || option.yAxis || option.grid) parts.add('grid');
  if (option.tooltip) parts.add('tooltip');
  if (option.legend) parts.add('legend');
  if (option.title) parts.add('title');
  if (option.dataset) parts.add('dataset');
  if (option.dataZoom) parts.add('dataZoom');
  return [...parts].sort();
}
