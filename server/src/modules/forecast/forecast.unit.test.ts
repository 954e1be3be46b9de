import { describe, expect, it } from 'vitest';
import {
  fitStats,
  gm11,
  gmPredict,
  gmShift,
  gradeOf,
  holt,
  holtRun,
  inverseVelocity,
  linearFit,
} from './forecast.math.ts';

const DAY = 86_400_000;

// Textbook series (Liu Sifeng, Grey Systems). Reference values computed independently with numpy:
// np.linalg.lstsq on B = [-z1, 1], Y = x0[1:]; restored values from the time response.
const TEXTBOOK = [71.1, 72.4, 72.4, 72.1, 71.4, 72.0, 71.6];
const REF_A = 0.0023437864785233265;
const REF_B = 72.65726960367874;
const REF_FITTED = [71.1, 72.40574144, 72.23623656, 72.0671285, 71.89841633, 71.73009912, 71.56217595];
const REF_NEXT = [71.39464589, 71.22750803, 71.06076145];

/** An independent least-squares solve: normal equations (B'B) p = B'Y by Gaussian elimination with pivoting. */
function lstsq(rows: number[][], y: number[]): number[] {
  const m = rows[0]!.length;
  const A = Array.from({ length: m }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => rows.reduce((s, r, k) => s + r[i]! * (j < m ? r[j]! : y[k]!), 0)),
  );
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let r = c + 1; r < m; r++) if (Math.abs(A[r]![c]!) > Math.abs(A[p]![c]!)) p = r;
    [A[c], A[p]] = [A[p]!, A[c]!];
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = A[r]![c]! / A[c]![c]!;
      for (let j = c; j <= m; j++) A[r]![j]! -= f * A[c]![j]!;
    }
  }
  return A.map((row, i) => row[m]! / row[i]!);
}

describe('GM(1,1)', () => {
  it('matches the textbook series (a ~ 0.00234, b ~ 72.657)', () => {
    const g = gm11(TEXTBOOK, 3);
    expect(g.a).toBeCloseTo(REF_A, 9);
    expect(g.b).toBeCloseTo(REF_B, 6);
    g.fitted.forEach((v, i) => expect(v).toBeCloseTo(REF_FITTED[i]!, 6));
    g.predicted.forEach((v, i) => expect(v).toBeCloseTo(REF_NEXT[i]!, 6));
    expect(g.classRatioPassed).toBe(true);
  });

  it('agrees with an independent least-squares solve on another series', () => {
    const x0 = [2.874, 3.278, 3.337, 3.39, 3.679];
    const x1 = x0.map((_, i) => x0.slice(0, i + 1).reduce((s, v) => s + v, 0));
    const rows = x0.slice(1).map((_, k) => [-(x1[k]! + x1[k + 1]!) / 2, 1]);
    const [a, b] = lstsq(rows, x0.slice(1));
    const g = gm11(x0, 2);
    expect(g.a).toBeCloseTo(a!, 10);
    expect(g.b).toBeCloseTo(b!, 10);
    // The restored value at k: difference of the time response.
    const resp = (k: number) => (x0[0]! - b! / a!) * Math.exp(-a! * k) + b! / a!;
    expect(g.predicted[0]).toBeCloseTo(resp(5) - resp(4), 10);
    expect(g.predicted[1]).toBeCloseTo(resp(6) - resp(5), 10);
  });

  it('reproduces an exact exponential and has a negative a for growth', () => {
    const x0 = Array.from({ length: 8 }, (_, k) => 5 * Math.exp(0.1 * k));
    const g = gm11(x0, 2);
    expect(g.a).toBeLessThan(0);
    // GM(1,1) is not exact on an exponential (trapezoid background), but close: within 0.5 %.
    expect(g.predicted[0]! / (5 * Math.exp(0.8))).toBeCloseTo(1, 2);
  });

  it('handles a constant series with a = 0 (the linear limit)', () => {
    const g = gm11([3, 3, 3, 3, 3], 2);
    expect(Math.abs(g.a)).toBeLessThan(1e-12);
    expect(g.fitted.every((v) => Math.abs(v - 3) < 1e-9)).toBe(true);
    expect(g.predicted.every((v) => Math.abs(v - 3) < 1e-9)).toBe(true);
  });

  it('flags a series that fails the class-ratio check', () => {
    const g = gm11([1, 10, 2, 20, 3], 1);
    expect(g.classRatioPassed).toBe(false);
    expect(g.classRatioRange[0]).toBeCloseTo(Math.exp(-2 / 6), 12);
  });

  it('shifts non-positive samples and shifts the results back', () => {
    expect(gmShift([1, 2, 3])).toBe(0);
    expect(gmShift([-2, 0, 4])).toBe(8); // range 6, min -2 -> min becomes 6
    const x = [-2, -1, 0, 1, 2, 3];
    const r = gmPredict(x, 2);
    expect(r.shift).toBe(7);
    const direct = gm11(
      x.map((v) => v + 7),
      2,
    );
    expect(r.predicted[0]).toBeCloseTo(direct.predicted[0]! - 7, 12);
    // A rising line keeps rising.
    expect(r.predicted[0]).toBeGreaterThan(3);
  });
});

