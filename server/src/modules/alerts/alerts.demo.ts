import type { AlertDirection } from '@geosentry/contract';
import { readingAt, seedOf } from '../simulator/index.ts';

/**
 * DEMO thresholds: alert values on a few demo devices, placed on the series the demo simulator will publish
 * (the simulator is deterministic: a device's series follows from its number and the weather seed), so that
 * the backfilled week and the first live minutes raise alerts of several levels.
 */

/** The weather seed of the demo simulator (simulator.demo.ts). */
export const DEMO_WORLD = 2026;
/** The quantity a demo rule watches, per monitor type. */
export const DEMO_QUANTITY: Record<number, string> = { 1: 'dN', 3: 'waterLevel', 30: 'displacement', 13: 'x' };
/** The highest level each successive demo device reaches (levels above it sit beyond the series). */
export const DEMO_TARGETS = [4, 2, 3, 1, 4, 3, 2, 1] as const;

const round4 = (v: number): number => Math.round(v * 1e4) / 1e4;

/**
 * Four alert values for a device: those up to `target` are quantiles of the week the simulator backfills
 * (so they are crossed, in order), those above it lie beyond the week's extreme. Falling series get 'below'.
 * Answers null when the device has no values of the quantity.
 */
export function demoThresholds(
  dev: { number: string; moduleId: number },
  quantity: string,
  target: number,
  now: number,
  hours = 168,
): { direction: AlertDirection; values: number[] } | null {
  const step = 3_600_000;
  const end = Math.floor(now / step) * step;
  const xs: number[] = [];
  for (let ts = end - hours * step + step; ts <= end; ts += step) {
    const r = readingAt({ moduleId: dev.moduleId, seed: seedOf(dev.number), world: DEMO_WORLD }, ts, step);
    const v = r?.[quantity];
    if (typeof v === 'number') xs.push(v);
  }
  if (xs.length < 10) return null;
  const direction: AlertDirection = xs.at(-1)! >= xs[0]! ? 'above' : 'below';
  const sign = direction === 'above' ? 1 : -1;
  const s = xs.map((v) => sign * v).sort((a, b) => a - b);
  const max = s.at(-1)!;
  const spread = Math.max(max - s[0]!, 0.01);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
  const values: number[] = [];
  for (let k = 1; k <= 4; k++) {
    let v = k <= target ? q(0.55 + (0.4 * k) / target) : max + (k - target) * spread * 0.5;
    if (values.length && v <= values.at(-1)!) v = values.at(-1)! + spread * 0.001;
    values.push(v);
  }
  return { direction, values: values.map((v) => round4(sign * v)) };
}

type Call = (method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) => Promise<unknown>;

/** Adds the demo alert values through the alerts API (and a contact group of the notifications feature). */
export async function seedDemoAlerts(
  call: Call,
  devices: readonly { deviceId: number; number: string; moduleId: number }[],
  now = Date.now(),
): Promise<number> {
  let groupId = 1;
  try {
    const g = (await call('POST', '/api/v2/data/alert/group/add', {
      name: 'Demo duty engineers',
      description: 'Told about every demo alert',
    })) as { id?: number } | null;
    if (g?.id) groupId = g.id;
  } catch {
    // The notifications feature is not there: the rules still name a group (no foreign key).
  }
  let added = 0;
  let i = 0;
  for (const d of devices) {
    const quantity = DEMO_QUANTITY[d.moduleId];
    if (!quantity || i >= DEMO_TARGETS.length) continue;
    const th = demoThresholds(d, quantity, DEMO_TARGETS[i]!, now);
    if (!th) continue;
    i++;
    for (let k = 0; k < 4; k++) {
      await call('POST', '/api/v2/data/alert/manage/value/add', {
        deviceId: d.deviceId,
        quantity,
        level: k + 1,
        valueType: 'threshold',
        value: th.values[k],
        direction: th.direction,
        groupId,
        channels: ['mail', 'sms'],
        pushIntervalMinutes: 60,
        description: 'Demo threshold',
      });
      added++;
    }
  }
  return added;
}
