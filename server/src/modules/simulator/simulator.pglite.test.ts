import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quantitiesOf } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';
import { authenticateTerminal } from '../terminals/terminals.service.ts';
import { isOffline, seedOf } from './series.ts';
import { startSimulator, type SimDeviceSpec } from './simulator.ts';
import { startDemoSimulator } from './simulator.demo.ts';
import { seedDemo } from '../demo/demo.seed.ts';

const HOUR = 3_600_000;

/** Plausible bounds of the quantities the devices below report. */
const RANGES: Record<string, [number, number]> = {
  rainfall: [0, 60],
  displacement: [-500, 500],
  temperature: [-30, 50],
  humidity: [0, 100],
  windSpeed: [0, 40],
  windDirection: [0, 360],
  waterLevel: [0, 250],
  pH: [4, 10],
  conductivity: [0, 3000],
  turbidity: [0, 1000],
  dissolvedOxygen: [0, 20],
  ammoniaNitrogen: [0, 10],
  totalPhosphorus: [0, 5],
  totalNitrogen: [0, 20],
  voltage: [10.5, 15],
  battery: [0, 100],
};

/**
 * A clock running at real speed from a past moment at which none of these devices has a simulated outage for the
 * next 12 hours (outages are seeded per device number), so that every device surely publishes.
 */
function clockAllOnline(numbers: string[]): () => number {
  const start = Date.now();
  for (let base = Math.floor(start / HOUR) * HOUR - 2 * HOUR; ; base -= HOUR) {
    const ok = numbers.every((n) => {
      for (let t = base - 6 * HOUR; t <= base + 6 * HOUR; t += 60_000) if (isOffline(seedOf(n), t)) return false;
      return true;
    });
    if (ok) return () => base + (Date.now() - start);
  }
}

async function waitFor(cond: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out');
}

