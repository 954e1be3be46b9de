import { useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type CSSProperties, type Ref } from 'react';
import type { ComposeOption, ECharts } from 'echarts/core';
import type {
  BarSeriesOption,
  GaugeSeriesOption,
  LineSeriesOption,
  PieSeriesOption,
  ScatterSeriesOption,
} from 'echarts/charts';
import type {
  DataZoomComponentOption,
  DatasetComponentOption,
  GridComponentOption,
  LegendComponentOption,
  MarkAreaComponentOption,
  MarkLineComponentOption,
  MarkPointComponentOption,
  TitleComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import { formatValue } from '../format.ts';

/**
 * The one chart component of the console. ECharts itself (echarts.ts, about 175 KiB compressed) loads when the
 * first chart mounts: a screen whose charts sit in a drawer or a tab does not download it with the screen.
 */
type Lib = typeof import('./echarts.ts').echarts;
let lib: Lib | null = null;
let pending: Promise<Lib> | null = null;
function loadEcharts(): Promise<Lib> {
  pending ??= import('./echarts.ts').then(
    (m) => (lib = m.echarts),
    (e: unknown) => {
      pending = null; // a failed load (network) is tried again by the next chart
      throw e;
    },
  );
  return pending;
}

export type EChartOption = ComposeOption<
  | LineSeriesOption
  | BarSeriesOption
  | ScatterSeriesOption
  | PieSeriesOption
  | GaugeSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | TitleComponentOption
  | DatasetComponentOption
  | DataZoomComponentOption
  | MarkLineComponentOption
  | MarkAreaComponentOption
  | MarkPointComponentOption
>;

export type EChartInstance = ECharts;

type Loose = Record<string, unknown>;
const tooltipValue = (v: unknown): string =>
  typeof v === 'number' ? formatValue(v) : Array.isArray(v) ? v.map(tooltipValue).join(', ') : String(v ?? '-');
const axisValue = (v: unknown): string => (typeof v === 'number' ? formatValue(v) : String(v));

/** A value axis (yAxis is one unless it says otherwise) without its own label formatter gets formatValue. */
function cleanAxis(axis: unknown, isY: boolean): unknown {
  if (Array.isArray(axis)) return axis.map((a) => cleanAxis(a, isY));
  if (!axis || typeof axis !== 'object') return axis;
  const a = axis as Loose;
  const label = (a.axisLabel ?? {}) as Loose;
  if (!(a.type === 'value' || (isY && a.type === undefined)) || label.formatter) return axis;
  return { ...a, axisLabel: { ...label, formatter: axisValue } };
}

/**
 * Numbers a chart shows carry no float noise (959.9999999999994 is 960): a tooltip without a formatter of its
 * own and value axes without a label formatter show values through `formatValue`. Charts that format their own
 * numbers (a unit, a percentage) keep their formatters.
 */
export function withCleanNumbers(option: EChartOption): EChartOption {
  const o = option as Loose;
  const out: Loose = { ...o };
  const tt = o.tooltip as Loose | undefined;
  if (tt && typeof tt === 'object' && !Array.isArray(tt) && !tt.formatter && !tt.valueFormatter)
    out.tooltip = { ...tt, valueFormatter: tooltipValue };
  if (o.xAxis) out.xAxis = cleanAxis(o.xAxis, false);
  if (o.yAxis) out.yAxis = cleanAxis(o.yAxis, true);
  return out as EChartOption;
}

export interface EChartProps {
  option: EChartOption;
  /** Replace the whole option instead of merging it into the previous one (series removed, axes changed). */
  notMerge?: boolean;
  /** Component types replaced (not merged) on update, e.g. ['series']. */
  replaceMerge?: string[];
  lazyUpdate?: boolean;
  /** 'dark' for dark backgrounds (the chart is re-created when it changes). */
  theme?: 'light' | 'dark';
  /** Height of the chart (the width follows its container). */
  height?: number | string;
  style?: CSSProperties;
  className?: string;
  /** Shows ECharts' loading mask. */
  loading?: boolean;
  /** ECharts events, e.g. { datazoom: (e) => ... }. */
  onEvents?: Record<string, (params: unknown) => void>;
  ref?: Ref<EChartInstance | null>;
  'data-testid'?: string;
  'aria-label'?: string;
}

/**
 * An ECharts chart that follows its container's size (ResizeObserver), is disposed on unmount, and applies
 * `option` on every change (merged unless `notMerge`), its numbers shown without float noise (withCleanNumbers).
 */
export function EChart({
  option,
  notMerge = false,
  replaceMerge,
  lazyUpdate = false,
  theme = 'light',
  height = 320,
  style,
  className,
  loading = false,
  onEvents,
  ref,
  ...rest
}: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartInstance | null>(null);
  // ECharts once loaded (at once when an earlier chart loaded it); the effects below run again when it arrives.
  const [echarts, setEcharts] = useState<Lib | null>(lib);
  useEffect(() => {
    if (echarts) return;
    let live = true;
    void loadEcharts().then((l) => live && setEcharts(() => l));
    return () => {
      live = false;
    };
  }, [echarts]);
  const events = useRef(onEvents);
  events.current = onEvents;

  // Create (and re-create on a theme change), observe the size, dispose.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !echarts) return;
    const instance = echarts.init(el, theme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    let frame = 0;
    const ro =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            cancelAnimationFrame(frame);
            frame = requestAnimationFrame(() => {
              if (!instance.isDisposed()) instance.resize();
            });
          });
    ro?.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      ro?.disconnect();
      instance.dispose();
      if (chart.current === instance) chart.current = null;
    };
  }, [theme, echarts]);

  useImperativeHandle<EChartInstance | null, EChartInstance | null>(ref, () => chart.current);

  // Events: one handler per name, calling the latest callback.
  const eventNames = Object.keys(onEvents ?? {})
    .sort()
    .join(',');
  useEffect(() => {
    const instance = chart.current;
    if (!instance || !eventNames) return;
    const names = eventNames.split(',');
    const handlers = names.map((name) => {
      const h = (p: unknown) => events.current?.[name]?.(p);
      instance.on(name, h);
      return [name, h] as const;
    });
    return () => {
      if (!instance.isDisposed()) for (const [name, h] of handlers) instance.off(name, h);
    };
  }, [eventNames, theme, echarts]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || instance.isDisposed()) return;
    instance.setOption(withCleanNumbers(option), { notMerge, lazyUpdate, ...(replaceMerge ? { replaceMerge } : {}) });
  }, [option, notMerge, lazyUpdate, replaceMerge, theme, echarts]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || instance.isDisposed()) return;
    if (loading) instance.showLoading({ text: '', maskColor: 'rgba(255,255,255,0.5)' });
    else instance.hideLoading();
  }, [loading, theme, echarts]);

  return <div ref={box} className={className} style={{ width: '100%', height, minWidth: 0, ...style }} {...rest} />;
}
