import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PersonRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';

const R = '/api/v2/data/information/responsible';
type Page<T> = { list: T[]; total: number };

// Issue 15 (low): filtering persons by a site outside the caller's scope answers exactly like a missing site,
// so the filter cannot tell which visible persons are bound to a foreign site.
describe('responsible persons filtered by site (security)', () => {
  let t: TestApp;
  let tok: string;
  let foreign: number;
  beforeAll(async () => {
    t = await testApp();
    const admin = await t.token();
    const own = await buildPlatform(t, { type: 'sideslope', name: 'Own' });
    foreign = await buildPlatform(t, { type: 'tailings', name: 'Foreign' });
    const add = await t.api('POST', `${R}/add`, {
      token: admin,
      body: { name: 'Both sites', phone: '13800000001', platformIds: [own, foreign] },
    });
    expect(add.status).toBe(0);
    await roleWith(t, admin, 'personViewer', ['information:responsible']);
    tok = await userToken(t, admin, { account: 'viewer', roleCode: 'personViewer', platformIds: [own] });
  });
  afterAll(() => t.close());

  it('answers a foreign site filter like a missing one', async () => {
    const page = (platformId: number) =>
      t.api<Page<PersonRow>>('GET', `${R}/getListPage`, { token: tok, query: { platformId: String(platformId) } });
    const all = await t.api<Page<PersonRow>>('GET', `${R}/getListPage`, { token: tok });
    expect(all.data.list.map((p) => p.name)).toContain('Both sites');
    const f = await page(foreign);
    const m = await page(2_000_000_000);
    expect({ status: f.status, data: f.data }).toEqual({ status: m.status, data: m.data });
    expect(f.data.total).toBe(0);
  });
});
