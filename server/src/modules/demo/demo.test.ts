import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, testApp, type TestApp } from '../../../test/harness.ts';
import { DEMO_SITES, seedDemo } from './demo.seed.ts';

describe('demo portfolio', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp();
  });
  afterAll(() => t.close());

  it('seeds a site of every kind, with terminals and 40+ devices across the main monitor types, through the API', async () => {
    const r = await seedDemo(t.app, t.db, 'admin');
    expect(r.sites).toBe(6);
    expect(r.devices).toBeGreaterThanOrEqual(40);
    const kinds = await t.db.k.selectFrom('platforms').select('type').distinct().execute();
    expect(kinds.map((k) => k.type).sort()).toEqual([
      'bridge',
      'disaster',
      'reservoir',
      'river',
      'sideslope',
      'tailings',
    ]);
    const modules = await t.db.k.selectFrom('devices').select('module_id').distinct().execute();
    const ids = new Set(modules.map((m) => m.module_id));
    for (const m of [1, 2, 9, 10, 8, 32, 36, 27]) expect(ids.has(m), `module ${m}`).toBe(true);
    expect(Object.keys(r.terminals).sort()).toEqual(DEMO_SITES.map((s) => s.key).sort());
    // The seeding session ended: the administrator can log in without "logged in elsewhere".
    expect((await t.login('admin', ADMIN_PASSWORD)).status).toBe(0);
    // The demo reservoir's dam section can be drawn: upstream face, capacity table, core-wall devices, level gauge.
    const seg = await t.db.k
      .selectFrom('sections')
      .select(['id', 'platform_id'])
      .where('name', '=', 'Dam section 0+120')
      .executeTakeFirstOrThrow();
    const view = await t.api<{
      upstreamCoords: unknown[];
      capacity: unknown[];
      phreatic: { deviceName: string }[];
      waterLevel: { from: string | null; deviceName: string | null };
    }>('GET', '/api/v2/data/monitor/view/reservoirSection', {
      token: await t.token(),
      query: { platformId: String(seg.platform_id), segmentId: String(seg.id) },
    });
    expect(view.status, view.info).toBe(0);
    expect(view.data.upstreamCoords).toHaveLength(4);
    expect(view.data.capacity).toHaveLength(5);
    expect(view.data.phreatic.map((p) => p.deviceName).sort()).toEqual([
      'XL uplift pressure 01',
      'XL uplift pressure 02',
    ]);
    expect(view.data.waterLevel).toMatchObject({ from: 'device', deviceName: 'XL upstream water level' });
  });
});
