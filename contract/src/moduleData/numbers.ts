/**
 * Numbers as people read them, shared by the server (history, data processing, alert engine, reports,
 * forecast) and the web: the 2-decimal rate of spec §9 computed on decimal values, and removal of float
 * noise. Pure, no I/O.
 */

/** Exact powers of ten, 10^0 to 10^22 (every one is a double without rounding). */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];
/** Largest scaled mantissa handled by the arithmetic path (two of them subtract without rounding). */
const MAX_MANTISSA = 2 ** 51;
/** Most decimals the arithmetic path looks for. */
const MAX_DECIMALS = 15;

/** Relative distance below which a scaled value is taken as a candidate integer (confirmed exactly after). */
const NEAR = 2 ** -50;

/**
 * The decimals of the shortest decimal form of a finite v (12.205 → 3, 0.3 → 1, 7 → 0): the fewest d for which
 * the decimal round(v·10^d)/10^d is read back as v. -1 when that needs more than 15 decimals or a mantissa of
 * 2^51 or more (the exact path decides those).
 */
function decimalsOf(v: number): number {
  for (let d = 0; d <= MAX_DECIMALS; d++) {
    const s = v * POW10[d]!;
    if (!(s < MAX_MANTISSA && s > -MAX_MANTISSA)) return -1;
    const n = Math.round(s);
    const off = s - n;
    // The decimal n/10^d is within an ulp of v only when s is this close to n (a division per digit was most of
    // the cost); it is v's own decimal when the division, correctly rounded (n < 2^51, 10^d exact), gives v.
    if ((off < 0 ? -off : off) <= (s < 0 ? -s : s) * NEAR && n / POW10[d]! === v) return d;
  }
  return -1;
}

/** Bound of the binary error of (a − b)·100 per unit of 100·(|a| + |b|): 1.5·2^-52 at most, with a margin of 4. */
const ERR = 2 ** -50;

/**
 * (a − b) to 2 decimals, rounded half away from zero, computed on the decimal values of a and b (their shortest
 * decimal forms, the numbers people wrote and read), never on the binary difference: 12.54 − 12.205 = 0.335 →
 * 0.34 and 11.87 − 12.205 = −0.335 → −0.34, where `Math.round((a - b) * 100) / 100` gave 0.33 and −0.34 (the
 * binary differences are 0.3349999999999991 and −0.33500000000000085) and rounded +0.125 up but −0.125 towards
 * zero. With one argument, v itself to 2 decimals. Spec §9's rate (difference of consecutive readings) and
 * acceleration (difference of rates) everywhere: history, data processing, the alert engine and reports. Never
 * answers -0.
 *
 * Hot path (ingest → alert evaluation), no allocation: the binary (a − b)·100 differs from the decimal one by
 * less than ERR·100·(|a| + |b|), so when it lies farther than that from a half the two round alike and it is
 * rounded directly. Only next to a half (readings with 3+ decimals whose difference ends in 5) are the decimal
 * mantissas found (`decimalsOf`) and subtracted as exact integers; values beyond that path (17-digit noise,
 * huge numbers) go through BigInt (`round2Exact`).
 */
export function round2(a: number, b: number = 0): number {
  const x = (a - b) * 100;
  const ax = Math.abs(x);
  // Distance from the nearest half (exact: ax - floor(ax) loses nothing); written without branches on the
  // side of the half, which a series that rises and falls would mispredict.
  if (Math.abs(ax - Math.floor(ax) - 0.5) > (Math.abs(a) + Math.abs(b)) * (100 * ERR) && ax < MAX_MANTISSA) {
    // ax + 0.5 may round, but not across an integer: ax is farther from a half than that rounding.
    const n = Math.floor(ax + 0.5);
    return (x < 0 ? -n : n) / 100 + 0; // + 0: never -0
  }
  if (!Number.isFinite(x)) return a - b;
  return round2Decimal(a, b);
}

