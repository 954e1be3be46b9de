import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  type CapacityRow,
  type HeartWallBinding,
  type Page,
  type RiverWaterElevationRow,
  type SectionRow,
} from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import {
  BRIDGE_DETAILS,
  SEGMENT,
  addDevice,
  addSite,
  roleWith,
  scopedUser,
  snapshot,
} from '../platforms/platforms.testkit.ts';

const COORDS = [
  { x: 10, y: 200, elevation: 100 },
  { x: 60, y: 100, elevation: 150 },
  { x: 120, y: 20, elevation: 181 },
];

describe('sections (segments)', () => {
  let t: TestApp;
  let admin: string;
  let reservoir: number;
  let river: number;
  let dam: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    reservoir = await addSite(t, admin, 'reservoir', { name: 'Section reservoir' });
    river = await addSite(t, admin, 'river', { name: 'Section river' });
  });
  afterAll(() => t.close());

  const post = (path: string, body: Record<string, unknown>, token = admin, lang = 'en') =>
    t.api<Record<string, unknown>>('POST', `${SEGMENT}/${path}`, { token, body, lang });
  const get = <T>(path: string, query: Record<string, string>, token = admin) =>
    t.api<T>('GET', `${SEGMENT}/${path}`, { token, query });
  const section = async (id: number): Promise<SectionRow> =>
    (await get<Page<SectionRow>>('getListPage', {})).data.list.find((s) => s.segmentId === id)!;

  it('adds sections to reservoirs, rivers, hazard points and slopes only', async () => {
    const r = await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, {
      token: admin,
      body: {
        platformId: reservoir,
        name: 'Main dam',
        info: 'Concrete gravity',
        bottomElevation: 90,
        fileId: 'drawing-1',
      },
    });
    expect(r).toMatchObject({ status: 0, info: 'Added successfully' });
    dam = r.data.segmentId;
    expect((await post('add', { platformId: reservoir, name: 'Spillway' })).status).toBe(0);
    const hazard = await addSite(t, admin, 'disaster', { name: 'Section hazard' });
    expect((await post('add', { platformId: hazard, name: 'Profile 1' })).status).toBe(0);

    const bridge = await addSite(t, admin, 'bridge', { name: 'Section bridge', details: BRIDGE_DETAILS });
    const before = await snapshot(t, 'sections');
    const onBridge = await post('add', { platformId: bridge, name: 'Deck' });
    expect(onBridge).toEqual({
      status: Status.invalid,
      info: 'Sections are kept only for reservoirs, rivers, hazard points and slopes',
      data: null,
    });
    const dupe = await post('add', { platformId: reservoir, name: 'main DAM' });
    expect(dupe).toEqual({ status: Status.conflict, info: 'The name is already used', data: null });
    const noSite = await post('add', { platformId: 999999, name: 'Ghost' });
    expect(noSite.info).toBe('The site does not exist');
    const noName = await post('add', { platformId: reservoir });
    expect(noName.status).toBe(Status.invalid);
    expect(await snapshot(t, 'sections')).toEqual(before);

    const byPlatform = await get<SectionRow[]>('getByPlatformId', { platformId: String(reservoir) });
    expect(byPlatform.data.map((s) => s.name)).toEqual(['Main dam', 'Spillway']);
    expect(byPlatform.data[0]).toMatchObject({
      segmentId: dam,
      platformId: reservoir,
      platformName: 'Section reservoir',
      platformType: 'reservoir',
      info: 'Concrete gravity',
      bottomElevation: 90,
      fileId: 'drawing-1',
      upstreamCoords: [],
      waterLevelSource: 'manual',
      manualWaterLevel: null,
      position: null,
    });
    const page = await get<Page<SectionRow>>('getListPage', { keyword: 'dam', sortField: 'name' });
    expect(page.data).toMatchObject({ total: 1, pageNum: 1, pageSize: 1000 });
    const paged = await get<Page<SectionRow>>('getListPage', {
      pageSize: '1',
      pageNum: '2',
      sortField: 'name',
      sortOrder: 'ascend',
    });
    expect(paged.data.total).toBe(3);
    expect(paged.data.list.map((s) => s.name)).toEqual(['Profile 1']);
  });

  it('edits a section and places it on the schematic', async () => {
    expect(
      (await post('edit', { segmentId: dam, name: 'Main dam', info: 'Gravity dam', bottomElevation: 95 })).status,
    ).toBe(0);
    expect((await post('updatePosition', { segmentId: dam, x: 120.5, y: 48 })).status).toBe(0);
    expect(await section(dam)).toMatchObject({
      info: 'Gravity dam',
      bottomElevation: 95,
      fileId: null,
      position: { x: 120.5, y: 48 },
    });
    const negative = await post('updatePosition', { segmentId: dam, x: -1, y: 5 });
    expect(negative.status).toBe(Status.invalid);
    const clash = await post('edit', { segmentId: dam, name: 'Spillway' });
    expect(clash.status).toBe(Status.conflict);
    const missing = await post('edit', { segmentId: 999999, name: 'x' });
    expect(missing).toEqual({ status: Status.notFound, info: 'The section does not exist', data: null });
  });

  it('needs at least 3 upstream-face coordinates', async () => {
    const two = await post('setUpstreamCoords', { segmentId: dam, coords: COORDS.slice(0, 2) });
    expect(two).toEqual({
      status: Status.invalid,
      info: 'At least 3 upstream-face coordinates must be set',
      data: null,
    });
    const twoZh = await post('setUpstreamCoords', { segmentId: dam, coords: [] }, admin, 'zh');
    expect(twoZh.info).toBe('至少需要设置 3 个迎水面坐标');
    expect((await section(dam)).upstreamCoords).toEqual([]);
  });

  it('sets the water level only once the upstream coordinates exist, within their range', async () => {
    const first = await post('setWaterLevel', { segmentId: dam, source: 'manual', level: 120 });
    expect(first).toEqual({
      status: Status.invalid,
      info: 'Set the upstream (dam section) coordinates first',
      data: null,
    });

    // Form-encoded: the coordinates travel as JSON text.
    const set = await t.api('POST', `${SEGMENT}/setUpstreamCoords`, {
      token: admin,
      form: true,
      body: { segmentId: String(dam), coords: JSON.stringify(COORDS) },
    });
    expect(set.status).toBe(0);
    expect((await section(dam)).upstreamCoords).toEqual(COORDS);

    const low = await post('setWaterLevel', { segmentId: dam, source: 'manual', level: 94.5 });
    expect(low.info).toBe('The water level must not be lower than the bottom elevation (95 m)');
    const high = await post('setWaterLevel', { segmentId: dam, source: 'manual', level: 181.5 });
    expect(high.info).toBe('The water level must not be higher than the highest upstream coordinate (181 m)');
    const none = await post('setWaterLevel', { segmentId: dam, source: 'manual' });
    expect(none.info).toBe('Enter the water level');
    const badSource = await post('setWaterLevel', { segmentId: dam, source: 'guess', level: 120 });
    expect(badSource.status).toBe(Status.invalid);
    expect(await section(dam)).toMatchObject({ waterLevelSource: 'manual', manualWaterLevel: null });

    expect((await post('setWaterLevel', { segmentId: dam, source: 'manual', level: 150.25 })).status).toBe(0);
    expect(await section(dam)).toMatchObject({ waterLevelSource: 'manual', manualWaterLevel: 150.25 });
  });

  it('switches to an automatic water level only when the site has a water-level device', async () => {
    const noDevice = await post('setWaterLevel', { segmentId: dam, source: 'auto' });
    expect(noDevice).toEqual({ status: Status.invalid, info: 'Add a water-level device first', data: null });
    await addDevice(t, reservoir, 5, 'dam-deformation-1');
    expect((await post('setWaterLevel', { segmentId: dam, source: 'auto' }, admin, 'ko')).info).toBe(
      '먼저 수위 장치를 추가하세요',
    );
    // A water-level device of another site does not count.
    await addDevice(t, river, 3, 'river-gauge-1');
    expect((await post('setWaterLevel', { segmentId: dam, source: 'auto' })).status).toBe(Status.invalid);
    await addDevice(t, reservoir, 16, 'dam-gauge-1');
    expect((await post('setWaterLevel', { segmentId: dam, source: 'auto' })).status).toBe(0);
    expect(await section(dam)).toMatchObject({ waterLevelSource: 'auto', manualWaterLevel: 150.25 });
  });

  it('keeps capacity tables per site and per section; levels and volumes must rise', async () => {
    const rows: CapacityRow[] = [
      { index: 2, waterLevelElevation: 110, waterVolume: 20 },
      { index: 1, waterLevelElevation: 100, waterVolume: 0 },
      { index: 3, waterLevelElevation: 120, waterVolume: 45.5 },
    ];
    expect((await post('setCapacityList', { platformId: reservoir, rows })).status).toBe(0);
    const site = await get<CapacityRow[]>('getCapacityList', { platformId: String(reservoir) });
    expect(site.data.map((r) => r.index)).toEqual([1, 2, 3]);
    const spec = await t.api<CapacityRow[]>('GET', '/api/v2/data/reservoir/getCapacityList', {
      token: admin,
      query: { platformId: String(reservoir) },
    });
    expect(spec.data).toEqual(site.data);

    const form = await t.api('POST', `${SEGMENT}/setCapacityList`, {
      token: admin,
      form: true,
      body: {
        platformId: String(reservoir),
        segmentId: String(dam),
        rows: JSON.stringify([{ index: '1', waterLevelElevation: '95', waterVolume: '0' }]),
      },
    });
    expect(form.status).toBe(0);
    expect(
      (await get<CapacityRow[]>('getCapacityList', { platformId: String(reservoir), segmentId: String(dam) })).data,
    ).toEqual([{ index: 1, waterLevelElevation: 95, waterVolume: 0 }]);
    expect((await get<CapacityRow[]>('getCapacityList', { platformId: String(reservoir) })).data).toHaveLength(3);

    const before = await snapshot(t, 'capacity_rows');
    const falling = await post('setCapacityList', {
      platformId: reservoir,
      rows: [
        { index: 1, waterLevelElevation: 100, waterVolume: 10 },
        { index: 2, waterLevelElevation: 110, waterVolume: 5 },
      ],
    });
    expect(falling.info).toBe(
      'Capacity table row 2: each row needs a higher water level, and no smaller volume, than the row before',
    );
    const repeated = await post('setCapacityList', {
      platformId: reservoir,
      rows: [
        { index: 1, waterLevelElevation: 100, waterVolume: 10 },
        { index: 1, waterLevelElevation: 110, waterVolume: 15 },
      ],
    });
    expect(repeated.info).toBe('Capacity table row number 1 appears twice');
    const negative = await post('setCapacityList', {
      platformId: reservoir,
      rows: [{ index: 1, waterLevelElevation: 100, waterVolume: -1 }],
    });
    expect(negative.status).toBe(Status.invalid);
    const otherSite = await post('setCapacityList', { platformId: river, segmentId: dam, rows: [] });
    expect(otherSite.info).toBe('The section does not exist');
    expect(await snapshot(t, 'capacity_rows')).toEqual(before);
  });

  it("binds core-wall devices of the section's site", async () => {
    const d1 = await addDevice(t, reservoir, 10, 'core-pressure-1');
    const d2 = await addDevice(t, reservoir, 10, 'core-pressure-2');
    const d3 = await addDevice(t, reservoir, 10, 'core-pressure-3');
    const foreign = await addDevice(t, river, 10, 'river-pressure-1');
    expect((await post('bindHeartWallDevice', { segmentId: dam, deviceId: d1 })).status).toBe(0);
    expect((await post('bindHeartWallDevice', { segmentId: dam, deviceId: d1 })).status).toBe(0);
    const before = await snapshot(t, 'section_devices');
    const stranger = await post('bindMiltiHeartWallDevice', { segmentId: dam, deviceIds: [d2, foreign] });
    expect(stranger).toEqual({
      status: Status.invalid,
      info: `Device ${foreign} is not a device of this section's site`,
      data: null,
    });
    const ghost = await post('bindHeartWallDevice', { segmentId: dam, deviceId: 999999 });
    expect(ghost.status).toBe(Status.invalid);
    expect(await snapshot(t, 'section_devices')).toEqual(before);
    const many = await t.api('POST', `${SEGMENT}/bindMiltiHeartWallDevice`, {
      token: admin,
      form: true,
      body: { segmentId: String(dam), deviceIds: `${d2},${d3}` },
    });
    expect(many.status).toBe(0);
    const bound = await get<HeartWallBinding[]>('getHeartWallDevice', { segmentId: String(dam) });
    expect(bound.data.map((b) => b.deviceId)).toEqual([d1, d2, d3]);
    expect((await post('deleteHeartWallDevice', { id: bound.data[0]!.id })).status).toBe(0);
    expect(
      (await get<HeartWallBinding[]>('getHeartWallDevice', { segmentId: String(dam) })).data.map((b) => b.deviceId),
    ).toEqual([d2, d3]);
    const again = await post('deleteHeartWallDevice', { id: bound.data[0]!.id });
    expect(again).toEqual({ status: Status.notFound, info: 'The core-wall binding does not exist', data: null });
  });

  it('keeps manual river water elevations for river sections', async () => {
    const onReservoir = await post('addRiverWaterElevation', {
      segmentId: dam,
      time: '2024-05-01T08:00:00Z',
      elevation: 120,
    });
    expect(onReservoir.info).toBe('River water elevations are kept only for sections of rivers');
    const gauge = (
      await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, {
        token: admin,
        body: { platformId: river, name: 'Gauge 1' },
      })
    ).data.segmentId;
    for (const [time, elevation] of [
      ['2024-05-01T08:00:00Z', 512.3],
      ['2024-05-02T08:00:00Z', 512.9],
      ['1714723200000', 513.4],
    ] as const) {
      expect((await post('addRiverWaterElevation', { segmentId: gauge, time, elevation })).status).toBe(0);
    }
    const dupe = await post('addRiverWaterElevation', {
      segmentId: gauge,
      time: '2024-05-01T08:00:00.000Z',
      elevation: 1,
    });
    expect(dupe).toEqual({
      status: Status.conflict,
      info: 'The section already has a water elevation at this time',
      data: null,
    });
    const badTime = await post('addRiverWaterElevation', { segmentId: gauge, time: 'yesterday', elevation: 1 });
    expect(badTime.status).toBe(Status.invalid);

    const all = await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', { platformId: String(river) });
    expect(all.data.total).toBe(3);
    const blankRange = await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {
      startTime: '',
      endTime: '',
    });
    expect(blankRange.data.total).toBe(3);
    expect(all.data.list[0]).toMatchObject({
      segmentId: gauge,
      segmentName: 'Gauge 1',
      platformName: 'Section river',
      time: '2024-05-03T08:00:00.000Z',
      elevation: 513.4,
    });
    const range = await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {
      segmentId: String(gauge),
      startTime: '2024-05-01T12:00:00Z',
      endTime: '2024-05-02 23:59:59Z',
      sortOrder: 'ascend',
    });
    expect(range.data.list.map((r) => r.elevation)).toEqual([512.9]);
    // Sorted by the server on a column of the list, a page at a time.
    const gauge2 = (
      await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, {
        token: admin,
        body: { platformId: river, name: 'A gauge' },
      })
    ).data.segmentId;
    expect(
      (await post('addRiverWaterElevation', { segmentId: gauge2, time: '2024-04-01T08:00:00Z', elevation: 600 }))
        .status,
    ).toBe(0);
    const byElevation = await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {
      platformId: String(river),
      sortField: 'elevation',
      sortOrder: 'descend',
      pageNum: '1',
      pageSize: '2',
    });
    expect(byElevation.data).toMatchObject({ total: 4, pageNum: 1, pageSize: 2 });
    expect(byElevation.data.list.map((r) => r.elevation)).toEqual([600, 513.4]);
    const bySection = await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {
      platformId: String(river),
      sortField: 'segmentName',
      sortOrder: 'ascend',
      pageNum: '2',
      pageSize: '2',
    });
    expect(bySection.data.list.map((r) => [r.segmentName, r.elevation])).toEqual([
      ['Gauge 1', 512.9],
      ['Gauge 1', 512.3],
    ]);
    const newestFirst = await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {
      platformId: String(river),
    });
    expect(newestFirst.data.list.map((r) => r.elevation)).toEqual([513.4, 512.9, 512.3, 600]);
    const gauge2Rows = await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {
      segmentId: String(gauge2),
    });
    expect((await post('deleteRiverWaterElevation', { id: gauge2Rows.data.list[0]!.id })).status).toBe(0);
    expect((await post('deleteRiverWaterElevation', { id: all.data.list[0]!.id })).status).toBe(0);
    expect((await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {})).data.total).toBe(2);
    expect((await post('deleteRiverWaterElevation', { id: all.data.list[0]!.id })).status).toBe(Status.notFound);
  });

  it('keeps users to their data scope: foreign sections answer like missing ones and stay unchanged', async () => {
    const mine = await addSite(t, admin, 'river', { name: 'Scoped river' });
    const mySection = (
      await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, {
        token: admin,
        body: { platformId: mine, name: 'Mine 1' },
      })
    ).data.segmentId;
    await roleWith(t, admin, 'sectionKeeper', [
      'information:segment',
      'information:reservoirWater',
      'information:riverWater',
    ]);
    const tok = await scopedUser(t, admin, 'sectionkeeper1', 'sectionKeeper', [mine]);

    const list = await get<Page<SectionRow>>('getListPage', {}, tok);
    expect(list.data.list.map((s) => s.name)).toEqual(['Mine 1']);
    const foreignSite = await get('getByPlatformId', { platformId: String(reservoir) }, tok);
    const missingSite = await get('getByPlatformId', { platformId: '999999' }, tok);
    expect(foreignSite).toEqual(missingSite);
    expect(foreignSite.status).toBe(Status.notFound);

    const beforeSections = await snapshot(t, 'sections');
    const beforeCapacity = await snapshot(t, 'capacity_rows');
    const beforeBindings = await snapshot(t, 'section_devices');
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['edit', { segmentId: dam, name: 'Hijacked' }, { segmentId: 999999, name: 'Hijacked' }],
      ['delete', { segmentId: dam }, { segmentId: 999999 }],
      ['updatePosition', { segmentId: dam, x: 1, y: 1 }, { segmentId: 999999, x: 1, y: 1 }],
      ['setUpstreamCoords', { segmentId: dam, coords: COORDS }, { segmentId: 999999, coords: COORDS }],
      [
        'setWaterLevel',
        { segmentId: dam, source: 'manual', level: 120 },
        { segmentId: 999999, source: 'manual', level: 120 },
      ],
      ['setCapacityList', { platformId: reservoir, rows: [] }, { platformId: 999999, rows: [] }],
      ['bindHeartWallDevice', { segmentId: dam, deviceId: 1 }, { segmentId: 999999, deviceId: 1 }],
      [
        'addRiverWaterElevation',
        { segmentId: dam, time: '2024-06-01T00:00:00Z', elevation: 1 },
        { segmentId: 999999, time: '2024-06-01T00:00:00Z', elevation: 1 },
      ],
      ['add', { platformId: reservoir, name: 'Intruder' }, { platformId: 999999, name: 'Intruder' }],
    ];
    for (const [path, foreign, missing] of cases) {
      const a = await post(path, foreign, tok);
      const b = await post(path, missing, tok);
      expect(a, path).toEqual(b);
      expect(a.status, path).toBe(Status.notFound);
    }
    const binding = (await get<HeartWallBinding[]>('getHeartWallDevice', { segmentId: String(dam) })).data[0]!;
    expect(await post('deleteHeartWallDevice', { id: binding.id }, tok)).toEqual(
      await post('deleteHeartWallDevice', { id: 999999 }, tok),
    );
    expect(await get('getCapacityList', { platformId: String(reservoir) }, tok)).toEqual(
      await get('getCapacityList', { platformId: '999999' }, tok),
    );
    expect(await get('getHeartWallDevice', { segmentId: String(dam) }, tok)).toEqual(
      await get('getHeartWallDevice', { segmentId: '999999' }, tok),
    );
    expect((await get<Page<RiverWaterElevationRow>>('getRiverWaterElevationList', {}, tok)).data.total).toBe(0);
    expect(await snapshot(t, 'sections')).toEqual(beforeSections);
    expect(await snapshot(t, 'capacity_rows')).toEqual(beforeCapacity);
    expect(await snapshot(t, 'section_devices')).toEqual(beforeBindings);

    // Their own section works.
    expect((await post('setUpstreamCoords', { segmentId: mySection, coords: COORDS }, tok)).status).toBe(0);
    expect(
      (await post('addRiverWaterElevation', { segmentId: mySection, time: '2024-06-01T00:00:00Z', elevation: 3 }, tok))
        .status,
    ).toBe(0);
  });

  it('deletes a section with its capacity table, bindings and water elevations', async () => {
    expect((await post('delete', { segmentId: dam })).status).toBe(0);
    expect((await get('getHeartWallDevice', { segmentId: String(dam) })).status).toBe(Status.notFound);
    expect((await get<CapacityRow[]>('getCapacityList', { platformId: String(reservoir) })).data).toHaveLength(3);
    expect(await t.db.k.selectFrom('capacity_rows').select('id').where('section_id', '=', dam).execute()).toEqual([]);
    expect(await t.db.k.selectFrom('section_devices').select('id').where('section_id', '=', dam).execute()).toEqual([]);
  });

  it('needs the section permissions to change sections', async () => {
    await roleWith(t, admin, 'sectionViewer', ['information:platform:reservoir']);
    const tok = await scopedUser(t, admin, 'sectionviewer1', 'sectionViewer', [reservoir]);
    expect((await get('getByPlatformId', { platformId: String(reservoir) }, tok)).status).toBe(0);
    expect((await post('add', { platformId: reservoir, name: 'Nope' }, tok)).status).toBe(Status.noPermission);
    expect((await post('setWaterLevel', { segmentId: 1, source: 'auto' }, tok)).status).toBe(Status.noPermission);
    expect((await get('getRiverWaterElevationList', {}, tok)).status).toBe(Status.noPermission);
  });
});
