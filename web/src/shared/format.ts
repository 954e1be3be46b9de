/**
 * Numbers as people read them: no float noise (959.9999999999994 is 960, 0.1 + 0.2 is 0.3). The one formatter
 * of values shown on screens and in chart tooltips and axes.
 */
import { clean } from '@geosentry/contract';

/** Exact powers of ten for the decimals kept. */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12];

/**
 * A value as a number without float noise: trimmed to 12 significant digits (the contract's `clean`), then,
 * when `digits` is given, rounded half away from zero to that many decimals (the quantity's decimals; the
 * rounding works on the trimmed value, so 1.005 to 2 decimals is 1.01, not 1.00). Never -0.
 */
export function cleanValue(v: number, digits?: number): number {
  const c = clean(v);
  if (digits === undefined || !Number.isFinite(c)) return c;
  const d = Math.max(0, Math.min(12, Math.floor(digits)));
  // c·10^d is trimmed again: the product of a 12-digit decimal and a power of ten carries its own noise.
  const r = Math.round(clean(Math.abs(c) * POW10[d]!)) / POW10[d]!;
  return c < 0 ? -r + 0 : r;
}

/**
 * A value as text without float noise (see cleanValue): '-' when missing or not finite; no trailing zeros
 * (12.5, not 12.500), no exponent below 10^21 (0.0000012 stays readable).
 */
export function formatValue(v: number | null | undefined, digits?: number): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '-';
  const c = cleanValue(v, digits);
  const a = Math.abs(c);
  if (a !== 0 && a < 1e-6) {
    // String() writes these with an exponent: fixed notation, then the trailing zeros dropped.
    return c.toFixed(Math.min(100, 12 - Math.floor(Math.log10(a)))).replace(/\.?0+$/, '');
  }
  return String(c);
}

/**
 * The decimals of the shortest decimal form of the values (12.205 → 3), at most `max`: the number of decimals a
 * series is read with, for showing values computed from it (a forecast) with the same precision.
 */
export function decimalsOf(values: readonly number[], max = 6): number {
  let d = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    const c = clean(v);
    while (d < max && cleanValue(c, d) !== c) d++;
    if (d >= max) return max;
  }
  return d;
}
