import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  type MonitorType,
  type MultiStatisticRow,
  type PlatformModule,
  type SiteMonitorTypeRow,
} from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';

const M = '/api/v2/data/module';
type Page<T> = { list: T[]; total: number };

describe('monitor types and multi-module statistics', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let devA1: number;
  let devA2: number;
  let devB: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'bridge', name: 'Bridge A' });
    siteB = await buildPlatform(t, { type: 'river', name: 'River B' });
    const ta = (await addTerminal(t, admin, siteA, 'MA')).terminalId;
    const tb = (await addTerminal(t, admin, siteB, 'MB')).terminalId;
    devA1 = await addDevice(t, admin, deviceBody(siteA, ta, 'ma1', { moduleId: 36 }));
    devA2 = await addDevice(t, admin, deviceBody(siteA, ta, 'ma2', { moduleId: 36 }));
    devB = await addDevice(t, admin, deviceBody(siteB, tb, 'mb1', { moduleId: 3 }));
  });
  afterAll(() => t.close());

  it('answers the catalogue to any signed-in user', async () => {
    const plain = await userToken(t, admin, { account: 'catalogue1', roleCode: 'user' });
    const r = await t.api<MonitorType[]>('GET', `${M}/getAllModules`, { token: plain });
    expect(r.status).toBe(0);
    expect(r.data.map((m) => m.moduleId)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 19, 20, 24, 26, 27, 30, 32, 33, 35, 36, 37,
    ]);
    expect(r.data.find((m) => m.moduleId === 36)?.quantities.map((q) => [q.key, q.unit])).toEqual([
      ['velocity', 'mm/s'],
      ['frequency', 'Hz'],
    ]);
    expect((await t.api('GET', `${M}/getAllModules`)).status).toBe(Status.notLoggedIn);
  });

  it('binds monitor types to a site and lists them with device counts', async () => {
    const bind = await t.api('POST', `${M}/bindModules`, {
      token: admin,
      form: true,
      body: { platformId: siteA, moduleId: ['2', '32'] },
    });
    expect(bind.status).toBe(0);
    expect(
      (await t.api('POST', `${M}/bindModules`, { token: admin, body: { platformId: siteA, moduleId: 2 } })).status,
    ).toBe(0);
    const r = await t.api<PlatformModule[]>('GET', `${M}/getModules`, {
      token: admin,
      query: { platformId: String(siteA) },
    });
    expect(r.data.map((m) => [m.moduleId, m.deviceCount])).toEqual([
      [2, 0],
      [32, 0],
      [36, 2],
    ]);
    expect(r.data.find((m) => m.moduleId === 32)?.label.zh).toBe('水质');
    const unknown = await t.api('POST', `${M}/bindModules`, {
      token: admin,
      body: { platformId: siteA, moduleId: 18 },
    });
    expect(unknown.status).toBe(Status.invalid);
    const inUse = await t.api('POST', `${M}/unbindModule`, { token: admin, body: { platformId: siteA, moduleId: 36 } });
    expect(inUse.info).toMatch(/still has 2 devices/);
    expect(
      (await t.api('POST', `${M}/unbindModule`, { token: admin, body: { platformId: siteA, moduleId: 32 } })).status,
    ).toBe(0);
    const after = await t.api<PlatformModule[]>('GET', `${M}/getModules`, {
      token: admin,
      query: { platformId: String(siteA) },
    });
    expect(after.data.map((m) => m.moduleId)).toEqual([2, 36]);
  });

  it('pages, sorts and filters the monitor types of a site on the server (getModuleListPage)', async () => {
    type P = Page<SiteMonitorTypeRow> & { pageNum: number; pageSize: number };
    const list = (query: Record<string, string>, token = admin, lang?: 'en' | 'zh' | 'ko') =>
      t.api<P>('GET', `${M}/getModuleListPage`, {
        token,
        ...(lang ? { lang } : {}),
        query: { platformId: String(siteA), ...query },
      });
    const first = await list({ pageNum: '2', pageSize: '10' });
    expect(first.data).toMatchObject({ total: 28, pageNum: 2, pageSize: 10 });
    expect(first.data.list.map((m) => m.moduleId)).toEqual([11, 12, 13, 14, 15, 16, 17, 19, 20, 24]);
    // Bound ones first, most devices first.
    const byDevices = await list({ sortField: 'deviceCount', sortOrder: 'descend', pageSize: '3' });
    expect(byDevices.data.list.map((m) => [m.moduleId, m.bound, m.deviceCount])).toEqual([
      [36, true, 2],
      [1, false, 0],
      [2, true, 0],
    ]);
    const bound = await list({ bound: 'true' });
    expect(bound.data.list.map((m) => m.moduleId)).toEqual([2, 36]);
    expect((await list({ bound: 'false' })).data.total).toBe(26);
    // The keyword finds a name in any language, a code or a quantity.
    expect((await list({ keyword: '水质' })).data.list.map((m) => m.moduleId)).toEqual([32]);
    expect((await list({ keyword: 'VELOCITY' })).data.list.map((m) => m.moduleId)).toContain(36);
    // The name sorts in the caller's language.
    const en = await list({ sortField: 'name', sortOrder: 'ascend', pageSize: '1000' }, admin, 'en');
    const names = en.data.list.map((m) => m.label.en);
    expect(names).toEqual([...names].sort((a, b) => new Intl.Collator('en').compare(a, b)));
    expect(names).not.toEqual(en.data.list.map((m) => m.label.en).sort((a, b) => a.length - b.length));
    // A foreign site answers like a missing one; it needs information:device.
    await roleWith(t, admin, 'moduleLister', ['information:device']);
    const tok = await userToken(t, admin, { account: 'modList', roleCode: 'moduleLister', platformIds: [siteB] });
    expect((await list({}, tok)).status).toBe(Status.notFound);
    expect((await list({ platformId: String(siteB) }, tok)).data.list.find((m) => m.moduleId === 3)).toMatchObject({
      bound: true,
      deviceCount: 1,
    });
    const plain = await userToken(t, admin, { account: 'modListPlain', roleCode: 'user', platformIds: [siteA] });
    expect((await list({}, plain)).status).toBe(Status.noPermission);
  });

  it('creates, lists, edits and deletes multi-module statistics of devices of one site', async () => {
    const add = await t.api<{ sid: number }>('POST', `${M}/multi/add`, {
      token: admin,
      body: {
        platformId: siteA,
        multiName: 'Deck vibration',
        multiStatisticsType: 'compare',
        moduleId: 36,
        quantity: 'velocity',
        deviceIds: [devA2, devA1],
      },
    });
    expect(add.status).toBe(0);
    const sid = add.data.sid;
    const one = await t.api<MultiStatisticRow>('GET', `${M}/multi/getBySid`, {
      token: admin,
      query: { sid: String(sid) },
    });
    expect(one.data).toMatchObject({
      sid,
      platformId: siteA,
      platformName: 'Bridge A',
      multiName: 'Deck vibration',
      multiStatisticsType: 'compare',
      moduleId: 36,
      quantity: 'velocity',
    });
    expect(one.data.devices.map((d) => d.deviceId)).toEqual([devA2, devA1]);

    const cross = await t.api('POST', `${M}/multi/add`, {
      token: admin,
      body: { platformId: siteA, multiName: 'Mixed', multiStatisticsType: 'avg', deviceIds: [devA1, devB] },
    });
    expect(cross.info).toMatch(/device of the site/);
    const dup = await t.api('POST', `${M}/multi/add`, {
      token: admin,
      body: { platformId: siteA, multiName: 'deck VIBRATION', multiStatisticsType: 'max', deviceIds: [devA1] },
    });
    expect(dup.status).toBe(Status.conflict);
    const badType = await t.api('POST', `${M}/multi/add`, {
      token: admin,
      body: { platformId: siteA, multiName: 'X', multiStatisticsType: 'median', deviceIds: [devA1] },
    });
    expect(badType.status).toBe(Status.invalid);
    const noDevices = await t.api('POST', `${M}/multi/add`, {
      token: admin,
      body: { platformId: siteA, multiName: 'X', multiStatisticsType: 'sum' },
    });
    expect(noDevices.status).toBe(Status.invalid);

    const edit = await t.api('POST', `${M}/multi/edit`, {
      token: admin,
      body: { sid, platformId: siteA, multiName: 'Deck max', multiStatisticsType: 'max', deviceIds: [devA1] },
    });
    expect(edit.status).toBe(0);
    const page = await t.api<Page<MultiStatisticRow>>('GET', `${M}/multi/getListPage`, {
      token: admin,
      query: { keyword: 'deck' },
    });
    expect(page.data.total).toBe(1);
    expect(page.data.list[0]).toMatchObject({ multiName: 'Deck max', multiStatisticsType: 'max', moduleId: null });
    expect(page.data.list[0]!.devices.map((d) => d.deviceId)).toEqual([devA1]);
    const names = await t.api<{ sid: number; multiName: string }[]>('GET', `${M}/multi/getNameList`, {
      token: admin,
      query: { platformId: String(siteA) },
    });
    expect(names.data).toEqual([{ sid, multiName: 'Deck max', platformId: siteA }]);

    // Unbinding a device takes it out of the statistics of its site.
    await t.api('POST', '/api/v2/data/information/device/module/device/deleteDeviceData', {
      token: admin,
      body: { deviceId: devA1 },
    });
    expect(
      (await t.api<MultiStatisticRow>('GET', `${M}/multi/getBySid`, { token: admin, query: { sid: String(sid) } })).data
        .devices,
    ).toEqual([]);

    expect((await t.api('POST', `${M}/multi/delete`, { token: admin, body: { sid } })).status).toBe(0);
    expect((await t.api('GET', `${M}/multi/getBySid`, { token: admin, query: { sid: String(sid) } })).status).toBe(
      Status.notFound,
    );
  });

  it('limits site modules and statistics to the data scope', async () => {
    const sidB = (
      await t.api<{ sid: number }>('POST', `${M}/multi/add`, {
        token: admin,
        body: { platformId: siteB, multiName: 'River levels', multiStatisticsType: 'avg', deviceIds: [devB] },
      })
    ).data.sid;
    await roleWith(t, admin, 'moduleEditor', ['information:device']);
    const tok = await userToken(t, admin, { account: 'modA', roleCode: 'moduleEditor', platformIds: [siteA] });
    const foreign = await t.api('GET', `${M}/getModules`, { token: tok, query: { platformId: String(siteB) } });
    const missing = await t.api('GET', `${M}/getModules`, { token: tok, query: { platformId: '999999' } });
    expect(foreign).toEqual(missing);
    expect(
      (await t.api('POST', `${M}/bindModules`, { token: tok, body: { platformId: siteB, moduleId: 2 } })).status,
    ).toBe(Status.notFound);
    const fs = await t.api('GET', `${M}/multi/getBySid`, { token: tok, query: { sid: String(sidB) } });
    const ms = await t.api('GET', `${M}/multi/getBySid`, { token: tok, query: { sid: '999999' } });
    expect(fs).toEqual(ms);
    expect((await t.api('POST', `${M}/multi/delete`, { token: tok, body: { sid: sidB } })).status).toBe(
      Status.notFound,
    );
    expect((await t.api<Page<MultiStatisticRow>>('GET', `${M}/multi/getListPage`, { token: tok })).data.total).toBe(0);
    expect((await t.api<unknown[]>('GET', `${M}/multi/getNameList`, { token: tok })).data).toEqual([]);
    // Binding needs information:device.
    const plain = await userToken(t, admin, { account: 'modPlain', roleCode: 'user', platformIds: [siteA] });
    expect(
      (await t.api('POST', `${M}/bindModules`, { token: plain, body: { platformId: siteA, moduleId: 2 } })).status,
    ).toBe(Status.noPermission);
    expect((await t.api('GET', `${M}/getModules`, { token: plain, query: { platformId: String(siteA) } })).status).toBe(
      0,
    );
  });
});
