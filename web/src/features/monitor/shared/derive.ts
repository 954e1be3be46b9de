/** A time series point: epoch ms and value. */
export type Point = [number, number];

/** Derived series of spec §9: rate, acceleration, variation. */
export const DERIVED = ['value', 'rate', 'acceleration', 'variation'] as const;
export type Derived = (typeof DERIVED)[number];

const round2 = (v: number): number => Math.round(v * 100) / 100;

/**
 * Spec §9: data is sorted by time; rate is the difference between consecutive readings (2 decimals);
 * acceleration is the difference of consecutive rates; variation is measured from the first reading.
 */
export function derive(points: readonly Point[], kind: Derived): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  if (kind === 'value') return sorted;
  if (kind === 'variation') {
    const first = sorted[0]?.[1] ?? 0;
    return sorted.map(([t, v]) => [t, round2(v - first)]);
  }
  const rate: Point[] = [];
  for (let i = 1; i < sorted.length; i++) rate.push([sorted[i]![0], round2(sorted[i]![1] - sorted[i - 1]![1])]);
  if (kind === 'rate') return rate;
  const acc: Point[] = [];
  for (let i = 1; i < rate.length; i++) acc.push([rate[i]![0], round2(rate[i]![1] - rate[i - 1]![1])]);
  return acc;
}

/** Moving average / median preview (the server's smoothing is authoritative; this only previews). */
export function smoothPreview(points: readonly Point[], method: 'mean' | 'median', window: number): Point[] {
  const w = Math.max(1, Math.floor(window));
  const half = Math.floor(w / 2);
  return points.map(([t], i) => {
    const slice = points.slice(Math.max(0, i - half), Math.min(points.length, i + half + 1)).map((p) => p[1]);
    if (method === 'median') {
      const s = [...slice].sort((a, b) => a - b);
      const m = Math.floor(s.length / 2);
      return [t, s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2];
    }
    return [t, slice.reduce((a, b) => a + b, 0) / slice.length];
  });
}
