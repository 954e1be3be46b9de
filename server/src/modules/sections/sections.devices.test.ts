import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type Page, type SegmentModuleDevices, type SegmentWaterDevice } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { SEGMENT, addSite, roleWith, scopedUser } from '../platforms/platforms.testkit.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';

/** getModuleAndDeviceBySegmentId and getSegmentWaterDeviceListPage. */
describe('devices of sections', () => {
  let t: TestApp;
  let admin: string;
  let reservoir: number;
  let river: number;
  let dam: number;
  let spillway: number;
  let gauge: number;
  const ids: Record<string, number> = {};

  const get = <T>(path: string, query: Record<string, string>, token = admin, lang = 'en') =>
    t.api<T>('GET', `${SEGMENT}/${path}`, { token, query, lang });
  const post = (path: string, body: Record<string, unknown>) =>
    t.api('POST', `${SEGMENT}/${path}`, { token: admin, body });
  const addSection = async (platformId: number, name: string): Promise<number> =>
    (await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, { token: admin, body: { platformId, name } })).data
      .segmentId;

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    reservoir = await addSite(t, admin, 'reservoir', { name: 'Devices reservoir' });
    river = await addSite(t, admin, 'river', { name: 'Devices river' });
    dam = await addSection(reservoir, 'Main dam');
    spillway = await addSection(reservoir, 'Spillway');
    gauge = await addSection(river, 'Gauge');
    const logger = await addTerminal(t, admin, reservoir, 'SEC-DEV-T1');
    const riverLogger = await addTerminal(t, admin, river, 'SEC-DEV-T2');
    const add = async (key: string, platformId: number, terminalId: number, moduleId: number, name: string) => {
      ids[key] = await addDevice(t, admin, deviceBody(platformId, terminalId, key, { moduleId, deviceName: name }));
    };
    await add('wl1', reservoir, logger.terminalId, 3, 'Reservoir level A');
    await add('wl2', reservoir, logger.terminalId, 11, 'Reservoir level B');
    await add('gw', reservoir, logger.terminalId, 16, 'Groundwater well');
    await add('rain', reservoir, logger.terminalId, 2, 'Rain gauge');
    await add('p1', reservoir, logger.terminalId, 10, 'Core pressure 2');
    await add('p2', reservoir, logger.terminalId, 10, 'Core pressure 1');
    await add('rwl', river, riverLogger.terminalId, 3, 'River level');
  });
  afterAll(() => t.close());

  it("groups the section's site devices by monitor type, in the caller's language, with core-wall bindings", async () => {
    expect((await post('bindHeartWallDevice', { segmentId: dam, deviceId: ids.p1 })).status).toBe(0);
    const r = await get<SegmentModuleDevices[]>('getModuleAndDeviceBySegmentId', { segmentId: String(dam) });
    expect(r.status).toBe(0);
    expect(r.data.map((g) => [g.moduleId, g.moduleName, g.devices.map((d) => d.deviceName)])).toEqual([
      [2, 'Rain gauge', ['Rain gauge']],
      [3, expect.any(String), ['Reservoir level A']],
      [10, expect.any(String), ['Core pressure 1', 'Core pressure 2']],
      [11, expect.any(String), ['Reservoir level B']],
      [16, expect.any(String), ['Groundwater well']],
    ]);
    const pressure = r.data.find((g) => g.moduleId === 10)!;
    const bound = pressure.devices.find((d) => d.deviceId === ids.p1)!;
    expect(bound).toMatchObject({ number: 'DEV-p1', state: expect.any(String) });
    expect(bound.heartWallBindingId).toBeGreaterThan(0);
    expect(pressure.devices.find((d) => d.deviceId === ids.p2)!.heartWallBindingId).toBeNull();
    // The binding belongs to the dam, not to the spillway of the same site.
    const other = await get<SegmentModuleDevices[]>('getModuleAndDeviceBySegmentId', { segmentId: String(spillway) });
    expect(other.data.flatMap((g) => g.devices).every((d) => d.heartWallBindingId === null)).toBe(true);
    expect(other.data.flatMap((g) => g.devices)).toHaveLength(6);

    const zh = await get<SegmentModuleDevices[]>(
      'getModuleAndDeviceBySegmentId',
      { segmentId: String(dam) },
      admin,
      'zh',
    );
    expect(zh.data[0]!.moduleName).toBe('雨量');
    const ko = await get<SegmentModuleDevices[]>(
      'getModuleAndDeviceBySegmentId',
      { segmentId: String(dam) },
      admin,
      'ko',
    );
    expect(ko.data[0]!.moduleName).not.toBe(zh.data[0]!.moduleName);
    expect(ko.data[0]!.moduleName).not.toBe('Rainfall');

    const river = await get<SegmentModuleDevices[]>('getModuleAndDeviceBySegmentId', { segmentId: String(gauge) });
    expect(river.data.map((g) => g.devices.map((d) => d.deviceId))).toEqual([[ids.rwl]]);
    const missing = await get('getModuleAndDeviceBySegmentId', { segmentId: '999999' });
    expect(missing).toEqual({ status: Status.notFound, info: 'The section does not exist', data: null });
    expect((await get('getModuleAndDeviceBySegmentId', { segmentId: 'x' })).status).toBe(Status.invalid);
  });

  it("lists the water-level devices of a section's site with their terminal, readings and section bindings", async () => {
    await post('bindHeartWallDevice', { segmentId: spillway, deviceId: ids.wl2 });
    await t.built.ingest.writer.submit([
      { deviceId: ids.wl1!, ts: Date.parse('2025-03-01T10:00:00Z'), values: { waterLevel: 181.25 } },
    ]);
    const r = await get<Page<SegmentWaterDevice>>('getSegmentWaterDeviceListPage', {
      segmentId: String(dam),
      sortField: 'deviceName',
    });
    expect(r.status).toBe(0);
    expect(r.data).toMatchObject({ total: 3, pageNum: 1, pageSize: 1000 });
    expect(r.data.list.map((d) => d.deviceName)).toEqual([
      'Groundwater well',
      'Reservoir level A',
      'Reservoir level B',
    ]);
    const a = r.data.list[1]!;
    expect(a).toMatchObject({
      deviceId: ids.wl1,
      number: 'DEV-wl1',
      moduleId: 3,
      platformId: reservoir,
      platformName: 'Devices reservoir',
      terminalName: 'Logger SEC-DEV-T1',
      lastWaterLevel: 181.25,
      lastReadingAt: '2025-03-01T10:00:00.000Z',
      heartWallSections: [],
    });
    expect(r.data.list[2]!.heartWallSections).toEqual([{ segmentId: spillway, name: 'Spillway' }]);
    expect(r.data.list[0]!.lastWaterLevel).toBeNull();
    // Neither section takes its level from the devices yet; the dam then switches to automatic.
    expect(a.autoSections).toEqual([]);
    const coords = [
      { x: 0, y: 100, elevation: 150 },
      { x: 50, y: 50, elevation: 170 },
      { x: 100, y: 0, elevation: 190 },
    ];
    expect((await post('setUpstreamCoords', { segmentId: dam, coords })).status).toBe(0);
    expect((await post('setWaterLevel', { segmentId: dam, source: 'auto' })).status).toBe(0);
    const after = await get<Page<SegmentWaterDevice>>('getSegmentWaterDeviceListPage', { segmentId: String(dam) });
    expect(after.data.list.every((d) => d.autoSections.length === 1 && d.autoSections[0]!.name === 'Main dam')).toBe(
      true,
    );

    const page2 = await get<Page<SegmentWaterDevice>>('getSegmentWaterDeviceListPage', {
      segmentId: String(dam),
      sortField: 'deviceName',
      sortOrder: 'descend',
      pageNum: '2',
      pageSize: '2',
    });
    expect(page2.data.total).toBe(3);
    expect(page2.data.list.map((d) => d.deviceName)).toEqual(['Groundwater well']);

    const bySite = await get<Page<SegmentWaterDevice>>('getSegmentWaterDeviceListPage', { platformId: String(river) });
    expect(bySite.data.list.map((d) => d.deviceId)).toEqual([ids.rwl]);
    const all = await get<Page<SegmentWaterDevice>>('getSegmentWaterDeviceListPage', {});
    expect(all.data.list.map((d) => d.deviceId).sort()).toEqual([ids.wl1, ids.wl2, ids.gw, ids.rwl].sort());
    const mismatch = await get('getSegmentWaterDeviceListPage', { segmentId: String(dam), platformId: String(river) });
    expect(mismatch).toEqual({ status: Status.notFound, info: 'The section does not exist', data: null });
    expect((await get('getSegmentWaterDeviceListPage', { platformId: '999999' })).info).toBe('The site does not exist');
    expect((await get('getSegmentWaterDeviceListPage', { pageSize: '0' })).status).toBe(Status.invalid);
  });

  it('keeps users to their data scope: foreign sections and sites answer like missing ones', async () => {
    await roleWith(t, admin, 'sectionDeviceViewer', ['information:segment']);
    const tok = await scopedUser(t, admin, 'sectiondevices1', 'sectionDeviceViewer', [river]);
    expect(await get('getModuleAndDeviceBySegmentId', { segmentId: String(dam) }, tok)).toEqual(
      await get('getModuleAndDeviceBySegmentId', { segmentId: '999999' }, tok),
    );
    expect(await get('getSegmentWaterDeviceListPage', { segmentId: String(dam) }, tok)).toEqual(
      await get('getSegmentWaterDeviceListPage', { segmentId: '999999' }, tok),
    );
    expect(await get('getSegmentWaterDeviceListPage', { platformId: String(reservoir) }, tok)).toEqual(
      await get('getSegmentWaterDeviceListPage', { platformId: '999999' }, tok),
    );
    const mine = await get<Page<SegmentWaterDevice>>('getSegmentWaterDeviceListPage', {}, tok);
    expect(mine.data.list.map((d) => d.deviceId)).toEqual([ids.rwl]);
    expect(mine.data.total).toBe(1);
    const own = await get<SegmentModuleDevices[]>('getModuleAndDeviceBySegmentId', { segmentId: String(gauge) }, tok);
    expect(own.data.flatMap((g) => g.devices.map((d) => d.deviceId))).toEqual([ids.rwl]);
    expect((await t.api('GET', `${SEGMENT}/getSegmentWaterDeviceListPage`, { token: null, query: {} })).status).toBe(
      Status.notLoggedIn,
    );
  });
});
