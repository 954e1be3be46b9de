import { describe, expect, it } from 'vitest';
import { MONITOR_TYPES, quantitiesOf } from '@geosentry/contract';
import {
  antecedentRain,
  creep,
  isOffline,
  rainfall,
  readingAt,
  seedOf,
  SIMULATED_MODULE_IDS,
  type SimDevice,
} from './series.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2026, 6, 1); // wet season
const WORLD = 20260701;

/** Plausible bounds of every quantity (units of the catalogue). */
const RANGES: Record<string, [number, number]> = {
  dN: [-500, 500],
  dE: [-500, 500],
  dH: [-500, 500],
  sats: [4, 40],
  pdop: [0.5, 10],
  fix: [0, 1],
  rainfall: [0, 60],
  waterLevel: [0, 250],
  flow: [0, 2000],
  deformation: [-500, 500],
  depth: [0, 100],
  value: [0, 100],
  temperature: [-30, 50],
  humidity: [0, 100],
  windSpeed: [0, 40],
  windDirection: [0, 360],
  tiltX: [-10, 10],
  tiltY: [-10, 10],
  pressure: [0, 2000],
  dX: [-500, 500],
  dY: [-500, 500],
  moisture: [0, 100],
  beachLength: [0, 1000],
  panelVoltage: [0, 25],
  chargeCurrent: [0, 10],
  anchorLoad: [0, 2000],
  displacement: [-500, 500],
  acceleration: [0, 5],
  totalChange: [-500, 500],
  strain: [-2000, 2000],
  pH: [4, 10],
  conductivity: [0, 3000],
  turbidity: [0, 1000],
  dissolvedOxygen: [0, 20],
  ammoniaNitrogen: [0, 10],
  totalPhosphorus: [0, 5],
  totalNitrogen: [0, 20],
  gateOpening: [0, 10],
  velocity: [0, 50],
  frequency: [0, 200],
  horizontal: [-500, 500],
  vertical: [-500, 500],
  voltage: [10.5, 15],
  battery: [0, 100],
};

const dev = (moduleId: number, number: string): SimDevice => ({ moduleId, seed: seedOf(number), world: WORLD });

