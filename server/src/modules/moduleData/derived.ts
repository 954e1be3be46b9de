/** Derived series (spec §9) and smoothing. Pure. */
import { clean, round2, type SmoothMethod } from '@geosentry/contract';

export interface Derived {
  rate: number | null;
  acceleration: number | null;
  variation: number;
}

/** Float-noise removal (12 significant digits) lives in the contract, shared with the web and the forecast. */
export { clean };

/**
 * Per point, for values sorted by time: rate = value minus the previous value to 2 decimals (null on the
 * first); acceleration = rate minus the previous rate to 2 decimals (null while either is missing);
 * variation = value minus the first value. Both differences are taken on the decimal values and rounded half
 * away from zero (`round2(a, b)`, the alert engine's too), so a rise and the equal fall round alike.
 */
export function derive(values: readonly number[]): Derived[] {
  const out: Derived[] = [];
  let prevRate: number | null = null;
  for (let i = 0; i < values.length; i++) {
    const rate = i === 0 ? null : round2(values[i]!, values[i - 1]!);
    const acceleration = rate !== null && prevRate !== null ? round2(rate, prevRate) : null;
    out.push({ rate, acceleration, variation: clean(values[i]! - values[0]!) });
    prevRate = rate;
  }
  return out;
}

/**
 * `derive(values)[i]` without deriving the whole series (a chart shows a few thousand of a year's 8,760
 * hourly points): reads only the values at 0, i - 2, i - 1 and i.
 */
export function derivedAt(value: (k: number) => number, i: number): Derived {
  // No inner closure: tsx (keepNames) wraps every closure it creates, and this runs per chart point.
  const rate = i < 1 ? null : round2(value(i), value(i - 1));
  const prev = i < 2 ? null : round2(value(i - 1), value(i - 2));
  return {
    rate,
    acceleration: rate !== null && prev !== null ? round2(rate, prev) : null,
    variation: clean(value(i) - value(0)),
  };
}

/**
 * Smooths a series with a centred window of `window` points (odd); near the ends the window shrinks to
 * the points that exist (it is cut, not mirrored). movingAverage = mean of
 * the window, median = its median (mean of the two middle values for an even count).
 */
export function smooth(values: readonly number[], method: SmoothMethod, window: number): number[] {
  const half = Math.floor(window / 2);
  const n = values.length;
  const out: number[] = new Array<number>(n);
  if (method === 'movingAverage') {
    const prefix = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + values[i]!;
    for (let i = 0; i < n; i++) {
      const lo = Math.max(0, i - half);
      const hi = Math.min(n - 1, i + half);
      out[i] = clean((prefix[hi + 1]! - prefix[lo]!) / (hi - lo + 1));
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    const w = values.slice(Math.max(0, i - half), Math.min(n, i + half + 1)).sort((a, b) => a - b);
    const m = w.length >> 1;
    out[i] = clean(w.length % 2 ? w[m]! : (w[m - 1]! + w[m]!) / 2);
  }
  return out;
}