describe('fit statistics and grade', () => {
  /** Population standard deviation, written out independently of the module. */
  const pstd = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
  };

  it('computes C and P of GM(1,1) by the textbook convention: all n residuals, the first being 0', () => {
    // The worked example: C = 0.2125, P = 1.0, grade good.
    const x0 = [2.874, 3.278, 3.337, 3.39, 3.679];
    const s = fitStats(x0, gm11(x0, 0).fitted, 'allResiduals');
    expect(s.convention).toBe('allResiduals');
    expect(s.residualCount).toBe(5);
    expect(Math.round(s.c * 1e4) / 1e4).toBe(0.2125);
    expect(s.p).toBe(1);
    expect(s.grade).toBe('good');
    // Over values 2..n only (the earlier convention) C is 0.2375: not the textbook's figure.
    expect(fitStats(x0, gm11(x0, 0).fitted, 'oneStepAhead').c).toBeCloseTo(0.2375, 4);
  });

  it('computes C and P of the textbook fit under both conventions', () => {
    const g = gm11(TEXTBOOK, 0);
    const s = fitStats(TEXTBOOK, g.fitted);
    const all = TEXTBOOK.map((v, i) => v - REF_FITTED[i]!);
    expect(all[0]).toBe(0);
    expect(s.c).toBeCloseTo(pstd(all) / pstd(TEXTBOOK), 6); // 0.48074
    expect(s.p).toBeCloseTo(6 / 7, 12);
    expect(s.grade).toBe('qualified');
    // Holt's convention, the one-step-ahead errors of values 2..n: numpy S2/S1 = 0.51925826, P = 5/6.
    const h = fitStats(TEXTBOOK, g.fitted, 'oneStepAhead');
    expect(h.c).toBeCloseTo(0.5192582617, 6);
    expect(h.p).toBeCloseTo(5 / 6, 12);
    expect(h.grade).toBe('barely');
    const e = TEXTBOOK.slice(1).map((v, i) => v - g.fitted[i + 1]!);
    expect(s.rmse).toBeCloseTo(Math.sqrt(e.reduce((a, b) => a + b * b, 0) / e.length), 12);
    expect(s.mape).toBeCloseTo((e.reduce((a, b, i) => a + Math.abs(b / TEXTBOOK[i + 1]!), 0) / e.length) * 100, 10);
  });

  it('grades by the thresholds', () => {
    expect(gradeOf(0.2, 0.99)).toBe('good');
    expect(gradeOf(0.35, 0.99)).toBe('qualified');
    expect(gradeOf(0.4, 0.9)).toBe('qualified');
    expect(gradeOf(0.6, 0.75)).toBe('barely');
    expect(gradeOf(0.6, 0.7)).toBe('unqualified');
    expect(gradeOf(0.7, 1)).toBe('unqualified');
  });

  it('leaves zeros out of MAPE and is perfect on a perfect fit', () => {
    const s = fitStats([0, 0, 0], [0, 0, 0]);
    expect(s.mape).toBeNull();
    expect(s.c).toBe(0);
    expect(s.p).toBe(1);
    expect(s.grade).toBe('good');
  });
});

