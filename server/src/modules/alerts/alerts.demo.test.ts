import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { seedDemo } from '../demo/demo.seed.ts';
import { startDemoSimulator } from '../simulator/simulator.demo.ts';
import { DEMO_TARGETS } from './alerts.demo.ts';

describe('DEMO thresholds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ mqttPort: 0 });
  });
  afterAll(() => t.close());

  it("puts alert values on demo devices so the simulator's week raises alerts of several levels", async () => {
    await seedDemo(t.app, t.db, 'admin');
    const rules = await t.db.k
      .selectFrom('alert_rules')
      .select(['id', 'device_id', 'level', 'value', 'direction'])
      .execute();
    expect(rules.length).toBe(4 * DEMO_TARGETS.length);
    // They name the demo contact group of the notifications feature.
    const groups = await sql<{ id: number }>`select id from alert_groups`.execute(t.db.k);
    const ruleGroups = await t.db.k.selectFrom('alert_rules').select('group_id').distinct().execute();
    expect(ruleGroups.map((g) => g.group_id)).toEqual([groups.rows[0]!.id]);
    const sim = await startDemoSimulator(t.ctx, t.built.mqtt!.port!, { intervalMs: 60_000 });
    try {
      await sim!.backfilled;
    } finally {
      await sim!.stop();
    }
    await new Promise((r) => setTimeout(r, 50));
    await t.built.alertEngine.idle();
    const alerts = await t.db.k.selectFrom('alerts').select(['device_id', 'level', 'kind', 'status']).execute();
    const levels = new Set(alerts.filter((a) => a.kind === 'single').map((a) => a.level));
    expect(levels.size, JSON.stringify(alerts)).toBeGreaterThanOrEqual(3);
    // One open alert per watched device (de-duplicated and escalated to the level the thresholds aim at).
    const devices = new Set(rules.sort((a, b) => a.id - b.id).map((r) => r.device_id));
    const single = alerts.filter((a) => a.kind === 'single');
    expect([...devices].map((d) => single.filter((a) => a.device_id === d).map((a) => a.level))).toEqual(
      DEMO_TARGETS.map((l) => [l]),
    );
    const states = await t.db.k
      .selectFrom('devices')
      .select('state')
      .where('id', 'in', [...devices])
      .execute();
    expect(states.some((s) => s.state === 'alarm')).toBe(true);
  }, 120_000);
});
