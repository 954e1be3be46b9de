import { describe, expect, it } from 'vitest';
import {
  allowableAt,
  analyseEvent,
  curvePoints,
  dominantFrequency,
  limitCurve,
  roundDecimal,
  splitEvents,
  verdictOf,
  type VibrationSample,
} from './index.ts';

const RATE = 1000;
/** A sine wave of `amp` mm/s at `f` Hz, `seconds` long, sampled at RATE Hz. */
function wave(f: number, amp: number, seconds: number, phase = 0): number[] {
  return Array.from(
    { length: Math.round(seconds * RATE) },
    (_, i) => amp * Math.sin(2 * Math.PI * f * (i / RATE) + phase),
  );
}
const t0 = Date.UTC(2026, 10, 1, 8);
const samplesOf = (axes: Record<string, number[]>): VibrationSample[] => {
  const n = Object.values(axes)[0]!.length;
  return Array.from({ length: n }, (_, i) => ({
    t: t0 + i, // 1 ms apart: RATE
    v: Object.fromEntries(Object.entries(axes).map(([k, v]) => [k, v[i]!])),
  }));
};

describe('vibration analysis', () => {
  it('a 10 Hz, 5 mm/s wave: PPV 5, vector sum 5, dominant frequency 10 Hz (FFT)', () => {
    const s = samplesOf({ velocity: wave(10, 5, 1) });
    const r = analyseEvent(s, ['velocity']);
    expect(roundDecimal(r.axes[0]!.ppv, 2)).toBe(5);
    expect(roundDecimal(r.vectorSum, 2)).toBe(5);
    expect(r.axes[0]!.frequencyMethod).toBe('fft');
    expect(Math.abs(r.axes[0]!.frequency! - 10)).toBeLessThan(0.1);
    expect(Math.abs(dominantFrequency(wave(10, 5, 0.5), RATE)! - 10)).toBeLessThan(0.2);
  });

  it('three axes: PPV per axis, vector sum the peak of the resultant (not the sum of peaks), frequency per axis', () => {
    // x: 5 mm/s at 10 Hz; y: 3 mm/s at 25 Hz; z: 4 mm/s at 10 Hz a quarter period after x (z peaks when x is 0).
    const x = wave(10, 5, 1);
    const y = wave(25, 3, 1);
    const z = wave(10, 4, 1, Math.PI / 2);
    const r = analyseEvent(samplesOf({ velocityX: x, velocityY: y, velocityZ: z }), [
      'velocityX',
      'velocityY',
      'velocityZ',
    ]);
    expect(r.axes.map((a) => roundDecimal(a.ppv, 2))).toEqual([5, 3, 4]);
    expect(r.axes.map((a) => Math.round(a.frequency!))).toEqual([10, 25, 10]);
    // Hand: the resultant is at most sqrt(5² + 4² + 3²) = 7.07 (x and z never peak together), far under 5+3+4 = 12;
    // the largest sample of sqrt(x²+y²+z²) computed directly:
    let direct = 0;
    for (let i = 0; i < x.length; i++) direct = Math.max(direct, Math.hypot(x[i]!, y[i]!, z[i]!));
    expect(r.vectorSum).toBeCloseTo(direct, 9);
    expect(r.vectorSum).toBeGreaterThan(5);
    expect(r.vectorSum).toBeLessThan(Math.sqrt(50) + 1e-9);
    expect(r.governing.axis).toBe('velocityX');
  });

  it('a summary logger (one reading per event): the frequency the device reported with its peak', () => {
    const s: VibrationSample[] = [
      { t: t0, v: { velocity: 1.2 }, frequency: 18 },
      { t: t0 + 60_000, v: { velocity: 3.4 }, frequency: 22.5 },
    ];
    const r = analyseEvent(s, ['velocity']);
    expect(r.axes[0]).toMatchObject({ ppv: 3.4, frequency: 22.5, frequencyMethod: 'device' });
  });

  it('splits readings into events by the trigger level and the gap', () => {
    const v = [0.1, 0.2, 2, 3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 4, 0.1];
    const s = v.map((x, i) => ({ t: t0 + i * 1000, v: { velocity: x } }));
    const ev = splitEvents(s, ['velocity'], 0.5, 2000);
    expect(ev).toHaveLength(2);
    expect(ev.map((e) => analyseEvent(e, ['velocity']).axes[0]!.ppv)).toEqual([3, 4]);
    expect(ev[0]![0]!.t).toBe(t0); // 2 s before the first trigger
    expect(ev[0]![ev[0]!.length - 1]!.t).toBe(t0 + 5000); // 2 s after the last
  });

  it('rounds as decimals by hand', () => {
    expect(roundDecimal(1.005, 2)).toBe(1.01);
    expect(roundDecimal(-1.005, 2)).toBe(-1.01);
    expect(roundDecimal(2.675, 2)).toBe(2.68);
    expect(roundDecimal(1e-9, 3)).toBe(0);
  });
});

