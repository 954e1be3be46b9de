// The server's chart drawer: a ReportChart laid out once as plain shapes (lines, paths, rectangles, dots, texts)
// in a width × height box, then written as SVG (chartSvg) or drawn as PDF vectors (pdf.ts). Time axes tick in
// the document's zone; log axes (vibration PPV against frequency) tick at powers of ten; threshold lines carry
// their label; one palette everywhere.
import type { ReportChart, ReportSeries } from '@geosentry/contract';
import { formatTime, wallClock } from './format.ts';

/** The report palette (also the web's ReportView): colour-blind safe, in this order. */
export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

export type Shape =
  | { t: 'line'; x1: number; y1: number; x2: number; y2: number; colour: string; width: number; dash?: boolean }
  | { t: 'path'; points: [number, number][]; colour: string; width: number; dash?: boolean }
  | { t: 'rect'; x: number; y: number; w: number; h: number; fill: string }
  | { t: 'dot'; x: number; y: number; r: number; fill: string }
  | {
      t: 'text';
      x: number;
      y: number;
      text: string;
      size: number;
      colour: string;
      anchor: 'start' | 'middle' | 'end';
      bold?: boolean;
    };

interface Scale {
  map(v: number): number;
  ticks: { v: number; label: string }[];
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const n = raw / mag;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
}

function fmtNumber(v: number, step: number): string {
  const d = Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9)));
  return v.toFixed(d);
}

function linear(min: number, max: number, a: number, b: number, count: number): Scale {
  if (!(max > min)) {
    const pad = Math.abs(min) > 0 ? Math.abs(min) * 0.1 : 1;
    min -= pad;
    max += pad;
  }
  const step = niceStep(max - min, count);
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  const ticks: { v: number; label: string }[] = [];
  for (let v = lo; v <= hi + step / 2; v += step)
    ticks.push({ v, label: fmtNumber(Math.abs(v) < step / 1e6 ? 0 : v, step) });
  return { map: (v) => a + ((v - lo) / (hi - lo)) * (b - a), ticks };
}

function logScale(min: number, max: number, a: number, b: number): Scale {
  const lo = Math.floor(Math.log10(Math.max(min, 1e-9)));
  let hi = Math.ceil(Math.log10(Math.max(max, 1e-9)));
  if (hi <= lo) hi = lo + 1;
  const ticks: { v: number; label: string }[] = [];
  for (let e = lo; e <= hi; e++) ticks.push({ v: 10 ** e, label: e >= 0 ? String(10 ** e) : (10 ** e).toFixed(-e) });
  return {
    map: (v) => a + ((Math.log10(Math.max(v, 1e-12)) - lo) / (hi - lo)) * (b - a),
    ticks,
  };
}

const HOUR = 3_600_000;
const DAY = 86_400_000;

function timeScale(min: number, max: number, a: number, b: number, timeZone: string, count: number): Scale {
  if (!(max > min)) {
    min -= HOUR;
    max += HOUR;
  }
  const span = max - min;
  const steps = [HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 91 * DAY, 365 * DAY];
  const step = steps.find((s) => span / s <= count) ?? 365 * DAY;
  const ticks: { v: number; label: string }[] = [];
  // Ticks at local midnights (day steps) or local whole hours, found by walking hours in the zone.
  let t = Math.ceil(min / HOUR) * HOUR;
  const seen = new Set<string>();
  while (t <= max && ticks.length < 400) {
    const w = wallClock(t, timeZone);
    let take: boolean;
    if (step < DAY) take = w.mi === 0 && w.h % (step / HOUR) === 0;
    else if (step < 30 * DAY)
      take = w.h === 0 && w.mi === 0 && (step === DAY || Math.floor(t / DAY) % (step / DAY) === 0);
    else if (step < 365 * DAY) take = w.h === 0 && w.d === 1 && (step === 30 * DAY || (w.mo - 1) % 3 === 0);
    else take = w.h === 0 && w.d === 1 && w.mo === 1;
    const text = formatTime(t, timeZone);
    const label = step < DAY ? text.slice(5, 16) : step < 365 * DAY ? text.slice(0, 10) : text.slice(0, 4);
    if (take && !seen.has(label)) {
      seen.add(label);
      ticks.push({ v: t, label });
    }
    t += step >= DAY ? HOUR : HOUR;
    if (step >= DAY && ticks.length === 0 && t - min > 2 * step) break;
  }
  const keep = Math.ceil(ticks.length / count);
  return {
    map: (v) => a + ((v - min) / (max - min)) * (b - a),
    ticks: ticks.filter((_, i) => i % keep === 0),
  };
}

