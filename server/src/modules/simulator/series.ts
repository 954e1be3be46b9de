// Pure, seeded generators of physically plausible monitoring series, one per monitor type (contract catalogue).
// Every value is a deterministic function of (device seed, weather seed, time): the same device at the same time
// always reads the same, so a backfill and the live stream join without a seam and need no state.
import { quantitiesOf } from '@geosentry/contract';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Origin of the slow trends (creep, drift): displacements are cumulative since this day. */
export const SERIES_EPOCH = Date.UTC(2025, 0, 1);

/** FNV-1a of a string: the seed of a device from its number. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A 32-bit integer hash of a few integers (finite numbers; large ones are split into two words). */
function hash(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    const lo = x | 0;
    const hi = Math.floor(x / 4294967296) | 0;
    for (const w of [lo, hi]) {
      h ^= w;
      h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
      h ^= h >>> 16;
    }
  }
  return h >>> 0;
}

/** Uniform in [0, 1). */
function u01(...xs: number[]): number {
  return hash(...xs) / 4294967296;
}

/** Standard normal (Box-Muller on two hashes). */
function gauss(...xs: number[]): number {
  const a = Math.max(u01(...xs, 1), 1e-12);
  const b = u01(...xs, 2);
  return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * b);
}

/** Smooth noise in about [-1, 1]: cosine interpolation between hashed lattice points `period` ms apart. */
function smooth(seed: number, t: number, period: number): number {
  const x = t / period;
  const i = Math.floor(x);
  const f = (1 - Math.cos((x - i) * Math.PI)) / 2;
  const a = u01(seed, i) * 2 - 1;
  const b = u01(seed, i + 1) * 2 - 1;
  return a + (b - a) * f;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const round = (v: number, d: number): number => {
  const p = 10 ** d;
  return Math.round(v * p) / p;
};
/** Phase of the day in [0, 1) in local solar time of the demo region (UTC+8). */
const dayPhase = (t: number): number => ((((t + 8 * HOUR) % DAY) + DAY) % DAY) / DAY;
/** Phase of the year in [0, 1) (0 = 1 January). */
const yearPhase = (t: number): number => ((t - SERIES_EPOCH) / (365.25 * DAY)) % 1;

// ---- weather (shared by every device of one world seed) ----

const RAIN_BLOCK = 6 * HOUR;

/**
 * Rain intensity in mm/h at t. Rain comes in events: each 6-hour block holds an event with a probability that is
 * higher in the wet season (summer); an event has a peak of 1..25 mm/h and a bell shape inside its block.
 */
export function rainIntensity(world: number, t: number): number {
  const block = Math.floor(t / RAIN_BLOCK);
  const wet = 0.5 + 0.5 * Math.sin(2 * Math.PI * (yearPhase(t) - 0.25)); // 1 around July, 0 around January
  const p = 0.04 + 0.16 * wet;
  if (u01(world, block, 11) >= p) return 0;
  const peak = 1 + 24 * u01(world, block, 12) ** 2;
  const center = 0.3 + 0.4 * u01(world, block, 13);
  const width = 0.08 + 0.12 * u01(world, block, 14);
  const x = (t - block * RAIN_BLOCK) / RAIN_BLOCK;
  const shape = Math.exp(-(((x - center) / width) ** 2));
  return shape < 0.05 ? 0 : peak * shape;
}

/** Rain in mm over (t - intervalMs, t]: the intensity integrated in steps of at most 5 minutes. */
export function rainfall(world: number, t: number, intervalMs: number): number {
  const steps = Math.max(1, Math.ceil(intervalMs / (5 * 60_000)));
  const dt = intervalMs / steps;
  let mm = 0;
  for (let i = 0; i < steps; i++) mm += (rainIntensity(world, t - i * dt) * dt) / HOUR;
  return mm;
}

/**
 * Antecedent rain index at t (mm): rain of the past `hours` hours weighted by an exponential response of
 * `tauHours` that starts after `lagHours`. Groundwater, pore pressure, moisture and seepage follow it.
 */
export function antecedentRain(world: number, t: number, lagHours: number, tauHours: number, hours = 96): number {
  let s = 0;
  const base = Math.floor(t / HOUR) * HOUR;
  for (let h = 0; h < hours; h++) {
    const age = (t - base) / HOUR + h;
    if (age < lagHours) continue;
    s += rainIntensity(world, base - h * HOUR) * Math.exp(-(age - lagHours) / tauHours);
  }
  return s;
}

/** Air temperature (°C): seasonal cycle, daily swing peaking mid-afternoon, weather anomalies, rain cooling. */
export function airTemperature(world: number, t: number): number {
  const seasonal = 16 - 11 * Math.cos(2 * Math.PI * (yearPhase(t) - 0.04));
  const daily = -5 * Math.cos(2 * Math.PI * (dayPhase(t) - 0.125));
  const anomaly = 3 * smooth(world ^ 0x51, t, 3 * DAY);
  return seasonal + daily + anomaly - 0.15 * Math.min(20, rainIntensity(world, t));
}

// ---- device behaviour ----

/**
 * Creep with acceleration episodes (mm, cumulative since SERIES_EPOCH): a steady rate plus, for some devices,
 * slip episodes every few weeks with a logistic shape (accelerate, then settle), plus a small seasonal term.
 */
export function creep(seed: number, t: number, ratePerDay: number, episodeMm: number): number {
  const days = (t - SERIES_EPOCH) / DAY;
  let v = ratePerDay * days + 0.3 * Math.abs(episodeMm) * Math.sin(2 * Math.PI * yearPhase(t));
  if (episodeMm !== 0) {
    // One slip of episodeMm per 21-day period, at a seeded moment and speed. The four periods around t are
    // summed exactly; the earlier ones have settled at their full size (continuous: a period leaves the
    // window 25 days or more after its slip's centre).
    const period = 21;
    const k = Math.floor(days / period);
    for (let j = k - 1; j <= k + 2; j++) {
      const center = (j + 0.2 + 0.6 * u01(seed, j, 22)) * period;
      const width = 0.5 + 1.5 * u01(seed, j, 23);
      v += episodeMm / (1 + Math.exp(-(days - center) / width));
    }
    v += (k - 1) * episodeMm;
  }
  return v;
}

/** Is the device offline at t? Each device has, on about one day in twenty, a 2 to 8 hour outage. */
export function isOffline(seed: number, t: number): boolean {
  const day = Math.floor(t / DAY);
  if (u01(seed, day, 31) >= 0.05) return false;
  const start = day * DAY + u01(seed, day, 32) * 16 * HOUR;
  const length = (2 + 6 * u01(seed, day, 33)) * HOUR;
  return t >= start && t < start + length;
}

/** Battery level (%): charges by the solar panel in daylight, drains at night; the level differs per device. */
export function battery(seed: number, world: number, t: number): number {
  const ph = dayPhase(t);
  // Charge from 07:00 to 17:00, then drain: a triangle between the night low and the afternoon high.
  const rise = ph >= 7 / 24 && ph < 17 / 24;
  const x = rise ? (ph - 7 / 24) / (10 / 24) : ph >= 17 / 24 ? (ph - 17 / 24) / (14 / 24) : (ph + 7 / 24) / (14 / 24);
  const cloudy = Math.min(1, antecedentRain(world, t, 0, 6, 24) / 30);
  const low = 55 + 20 * u01(seed, 41) - 15 * cloudy;
  const high = low + 35 * (1 - 0.6 * cloudy);
  const level = rise ? low + (high - low) * x : high - (high - low) * x;
  return clamp(level + 0.3 * gauss(seed, t, 42), 5, 100);
}

/** Supply voltage (V) of a 12 V system from the battery level, higher while charging. */
export function voltage(batteryPct: number, charging: boolean, seed: number, t: number): number {
  return 11.4 + 0.024 * batteryPct + (charging ? 0.45 : 0) + 0.03 * gauss(seed, t, 43);
}

/** Parameters of one simulated device, drawn from its seed. */
interface Params {
  seed: number;
  world: number;
  /** 0..1 draws. */
  r: (k: number) => number;
}

type Gen = (p: Params, t: number, intervalMs: number) => Record<string, number>;

const n = (p: Params, t: number, k: number): number => gauss(p.seed, t, k);

/** Creep of a device: about a third of the devices have slip episodes. */
const creepOf = (p: Params, t: number, axis: number, scale = 1): number => {
  const rate = (0.005 + 0.06 * p.r(100 + axis)) * (p.r(110 + axis) < 0.5 ? 1 : -1) * scale;
  const episodes = p.r(120) < 0.35 ? (1 + 4 * p.r(121 + axis)) * scale : 0;
  return creep(p.seed + axis, t, rate, episodes * Math.sign(rate));
};

const waterLevelRiver: Gen = (p, t) => {
  const base = 1.5 + 3 * p.r(1);
  return { waterLevel: round(base + 0.08 * antecedentRain(p.world, t, 2, 12) + 0.01 * n(p, t, 1), 3) };
};

const waterLevelReservoir: Gen = (p, t) => {
  const normal = 150 + 30 * p.r(1);
  const seasonal = -6 * Math.cos(2 * Math.PI * (yearPhase(t) - 0.6));
  const daily = 0.12 * Math.sin(2 * Math.PI * dayPhase(t));
  return {
    waterLevel: round(normal + seasonal + daily + 0.03 * antecedentRain(p.world, t, 6, 48) + 0.005 * n(p, t, 1), 3),
  };
};

const groundwater: Gen = (p, t) => {
  const base = 8 + 20 * p.r(1);
  return { waterLevel: round(base + 0.02 * antecedentRain(p.world, t, 12, 36) + 0.004 * n(p, t, 1), 3) };
};

const pressureGen: Gen = (p, t) => {
  const base = 40 + 160 * p.r(1);
  return { pressure: round(base + 0.4 * antecedentRain(p.world, t, 8, 30) + 0.2 * n(p, t, 1), 2) };
};

const flowGen: Gen = (p, t) => {
  const base = 2 + 40 * p.r(1);
  return { flow: round(Math.max(0, base + 1.2 * antecedentRain(p.world, t, 3, 10) + 0.3 * n(p, t, 1)), 2) };
};

const seepageFlowGen: Gen = (p, t) => {
  const base = 0.5 + 5 * p.r(1);
  const reservoir = -Math.cos(2 * Math.PI * (yearPhase(t) - 0.6));
  return {
    flow: round(
      Math.max(0, base * (1 + 0.15 * reservoir) + 0.02 * antecedentRain(p.world, t, 24, 72) + 0.03 * n(p, t, 1)),
      3,
    ),
  };
};

const GENERATORS: Record<number, Gen> = {
  1: (p, t) => ({
    // GNSS: creep plus a few mm of noise (the vertical noisier), with satellite count, PDOP and fix flag.
    dN: round(creepOf(p, t, 0) + 1.5 * n(p, t, 1), 1),
    dE: round(creepOf(p, t, 1) + 1.5 * n(p, t, 2), 1),
    dH: round(0.5 * creepOf(p, t, 2) + 3 * n(p, t, 3), 1),
    sats: Math.round(clamp(16 + 4 * smooth(p.seed ^ 7, t, 2 * HOUR) + n(p, t, 4), 6, 30)),
    pdop: round(clamp(1.6 - 0.5 * smooth(p.seed ^ 7, t, 2 * HOUR) + 0.1 * n(p, t, 5), 0.8, 6), 2),
    fix: u01(p.seed, t, 6) < 0.97 ? 1 : 0,
  }),
  2: (p, t, dt) => ({ rainfall: round(rainfall(p.world, t, dt), 1) }),
  3: waterLevelRiver,
  4: flowGen,
  5: (p, t) => ({ deformation: round(creepOf(p, t, 0) + 0.2 * n(p, t, 1), 2) }),
  6: (p, t) => ({ depth: round(5 + 25 * p.r(1) + 0.02 * antecedentRain(p.world, t, 12, 48) + 0.01 * n(p, t, 1), 3) }),
  7: (p, t) => ({ value: round(50 + 20 * smooth(p.seed, t, 12 * HOUR) + n(p, t, 1), 2) }),
  8: (p, t) => {
    const temp = airTemperature(p.world, t) + 0.2 * n(p, t, 1);
    const hum = 95 - 2.2 * (temp - 5) + 1.5 * Math.min(10, rainIntensity(p.world, t)) + 2 * n(p, t, 2);
    // Wind: a prevailing direction swinging through the day, calm spells (speed 0) now and then.
    const gust = Math.max(0, 2.5 + 2 * smooth(p.seed ^ 11, t, 3 * HOUR) + 0.8 * n(p, t, 3));
    const windSpeed = u01(p.seed, t, 12) < 0.05 ? 0 : round(gust, 1);
    const windDirection = round((((200 + 60 * smooth(p.seed ^ 13, t, 6 * HOUR)) % 360) + 360) % 360, 0);
    return { temperature: round(temp, 1), humidity: round(clamp(hum, 15, 100), 1), windSpeed, windDirection };
  },
  9: (p, t) => {
    // Tilt: slow drift (degrees) plus a thermal daily term.
    const days = (t - SERIES_EPOCH) / DAY;
    const th = 0.002 * Math.sin(2 * Math.PI * (dayPhase(t) - 0.2));
    return {
      tiltX: round((p.r(1) - 0.5) * 0.01 * days + 0.05 * smooth(p.seed, t, 5 * DAY) + th + 0.0005 * n(p, t, 1), 4),
      tiltY: round((p.r(2) - 0.5) * 0.01 * days + 0.05 * smooth(p.seed ^ 3, t, 5 * DAY) + th + 0.0005 * n(p, t, 2), 4),
    };
  },
  10: pressureGen,
  11: waterLevelReservoir,
  12: seepageFlowGen,
  13: (p, t) => ({
    dX: round(creepOf(p, t, 0) + 0.2 * n(p, t, 1), 2),
    dY: round(creepOf(p, t, 1) + 0.2 * n(p, t, 2), 2),
  }),
  14: (p, t) => ({
    moisture: round(clamp(15 + 15 * p.r(1) + 0.25 * antecedentRain(p.world, t, 1, 24) + 0.2 * n(p, t, 1), 2, 60), 1),
  }),
  15: (p, t) => ({ beachLength: round(80 + 100 * p.r(1) + 10 * smooth(p.seed, t, 10 * DAY) + 0.1 * n(p, t, 1), 2) }),
  16: groundwater,
  17: pressureGen,
  19: (p, t) => {
    const sun = Math.max(0, Math.sin(Math.PI * ((dayPhase(t) - 6 / 24) / (12 / 24))));
    const clouds = 1 - Math.min(0.8, rainIntensity(p.world, t) / 5);
    const panel = sun > 0 ? 14 + 6 * sun * clouds + 0.1 * n(p, t, 1) : 0;
    return {
      panelVoltage: round(panel, 2),
      chargeCurrent: round(Math.max(0, 2.5 * sun * clouds + 0.02 * n(p, t, 2)), 2),
    };
  },
  20: (p, t) => ({
    anchorLoad: round(
      300 +
        500 * p.r(1) -
        0.02 * ((t - SERIES_EPOCH) / DAY) +
        0.8 * (airTemperature(p.world, t) - 15) +
        0.5 * n(p, t, 1),
      1,
    ),
  }),
  24: (p, t) => ({
    displacement: round(creepOf(p, t, 0) + 0.3 * n(p, t, 1), 2),
    acceleration: round(
      Math.abs(0.002 * n(p, t, 2)) + (u01(p.seed, t, 3) < 0.002 ? 0.05 + 0.3 * u01(p.seed, t, 4) : 0),
      4,
    ),
  }),
  26: (p, t) => ({ totalChange: round(creepOf(p, t, 0) + 0.2 * n(p, t, 1), 2) }),
  27: (p, t) => {
    const temp = airTemperature(p.world, t) * 0.6 + 6 + 0.1 * n(p, t, 2);
    return {
      strain: round(-200 + 400 * p.r(1) + 8 * (temp - 15) + 0.5 * creepOf(p, t, 0) + 2 * n(p, t, 1), 1),
      temperature: round(temp, 1),
    };
  },
  30: (p, t) => ({ displacement: round(creepOf(p, t, 0) + 0.2 * n(p, t, 1), 2) }),
  32: (p, t) => {
    const rain = antecedentRain(p.world, t, 2, 12);
    const water = 14 + 0.5 * (airTemperature(p.world, t) - 14);
    const doSat = 14.6 - 0.39 * water + 0.007 * water * water;
    const algae = 0.8 * Math.sin(2 * Math.PI * (dayPhase(t) - 0.3));
    return {
      pH: round(clamp(7.4 + 0.4 * p.r(1) + 0.15 * algae - 0.005 * rain + 0.03 * n(p, t, 1), 6, 9), 2),
      conductivity: round(Math.max(50, 300 + 400 * p.r(2) - 2 * rain + 5 * n(p, t, 2)), 0),
      turbidity: round(Math.max(0.1, 2 + 6 * p.r(3) + 0.8 * rain + 0.3 * n(p, t, 3)), 1),
      dissolvedOxygen: round(clamp(doSat * 0.85 + algae + 0.1 * n(p, t, 4), 2, 16), 2),
      ammoniaNitrogen: round(Math.max(0.01, 0.1 + 0.4 * p.r(5) + 0.005 * rain + 0.01 * n(p, t, 5)), 3),
      totalPhosphorus: round(Math.max(0.005, 0.03 + 0.1 * p.r(6) + 0.001 * rain + 0.002 * n(p, t, 6)), 3),
      totalNitrogen: round(Math.max(0.05, 0.5 + 1.2 * p.r(7) + 0.01 * rain + 0.02 * n(p, t, 7)), 2),
    };
  },
  33: (p, t) => {
    // Gate: opened in steps after rain, closed in dry weather.
    const rain = antecedentRain(p.world, t, 1, 24);
    return { gateOpening: round(clamp(Math.floor(rain / 15) * 0.5, 0, 5), 1) };
  },
  35: (p, t) => ({ displacement: round(creepOf(p, t, 0, 0.5) + 0.05 * n(p, t, 1), 2) }),
  36: (p, t) => {
    const event = u01(p.seed, t, 3) < 0.003;
    return {
      velocity: round(Math.abs(0.03 * n(p, t, 1)) + 0.01 + (event ? 1 + 5 * u01(p.seed, t, 4) : 0), 3),
      frequency: round(clamp(12 + 20 * p.r(1) + 2 * n(p, t, 2), 1, 100), 1),
    };
  },
  37: (p, t) => ({
    horizontal: round(creepOf(p, t, 0) + 0.3 * n(p, t, 1), 2),
    vertical: round(0.4 * creepOf(p, t, 1) + 0.4 * n(p, t, 2), 2),
  }),
};

/** A simulated device: its monitor type and seeds (device from its number; world shared by every device). */
export interface SimDevice {
  moduleId: number;
  seed: number;
  world: number;
}

/**
 * One reading of a device at t (epoch ms) for a reading interval of intervalMs (rain is mm per interval), or null
 * while the device is offline. The values use only the keys of quantitiesOf(moduleId), battery and voltage
 * included; an unknown module id reads only battery and voltage.
 */
export function readingAt(dev: SimDevice, t: number, intervalMs: number): Record<string, number> | null {
  if (isOffline(dev.seed, t)) return null;
  const p: Params = { seed: dev.seed, world: dev.world, r: (k) => u01(dev.seed, k, 99) };
  const own = GENERATORS[dev.moduleId]?.(p, t, intervalMs) ?? {};
  const keys = new Set(quantitiesOf(dev.moduleId).map((q) => q.key));
  const values: Record<string, number> = {};
  for (const [k, v] of Object.entries(own)) if (keys.has(k) || !keys.size) values[k] = v;
  const bat = battery(dev.seed, dev.world, t);
  const ph = dayPhase(t);
  if (keys.has('battery') || !keys.size) values.battery = round(bat, 1);
  if (keys.has('voltage') || !keys.size)
    values.voltage = round(voltage(bat, ph >= 7 / 24 && ph < 17 / 24, dev.seed, t), 2);
  return values;
}

/** Monitor type ids the generators cover. */
export const SIMULATED_MODULE_IDS: readonly number[] = Object.keys(GENERATORS).map(Number);
