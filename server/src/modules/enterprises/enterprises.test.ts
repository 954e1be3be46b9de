import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type EnterpriseOption, type EnterpriseRow, type Page, type PlatformRow } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { ENTERPRISE, SITE, addSite, roleWith, scopedUser, snapshot } from '../platforms/platforms.testkit.ts';

describe('enterprises and management organisations', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  const add = async (kind: string, body: Record<string, unknown>, token = admin): Promise<number> => {
    const r = await t.api<{ enterpriseId: number }>('POST', `${ENTERPRISE}/${kind}/add`, { token, body });
    if (r.status !== 0) throw new Error(`${r.status} ${r.info}`);
    return r.data.enterpriseId;
  };
  const list = (kind: string, query: Record<string, string> = {}, token = admin) =>
    t.api<Page<EnterpriseRow>>('GET', `${ENTERPRISE}/${kind}/getListPage`, { token, query });

  it('keeps two variants: tailings, and general for every other kind', async () => {
    const group = await add('disaster', {
      name: 'Sichuan Geo Group',
      code: 'SGG',
      address: 'Chengdu',
      description: 'Holding',
    });
    const sub = await add('reservoir', { name: 'Min River Hydro', code: 'MRH', parentId: group });
    const tail = await add('tailings', { name: 'Panzhihua Mining', code: 'PZM' });
    const general = await list('general');
    expect(general.data.total).toBe(2);
    expect(general.data.list.find((e) => e.enterpriseId === sub)).toMatchObject({
      enterpriseType: 'general',
      name: 'Min River Hydro',
      parentId: group,
      parentName: 'Sichuan Geo Group',
      platforms: [],
    });
    expect((await list('bridge')).data.total).toBe(2);
    const tailings = await list('tailings');
    expect(tailings.data.list.map((e) => e.enterpriseId)).toEqual([tail]);
    const all = await t.api<EnterpriseOption[]>('GET', `${ENTERPRISE}/river/getAll`, { token: admin });
    expect(all.data.map((e) => e.name)).toEqual(['Min River Hydro', 'Sichuan Geo Group']);
    const badType = await list('volcano');
    expect(badType.status).toBe(Status.invalid);
  });

  it('keeps names unique within a variant', async () => {
    const before = await snapshot(t, 'enterprises');
    const dupe = await t.api('POST', `${ENTERPRISE}/river/add`, { token: admin, body: { name: 'sichuan geo group' } });
    expect(dupe).toEqual({ status: Status.conflict, info: 'The name is already used', data: null });
    const dupeZh = await t.api('POST', `${ENTERPRISE}/river/add`, {
      token: admin,
      body: { name: 'SICHUAN GEO GROUP' },
      lang: 'zh',
    });
    expect(dupeZh.info).toBe('名称重复');
    const empty = await t.api('POST', `${ENTERPRISE}/river/add`, { token: admin, body: { name: '  ' } });
    expect(empty.status).toBe(Status.invalid);
    expect(await snapshot(t, 'enterprises')).toEqual(before);
    // The other variant may use the name.
    expect(await add('tailings', { name: 'Sichuan Geo Group' })).toBeGreaterThan(0);
    const other = await add('river', { name: 'Renamed later' });
    const rename = await t.api('POST', `${ENTERPRISE}/river/edit`, {
      token: admin,
      body: { enterpriseId: other, name: 'Min River Hydro' },
    });
    expect(rename.status).toBe(Status.conflict);
  });

  it('checks the higher group: same variant, no loops', async () => {
    const a = await add('general', { name: 'Loop A' });
    const b = await add('general', { name: 'Loop B', parentId: a });
    const c = await add('general', { name: 'Loop C', parentId: b });
    const cycle = await t.api('POST', `${ENTERPRISE}/general/edit`, {
      token: admin,
      body: { enterpriseId: a, name: 'Loop A', parentId: c },
    });
    expect(cycle.info).toBe(
      'The higher group must be another enterprise of the same kind, and not one of its subordinates',
    );
    const self = await t.api('POST', `${ENTERPRISE}/general/edit`, {
      token: admin,
      body: { enterpriseId: a, name: 'Loop A', parentId: a },
    });
    expect(self.status).toBe(Status.invalid);
    const tail = (await list('tailings')).data.list[0]!.enterpriseId;
    const cross = await t.api('POST', `${ENTERPRISE}/general/add`, {
      token: admin,
      body: { name: 'Cross', parentId: tail },
    });
    expect(cross.status).toBe(Status.invalid);
    const ok = await t.api('POST', `${ENTERPRISE}/general/edit`, {
      token: admin,
      body: { enterpriseId: c, name: 'Loop C', parentId: a, address: 'Hangzhou' },
    });
    expect(ok.status).toBe(0);
    const row = (await list('general', { keyword: 'loop c' })).data.list[0]!;
    expect(row).toMatchObject({ parentName: 'Loop A', address: 'Hangzhou' });
    // Deleting a higher group leaves its subordinates without one.
    expect(
      (await t.api('POST', `${ENTERPRISE}/general/delete`, { token: admin, body: { enterpriseId: a } })).status,
    ).toBe(0);
    expect((await list('general', { keyword: 'loop c' })).data.list[0]!.parentId).toBeNull();
    const foreignEdit = await t.api('POST', `${ENTERPRISE}/tailings/edit`, {
      token: admin,
      body: { enterpriseId: b, name: 'X' },
    });
    expect(foreignEdit).toEqual({ status: Status.notFound, info: 'The enterprise does not exist', data: null });
  });

  it('pages, searches and sorts on the server', async () => {
    for (const n of ['Sort 3', 'Sort 1', 'Sort 2']) await add('general', { name: n, code: n.replace(' ', '') });
    const page = await list('general', {
      keyword: 'sort',
      pageNum: '1',
      pageSize: '2',
      sortField: 'name',
      sortOrder: 'descend',
    });
    expect(page.data).toMatchObject({ total: 3, pageNum: 1, pageSize: 2 });
    expect(page.data.list.map((e) => e.name)).toEqual(['Sort 3', 'Sort 2']);
    const byCode = await list('general', { keyword: 'sort1' });
    expect(byCode.data.list.map((e) => e.name)).toEqual(['Sort 1']);
  });

  it('binds sites, refuses deleting while bound, and unbinds', async () => {
    const ent = await add('reservoir', { name: 'Binder Co' });
    const site = await addSite(t, admin, 'reservoir', { name: 'Bound reservoir' });
    const bind = await t.api('POST', `${ENTERPRISE}/reservoir/bindPlatform`, {
      token: admin,
      body: { enterpriseId: ent, platformId: site },
    });
    expect(bind.status).toBe(0);
    const sites = await t.api<Page<PlatformRow>>('GET', `${SITE}/reservoir/getListPage`, {
      token: admin,
      query: { enterpriseId: String(ent) },
    });
    expect(sites.data.list.map((p) => [p.name, p.enterpriseName])).toEqual([['Bound reservoir', 'Binder Co']]);
    const row = (await list('general', { keyword: 'binder' })).data.list[0]!;
    expect(row.platforms).toEqual([{ platformId: site, type: 'reservoir', name: 'Bound reservoir' }]);

    const del = await t.api('POST', `${ENTERPRISE}/reservoir/delete`, { token: admin, body: { enterpriseId: ent } });
    expect(del).toEqual({
      status: Status.conflict,
      info: 'The enterprise still has 1 bound sites: unbind them first',
      data: null,
    });

    // A tailings pond binds a tailings enterprise only, on either path.
    const pond = await addSite(t, admin, 'tailings', { name: 'Pond 9' });
    const wrong = await t.api('POST', `${ENTERPRISE}/reservoir/bindPlatform`, {
      token: admin,
      body: { enterpriseId: ent, platformId: pond },
    });
    expect(wrong.info).toBe('Tailings ponds bind tailings enterprises; other sites bind general enterprises');
    const tailEnt = (await list('tailings')).data.list[0]!.enterpriseId;
    expect(
      (
        await t.api('POST', `${ENTERPRISE}/tailings/bindPlatform`, {
          token: admin,
          body: { enterpriseId: tailEnt, platformId: pond },
        })
      ).status,
    ).toBe(0);
    const wrongOnAdd = await t.api('POST', `${SITE}/tailings/add`, {
      token: admin,
      body: { name: 'Pond 10', enterpriseId: ent },
    });
    expect(wrongOnAdd.status).toBe(Status.invalid);
    expect(await addSite(t, admin, 'tailings', { name: 'Pond 11', enterpriseId: tailEnt })).toBeGreaterThan(0);

    const notBound = await t.api('POST', `${ENTERPRISE}/reservoir/unbindPlatform`, {
      token: admin,
      body: {
        enterpriseId: (await list('general', { keyword: 'sort 1' })).data.list[0]!.enterpriseId,
        platformId: site,
      },
    });
    expect(notBound.info).toBe('The site is not bound to this enterprise');
    const unbind = await t.api('POST', `${ENTERPRISE}/reservoir/unbindPlatform`, {
      token: admin,
      body: { enterpriseId: ent, platformId: site },
    });
    expect(unbind.status).toBe(0);
    expect(
      (await t.api('POST', `${ENTERPRISE}/reservoir/delete`, { token: admin, body: { enterpriseId: ent } })).status,
    ).toBe(0);
    expect(
      (await t.api<PlatformRow>('GET', `${SITE}/getById`, { token: admin, query: { platformId: String(site) } })).data
        .enterpriseId,
    ).toBeNull();
  });

  it("binds only sites within the caller's scope; a foreign site answers like a missing one", async () => {
    const ent = await add('river', { name: 'Scoped Co' });
    const mine = await addSite(t, admin, 'river', { name: 'Scoped mine' });
    const theirs = await addSite(t, admin, 'river', { name: 'Scoped theirs' });
    await t.api('POST', `${ENTERPRISE}/river/bindPlatform`, {
      token: admin,
      body: { enterpriseId: ent, platformId: theirs },
    });
    await roleWith(t, admin, 'entKeeper', ['information:enterprise']);
    const tok = await scopedUser(t, admin, 'entkeeper1', 'entKeeper', [mine]);

    const before = await snapshot(t, 'platforms');
    const foreign = await t.api('POST', `${ENTERPRISE}/river/bindPlatform`, {
      token: tok,
      body: { enterpriseId: ent, platformId: theirs },
    });
    const missing = await t.api('POST', `${ENTERPRISE}/river/bindPlatform`, {
      token: tok,
      body: { enterpriseId: ent, platformId: 999999 },
    });
    expect(foreign).toEqual(missing);
    expect(foreign.info).toBe('The site does not exist');
    const unbindForeign = await t.api('POST', `${ENTERPRISE}/river/unbindPlatform`, {
      token: tok,
      body: { enterpriseId: ent, platformId: theirs },
    });
    expect(unbindForeign).toEqual(missing);
    expect(await snapshot(t, 'platforms')).toEqual(before);

    // The list shows only the bound sites the caller may see.
    expect((await list('river', { keyword: 'scoped co' }, tok)).data.list[0]!.platforms).toEqual([]);
    expect(
      (
        await t.api('POST', `${ENTERPRISE}/river/bindPlatform`, {
          token: tok,
          body: { enterpriseId: ent, platformId: mine },
        })
      ).status,
    ).toBe(0);
    expect((await list('river', { keyword: 'scoped co' }, tok)).data.list[0]!.platforms.map((p) => p.name)).toEqual([
      'Scoped mine',
    ]);
    expect((await list('river', { keyword: 'scoped co' })).data.list[0]!.platforms).toHaveLength(2);

    // The tailings variant has its own permission.
    expect((await list('tailings', {}, tok)).status).toBe(Status.noPermission);
    expect((await t.api('POST', `${ENTERPRISE}/tailings/add`, { token: tok, body: { name: 'Nope' } })).status).toBe(
      Status.noPermission,
    );
    expect((await t.api('GET', `${ENTERPRISE}/tailings/getAll`, { token: tok })).status).toBe(0);
  });
});