function extent(values: number[], fixedMin?: number, fixedMax?: number): [number, number] {
  let lo = fixedMin ?? Infinity;
  let hi = fixedMax ?? -Infinity;
  if (fixedMin === undefined || fixedMax === undefined) {
    for (const v of values) {
      if (!Number.isFinite(v)) continue;
      if (fixedMin === undefined && v < lo) lo = v;
      if (fixedMax === undefined && v > hi) hi = v;
    }
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  return [lo, hi];
}

const axisTitle = (label?: string, unit?: string): string =>
  label ? (unit ? `${label} (${unit})` : label) : (unit ?? '');

/** The chart as shapes in a width × height box (points; y downwards). */
export function layoutChart(chart: ReportChart, timeZone: string, width: number, height: number): Shape[] {
  const shapes: Shape[] = [];
  const font = 8;
  const legendRows = Math.ceil((chart.series.length + (chart.lines?.length ?? 0)) / 4);
  const left = 52;
  const right = width - 12;
  const top = 22;
  const bottom = height - 30 - legendRows * 12;
  shapes.push({
    t: 'text',
    x: width / 2,
    y: 12,
    text: chart.title,
    size: 10,
    colour: '#111111',
    anchor: 'middle',
    bold: true,
  });

  const xs: number[] = [];
  const ys: number[] = [];
  for (const s of chart.series)
    for (const [x, y] of s.points) {
      xs.push(x);
      if (y !== null) ys.push(y);
    }
  for (const l of chart.lines ?? []) ys.push(l.value);
  const [x0, x1] = extent(xs, chart.x.min, chart.x.max);
  const [y0, y1] = extent(ys, chart.y.min, chart.y.max);
  const hasBars = chart.series.some((s) => s.style === 'bar');
  const xScale: Scale =
    chart.x.scale === 'time'
      ? timeScale(x0, x1, left, right, timeZone, 6)
      : chart.x.scale === 'log'
        ? logScale(x0, x1, left, right)
        : chart.x.scale === 'category'
          ? {
              map: (v) => left + ((v + 0.5) / Math.max(1, chart.x.categories?.length ?? x1 + 1)) * (right - left),
              ticks: (chart.x.categories ?? []).map((c, i) => ({ v: i, label: c })),
            }
          : linear(x0, x1, left, right, 6);
  const yScale =
    chart.y.scale === 'log'
      ? logScale(y0, y1, bottom, top)
      : linear(hasBars ? Math.min(0, y0) : y0, hasBars ? Math.max(0, y1) : y1, bottom, top, 5);

  // Grid and ticks.
  for (const tk of yScale.ticks) {
    const y = yScale.map(tk.v);
    if (y < top - 0.5 || y > bottom + 0.5) continue;
    shapes.push({ t: 'line', x1: left, y1: y, x2: right, y2: y, colour: '#e0e0e0', width: 0.5 });
    shapes.push({ t: 'text', x: left - 4, y: y + 3, text: tk.label, size: font, colour: '#444444', anchor: 'end' });
  }
  const maxXTicks = Math.max(2, Math.floor((right - left) / 60));
  const xTicks = xScale.ticks.filter((_, i, all) => i % Math.ceil(all.length / maxXTicks) === 0);
  for (const tk of xTicks) {
    const x = xScale.map(tk.v);
    if (x < left - 0.5 || x > right + 0.5) continue;
    shapes.push({ t: 'line', x1: x, y1: top, x2: x, y2: bottom, colour: '#eeeeee', width: 0.5 });
    shapes.push({ t: 'text', x, y: bottom + 11, text: tk.label, size: font, colour: '#444444', anchor: 'middle' });
  }
  shapes.push({ t: 'line', x1: left, y1: bottom, x2: right, y2: bottom, colour: '#555555', width: 0.8 });
  shapes.push({ t: 'line', x1: left, y1: top, x2: left, y2: bottom, colour: '#555555', width: 0.8 });
  const yTitle = axisTitle(chart.y.label, chart.y.unit);
  if (yTitle)
    shapes.push({ t: 'text', x: left, y: top - 4, text: yTitle, size: font, colour: '#444444', anchor: 'start' });
  const xTitle = axisTitle(chart.x.label, chart.x.unit) || (chart.x.scale === 'time' ? timeZone : '');
  if (xTitle)
    shapes.push({ t: 'text', x: right, y: bottom + 22, text: xTitle, size: font, colour: '#444444', anchor: 'end' });

  const clampY = (y: number): number => Math.max(top, Math.min(bottom, y));
  const bars = chart.series.filter((s) => s.style === 'bar');
  chart.series.forEach((s: ReportSeries, i) => {
    const colour = s.colour ?? PALETTE[i % PALETTE.length]!;
    const style = s.style ?? 'line';
    if (style === 'bar') {
      const bi = bars.indexOf(s);
      const slot = (right - left) / Math.max(1, s.points.length) / Math.max(1, bars.length);
      const w = Math.max(1, slot * 0.8);
      const zero = clampY(yScale.map(0));
      for (const [x, y] of s.points) {
        if (y === null) continue;
        const px = xScale.map(x) - (bars.length * slot) / 2 + bi * slot;
        const py = clampY(yScale.map(y));
        shapes.push({ t: 'rect', x: px, y: Math.min(py, zero), w, h: Math.abs(zero - py), fill: colour });
      }
      return;
    }
    if (style === 'scatter') {
      for (const [x, y] of s.points)
        if (y !== null) shapes.push({ t: 'dot', x: xScale.map(x), y: clampY(yScale.map(y)), r: 1.8, fill: colour });
      return;
    }
    let run: [number, number][] = [];
    const flush = (): void => {
      if (run.length > 1) shapes.push({ t: 'path', points: run, colour, width: 1.1, dash: s.dashed });
      else if (run.length === 1) shapes.push({ t: 'dot', x: run[0]![0], y: run[0]![1], r: 1.5, fill: colour });
      run = [];
    };
    for (const [x, y] of s.points) {
      if (y === null) {
        flush();
        continue;
      }
      const px = xScale.map(x);
      const py = clampY(yScale.map(y));
      if (style === 'step' && run.length > 0) run.push([px, run[run.length - 1]![1]]);
      run.push([px, py]);
    }
    flush();
  });

  (chart.lines ?? []).forEach((l, i) => {
    const y = yScale.map(l.value);
    if (y < top || y > bottom) return;
    const colour = l.colour ?? PALETTE[(chart.series.length + i) % PALETTE.length]!;
    shapes.push({ t: 'line', x1: left, y1: y, x2: right, y2: y, colour, width: 0.9, dash: true });
    shapes.push({ t: 'text', x: right - 2, y: y - 2, text: l.label, size: font - 1, colour, anchor: 'end' });
  });

  // Legend under the axis title.
  const entries = [
    ...chart.series.map((s, i) => ({ name: s.name, colour: s.colour ?? PALETTE[i % PALETTE.length]! })),
    ...(chart.lines ?? []).map((l, i) => ({
      name: l.label,
      colour: l.colour ?? PALETTE[(chart.series.length + i) % PALETTE.length]!,
    })),
  ];
  const colW = (right - left) / 4;
  entries.forEach((e, i) => {
    const x = left + (i % 4) * colW;
    const y = bottom + 30 + Math.floor(i / 4) * 12;
    shapes.push({ t: 'rect', x, y: y - 6, w: 10, h: 4, fill: e.colour });
    shapes.push({ t: 'text', x: x + 14, y: y - 1, text: e.name, size: font, colour: '#222222', anchor: 'start' });
  });
  return shapes;
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number): string => (Math.round(v * 10) / 10).toString();

/** The chart as an SVG document (font family "Noto Sans CJK SC" then sans-serif). */
export function chartSvg(chart: ReportChart, timeZone: string, width = 640, height = 300): string {
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Noto Sans CJK SC, sans-serif">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
  ];
  for (const s of layoutChart(chart, timeZone, width, height)) {
    if (s.t === 'line')
      out.push(
        `<line x1="${n(s.x1)}" y1="${n(s.y1)}" x2="${n(s.x2)}" y2="${n(s.y2)}" stroke="${s.colour}" stroke-width="${s.width}"${s.dash ? ' stroke-dasharray="4 3"' : ''}/>`,
      );
    else if (s.t === 'path')
      out.push(
        `<polyline fill="none" points="${s.points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" stroke="${s.colour}" stroke-width="${s.width}"${s.dash ? ' stroke-dasharray="4 3"' : ''}/>`,
      );
    else if (s.t === 'rect')
      out.push(`<rect x="${n(s.x)}" y="${n(s.y)}" width="${n(s.w)}" height="${n(s.h)}" fill="${s.fill}"/>`);
    else if (s.t === 'dot') out.push(`<circle cx="${n(s.x)}" cy="${n(s.y)}" r="${s.r}" fill="${s.fill}"/>`);
    else
      out.push(
        `<text x="${n(s.x)}" y="${n(s.y)}" font-size="${s.size}" fill="${s.colour}" text-anchor="${s.anchor}"${s.bold ? ' font-weight="bold"' : ''}>${esc(s.text)}</text>`,
      );
  }
  out.push('</svg>');
  return out.join('');
}