describe('Holt', () => {
  const X = [10, 12, 13, 15, 18, 20, 21, 24];

  it('runs the recursion (reference values computed by hand / python)', () => {
    const r = holtRun(X, 0.5, 0.3);
    const ref = [10, 12, 14.0, 15.35, 16.9725, 19.437875, 21.75488125, 23.3001521875];
    r.fitted.forEach((v, i) => expect(v).toBeCloseTo(ref[i]!, 10));
    expect(r.sse).toBeCloseTo(3.5538734278876047, 10);
    expect(r.level).toBeCloseTo(23.65007609375, 10);
    expect(r.trend).toBeCloseTo(2.027688734375, 10);
  });

  it('picks the grid minimum of the SSE (python grid search: alpha 0.14, beta 0.11)', () => {
    const h = holt(X, 3);
    expect(h.alpha).toBe(0.14);
    expect(h.beta).toBe(0.11);
    expect(h.sse).toBeCloseTo(2.5855074775040623, 10);
    expect(h.predicted[2]).toBeCloseTo(h.level + 3 * h.trend, 12);
  });

  it('continues a straight line exactly', () => {
    const h = holt([1, 3, 5, 7, 9], 3);
    expect(h.sse).toBeCloseTo(0, 12);
    h.predicted.forEach((v, i) => expect(v).toBeCloseTo(11 + 2 * i, 10));
  });
});

describe('inverse velocity', () => {
  /** Fukuzono alpha = 2: v = 1 / (A (tf - t)) => displacement = -(1/A) ln(tf - t) + C (days, mm). */
  function fukuzono(days: number, tf: number, A = 0.5): { times: number[]; disp: number[] } {
    const t0 = Date.UTC(2026, 0, 1);
    const times: number[] = [];
    const disp: number[] = [];
    for (let d = 0; d <= days; d += 0.5) {
      times.push(t0 + d * DAY);
      disp.push(-(1 / A) * Math.log(tf - d) + (1 / A) * Math.log(tf));
    }
    return { times, disp };
  }

  it('finds the failure time of an ideal accelerating series', () => {
    const { times, disp } = fukuzono(30, 40);
    const r = inverseVelocity(times, disp, 1);
    expect(r.applicable).toBe(true);
    expect(r.fit!.r2).toBeGreaterThan(0.999);
    const tf = Date.UTC(2026, 0, 1) + 40 * DAY;
    expect(Math.abs(r.failureTime! - tf)).toBeLessThan(0.1 * DAY);
    expect(r.failureTimeEarliest!).toBeLessThanOrEqual(r.failureTime!);
    expect(r.failureTimeLatest!).toBeGreaterThanOrEqual(r.failureTime!);
    expect(r.line.at(-1)!.t).toBe(r.failureTime);
    expect(Math.abs(r.line.at(-1)!.inv)).toBeLessThan(1e-9);
  });

  it('widens the band with noise and still lands near the truth', () => {
    const { times, disp } = fukuzono(30, 40);
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.02;
    const noisy = disp.map((v) => v + rnd());
    const r = inverseVelocity(times, noisy, 4);
    expect(r.applicable).toBe(true);
    const tf = Date.UTC(2026, 0, 1) + 40 * DAY;
    expect(Math.abs(r.failureTime! - tf)).toBeLessThan(3 * DAY);
    expect(r.failureTimeLatest! - r.failureTimeEarliest!).toBeGreaterThan(0);
  });

  it('is not applicable to a decelerating series', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const times = Array.from({ length: 20 }, (_, i) => t0 + i * DAY);
    const disp = times.map((_, i) => 10 * Math.sqrt(i + 1));
    const r = inverseVelocity(times, disp, 1);
    expect(r.applicable).toBe(false);
    expect(r.reason).toBe('notAccelerating');
    expect(r.fit!.slope).toBeGreaterThan(0);
    expect(r.failureTime).toBeNull();
  });

  it('is not applicable when nothing moves', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const times = Array.from({ length: 10 }, (_, i) => t0 + i * DAY);
    const r = inverseVelocity(
      times,
      times.map((_, i) => 5 - i),
      1,
    );
    expect(r.reason).toBe('notMoving');
  });

  it('linearFit matches a known line', () => {
    const f = linearFit([0, 1, 2, 3], [1, 3, 5, 7]);
    expect(f.slope).toBeCloseTo(2, 12);
    expect(f.intercept).toBeCloseTo(1, 12);
    expect(f.r2).toBeCloseTo(1, 12);
  });
});