describe('limit curves and verdicts', () => {
  const gb = limitCurve('gb6722-civil')!;
  it('GB 6722 bands: f <= 10 is the low band, 10 < f <= 50 the middle, > 50 the high (mm/s)', () => {
    expect(allowableAt(gb, 10)).toEqual({ lower: 15, upper: 20 });
    expect(allowableAt(gb, 10.01)).toEqual({ lower: 20, upper: 25 });
    expect(allowableAt(gb, 50)).toEqual({ lower: 20, upper: 25 });
    expect(allowableAt(gb, 50.01)).toEqual({ lower: 25, upper: 30 });
    expect(verdictOf(gb, 15, 10)).toBe('pass');
    expect(verdictOf(gb, 15.01, 10)).toBe('range');
    expect(verdictOf(gb, 20, 10)).toBe('range');
    expect(verdictOf(gb, 20.01, 10)).toBe('exceed');
    expect(verdictOf(gb, 20.01, 10.5)).toBe('range');
    expect(verdictOf(gb, 5, null)).toBe('unknown');
  });
  it('DIN 4150-3 line 2: 5 mm/s to 10 Hz, linear to 15 at 50 Hz and 20 at 100 Hz, 20 above', () => {
    const din = limitCurve('din4150-2')!;
    expect(allowableAt(din, 5).lower).toBe(5);
    expect(allowableAt(din, 10).lower).toBe(5);
    expect(allowableAt(din, 30).lower).toBe(10);
    expect(allowableAt(din, 50).lower).toBe(15);
    expect(allowableAt(din, 75).lower).toBe(17.5);
    expect(allowableAt(din, 250).lower).toBe(20);
    expect(verdictOf(din, 10, 30)).toBe('pass');
    expect(verdictOf(din, 10.01, 30)).toBe('exceed');
  });
  it('USBM RI 8507 drywall: 0.030 in displacement, 0.75 in/s, 0.008 in, 2.0 in/s', () => {
    const u = limitCurve('usbm8507-drywall')!;
    // 2 Hz: 2π·2·0.762 mm = 9.576 mm/s; 10 Hz: 19.05 (0.75 in/s); 30 Hz: 2π·30·0.2032 = 38.30; 60 Hz: 50.8.
    expect(roundDecimal(allowableAt(u, 2).lower, 3)).toBe(9.576);
    expect(roundDecimal(allowableAt(u, 10).lower, 2)).toBe(19.05);
    expect(roundDecimal(allowableAt(u, 30).lower, 2)).toBe(38.3);
    expect(roundDecimal(allowableAt(u, 60).lower, 1)).toBe(50.8);
    // Continuous at the break frequencies.
    const f1 = 0.75 / (2 * Math.PI * 0.03);
    expect(allowableAt(u, f1).lower).toBeCloseTo(allowableAt(u, f1 + 1e-9).lower, 6);
  });
  it('curve points for the chart step at the GB band borders', () => {
    const pts = curvePoints(gb, 'lower', 1, 200);
    expect(pts).toEqual([
      [1, 15],
      [10, 15],
      [10, 20],
      [50, 20],
      [50, 25],
      [200, 25],
    ]);
  });
});
