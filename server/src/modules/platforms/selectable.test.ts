import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type SelectableSite } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { SITE, addSite, roleWith, scopedUser } from './platforms.testkit.ts';

/** GET platform/getSelectable: the sites a picker offers, by one call, limited to the caller's data scope. */
describe('selectable sites (site pickers)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  const selectable = (token: string) => t.api<SelectableSite[]>('GET', `${SITE}/getSelectable`, { token });

  it('answers every site of the scope with kind and region, and only the scope for a scoped user', async () => {
    const slide = await addSite(t, admin, 'disaster', { name: 'Pick slide', regionCode: '510107' });
    const lake = await addSite(t, admin, 'reservoir', { name: 'Pick lake' });
    const river = await addSite(t, admin, 'river', { name: 'Pick river' });

    const all = await selectable(admin);
    expect(all.status).toBe(Status.ok);
    const mine = all.data.filter((s) => s.name.startsWith('Pick '));
    expect(mine.map((s) => s.platformId)).toEqual([lake, river, slide]); // by name
    const s = mine.find((x) => x.platformId === slide)!;
    expect(s).toMatchObject({ type: 'disaster', regionCode: '510107' });
    expect(s.regionName).toEqual(expect.any(String));
    expect(mine.find((x) => x.platformId === lake)).toMatchObject({ type: 'reservoir', regionCode: null });

    // A user scoped to one site, whose role holds no site key, sees that site alone.
    await roleWith(t, admin, 'pickerOnly', ['information:terminal']);
    const tok = await scopedUser(t, admin, 'picker1', 'pickerOnly', [lake]);
    const scoped = await selectable(tok);
    expect(scoped.status).toBe(Status.ok);
    expect(scoped.data).toEqual([
      { platformId: lake, name: 'Pick lake', type: 'reservoir', regionCode: null, regionName: null },
    ]);
    // Without a session: refused.
    expect((await t.api('GET', `${SITE}/getSelectable`, {})).status).not.toBe(Status.ok);
  });
});