describe('simulated series', () => {
  it('covers every monitor type with exactly its catalogue quantities, within plausible ranges', () => {
    expect([...SIMULATED_MODULE_IDS].sort((a, b) => a - b)).toEqual(MONITOR_TYPES.map((m) => m.moduleId));
    const problems: string[] = [];
    for (const m of MONITOR_TYPES) {
      const keys = quantitiesOf(m.moduleId)
        .map((q) => q.key)
        .sort()
        .join(',');
      for (let d = 0; d < 3; d++) {
        const device = dev(m.moduleId, `SIM-${m.moduleId}-${d}`);
        let seen = 0;
        for (let t = T0; t < T0 + 7 * DAY; t += HOUR) {
          const r = readingAt(device, t, HOUR);
          if (!r) continue;
          seen++;
          const got = Object.keys(r).sort().join(',');
          if (got !== keys) problems.push(`module ${m.moduleId}: keys ${got}, expected ${keys}`);
          for (const [k, v] of Object.entries(r)) {
            const [lo, hi] = RANGES[k] ?? [NaN, NaN];
            if (!(Number.isFinite(v) && v >= lo && v <= hi))
              problems.push(`module ${m.moduleId} ${k} = ${v} at ${new Date(t).toISOString()}`);
          }
        }
        if (seen < 7 * 24 * 0.8) problems.push(`module ${m.moduleId} device ${d}: only ${seen} readings`);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
  }, 30_000);

  it('is deterministic for a seed and differs between seeds', () => {
    const a = readingAt(dev(1, 'GNSS-1'), T0 + 12_345, 10_000);
    const b = readingAt(dev(1, 'GNSS-1'), T0 + 12_345, 10_000);
    const c = readingAt(dev(1, 'GNSS-2'), T0 + 12_345, 10_000);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(seedOf('abc')).toBe(seedOf('abc'));
    expect(seedOf('abc')).not.toBe(seedOf('abd'));
  });

  it('rains in events: dry most of the time, bursts of several mm/h in the wet season, mm per interval', () => {
    let wet = 0;
    let total = 0;
    let maxHour = 0;
    for (let t = T0; t < T0 + 30 * DAY; t += HOUR) {
      const mm = rainfall(WORLD, t, HOUR);
      expect(mm).toBeGreaterThanOrEqual(0);
      if (mm > 0.1) wet++;
      total += mm;
      maxHour = Math.max(maxHour, mm);
    }
    expect(wet).toBeGreaterThan(5);
    expect(wet).toBeLessThan(30 * 24 * 0.4);
    expect(maxHour).toBeGreaterThan(2);
    expect(total).toBeGreaterThan(10);
    expect(total).toBeLessThan(1500);
    // Per interval: six 10-minute amounts make the hour.
    const t = T0 + 5 * DAY;
    let six = 0;
    for (let i = 0; i < 6; i++) six += rainfall(WORLD, t - i * 600_000, 600_000);
    expect(six).toBeCloseTo(rainfall(WORLD, t, HOUR), 6);
  });

  it('makes pore pressure follow rain with a lag', () => {
    // Find a rain event and check that the lagged index peaks after the rain does.
    let peakRainT = 0;
    let peakRain = 0;
    for (let t = T0; t < T0 + 30 * DAY; t += HOUR) {
      const mm = rainfall(WORLD, t, HOUR);
      if (mm > peakRain) [peakRain, peakRainT] = [mm, t];
    }
    expect(peakRain).toBeGreaterThan(0);
    const idx = (t: number) => antecedentRain(WORLD, t, 8, 30);
    expect(idx(peakRainT + 12 * HOUR)).toBeGreaterThan(idx(peakRainT));
  });

  it('creeps continuously, with acceleration episodes', () => {
    const seed = seedOf('creeper');
    let prev = creep(seed, T0, 0.05, 3);
    let maxStep = 0;
    let maxRate = 0;
    for (let t = T0 + HOUR; t < T0 + 120 * DAY; t += HOUR) {
      const v = creep(seed, t, 0.05, 3);
      maxStep = Math.max(maxStep, Math.abs(v - prev));
      maxRate = Math.max(maxRate, (v - prev) * 24);
      prev = v;
    }
    const gained = creep(seed, T0 + 120 * DAY, 0.05, 3) - creep(seed, T0, 0.05, 3);
    // 120 days: about 6 mm of steady creep and about 17 mm of episodes (3 mm per 21 days).
    expect(gained).toBeGreaterThan(15);
    expect(gained).toBeLessThan(35);
    expect(maxStep).toBeLessThan(0.7); // never a jump
    expect(maxRate).toBeGreaterThan(0.05 * 5); // an episode is several times faster than the steady rate
  });

  it('takes a device offline now and then, for hours, not for long', () => {
    let offline = 0;
    const hours = 200 * 24;
    for (let h = 0; h < hours; h++) if (isOffline(seedOf('dev-x'), T0 + h * HOUR)) offline++;
    expect(offline).toBeGreaterThan(0);
    expect(offline / hours).toBeLessThan(0.05);
  });

  it('charges the battery in daylight and drains it at night', () => {
    const device = dev(2, 'RAIN-7');
    // Local (UTC+8) 07:00 and 16:00 on a day without an outage.
    for (let d = 0; d < 10; d++) {
      const day = Date.UTC(2026, 0, 10 + d);
      const morning = readingAt(device, day - 8 * HOUR + 7 * HOUR + 60_000, 600_000);
      const afternoon = readingAt(device, day - 8 * HOUR + 16 * HOUR, 600_000);
      if (!morning || !afternoon) continue;
      expect(afternoon.battery!).toBeGreaterThan(morning.battery!);
      expect(afternoon.voltage!).toBeGreaterThan(morning.voltage!);
      return;
    }
    throw new Error('no day without an outage');
  });
});
