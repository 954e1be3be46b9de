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
import { PARTS, partsOf, type Part } from './parts.ts';

/**
 * The one chart component of the console. ECharts' core (echarts.ts) loads when the first chart mounts, and each
 * series type or component (parts.ts) when the first option that uses it is shown: a screen whose charts sit in a
 * drawer or a tab does not download ECharts with the screen, and a screen of bars does not download data zoom.
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
const installed = new Set<Part>();
const installing = new Map<Part, Promise<void>>();
/** Loads the core and the given parts, and installs the parts (once each). */
function loadParts(parts: readonly Part[]): Promise<Lib> {
  return Promise.all([
    loadEcharts(),
    ...parts.map((name) => {
      let p = installing.get(name);
      if (!p) {
        p = Promise.all([loadEcharts(), PARTS[name]()]).then(
          ([echarts, m]) => {
            echarts.use(m.part);
            installed.add(name);
          },
          (e: unknown) => {
            installing.delete(name);
            throw e;
          },
        );
        installing.set(name, p);
      }
      return p;
    }),
  ]).then(([echarts]) => echarts);
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
  // The parts the option needs; the chart is made, and the option applied, once they are installed (a change that
  // needs a new part waits for it, then `loads` counts one more and the effects run again). ECharts takes a part's
  // data processors into an instance when it is made, so an instance made before a part it now needs was installed
  // is made again (`generation`): a data zoom installed later would otherwise find no axis proxies.
  const parts = partsOf(option as Record<string, unknown>);
  const made = useRef<ReadonlySet<Part>>(new Set());
  const [generation, setGeneration] = useState(0);
  const partsKey = parts.join(',');
  const missing = parts.some((p) => !installed.has(p));
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    if (echarts && !missing) return;
    let live = true;
    void loadParts(partsKey ? (partsKey.split(',') as Part[]) : []).then((l) => {
      if (!live) return;
      setEcharts(() => l);
      setLoads((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [echarts, missing, partsKey]);
  const events = useRef(onEvents);
  events.current = onEvents;

  // Create (and re-create on a theme change or a new part), observe the size, dispose.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !echarts || missing) return;
    const instance = echarts.init(el, theme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
    chart.current = instance;
    made.current = new Set(installed);
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
  }, [theme, echarts, missing, generation]);

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
  }, [eventNames, theme, echarts, missing, generation]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || instance.isDisposed() || missing) return;
    if (parts.some((p) => !made.current.has(p))) {
      setGeneration((g) => g + 1); // made before a part it now needs: made again, then this runs again
      return;
    }
    instance.setOption(withCleanNumbers(option), { notMerge, lazyUpdate, ...(replaceMerge ? { replaceMerge } : {}) });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- parts follow option
  }, [option, notMerge, lazyUpdate, replaceMerge, theme, echarts, missing, loads, generation]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || instance.isDisposed()) return;
    if (loading) instance.showLoading({ text: '', maskColor: 'rgba(255,255,255,0.5)' });
    else instance.hideLoading();
  }, [loading, theme, echarts, missing, generation]);

  return <div ref={box} className={className} style={{ width: '100%', height, minWidth: 0, ...style }} {...rest} />;
}