/** `round2` next to a half: the decimal mantissas of a and b subtracted as exact integers. */
function round2Decimal(a: number, b: number): number {
  const da = decimalsOf(a);
  const db = b === 0 ? 0 : decimalsOf(b);
  if (da < 0 || db < 0) return round2Exact(a, b);
  const d = da > db ? da : db;
  // Exact integers: the mantissas at d decimals (each below 2^51 before scaling; checked after).
  const A = Math.round(a * POW10[da]!) * POW10[d - da]!;
  const B = Math.round(b * POW10[db]!) * POW10[d - db]!;
  if (!(A < MAX_MANTISSA && A > -MAX_MANTISSA && B < MAX_MANTISSA && B > -MAX_MANTISSA)) return round2Exact(a, b);
  const D = A - B; // exact: |D| < 2^52
  let r: number;
  if (d <= 2) r = D / POW10[d]!;
  else {
    const q = POW10[d - 2]!;
    const ad = D < 0 ? -D : D;
    // Integer division without % (a library call for doubles): the rounded quotient's floor is off by at most
    // one, and the remainder (below 2^53) is exact, so it corrects that.
    let n = Math.floor(ad / q);
    let rem = ad - n * q;
    if (rem < 0) {
      n--;
      rem += q;
    } else if (rem >= q) {
      n++;
      rem -= q;
    }
    if (rem * 2 >= q) n++;
    r = (D < 0 ? -n : n) / 100;
  }
  return r === 0 ? 0 : r;
}

/** A finite double's shortest decimal form as m · 10^e (m a BigInt). */
function decimalOf(v: number): { m: bigint; e: number } {
  const s = String(v);
  const ei = s.indexOf('e');
  const mant = ei < 0 ? s : s.slice(0, ei);
  let e = ei < 0 ? 0 : Number(s.slice(ei + 1));
  const dot = mant.indexOf('.');
  if (dot >= 0) e -= mant.length - dot - 1;
  return { m: BigInt(dot < 0 ? mant : mant.slice(0, dot) + mant.slice(dot + 1)), e };
}

/** `round2` by BigInt on the shortest decimal forms: the reference, and the path for values the fast one leaves. */
export function round2Exact(a: number, b: number = 0): number {
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a - b;
  const x = decimalOf(a);
  const y = decimalOf(b);
  const e = Math.min(x.e, y.e, -2);
  const D = x.m * 10n ** BigInt(x.e - e) - y.m * 10n ** BigInt(y.e - e);
  const neg = D < 0n;
  const ad = neg ? -D : D;
  const q = 10n ** BigInt(-2 - e);
  let n = ad / q;
  if ((ad % q) * 2n >= q) n++;
  const r = Number(`${neg ? '-' : ''}${n}e-2`);
  return r === 0 ? 0 : r;
}

/**
 * Removes floating-point noise (e.g. 0.30000000000000004, 959.9999999999994) and -0: the value rounded to 12
 * significant digits, as `Number(v.toPrecision(12))` gives it (half away from zero), by arithmetic: a history
 * answer cleans thousands of values, and the string round trip was a tenth of its time. Every value built by
 * arithmetic and shown to people (statistics, derived series, forecasts) goes through it.
 */
export function clean(v: number): number {
  if (v === 0 || !Number.isFinite(v)) return v === 0 ? 0 : v;
  const a = Math.abs(v);
  let e = Math.floor(Math.log10(a));
  // log10 can land one off next to a power of ten; the exact powers settle it.
  if (e >= -22 && e < 22) {
    if (a < (e >= 0 ? POW10[e]! : 1 / POW10[-e]!)) e--;
    else if (a >= (e + 1 >= 0 ? POW10[e + 1]! : 1 / POW10[-(e + 1)]!)) e++;
  }
  const k = 11 - e; // decimals kept
  const x = k >= 0 && k <= 22 ? a * POW10[k]! : k < 0 && k >= -22 ? a / POW10[-k]! : NaN;
  // Next to a tie the scaled product's own rounding may decide wrongly: the string path decides those.
  if (Number.isNaN(x) || Math.abs(x - Math.floor(x) - 0.5) < 1e-3) return Number(v.toPrecision(12)) || 0;
  const r = k >= 0 ? Math.round(x) / POW10[k]! : Math.round(x) * POW10[-k]!;
  return r === 0 ? 0 : v < 0 ? -r : r;
}