describe('device simulator over MQTT', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let port: number;
  beforeAll(async () => {
    t = await testApp({ mqttPort: 0 });
    admin = await t.token();
    site = await buildPlatform(t, { type: 'disaster', name: 'Sim slope' });
    port = t.built.mqtt!.port!;
  });
  afterAll(() => t.close());

  const readingsOf = async (deviceId: number) =>
    t.db.k.selectFrom('readings').select(['ts', 'vals']).where('device_id', '=', deviceId).orderBy('ts').execute();

  it("DEMO wiring: rotates the demo loggers' keys, backfills history on the first start, then streams", async () => {
    // The real demo portfolio (DEMO itself stays off in tests: the wiring is started by hand, as app.ts does).
    // The seed signs in as the administrator (one open session per account): as on a first start, none is open.
    await t.api('GET', '/api/v2/manage/user/logout', { token: admin });
    const demo = await seedDemo(t.app, t.db, 'admin');
    admin = await t.token();
    const devices = await t.db.k
      .selectFrom('devices')
      .select(['id', 'number'])
      .where('terminal_id', 'is not', null)
      .execute();
    expect(devices.length).toBe(demo.devices);
    const now = clockAllOnline(devices.map((d) => d.number));
    const begun = now();
    const sim = await startDemoSimulator(t.ctx, port, { intervalMs: 300, backfillHours: 2, now });
    expect(sim).not.toBeNull();
    try {
      // The keys issued when the loggers were made no longer work.
      for (const old of Object.values(demo.terminals))
        expect(await authenticateTerminal(t.db, old.terminalId, old.key)).toBeNull();
      await sim!.backfilled;
      await waitFor(async () => {
        const live = await t.db.k
          .selectFrom('readings')
          .select('device_id')
          .distinct()
          .where('ts', '>', new Date(begun))
          .execute();
        return live.length === devices.length;
      }, 20_000);
    } finally {
      await sim!.stop();
    }
    expect(sim!.stats().failed).toBe(0);
    // Every demo device has its hourly history (2 hours) and live readings.
    const perDevice = await t.db.k
      .selectFrom('readings')
      .select(['device_id', (e) => e.fn.countAll<string>().as('n')])
      .where('ts', '<=', new Date(begun))
      .groupBy('device_id')
      .execute();
    expect(perDevice.length).toBe(devices.length);
    for (const r of perDevice) expect(Number(r.n)).toBe(2);

    // A second start: readings exist, so no backfill (at most the first live reading per device).
    const count = async () =>
      Number(
        (
          await t.db.k
            .selectFrom('readings')
            .select((e) => e.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const sim2 = await startDemoSimulator(t.ctx, port, { intervalMs: 60_000, backfillHours: 2, now });
    await sim2!.backfilled;
    await sim2!.stop();
    expect((await count()) - before).toBeLessThanOrEqual(devices.length);
  });

  it('publishes every device of every terminal, values of the right quantities within plausible ranges', async () => {
    const specs: { id: number; spec: SimDeviceSpec; terminal: number }[] = [];
    const terms: { terminalId: number; key: string }[] = [];
    const modules = [
      [2, 8, 30],
      [11, 32],
    ];
    for (const [i, mods] of modules.entries()) {
      const term = await addTerminal(t, admin, site, `SIM-${i}`);
      terms.push(term);
      for (const m of mods!) {
        const n = `S${i}M${m}`;
        const id = await addDevice(t, admin, deviceBody(site, term.terminalId, n, { moduleId: m }));
        specs.push({ id, spec: { number: `DEV-${n}`, moduleId: m }, terminal: i });
      }
    }
    const now = clockAllOnline(specs.map((s) => s.spec.number));
    const begun = now();
    const sim = startSimulator({
      mqttUrl: `mqtt://127.0.0.1:${port}`,
      terminals: terms.map((term, i) => ({
        ...term,
        devices: specs.filter((s) => s.terminal === i).map((s) => s.spec),
      })),
      intervalMs: 200,
      backfillHours: 3,
      backfillStepMs: 10 * 60_000,
      batchSize: 7, // several backfill messages per device
      now,
    });
    try {
      await sim.backfilled;
      const started = now();
      await waitFor(async () => {
        for (const s of specs)
          if ((await readingsOf(s.id)).filter((r) => r.ts.getTime() >= started).length < 5) return false;
        return true;
      }, 20_000);
    } finally {
      await sim.stop();
    }
    for (const s of specs) {
      const rows = await readingsOf(s.id);
      // 3 hours every 10 minutes: 18 backfilled readings, then the live ones.
      expect(rows.filter((r) => r.ts.getTime() <= begun).length, s.spec.number).toBeGreaterThanOrEqual(18);
      const keys = quantitiesOf(s.spec.moduleId)
        .map((q) => q.key)
        .sort();
      for (const r of rows) {
        const vals = r.vals as Record<string, number>;
        expect(Object.keys(vals).sort()).toEqual(keys);
        for (const [k, v] of Object.entries(vals)) {
          expect(v, `${s.spec.number} ${k}`).toBeGreaterThanOrEqual(RANGES[k]![0]);
          expect(v, `${s.spec.number} ${k}`).toBeLessThanOrEqual(RANGES[k]![1]);
        }
      }
    }
    const st = sim.stats();
    expect(st.failed).toBe(0);
    expect(st.readings).toBeGreaterThanOrEqual(specs.length * 23);
    // The rollups are kept too (the writer's job, fed by the simulator).
    const hourly = await t.db.k
      .selectFrom('readings_hourly')
      .select('device_id')
      .where(
        'device_id',
        'in',
        specs.map((s) => s.id),
      )
      .groupBy('device_id')
      .execute();
    expect(hourly.length).toBe(specs.length);
  });

  it('a wrong key publishes nothing', async () => {
    const term = await addTerminal(t, admin, site, 'SIM-BAD');
    const id = await addDevice(t, admin, deviceBody(site, term.terminalId, 'BAD1', { moduleId: 2 }));
    const sim = startSimulator({
      mqttUrl: `mqtt://127.0.0.1:${port}`,
      terminals: [{ terminalId: term.terminalId, key: 'not-the-key', devices: [{ number: 'DEV-BAD1', moduleId: 2 }] }],
      intervalMs: 100,
    });
    await new Promise((r) => setTimeout(r, 1500));
    expect(sim.stats().connected).toBe(0);
    await sim.stop();
    expect(await readingsOf(id)).toHaveLength(0);
  });
});
