import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type Page, type PlatformRow, type RoadSegmentRow } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import {
  BRIDGE_DETAILS,
  SEGMENT,
  SITE,
  addDevice,
  addSite,
  roleWith,
  scopedUser,
  snapshot,
} from './platforms.testkit.ts';

describe('sites (platforms)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  const list = (token: string, type: string, query: Record<string, string> = {}) =>
    t.api<Page<PlatformRow>>('GET', `${SITE}/${type}/getListPage`, { token, query });

  it('adds a site of every kind with its common fields and details, and lists it', async () => {
    const hazard = await addSite(t, admin, 'disaster', {
      name: 'Wuhou landslide',
      subType: 'landslide',
      description: 'North bank',
      manager: 'Li Wei',
      regionCode: '510107',
      lon: 104.05,
      lat: 30.64,
      alt: 512,
      organization: 'Chengdu geological survey',
      pictures: ['f-1', 'f-2'],
      files: ['doc-1'],
      details: {
        volume: 12.5,
        scaleGrade: 'medium',
        households: 14,
        people: 52,
        property: 300,
        riskLevel: 'large',
        preventionPlan: 'Drainage and anchors',
        monitor: 'Zhang San',
        monitorPhone: '+86 138 0000 0000',
        authenticatedAt: '2023-06-01',
      },
    });
    const slope = await addSite(t, admin, 'sideslope', {
      name: 'G318 cut slope',
      details: { roadName: 'G318', roadCode: 'G318', segment: 'K12+300 to K12+650', maxSlopeHeight: 42, volume: 3 },
    });
    const reservoir = await addSite(t, admin, 'reservoir', {
      name: 'Three Gorges',
      regionCode: '420506',
      details: {
        damType: 'concrete',
        totalCapacity: 3930000,
        damHeight: 181,
        highestAlertRatio: 0.9,
        completionDate: '2006-05-20',
      },
    });
    const river = await addSite(t, admin, 'river', {
      name: 'Min River',
      details: { length: 735, basinArea: 135881, waterSystem: 'Yangtze' },
    });
    const tailings = await addSite(t, admin, 'tailings', {
      name: 'Pond 3',
      details: { tailingsType: 'valley', status: 'inUse' },
    });
    const bridge = await addSite(t, admin, 'bridge', {
      name: 'Chuncheon bridge',
      regionCode: 'KR51110',
      details: {
        ...BRIDGE_DETAILS,
        bridgeType: 'steelTrussArch',
        archType: 'box',
        totalLength: 420.5,
        spanCount: 5,
        assessedLast3Years: true,
      },
    });
    expect(new Set([hazard, slope, reservoir, river, tailings, bridge]).size).toBe(6);

    const hazards = await list(admin, 'disaster');
    expect(hazards.status).toBe(0);
    expect(hazards.data.total).toBe(1);
    expect(hazards.data.list[0]).toMatchObject({
      platformId: hazard,
      type: 'disaster',
      subType: 'landslide',
      name: 'Wuhou landslide',
      manager: 'Li Wei',
      regionCode: '510107',
      regionPath: ['CN', '510000', '510100', '510107'],
      regionNames: ['China', 'Sichuan', 'Chengdu', 'Wuhou District'],
      lon: 104.05,
      lat: 30.64,
      alt: 512,
      organization: 'Chengdu geological survey',
      pictures: ['f-1', 'f-2'],
      files: ['doc-1'],
      details: { volume: 12.5, households: 14, riskLevel: 'large', authenticatedAt: '2023-06-01' },
    });
    const zh = await t.api<Page<PlatformRow>>('GET', `${SITE}/disaster/getListPage`, { token: admin, lang: 'zh' });
    expect(zh.data.list[0]!.regionNames).toEqual(['中国', '四川省', '成都市', '武侯区']);

    const bridges = await list(admin, 'bridge');
    expect(bridges.data.list[0]!.details).toMatchObject({
      code: 'G5-K1203',
      bridgeType: 'steelTrussArch',
      archType: 'box',
      spanCount: 5,
    });
    expect(bridges.data.list[0]!.regionNames).toEqual(['South Korea', 'Gangwon', 'Chuncheon']);
    const one = await t.api<PlatformRow>('GET', `${SITE}/getById`, {
      token: admin,
      query: { platformId: String(reservoir) },
    });
    expect(one.data).toMatchObject({ name: 'Three Gorges', details: { damType: 'concrete', damHeight: 181 } });
  });

  it('accepts form-encoded bodies: details as JSON text, file ids comma-separated', async () => {
    const r = await t.api<{ platformId: number }>('POST', `${SITE}/reservoir/add`, {
      token: admin,
      form: true,
      body: {
        name: 'Form reservoir',
        lon: '103.5',
        lat: '29.1',
        pictures: 'p1,p2',
        details: JSON.stringify({ damHeight: '30', damType: 'earthRock' }),
      },
    });
    expect(r.status).toBe(0);
    const got = await t.api<PlatformRow>('GET', `${SITE}/getById`, {
      token: admin,
      query: { platformId: String(r.data.platformId) },
    });
    expect(got.data).toMatchObject({
      lon: 103.5,
      lat: 29.1,
      pictures: ['p1', 'p2'],
      details: { damHeight: 30, damType: 'earthRock' },
    });
  });

  it('refuses bad input with a clear, translated error and changes nothing', async () => {
    const before = await snapshot(t, 'platforms');
    const bridge = await t.api<{ errors: { field: string; rule: string }[] }>('POST', `${SITE}/bridge/add`, {
      token: admin,
      body: { name: 'No code bridge', details: { location: 'Somewhere' } },
    });
    expect(bridge.status).toBe(Status.invalid);
    expect(bridge.data.errors.map((e) => e.field).sort()).toEqual([
      'details.bridgeType',
      'details.code',
      'details.custodyUnit',
    ]);
    expect(bridge.info).toMatch(/details\.code is required/);
    const noName = await t.api('POST', `${SITE}/bridge/add`, { token: admin, body: { details: BRIDGE_DETAILS } });
    expect(noName.info).toMatch(/name is required/);

    const lon = await t.api('POST', `${SITE}/river/add`, { token: admin, body: { name: 'Far east', lon: 181 } });
    expect(lon.status).toBe(Status.invalid);
    expect(lon.info).toMatch(/lon is too long or too large/);
    const lat = await t.api('POST', `${SITE}/river/add`, {
      token: admin,
      body: { name: 'Far south', lat: -90.5 },
      lang: 'zh',
    });
    expect(lat.info).toBe('输入有误：lat 过短或过小');

    const notLeaf = await t.api('POST', `${SITE}/river/add`, {
      token: admin,
      body: { name: 'Half region', regionCode: '510000' },
    });
    expect(notLeaf).toEqual({
      status: Status.invalid,
      info: 'Administrative region must be fully selected',
      data: null,
    });
    const notLeafKo = await t.api('POST', `${SITE}/river/add`, {
      token: admin,
      body: { name: 'Half region', regionCode: 'KR51' },
      lang: 'ko',
    });
    expect(notLeafKo.info).toBe('행정 구역을 끝까지 선택해야 합니다');
    const unknown = await t.api('POST', `${SITE}/river/add`, {
      token: admin,
      body: { name: 'Nowhere', regionCode: 'XX999' },
    });
    expect(unknown.info).toBe('The administrative region does not exist');

    const extraKey = await t.api('POST', `${SITE}/river/add`, {
      token: admin,
      body: { name: 'Typo', details: { lenght: 3 } },
    });
    expect(extraKey.info).toMatch(/details has unknown keys/);
    const ratio = await t.api('POST', `${SITE}/reservoir/add`, {
      token: admin,
      body: { name: 'Ratio', details: { highestAlertRatio: 1.5 } },
    });
    expect(ratio.info).toMatch(/details\.highestAlertRatio is too long or too large/);
    const arch = await t.api('POST', `${SITE}/bridge/add`, {
      token: admin,
      body: { name: 'Beam', details: { ...BRIDGE_DETAILS, archType: 'box' } },
    });
    expect(arch.info).toMatch(/details\.archType is not valid/);
    const badType = await t.api('POST', `${SITE}/bridge/add`, {
      token: admin,
      body: { name: 'Odd', details: { ...BRIDGE_DETAILS, bridgeType: 'rope' } },
    });
    expect(badType.info).toMatch(/details\.bridgeType is not one of the allowed values/);
    const badDate = await t.api('POST', `${SITE}/reservoir/add`, {
      token: admin,
      body: { name: 'Date', details: { completionDate: '2006-13-01' } },
    });
    expect(badDate.info).toMatch(/details\.completionDate is not well formed/);
    const badKind = await t.api('POST', `${SITE}/volcano/add`, { token: admin, body: { name: 'Etna' } });
    expect(badKind.status).toBe(Status.invalid);
    const badEnterprise = await t.api('POST', `${SITE}/river/add`, {
      token: admin,
      body: { name: 'E', enterpriseId: 987654 },
    });
    expect(badEnterprise.info).toBe('The enterprise does not exist');

    expect(await snapshot(t, 'platforms')).toEqual(before);
  });

  it('edits a site: common fields replaced, details/pictures/files kept unless given', async () => {
    const id = await addSite(t, admin, 'tailings', {
      name: 'Pond 7',
      manager: 'Wang',
      pictures: ['a'],
      details: { tailingsType: 'flat', status: 'inUse' },
    });
    const e1 = await t.api('POST', `${SITE}/tailings/edit`, {
      token: admin,
      body: { platformId: id, name: 'Pond 7b', regionCode: '530113', lat: 26.1 },
    });
    expect(e1).toMatchObject({ status: 0, info: 'Modified successfully' });
    let got = (await t.api<PlatformRow>('GET', `${SITE}/getById`, { token: admin, query: { platformId: String(id) } }))
      .data;
    expect(got).toMatchObject({
      name: 'Pond 7b',
      manager: null,
      regionCode: '530113',
      lat: 26.1,
      pictures: ['a'],
      details: { tailingsType: 'flat', status: 'inUse' },
    });
    await t.api('POST', `${SITE}/tailings/edit`, {
      token: admin,
      body: { platformId: id, name: 'Pond 7b', pictures: [], details: { status: 'closed' } },
    });
    got = (await t.api<PlatformRow>('GET', `${SITE}/getById`, { token: admin, query: { platformId: String(id) } }))
      .data;
    expect(got).toMatchObject({ pictures: [], details: { status: 'closed' } });
    expect(got.details).not.toHaveProperty('tailingsType');

    // A site edited through another kind's path answers like a missing one.
    const wrongKind = await t.api('POST', `${SITE}/river/edit`, { token: admin, body: { platformId: id, name: 'X' } });
    const missing = await t.api('POST', `${SITE}/river/edit`, {
      token: admin,
      body: { platformId: 999999, name: 'X' },
    });
    expect(wrongKind).toEqual(missing);
    expect(missing.status).toBe(Status.notFound);
    const badDetails = await t.api('POST', `${SITE}/tailings/edit`, {
      token: admin,
      body: { platformId: id, name: 'Y', details: { status: 'boiling' } },
    });
    expect(badDetails.status).toBe(Status.invalid);
    expect(
      (await t.api<PlatformRow>('GET', `${SITE}/getById`, { token: admin, query: { platformId: String(id) } })).data
        .name,
    ).toBe('Pond 7b');
  });

  it('pages, filters and sorts the list on the server', async () => {
    for (const [name, regionCode] of [
      ['Pager C', '510104'],
      ['Pager A', '511802'],
      ['Pager B', '330106'],
      ['Pager D', null],
    ] as const) {
      await addSite(t, admin, 'river', { name, ...(regionCode ? { regionCode } : {}) });
    }
    const page = await list(admin, 'river', {
      keyword: 'pager',
      pageNum: '2',
      pageSize: '2',
      sortField: 'name',
      sortOrder: 'descend',
    });
    expect(page.data).toMatchObject({ total: 4, pageNum: 2, pageSize: 2 });
    expect(page.data.list.map((p) => p.name)).toEqual(['Pager B', 'Pager A']);
    const sichuan = await list(admin, 'river', { keyword: 'pager', regionCode: '510000', sortField: 'regionCode' });
    expect(sichuan.data.list.map((p) => p.name)).toEqual(['Pager C', 'Pager A']);
    const dflt = await list(admin, 'river');
    expect(dflt.data.pageSize).toBe(1000);
    expect(dflt.data.pageNum).toBe(1);
  });

  it('refuses to delete a site that still has devices or sections, naming what to remove', async () => {
    const id = await addSite(t, admin, 'reservoir', { name: 'Busy reservoir' });
    const seg = await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, {
      token: admin,
      body: { platformId: id, name: 'Main dam' },
    });
    expect(seg.status).toBe(0);
    const withSection = await t.api('POST', `${SITE}/reservoir/delete`, { token: admin, body: { platformId: id } });
    expect(withSection).toEqual({
      status: Status.conflict,
      info: 'The site still has 1 sections: delete them first',
      data: null,
    });

    const device = await addDevice(t, id, 3, 'busy-gauge');
    const withDevice = await t.api('POST', `${SITE}/reservoir/delete`, {
      token: admin,
      body: { platformId: id },
      lang: 'zh',
    });
    expect(withDevice.info).toBe('该平台仍有 1 台设备，请先移除设备');
    expect((await t.api('GET', `${SITE}/getById`, { token: admin, query: { platformId: String(id) } })).status).toBe(0);

    await t.db.k.deleteFrom('devices').where('id', '=', device).execute();
    expect(
      (await t.api('POST', `${SEGMENT}/delete`, { token: admin, body: { segmentId: seg.data.segmentId } })).status,
    ).toBe(0);
    const ok = await t.api('POST', `${SITE}/reservoir/delete`, { token: admin, body: { platformId: id } });
    expect(ok).toMatchObject({ status: 0, info: 'Deleted successfully' });
    expect((await t.api('GET', `${SITE}/getById`, { token: admin, query: { platformId: String(id) } })).status).toBe(
      Status.notFound,
    );
  });

  it('lists the road segments of slopes', async () => {
    const r = await t.api<RoadSegmentRow[]>('GET', `${SITE}/getRoadSegment`, { token: admin });
    expect(r.status).toBe(0);
    expect(r.data).toEqual([
      {
        platformId: expect.any(Number),
        platformName: 'G318 cut slope',
        name: 'G318',
        code: 'G318',
        segment: 'K12+300 to K12+650',
        description: null,
        regionCode: null,
      },
    ]);
  });

  it('keeps users to their data scope: foreign sites answer like missing ones and stay unchanged', async () => {
    const mine = await addSite(t, admin, 'reservoir', { name: 'Scope mine' });
    const theirs = await addSite(t, admin, 'reservoir', { name: 'Scope theirs', manager: 'Original' });
    const mySlope = await addSite(t, admin, 'sideslope', { name: 'Scope slope mine', details: { roadName: 'S1' } });
    await addSite(t, admin, 'sideslope', { name: 'Scope slope theirs', details: { roadName: 'S2' } });
    await roleWith(t, admin, 'siteKeeper', ['information:platform:reservoir', 'information:road']);
    const tok = await scopedUser(t, admin, 'keeper1', 'siteKeeper', [mine, mySlope]);

    const l = await list(tok, 'reservoir');
    expect(l.data.list.map((p) => p.name)).toEqual(['Scope mine']);
    expect(l.data.total).toBe(1);

    const before = await snapshot(t, 'platforms');
    const editForeign = await t.api('POST', `${SITE}/reservoir/edit`, {
      token: tok,
      body: { platformId: theirs, name: 'Hijacked' },
    });
    const editMissing = await t.api('POST', `${SITE}/reservoir/edit`, {
      token: tok,
      body: { platformId: 999999, name: 'Hijacked' },
    });
    expect(editForeign).toEqual(editMissing);
    expect(editForeign).toEqual({ status: Status.notFound, info: 'The site does not exist', data: null });
    const delForeign = await t.api('POST', `${SITE}/reservoir/delete`, { token: tok, body: { platformId: theirs } });
    const delMissing = await t.api('POST', `${SITE}/reservoir/delete`, { token: tok, body: { platformId: 999999 } });
    expect(delForeign).toEqual(delMissing);
    const getForeign = await t.api('GET', `${SITE}/getById`, { token: tok, query: { platformId: String(theirs) } });
    const getMissing = await t.api('GET', `${SITE}/getById`, { token: tok, query: { platformId: '999999' } });
    expect(getForeign).toEqual(getMissing);
    expect(await snapshot(t, 'platforms')).toEqual(before);

    const roads = await t.api<RoadSegmentRow[]>('GET', `${SITE}/getRoadSegment`, { token: tok });
    expect(roads.data.map((r) => r.name)).toEqual(['S1']);
    expect((await t.api('GET', `${SITE}/river/getListPage`, { token: tok })).status).toBe(Status.noPermission);
    expect((await t.api('POST', `${SITE}/river/add`, { token: tok, body: { name: 'Not allowed' } })).status).toBe(
      Status.noPermission,
    );

    // A site made by a scoped user joins their scope.
    const made = await addSite(t, tok, 'reservoir', { name: 'Scope made' });
    expect((await list(tok, 'reservoir')).data.list.map((p) => p.platformId)).toEqual([mine, made]);
    const edited = await t.api('POST', `${SITE}/reservoir/edit`, {
      token: tok,
      body: { platformId: made, name: 'Scope made 2' },
    });
    expect(edited.status).toBe(0);
  });

  it('needs the information:road permission for road segments', async () => {
    await roleWith(t, admin, 'noRoad', ['information:platform:sideslope']);
    const tok = await scopedUser(t, admin, 'noroad1', 'noRoad', []);
    expect((await t.api('GET', `${SITE}/getRoadSegment`, { token: tok })).status).toBe(Status.noPermission);
    expect((await list(tok, 'sideslope')).data.total).toBe(0);
  });
});
