import { describe, expect, it } from 'vitest';
import { derive, derivedAt } from './derived.ts';
import { accelerationAt, computeAt, passesAt, rateAt, type EvalRule } from '../alerts/alerts.evaluate.ts';

/** A rate rule: |rate| >= 0.13 (direction 'abs' compares magnitudes). */
const rule: EvalRule = {
  id: 1,
  level: 1,
  valueType: 'rate',
  value: 0.13,
  rateValue: null,
  direction: 'abs',
  windowN: null,
  windowUnit: null,
  ratio: null,
};

describe('rate and acceleration: one rounding in history and in the alert engine (spec §9)', () => {
  // A rise of 0.125, the equal fall, and the textbook halves 12.205 -> 12.54 (+0.335) and 12.205 -> 11.87 (-0.335).
  const values = [10, 10.125, 10, 12.205, 12.54, 12.205, 11.87];
  const ts = values.map((_, i) => i * 60_000);
  const series = { ts, v: values };

  it('rounds rises and equal falls alike, half away from zero', () => {
    const d = derive(values);
    expect(d.map((p) => p.rate)).toEqual([null, 0.13, -0.13, 2.21, 0.34, -0.34, -0.34]);
    expect(d.map((p) => p.acceleration)).toEqual([null, null, -0.26, 2.34, -1.87, -0.68, 0]);
    for (let i = 0; i < values.length; i++) expect(derivedAt((k) => values[k]!, i)).toEqual(d[i]);
  });

  it('the alert engine computes the same rates and fires on the rise and on the equal fall', () => {
    const d = derive(values);
    for (let i = 1; i < values.length; i++) {
      expect(rateAt(series, i)).toBe(d[i]!.rate);
      if (i >= 2) expect(accelerationAt(series, i)).toBe(d[i]!.acceleration);
    }
    expect([passesAt(series, 1, rule, null), passesAt(series, 2, rule, null)]).toEqual([true, true]);
    expect([computeAt(series, 1, rule, null).pass, computeAt(series, 2, rule, null).pass]).toEqual([true, true]);
  });
});
