import { describe, expect, it } from 'vitest';
import { parseTime, resolveRange, tiltResultant, windDirectionName } from '@geosentry/contract';
import { lttbIndices } from './lttb.ts';
import { clean, derive, derivedAt, smooth } from './derived.ts';
import { segments, truncUtc } from './moduleData.repository.ts';

describe('LTTB downsampling', () => {
  it('answers every point when the series fits', () => {
    expect(lttbIndices([1, 2, 3], [5, 6, 7], 10)).toEqual([0, 1, 2]);
  });

  it('caps the points, keeps first, last and the global extremes, and stays sorted', () => {
    const n = 10_000;
    const xs = Array.from({ length: n }, (_, i) => i);
    // A noisy sine with one sharp spike down and one up inside otherwise calm stretches.
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.1;
    const ys = xs.map((i) => Math.sin(i / 500) + rnd());
    ys[3333] = -50;
    ys[7777] = 80;
    for (const max of [10, 100, 2000]) {
      const idx = lttbIndices(xs, ys, max);
      expect(idx.length).toBeLessThanOrEqual(max);
      expect(idx.length).toBeGreaterThan(max - 3);
      expect(idx[0]).toBe(0);
      expect(idx[idx.length - 1]).toBe(n - 1);
      expect(idx).toContain(3333);
      expect(idx).toContain(7777);
      expect([...idx].sort((a, b) => a - b)).toEqual(idx);
      expect(new Set(idx).size).toBe(idx.length);
    }
  });

  it('keeps extremes that the triangle rule would drop (a flat series with a tiny dip)', () => {
    const xs = Array.from({ length: 1000 }, (_, i) => i);
    const ys = xs.map(() => 1);
    ys[500] = 0.999;
    ys[10] = 1.001;
    const idx = lttbIndices(xs, ys, 5);
    expect(idx).toContain(500);
    expect(idx).toContain(10);
    expect(idx.length).toBeLessThanOrEqual(5);
  });
});

describe('derived series (spec §9)', () => {
  it('rate to 2 decimals, acceleration from rates, variation from the first value', () => {
    const d = derive([1, 1.234, 2.5, 2.0, 2.0]);
    expect(d.map((x) => x.rate)).toEqual([null, 0.23, 1.27, -0.5, 0]);
    expect(d.map((x) => x.acceleration)).toEqual([null, null, 1.04, -1.77, 0.5]);
    expect(d.map((x) => x.variation)).toEqual([0, 0.234, 1.5, 1, 1]);
  });
  it('is empty for an empty series and single for one point', () => {
    expect(derive([])).toEqual([]);
    expect(derive([3])).toEqual([{ rate: null, acceleration: null, variation: 0 }]);
  });
  it('derivedAt(i) equals derive()[i] at every point', () => {
    const values = Array.from({ length: 300 }, (_, i) => Math.round((Math.sin(i / 7) * 50 + i * 0.3) * 1000) / 1000);
    const all = derive(values);
    for (let i = 0; i < values.length; i++) expect(derivedAt((k) => values[k]!, i)).toEqual(all[i]);
  });
});

describe('clean', () => {
  const byString = (v: number): number => Number(v.toPrecision(12)) || 0;
  it('rounds to 12 significant digits exactly as toPrecision(12), ties and powers of ten included', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const values: number[] = [0.1 + 0.2, -0, 999.9999999999999, 1e21, 1e-30, -2.5e-13, -0.4160316782375, 1000, 0.001];
    for (let i = 0; i < 200_000; i++) {
      values.push((rnd() - 0.5) * 10 ** Math.floor(rnd() * 40 - 20));
      values.push(Math.round((rnd() - 0.5) * 1e6) / 100 + Math.round(rnd() * 1e4) / 1e4);
      values.push(0.1 * Math.floor(rnd() * 1000) - 0.7 * Math.floor(rnd() * 1000));
    }
    for (const v of values) if (!Object.is(clean(v), byString(v))) expect([v, clean(v)]).toEqual([v, byString(v)]);
    expect(clean(0.1 + 0.2)).toBe(0.3);
    expect(Object.is(clean(-0), 0)).toBe(true);
    expect(clean(NaN)).toBeNaN();
  });
});

describe('smoothing', () => {
  it('moving average with a centred window cut at the ends', () => {
    expect(smooth([1, 2, 3, 10, 5], 'movingAverage', 3)).toEqual([1.5, 2, 5, 6, 7.5]);
  });
  it('median with a centred window cut at the ends', () => {
    expect(smooth([1, 9, 3, 4, 100, 5, 6], 'median', 3)).toEqual([5, 3, 4, 4, 5, 6, 5.5]);
    expect(smooth([1, 9, 3, 4, 100, 5, 6], 'median', 5)).toEqual([3, 3.5, 4, 5, 5, 5.5, 6]);
  });
});

