import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  type DevicePosition,
  type ReservoirSectionView,
  type SiteOverview,
  type ViewSite,
} from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';
import { SEGMENT, addSite, snapshot } from '../platforms/platforms.testkit.ts';

const VIEW = '/api/v2/data/monitor/view';
const COORDS = [
  { x: 20, y: 300, elevation: 90 },
  { x: 200, y: 40, elevation: 130 },
  { x: 260, y: 40, elevation: 130 },
  { x: 480, y: 300, elevation: 90 },
];
const CAPACITY = [
  { index: 1, waterLevelElevation: 90, waterVolume: 0 },
  { index: 2, waterLevelElevation: 100, waterVolume: 100 },
  { index: 3, waterLevelElevation: 120, waterVolume: 500 },
];

describe('monitor views', () => {
  let t: TestApp;
  let admin: string;
  let dam: number;
  let hill: number;
  let segment: number;
  let level: number;
  let piezo: number;
  let seep: number;
  let rain: number;
  let foreign: number;
  let terminalId: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    dam = await addSite(t, admin, 'reservoir', { name: 'View dam', manager: 'Li Wei', lon: 104, lat: 30 });
    hill = await addSite(t, admin, 'disaster', { name: 'View hill' });
    terminalId = (await addTerminal(t, admin, dam, 'VIEW-T1')).terminalId;
    const hillTerminal = (await addTerminal(t, admin, hill, 'VIEW-T2')).terminalId;
    level = await addDevice(t, admin, deviceBody(dam, terminalId, 'lvl', { moduleId: 11 }));
    piezo = await addDevice(t, admin, deviceBody(dam, terminalId, 'pz', { moduleId: 16 }));
    seep = await addDevice(t, admin, deviceBody(dam, terminalId, 'sp', { moduleId: 17, initialLevel: 95 }));
    rain = await addDevice(t, admin, deviceBody(dam, terminalId, 'rain', { moduleId: 2 }));
    foreign = await addDevice(t, admin, deviceBody(hill, hillTerminal, 'hill', { moduleId: 30 }));
    const s = await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, {
      token: admin,
      body: { platformId: dam, name: 'Main dam', bottomElevation: 90 },
    });
    segment = s.data.segmentId;
    for (const [path, body] of [
      ['setUpstreamCoords', { segmentId: segment, coords: JSON.stringify(COORDS) }],
      ['setCapacityList', { platformId: dam, segmentId: segment, rows: JSON.stringify(CAPACITY) }],
      ['bindMiltiHeartWallDevice', { segmentId: segment, deviceIds: [piezo, seep] }],
      ['setWaterLevel', { segmentId: segment, source: 'auto' }],
    ] as const) {
      const r = await t.api('POST', `${SEGMENT}/${path}`, { token: admin, body });
      expect(r.status, `${path}: ${r.info}`).toBe(0);
    }
    const now = Date.now();
    await t.built.ingest.writer.submit([
      { deviceId: level, ts: now - 60_000, values: { waterLevel: 104 } },
      { deviceId: level, ts: now - 1000, values: { waterLevel: 110 } },
      { deviceId: piezo, ts: now - 1000, values: { waterLevel: 101.5 } },
      { deviceId: seep, ts: now - 1000, values: { pressure: 98.0665 } },
    ]);
  });
  afterAll(() => t.close());

  const get = <T>(path: string, query: Record<string, string | number>, token = admin, lang = 'en') =>
    t.api<T>('GET', `${VIEW}/${path}`, {
      token,
      lang,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
  const place = (body: Record<string, unknown>, token = admin, lang = 'en') =>
    t.api('POST', `${VIEW}/updatePosition`, { token, body, lang });

  it('lists the sites in scope, by kind', async () => {
    const all = await get<ViewSite[]>('getPlatforms', {});
    expect(all.data.map((s) => s.name)).toEqual(['View dam', 'View hill']);
    const reservoirs = await get<ViewSite[]>('getPlatforms', { type: 'reservoir' });
    expect(reservoirs.data).toEqual([{ platformId: dam, type: 'reservoir', name: 'View dam' }]);
    expect((await get('getPlatforms', { type: 'castle' })).status).toBe(Status.invalid);
  });

  it('answers a site overview with newest values, state counts and terminals', async () => {
    const r = await get<SiteOverview>('getOverview', { platformId: dam });
    expect(r.status).toBe(0);
    const o = r.data;
    expect(o).toMatchObject({ platformId: dam, type: 'reservoir', name: 'View dam', manager: 'Li Wei', lon: 104 });
    expect(o.devices.map((d) => d.deviceId)).toEqual([rain, level, piezo, seep]);
    const lvl = o.devices.find((d) => d.deviceId === level)!;
    expect(lvl).toMatchObject({ state: 'normal', lastValues: { waterLevel: 110 }, terminalName: 'Logger VIEW-T1' });
    expect(o.devices.find((d) => d.deviceId === rain)!.state).toBe('offline');
    expect(o.stateCounts).toEqual({ normal: 3, alert: 0, alarm: 0, abnormal: 0, offline: 1 });
    expect(o.moduleIds).toEqual([2, 11, 16, 17]);
    expect(o.terminals).toHaveLength(1);
    expect(o.terminals[0]).toMatchObject({ terminalId, online: true, deviceIds: [rain, level, piezo, seep] });
    expect(o.terminals[0]!.lastSeenAt).not.toBeNull();
    expect(o.sections).toEqual([{ segmentId: segment, name: 'Main dam', deviceIds: [piezo, seep] }]);
  });

  it('places devices on the schematic and on the map, and clears them', async () => {
    expect((await place({ deviceId: level, sketchX: 0.25, sketchY: 0.75 })).status).toBe(0);
    expect((await place({ deviceId: piezo, lon: 104.01, lat: 30.02 })).status).toBe(0);
    let pos = await get<DevicePosition[]>('getPositions', { platformId: dam });
    expect(pos.data.map(({ updatedAt: _, ...p }) => p)).toEqual([
      { deviceId: level, sketchX: 0.25, sketchY: 0.75, lon: null, lat: null },
      { deviceId: piezo, sketchX: null, sketchY: null, lon: 104.01, lat: 30.02 },
    ]);
    // Moving one placement keeps the other.
    expect((await place({ deviceId: level, lon: 104.02, lat: 30.01 })).status).toBe(0);
    expect((await place({ deviceId: level, sketchX: 1, sketchY: 0 })).status).toBe(0);
    const o = await get<SiteOverview>('getOverview', { platformId: dam });
    expect(o.data.devices.find((d) => d.deviceId === level)).toMatchObject({
      sketchX: 1,
      sketchY: 0,
      lon: 104.02,
      lat: 30.01,
    });
    expect((await place({ deviceId: piezo, clear: 'map' })).status).toBe(0);
    pos = await get<DevicePosition[]>('getPositions', { platformId: dam });
    expect(pos.data.map((p) => p.deviceId)).toEqual([level]);
  });

  it('refuses bad positions with a clear message and changes nothing', async () => {
    const before = await snapshot(t, 'device_positions');
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ deviceId: rain, sketchX: 1.2, sketchY: 0.5 }, Status.invalid, /sketchX/],
      [{ deviceId: rain, sketchX: 0.2, sketchY: -0.1 }, Status.invalid, /sketchY/],
      [{ deviceId: rain, lon: 181, lat: 0 }, Status.invalid, /lon/],
      [{ deviceId: rain, lon: 10, lat: 91 }, Status.invalid, /lat/],
      [{ deviceId: rain, sketchX: 0.5 }, Status.invalid, /both sketchX and sketchY/],
      [{ deviceId: rain, lat: 5 }, Status.invalid, /both lon and lat/],
      [{ deviceId: rain }, Status.invalid, /schematic position/],
      [{ deviceId: rain, clear: 'map', lon: 1, lat: 1 }, Status.invalid, /cannot be combined/],
      [{ deviceId: 999999, sketchX: 0.5, sketchY: 0.5 }, Status.notFound, /device does not exist/],
    ];
    for (const [body, status, info] of cases) {
      const r = await place(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.info).toMatch(info);
    }
    const zh = await place({ deviceId: rain, sketchX: 0.5 }, admin, 'zh');
    expect(zh.info).toBe('示意图位置需要同时提供 sketchX 和 sketchY');
    expect(await snapshot(t, 'device_positions')).toEqual(before);
  });

  it('gathers the dam section view: water level, interpolated volume, phreatic line', async () => {
    const r = await get<ReservoirSectionView>('reservoirSection', { platformId: dam, segmentId: segment });
    expect(r.status).toBe(0);
    const v = r.data;
    expect(v).toMatchObject({ name: 'Main dam', bottomElevation: 90, capacityOf: 'section', waterLevelSource: 'auto' });
    expect(v.upstreamCoords).toEqual(COORDS);
    expect(v.capacity).toEqual(CAPACITY);
    expect(v.waterLevel).toMatchObject({ value: 110, from: 'device', deviceId: level, deviceName: 'Device lvl' });
    expect(v.volume).toBeCloseTo(300, 6);
    expect(v.phreatic).toHaveLength(2);
    expect(v.phreatic[0]).toMatchObject({ deviceId: piezo, moduleId: 16, level: 101.5, raw: 101.5 });
    // 98.0665 kPa is 10 m of water above the seepage gauge's initial level of 95 m.
    expect(v.phreatic[1]).toMatchObject({ deviceId: seep, moduleId: 17, raw: 98.0665 });
    expect(v.phreatic[1]!.level).toBeCloseTo(105, 6);

    // A manual level wins over the device; outside the table there is no volume.
    expect(
      (
        await t.api('POST', `${SEGMENT}/setWaterLevel`, {
          token: admin,
          body: { segmentId: segment, source: 'manual', level: 125 },
        })
      ).status,
    ).toBe(0);
    const m = await get<ReservoirSectionView>('reservoirSection', { platformId: dam, segmentId: segment });
    expect(m.data.waterLevel).toMatchObject({ value: 125, from: 'manual', deviceId: null });
    expect(m.data.volume).toBeNull();
    await t.api('POST', `${SEGMENT}/setWaterLevel`, { token: admin, body: { segmentId: segment, source: 'auto' } });

    // Without its own table the section uses the site's.
    await t.api('POST', `${SEGMENT}/setCapacityList`, {
      token: admin,
      body: { platformId: dam, segmentId: segment, rows: '[]' },
    });
    await t.api('POST', `${SEGMENT}/setCapacityList`, {
      token: admin,
      body: { platformId: dam, rows: JSON.stringify([CAPACITY[0], CAPACITY[2]]) },
    });
    const s = await get<ReservoirSectionView>('reservoirSection', { platformId: dam, segmentId: segment });
    expect(s.data.capacityOf).toBe('site');
    expect(s.data.volume).toBeCloseTo(1000 / 3, 6);
    await t.api('POST', `${SEGMENT}/setCapacityList`, {
      token: admin,
      body: { platformId: dam, segmentId: segment, rows: JSON.stringify(CAPACITY) },
    });

    // A section of another site, or a missing one, answers like a missing section.
    expect((await get('reservoirSection', { platformId: hill, segmentId: segment })).status).toBe(Status.notFound);
    expect((await get('reservoirSection', { platformId: dam, segmentId: 999999 })).info).toBe(
      'The section does not exist',
    );
  });

  it('keeps to the caller’s permissions and data scope', async () => {
    await roleWith(t, admin, 'viewSketch', ['monitor', 'monitor:sketchMap']);
    await roleWith(t, admin, 'viewNone', ['index']);
    const sketcher = await userToken(t, admin, { account: 'sketcher', roleCode: 'viewSketch', platformIds: [hill] });
    const outsider = await userToken(t, admin, { account: 'outsider', roleCode: 'viewNone', scopeAll: true });

    // Scope: the dam is not the sketcher's site; it answers exactly like a missing one.
    const missing = await get('getOverview', { platformId: 999999 }, sketcher);
    const hidden = await get('getOverview', { platformId: dam }, sketcher);
    expect(hidden).toEqual(missing);
    expect(hidden.status).toBe(Status.notFound);
    expect((await get<ViewSite[]>('getPlatforms', {}, sketcher)).data.map((s) => s.platformId)).toEqual([hill]);
    expect((await get('getPositions', { platformId: dam }, sketcher)).status).toBe(Status.notFound);
    expect((await get('reservoirSection', { platformId: dam, segmentId: segment }, sketcher)).status).toBe(
      Status.notFound,
    );
    const foreignMove = await place({ deviceId: level, sketchX: 0.5, sketchY: 0.5 }, sketcher);
    const missingMove = await place({ deviceId: 999999, sketchX: 0.5, sketchY: 0.5 }, sketcher);
    expect(foreignMove).toEqual(missingMove);

    // Permission: the schematic yes, the map no.
    expect((await place({ deviceId: foreign, sketchX: 0.5, sketchY: 0.5 }, sketcher)).status).toBe(0);
    expect((await place({ deviceId: foreign, lon: 1, lat: 1 }, sketcher)).status).toBe(Status.noPermission);
    expect((await place({ deviceId: foreign, clear: 'map' }, sketcher)).status).toBe(Status.noPermission);
    expect((await get('getOverview', { platformId: hill }, outsider)).status).toBe(Status.noPermission);
    expect((await place({ deviceId: foreign, sketchX: 0.1, sketchY: 0.1 }, outsider)).status).toBe(Status.noPermission);
    const hillView = await get<SiteOverview>('getOverview', { platformId: hill }, sketcher);
    expect(hillView.data.devices[0]).toMatchObject({ deviceId: foreign, sketchX: 0.5, sketchY: 0.5, lon: null });
  });

  it('drops a device’s placement with the device', async () => {
    await place({ deviceId: rain, sketchX: 0.3, sketchY: 0.3 });
    const r = await t.api('POST', '/api/v2/data/information/device/common/delete', {
      token: admin,
      body: { deviceId: rain },
    });
    expect(r.status, r.info).toBe(0);
    const pos = await get<DevicePosition[]>('getPositions', { platformId: dam });
    expect(pos.data.some((p) => p.deviceId === rain)).toBe(false);
  });
});
