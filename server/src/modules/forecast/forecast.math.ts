// Pure numerics of the forecast feature: GM(1,1), Holt's double exponential smoothing, fit statistics and the
// inverse-velocity (Fukuzono) failure-time estimate. No I/O; the service adds validation and translation.
import type {
  AccuracyGrade,
  FitConvention,
  FitStats,
  GmDetails,
  HoltDetails,
  InverseLinePoint,
  InverseVelocityReason,
  VelocityPoint,
} from '@geosentry/contract';

const DAY_MS = 86_400_000;

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return xs.length ? s / xs.length : 0;
}

/** Population standard deviation (the grey-system posterior-error test uses it). */
function std(xs: readonly number[]): number {
  const m = mean(xs);
  let s = 0;
  for (const x of xs) s += (x - m) ** 2;
  return xs.length ? Math.sqrt(s / xs.length) : 0;
}

/** Accuracy grade from the posterior variance ratio C and the small-error probability P. */
export function gradeOf(c: number, p: number): AccuracyGrade {
  if (p > 0.95 && c < 0.35) return 'good';
  if (p > 0.8 && c < 0.5) return 'qualified';
  if (p > 0.7 && c < 0.65) return 'barely';
  return 'unqualified';
}

/**
 * Fit statistics of a sample and its fitted values. C and P (the grey-system posterior-error test) by the model's
 * convention (`FitConvention`):
 * - `allResiduals` (GM(1,1), as textbooks compute it): the residuals e(k) = x0(k) − x̂0(k) of all n values, the
 *   first being 0 (x̂0(1) = x0(1) by construction);
 * - `oneStepAhead` (Holt): the n − 1 one-step-ahead errors of values 2..n (the first value is the starting level,
 *   never forecast).
 * C = S2 / S1 (population standard deviations: S1 of the sample, S2 of those residuals), P = share of them with
 * |e − mean(e)| < 0.6745·S1. RMSE and MAPE are over values 2..n for both models (the first value is not an
 * estimate: counting its 0 would flatter the fit).
 */
export function fitStats(
  sample: readonly number[],
  fitted: readonly number[],
  convention: FitConvention = 'allResiduals',
): FitStats {
  const e: number[] = [];
  let sq = 0;
  let pctSum = 0;
  let pctN = 0;
  if (convention === 'allResiduals' && sample.length) e.push(sample[0]! - fitted[0]!);
  for (let k = 1; k < sample.length; k++) {
    const r = sample[k]! - fitted[k]!;
    e.push(r);
    sq += r * r;
    if (sample[k] !== 0) {
      pctSum += Math.abs(r / sample[k]!);
      pctN++;
    }
  }
  const s1 = std(sample);
  const s2 = std(e);
  const em = mean(e);
  // A constant sample: a perfect fit is perfect; any error makes the fit useless (C = 1, no better than the mean).
  const c = s1 > 0 ? s2 / s1 : s2 > 0 ? 1 : 0;
  const p = e.length ? e.filter((r) => Math.abs(r - em) < 0.6745 * s1 || (s1 === 0 && r === em)).length / e.length : 1;
  const errors = sample.length > 1 ? sample.length - 1 : 0;
  return {
    convention,
    residualCount: e.length,
    rmse: errors ? Math.sqrt(sq / errors) : 0,
    mape: pctN ? (pctSum / pctN) * 100 : null,
    c,
    p,
    grade: gradeOf(c, p),
  };
}

export interface Gm11Fit {
  a: number;
  b: number;
  /** Fitted values of the (shifted) sample, fitted[0] = x0[0]. */
  fitted: number[];
  /** The next `steps` values. */
  predicted: number[];
  classRatios: number[];
  classRatioRange: [number, number];
  classRatioPassed: boolean;
}

/**
 * GM(1,1) on a positive series x0 (n >= 4): accumulate (AGO) x1, background values z1(k) = (x1(k) + x1(k-1)) / 2,
 * least squares for x0(k) = -a z1(k) + b (k = 2..n), time response x1^(k+1) = (x0(1) - b/a) e^(-ak) + b/a and
 * the restored values x0^(k+1) = x1^(k+1) - x1^(k). With a = 0 the response is the limit x1^(k+1) = x0(1) + b k.
 */
