// Period statistics of the reservoir report from hourly rollups or raw values, in the report's calendar. Pure.
//
// Auto water levels, seepage, deformation and rain come from the hourly rollups (a year of minute readings is
// 8,784 rows a quantity, not 527,040); an hour belongs to the local period its start falls in. In a zone whose
// offset is not whole hours (Asia/Kolkata, +05:30) a local day then starts at the hour that begins within it.
// Manual water levels are few: each one counts on its own.
import { bucketBounds, bucketStart, periodLabel, roundDecimal, type CalendarUnit } from '@geosentry/contract';

export interface Chunk {
  t: number;
  n: number;
  total: number;
  min: number;
  max: number;
  firstT: number;
  first: number;
  lastT: number;
  last: number;
}

export const pointChunk = (p: { t: number; v: number }): Chunk => ({
  t: p.t,
  n: 1,
  total: p.v,
  min: p.v,
  max: p.v,
  firstT: p.t,
  first: p.v,
  lastT: p.t,
  last: p.v,
});

export interface PeriodStat {
  period: string;
  label: string;
  avg: number | null;
  max: number | null;
  min: number | null;
  last: number | null;
  sum: number | null;
  count: number;
}

export interface Summary {
  periods: PeriodStat[];
  avg: number | null;
  max: number | null;
  min: number | null;
  first: number | null;
  last: number | null;
  sum: number | null;
  change: number | null;
  /** Unrounded last value of each period (for storage), by period index. */
  lastRaw: (number | null)[];
  firstRaw: number | null;
  lastOverall: number | null;
}

/** Every period of [from, to) with the statistics of the chunks in it, rounded to `decimals`. */
export function summarise(
  chunks: readonly Chunk[],
  from: number,
  to: number,
  unit: CalendarUnit,
  timeZone: string,
  decimals: number,
): Summary {
  const bounds = bucketBounds(from, to, unit, timeZone).filter((b) => b < to);
  if (!bounds.length || bounds[0]! > from) bounds.unshift(from);
  const index = new Map<number, number>(bounds.map((b, i) => [b, i]));
  const acc = bounds.map(() => ({ n: 0, total: 0, min: Infinity, max: -Infinity, lastT: -Infinity, last: NaN }));
  let firstT = Infinity;
  let first: number | null = null;
  let lastT = -Infinity;
  let last: number | null = null;
  let n = 0;
  let total = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const c of chunks) {
    if (c.t < from || c.t >= to || c.n <= 0) continue;
    const b = Math.max(bucketStart(c.t, unit, timeZone), from);
    const i = index.get(b);
    if (i === undefined) continue;
    const a = acc[i]!;
    a.n += c.n;
    a.total += c.total;
    a.min = Math.min(a.min, c.min);
    a.max = Math.max(a.max, c.max);
    if (c.lastT > a.lastT) {
      a.lastT = c.lastT;
      a.last = c.last;
    }
    n += c.n;
    total += c.total;
    min = Math.min(min, c.min);
    max = Math.max(max, c.max);
    if (c.firstT < firstT) {
      firstT = c.firstT;
      first = c.first;
    }
    if (c.lastT > lastT) {
      lastT = c.lastT;
      last = c.last;
    }
  }
  const r = (v: number | null) => (v === null || !Number.isFinite(v) ? null : roundDecimal(v, decimals));
  const kind = unit === 'hour' ? 'hour' : unit;
  return {
    periods: bounds.map((b, i) => {
      const a = acc[i]!;
      const has = a.n > 0;
      return {
        period: new Date(b).toISOString(),
        label: periodLabel(new Date(b).toISOString(), kind, timeZone),
        avg: has ? r(a.total / a.n) : null,
        max: has ? r(a.max) : null,
        min: has ? r(a.min) : null,
        last: has ? r(a.last) : null,
        sum: has ? r(a.total) : null,
        count: a.n,
      };
    }),
    avg: n ? r(total / n) : null,
    max: n ? r(max) : null,
    min: n ? r(min) : null,
    first: r(first),
    last: r(last),
    sum: n ? r(total) : null,
    change:
      first !== null && last !== null
        ? roundDecimal(roundDecimal(last, decimals) - roundDecimal(first, decimals), decimals)
        : null,
    lastRaw: acc.map((a) => (a.n > 0 ? a.last : null)),
    firstRaw: first,
    lastOverall: last,
  };
}