describe('time helpers', () => {
  it('parses dates, date-times, ISO and epoch ms; refuses nonsense', () => {
    expect(parseTime('2026-03-01')).toBe(Date.UTC(2026, 2, 1));
    expect(parseTime('2026-03-01 10:20:30')).toBe(Date.UTC(2026, 2, 1, 10, 20, 30));
    expect(parseTime('2026-03-01T10:20:30.5+08:00')).toBe(Date.UTC(2026, 2, 1, 2, 20, 30, 500));
    expect(parseTime(String(Date.UTC(2026, 0, 1)))).toBe(Date.UTC(2026, 0, 1));
    for (const bad of ['2026-02-30', 'yesterday', '2026-13-01', '2026-01-01 25:00']) expect(parseTime(bad)).toBeNull();
  });
  it('resolves ranges; a date-only end includes its day; empty windows are refused', () => {
    const now = Date.UTC(2026, 5, 15, 13, 45);
    expect(resolveRange('today', undefined, undefined, now)).toEqual({ from: Date.UTC(2026, 5, 15), to: now });
    expect(resolveRange('7d', undefined, undefined, now)).toEqual({ from: now - 7 * 86400e3, to: now });
    expect(resolveRange(undefined, undefined, undefined, now)).toEqual({ from: now - 86400e3, to: now });
    expect(resolveRange('custom', '2026-01-01', '2026-01-31', now)).toEqual({
      from: Date.UTC(2026, 0, 1),
      to: Date.UTC(2026, 1, 1),
    });
    expect(resolveRange(undefined, '2026-01-01 06:00', undefined, now)).toEqual({
      from: Date.UTC(2026, 0, 1, 6),
      to: now,
    });
    expect(resolveRange('custom', undefined, undefined, now)).toBeNull();
    expect(resolveRange('custom', '2026-02-01', '2026-01-01', now)).toBeNull();
  });
  it('truncates to UTC buckets (weeks start on Monday) and splits windows into rollup segments', () => {
    const t = Date.UTC(2026, 10, 19, 15, 30); // Thursday
    expect(truncUtc(t, 'week')).toBe(Date.UTC(2026, 10, 16));
    expect(truncUtc(t, 'month')).toBe(Date.UTC(2026, 10, 1));
    expect(truncUtc(t, 'year')).toBe(Date.UTC(2026, 0, 1));
    const h = 3600e3;
    const from = Date.UTC(2026, 10, 18, 22, 10);
    const to = Date.UTC(2026, 10, 21, 2, 5);
    expect(segments(from, to)).toEqual([
      { kind: 'raw', from, to: Date.UTC(2026, 10, 18, 23) },
      { kind: 'hour', from: Date.UTC(2026, 10, 18, 23), to: Date.UTC(2026, 10, 19) },
      { kind: 'day', from: Date.UTC(2026, 10, 19), to: Date.UTC(2026, 10, 21) },
      { kind: 'hour', from: Date.UTC(2026, 10, 21), to: Date.UTC(2026, 10, 21, 2) },
      { kind: 'raw', from: Date.UTC(2026, 10, 21, 2), to },
    ]);
    expect(segments(from, from + h / 2)).toEqual([{ kind: 'raw', from, to: from + h / 2 }]);
  });
});

describe('wind and tilt', () => {
  it('names directions with 4, 8 and 16 points and shows -- when calm', () => {
    expect(windDirectionName(0, 8, 'en')).toBe('North');
    expect(windDirectionName(44, 8, 'en')).toBe('Northeast');
    expect(windDirectionName(359, 8, 'zh')).toBe('北');
    expect(windDirectionName(202.5, 16, 'en')).toBe('South-southwest');
    expect(windDirectionName(-90, 8, 'ko')).toBe('서');
    expect(windDirectionName(100, 4, 'en')).toBe('East');
    expect(windDirectionName(135, 4, 'en')).toBe('South');
    expect(windDirectionName(90, 16, 'en', 0)).toBe('--');
    expect(windDirectionName(Number.NaN, 16, 'en')).toBe('--');
  });
  it('computes the resultant tilt and its azimuth', () => {
    expect(tiltResultant(0, 0)).toEqual({ resultant: 0, azimuth: 0 });
    expect(tiltResultant(3, 0)).toEqual({ resultant: 3, azimuth: 0 });
    expect(tiltResultant(0, -2)).toEqual({ resultant: 2, azimuth: 270 });
    const r = tiltResultant(1, 1);
    expect(r.azimuth).toBe(45);
    expect(r.resultant).toBeCloseTo(Math.atan(Math.SQRT2 * Math.tan(Math.PI / 180)) * (180 / Math.PI), 4);
  });
});