export function gm11(x0: readonly number[], steps: number): Gm11Fit {
  const n = x0.length;
  const x1: number[] = [];
  let acc = 0;
  for (const v of x0) x1.push((acc += v));
  // Normal equations of [-z 1][a b]' = y.
  let szz = 0;
  let sz = 0;
  let sy = 0;
  let szy = 0;
  const m = n - 1;
  for (let k = 1; k < n; k++) {
    const z = (x1[k]! + x1[k - 1]!) / 2;
    const y = x0[k]!;
    szz += z * z;
    sz += z;
    sy += y;
    szy += z * y;
  }
  const det = m * szz - sz * sz;
  // det = 0 only when every background value is equal, impossible for a positive series; guard anyway.
  const a = det !== 0 ? (sz * sy - m * szy) / det : 0;
  const b = det !== 0 ? (szz * sy - sz * szy) / det : mean(x0.slice(1));
  const response = (k: number): number =>
    Math.abs(a) < 1e-12 ? x0[0]! + b * k : (x0[0]! - b / a) * Math.exp(-a * k) + b / a;
  const restored = (k: number): number => (k === 0 ? x0[0]! : response(k) - response(k - 1));
  const fitted: number[] = [];
  for (let k = 0; k < n; k++) fitted.push(restored(k));
  const predicted: number[] = [];
  for (let h = 0; h < steps; h++) predicted.push(restored(n + h));
  const classRatios: number[] = [];
  for (let k = 1; k < n; k++) classRatios.push(x0[k - 1]! / x0[k]!);
  const classRatioRange: [number, number] = [Math.exp(-2 / (n + 1)), Math.exp(2 / (n + 1))];
  const classRatioPassed = classRatios.every((r) => r > classRatioRange[0] && r < classRatioRange[1]);
  return { a, b, fitted, predicted, classRatios, classRatioRange, classRatioPassed };
}

/** The constant that makes a sample positive for GM(1,1): 0 when all values are > 0, else max(1, range) - min. */
export function gmShift(xs: readonly number[]): number {
  const min = Math.min(...xs);
  if (min > 0) return 0;
  const range = Math.max(...xs) - min;
  return Math.max(1, range) - min;
}

/** Holt's recursion with given constants; answers the one-step fitted values, SSE, final level and trend. */
export function holtRun(
  x: readonly number[],
  alpha: number,
  beta: number,
): { fitted: number[]; sse: number; level: number; trend: number } {
  let level = x[0]!;
  let trend = x.length > 1 ? x[1]! - x[0]! : 0;
  const fitted = [x[0]!];
  let sse = 0;
  for (let t = 1; t < x.length; t++) {
    const f = level + trend;
    fitted.push(f);
    sse += (x[t]! - f) ** 2;
    const prev = level;
    level = alpha * x[t]! + (1 - alpha) * f;
    trend = beta * (level - prev) + (1 - beta) * trend;
  }
  return { fitted, sse, level, trend };
}

/**
 * Holt's linear smoothing with alpha, beta in {0.01 .. 0.99} chosen by the least sum of squared one-step errors
 * (ties: the smaller alpha, then the smaller beta). Initial level x0, initial trend x1 - x0.
 */
export function holt(x: readonly number[], steps: number): HoltDetails & { fitted: number[]; predicted: number[] } {
  let best = { alpha: 0.5, beta: 0.5, sse: Infinity };
  for (let i = 1; i <= 99; i++) {
    for (let j = 1; j <= 99; j++) {
      const sse = holtRun(x, i / 100, j / 100).sse;
      if (!(best.sse <= sse + 1e-12 * Math.max(1, sse))) best = { alpha: i / 100, beta: j / 100, sse };
    }
  }
  const r = holtRun(x, best.alpha, best.beta);
  const predicted: number[] = [];
  for (let h = 1; h <= steps; h++) predicted.push(r.level + h * r.trend);
  return {
    alpha: best.alpha,
    beta: best.beta,
    level: r.level,
    trend: r.trend,
    sse: r.sse,
    fitted: r.fitted,
    predicted,
  };
}

export type GmResult = { fit: Gm11Fit; shift: number; details: GmDetails };

/** GM(1,1) on any finite sample: shifted to positive values when needed, results shifted back. */
export function gmPredict(
  sample: readonly number[],
  steps: number,
): GmResult & { fitted: number[]; predicted: number[] } {
  const shift = gmShift(sample);
  const fit = gm11(
    sample.map((v) => v + shift),
    steps,
  );
  const { a, b, classRatios, classRatioRange, classRatioPassed } = fit;
  return {
    fit,
    shift,
    details: { a, b, classRatios, classRatioRange, classRatioPassed },
    fitted: fit.fitted.map((v) => v - shift),
    predicted: fit.predicted.map((v) => v - shift),
  };
}

/** Least-squares line y = intercept + slope * x with R^2 and the residual standard error (n - 2 degrees of freedom). */
export function linearFit(
  xs: readonly number[],
  ys: readonly number[],
): { slope: number; intercept: number; r2: number; residualStdError: number } {
  const n = xs.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    syy += (ys[i]! - my) ** 2;
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  const intercept = my - slope * mx;
  let sse = 0;
  for (let i = 0; i < n; i++) sse += (ys[i]! - intercept - slope * xs[i]!) ** 2;
  const r2 = syy > 0 ? 1 - sse / syy : 0;
  const residualStdError = n > 2 ? Math.sqrt(sse / (n - 2)) : 0;
  return { slope, intercept, r2, residualStdError };
}

export interface InverseVelocityResult {
  applicable: boolean;
  reason: InverseVelocityReason | null;
  velocities: VelocityPoint[];
  fit: { t0: number; slope: number; intercept: number; r2: number; residualStdError: number; n: number } | null;
  failureTime: number | null;
  failureTimeEarliest: number | null;
  failureTimeLatest: number | null;
  line: InverseLinePoint[];
}

/** Least R^2 of the inverse-velocity line for the estimate to apply. */
export const MIN_INVERSE_R2 = 0.5;

/**
 * Fukuzono's inverse-velocity method. times: epoch ms, strictly increasing; disp: cumulative displacement (mm).
 * Velocity over `window` intervals (mm/day) at the middle of the window; 1/v of the positive velocities fitted
 * against time in days since the first velocity; failure where the line reaches 0.
 */
export function inverseVelocity(
  times: readonly number[],
  disp: readonly number[],
  window: number,
): InverseVelocityResult {
  const velocities: VelocityPoint[] = [];
  for (let i = window; i < times.length; i++) {
    const dt = (times[i]! - times[i - window]!) / DAY_MS;
    const v = (disp[i]! - disp[i - window]!) / dt;
    const t = (times[i]! + times[i - window]!) / 2;
    velocities.push({ t, v, inv: v > 0 ? 1 / v : null });
  }
  const none = (reason: InverseVelocityReason, fit: InverseVelocityResult['fit'] = null): InverseVelocityResult => ({
    applicable: false,
    reason,
    velocities,
    fit,
    failureTime: null,
    failureTimeEarliest: null,
    failureTimeLatest: null,
    line: [],
  });
  const pos = velocities.filter((p) => p.inv !== null);
  // The line needs at least 3 points, and the latest velocity must be a movement (else nothing is accelerating now).
  if (pos.length < 3 || velocities[velocities.length - 1]!.inv === null) return none('notMoving');
  const t0 = pos[0]!.t;
  const xs = pos.map((p) => (p.t - t0) / DAY_MS);
  const ys = pos.map((p) => p.inv!);
  const lf = linearFit(xs, ys);
  const fit = { t0, ...lf, n: pos.length };
  if (!(lf.slope < 0)) return none('notAccelerating', fit);
  if (lf.r2 < MIN_INVERSE_R2) return none('poorFit', fit);
  const s2 = 2 * lf.residualStdError;
  const dayOf = (level: number): number => (level - lf.intercept) / lf.slope;
  const failureDay = dayOf(0);
  // Slope < 0: the line shifted down by 2s reaches 0 earlier (line = +2s), shifted up later (line = -2s).
  const earliestDay = dayOf(s2);
  const latestDay = dayOf(-s2);
  const toMs = (d: number): number => Math.round(t0 + d * DAY_MS);
  const line: InverseLinePoint[] = [];
  const steps = 50;
  const endDay = Math.max(failureDay, xs[xs.length - 1]!);
  for (let i = 0; i <= steps; i++) {
    const d = (endDay * i) / steps;
    const inv = lf.intercept + lf.slope * d;
    line.push({ t: toMs(d), inv, low: inv - s2, high: inv + s2 });
  }
  return {
    applicable: true,
    reason: null,
    velocities,
    fit,
    failureTime: toMs(failureDay),
    failureTimeEarliest: toMs(earliestDay),
    failureTimeLatest: toMs(latestDay),
    line,
  };
}
