import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type DeviceOption, type DeviceRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { authenticateTerminal } from '../terminals/terminals.service.ts';
import { addDevice, addTerminal, DEVICE, deviceBody, roleWith, userToken } from './testkit.ts';

type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number };
type Invalid = { errors: { field: string; rule: string; message: string }[] };

describe('devices', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let termA: { terminalId: number; key: string };
  let termB: { terminalId: number; key: string };
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'Landslide A' });
    siteB = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir B' });
    termA = await addTerminal(t, admin, siteA, 'TA');
    termB = await addTerminal(t, admin, siteB, 'TB');
  });
  afterAll(() => t.close());

  const get = async (deviceId: number): Promise<DeviceRow> => {
    const r = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { pageSize: '10000' },
    });
    return r.data.list.find((d) => d.deviceId === deviceId)!;
  };

  it('adds a device with every field (form-encoded) and lists it', async () => {
    const r = await t.api<{ deviceId: number }>('POST', `${DEVICE}/common/add`, {
      token: admin,
      form: true,
      body: {
        deviceName: 'Rain gauge 1',
        number: 'RG-001',
        description: 'On the ridge',
        group: 'North',
        moduleId: '2',
        platformId: String(siteA),
        terminalId: String(termA.terminalId),
        type: 'rainGauge',
        protocolType: 'Modbus-RTU',
        ip: '10.1.2.3',
        port: '502',
        installedDepth: '1.5',
        offset: '-0.25',
        offlineHours: '2.5',
        stationType: '',
        initialX: '1',
        initialY: '2',
        initialZ: '3',
        initialValues: '{"rainfall": 0}',
        filterThreshold: '10',
        communicationType: '4G',
        serialPort: 'COM2',
        baudRate: '9600',
        initialLevel: '100.5',
        sensitivityCoefficient: '0.01',
        temperatureCoefficient: '0.002',
        initialFrequency: '1500',
        initialTemperature: '18.5',
        params: '{"extra": {"color": "red"}}',
      },
    });
    expect(r.status).toBe(0);
    const d = await get(r.data.deviceId);
    expect(d).toMatchObject({
      deviceName: 'Rain gauge 1',
      number: 'RG-001',
      description: 'On the ridge',
      group: 'North',
      moduleId: 2,
      platformId: siteA,
      platformName: 'Landslide A',
      terminalId: termA.terminalId,
      terminalName: 'Logger TA',
      type: 'rainGauge',
      protocolType: 'Modbus-RTU',
      ip: '10.1.2.3',
      port: 502,
      installedDepth: 1.5,
      offset: -0.25,
      offlineHours: 2.5,
      stationType: null,
      initialX: 1,
      initialY: 2,
      initialZ: 3,
      initialValues: { rainfall: 0 },
      filterThreshold: 10,
      communicationType: '4G',
      serialPort: 'COM2',
      baudRate: 9600,
      initialLevel: 100.5,
      sensitivityCoefficient: 0.01,
      temperatureCoefficient: 0.002,
      initialFrequency: 1500,
      initialTemperature: 18.5,
      params: { extra: { color: 'red' } },
      state: 'offline',
      bound: true,
      lastSeenAt: null,
    });
    // The site now uses the rain monitor type.
    const mods = await t.api<{ moduleId: number; deviceCount: number }[]>('GET', '/api/v2/data/module/getModules', {
      token: admin,
      query: { platformId: String(siteA) },
    });
    expect(mods.data.find((m) => m.moduleId === 2)?.deviceCount).toBe(1);
    // The terminal may publish for it.
    expect((await authenticateTerminal(t.db, termA.terminalId, termA.key))?.deviceNumbers.has('RG-001')).toBe(true);
  });

  it('requires device name, number, IP, port and terminal (spec §5)', async () => {
    const r = await t.api<Invalid>('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: { moduleId: 2, platformId: siteA },
    });
    expect(r.status).toBe(Status.invalid);
    const missing = r.data.errors.filter((e) => e.rule === 'required').map((e) => e.field);
    expect(missing).toEqual(expect.arrayContaining(['deviceName', 'number', 'ip', 'port', 'terminalId']));
    const zh = await t.api<Invalid>('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: { moduleId: 2, platformId: siteA },
      lang: 'ko',
    });
    expect(zh.info).toMatch(/필수 항목입니다/);
    const empty = await t.api<Invalid>('POST', `${DEVICE}/common/add`, {
      token: admin,
      form: true,
      body: deviceBody(siteA, termA.terminalId, 'x', { deviceName: '  ', ip: '', port: '' }),
    });
    expect(empty.data.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['deviceName', 'ip', 'port']));
  });

  it('refuses an invalid IP, port, offline hours, unknown monitor type and wrong initial values', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ip: '300.1.1.1' }, 'ip'],
      [{ ip: 'example.com' }, 'ip'],
      [{ port: 0 }, 'port'],
      [{ port: 65536 }, 'port'],
      [{ port: 'abc' }, 'port'],
      [{ offlineHours: 0 }, 'offlineHours'],
      [{ offlineHours: -3 }, 'offlineHours'],
      [{ offlineHours: 'soon' }, 'offlineHours'],
      [{ moduleId: 18 }, 'moduleId'],
      [{ moduleId: 99 }, 'moduleId'],
      [{ initialValues: { dN: 1 } }, 'initialValues.dN'],
      [{ initialValues: '{not json' }, 'initialValues'],
      [{ number: 'has/slash' }, 'number'],
      [{ params: { gnss: { maskAngle: 10 } } }, 'params.gnss'],
      [{ baudRate: -1 }, 'baudRate'],
      [{ type: 'toaster' }, 'type'],
    ];
    for (const [extra, field] of cases) {
      const r = await t.api<Invalid>('POST', `${DEVICE}/common/add`, {
        token: admin,
        body: deviceBody(siteA, termA.terminalId, 'bad', extra),
      });
      expect(r.status, JSON.stringify(extra)).toBe(Status.invalid);
      expect(
        r.data.errors.map((e) => e.field),
        JSON.stringify(extra),
      ).toContain(field);
    }
    const v6 = await t.api('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: deviceBody(siteA, termA.terminalId, 'v6', { ip: 'fe80::1' }),
    });
    expect(v6.status).toBe(0);
  });

  it('keeps device numbers and names unique', async () => {
    await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'u1'));
    const num = await t.api('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: deviceBody(siteB, termB.terminalId, 'u2', { number: 'DEV-u1' }),
    });
    expect(num.status).toBe(Status.conflict);
    expect(num.info).toBe('The device already exists (device number DEV-u1)');
    const name = await t.api('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: deviceBody(siteB, termB.terminalId, 'u3', { deviceName: 'DEVICE U1' }),
    });
    expect(name.status).toBe(Status.conflict);
    expect(name.info).toMatch(/name DEVICE U1 is already used/);
  });

  it('requires a terminal of the same site and an existing site', async () => {
    const other = await t.api('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: deviceBody(siteA, termB.terminalId, 'ts'),
    });
    expect(other.status).toBe(Status.invalid);
    expect(other.info).toMatch(/another site/);
    const none = await t.api('POST', `${DEVICE}/common/add`, { token: admin, body: deviceBody(siteA, 777777, 'ts') });
    expect(none.info).toBe('The terminal does not exist');
    const site = await t.api('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: deviceBody(888888, termA.terminalId, 'ts'),
    });
    expect(site.status).toBe(Status.notFound);
  });

  it('edits a device, moving it to another site and terminal', async () => {
    const id = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'e1', { description: 'old' }));
    const r = await t.api('POST', `${DEVICE}/common/edit`, {
      token: admin,
      body: {
        deviceId: id,
        ...deviceBody(siteB, termB.terminalId, 'e1', { moduleId: 9, number: 'DEV-e1b', initialValues: { tiltX: 0.5 } }),
      },
    });
    expect(r.status).toBe(0);
    expect(await get(id)).toMatchObject({
      platformId: siteB,
      terminalId: termB.terminalId,
      moduleId: 9,
      number: 'DEV-e1b',
      description: null,
      initialValues: { tiltX: 0.5 },
    });
    const dup = await t.api('POST', `${DEVICE}/common/edit`, {
      token: admin,
      body: { deviceId: id, ...deviceBody(siteB, termB.terminalId, 'e1', { number: 'DEV-u1' }) },
    });
    expect(dup.status).toBe(Status.conflict);
    const missing = await t.api('POST', `${DEVICE}/common/edit`, {
      token: admin,
      body: { deviceId: 999999, ...deviceBody(siteB, termB.terminalId, 'zz') },
    });
    expect(missing.info).toBe('The device does not exist');
  });

  it('unbinds a device (it leaves site and terminal, keeps its id) and adds the same number again', async () => {
    const id = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'ub1'));
    const r = await t.api('POST', `${DEVICE}/module/device/deleteDeviceData`, { token: admin, body: { deviceId: id } });
    expect(r).toMatchObject({ status: 0, info: 'Unbinding success' });
    expect(await get(id)).toMatchObject({ bound: false, platformId: null, terminalId: null, platformName: null });
    expect((await authenticateTerminal(t.db, termA.terminalId, termA.key))?.deviceNumbers.has('DEV-ub1')).toBe(false);
    const unbound = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { bound: 'false' },
    });
    expect(unbound.data.list.map((d) => d.deviceId)).toContain(id);
    expect(unbound.data.list.every((d) => !d.bound)).toBe(true);

    const again = await t.api<{ deviceId: number }>('POST', `${DEVICE}/common/add`, {
      token: admin,
      body: deviceBody(siteB, termB.terminalId, 'ub1', { deviceName: 'Rebound' }),
    });
    expect(again.status).toBe(0);
    expect(again.data.deviceId).toBe(id);
    expect(await get(id)).toMatchObject({
      bound: true,
      platformId: siteB,
      terminalId: termB.terminalId,
      deviceName: 'Rebound',
      state: 'offline',
    });
    // Once bound, the number is taken again.
    expect(
      (
        await t.api('POST', `${DEVICE}/common/add`, {
          token: admin,
          body: deviceBody(siteA, termA.terminalId, 'ub1', { deviceName: 'Third' }),
        })
      ).status,
    ).toBe(Status.conflict);
  });

  it('deletes a device permanently', async () => {
    const id = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'del'));
    expect((await t.api('POST', `${DEVICE}/common/delete`, { token: admin, body: { deviceId: id } })).info).toBe(
      'Deleted successfully',
    );
    expect(await get(id)).toBeUndefined();
    expect((await t.api('POST', `${DEVICE}/common/delete`, { token: admin, body: { deviceId: id } })).status).toBe(
      Status.notFound,
    );
    // Its number is free for a new device.
    expect(
      (await t.api('POST', `${DEVICE}/common/add`, { token: admin, body: deviceBody(siteA, termA.terminalId, 'del') }))
        .status,
    ).toBe(0);
  });

  it('adds and edits GNSS devices with validated solution parameters', async () => {
    const gnss = {
      ellipsoid: 'CGCS2000',
      projection: 'gaussKruger',
      centralMeridian: 114,
      zoneWidth: 3,
      sevenParameters: { dx: 1, dy: 2, dz: 3, rx: 0.1, ry: 0.2, rz: 0.3, scale: 1.5 },
      fourParameters: { dx: 10, dy: 20, rotation: 1, scale: 0.5 },
      maskAngle: 15,
    };
    const base = await t.api<{ deviceId: number }>('POST', `${DEVICE}/common/gnss/add`, {
      token: admin,
      body: {
        ...deviceBody(siteA, termA.terminalId, 'gb'),
        moduleId: undefined,
        stationType: 'base',
        gnss,
        initialValues: { dN: 0, dE: 0, dH: 0 },
      },
    });
    expect(base.status).toBe(0);
    expect(await get(base.data.deviceId)).toMatchObject({
      moduleId: 1,
      stationType: 'base',
      params: { gnss: { ...gnss, ellipsoid: 'CGCS2000' } },
    });

    const rover = await t.api<{ deviceId: number }>('POST', `${DEVICE}/common/gnss/add`, {
      token: admin,
      form: true,
      body: {
        ...deviceBody(siteA, termA.terminalId, 'gr'),
        moduleId: '1',
        stationType: 'rover',
        gnss: JSON.stringify({ baseNumber: 'DEV-gb', baselineLength: 850 }),
      },
    });
    expect(rover.status).toBe(0);
    expect((await get(rover.data.deviceId)).params.gnss).toMatchObject({
      baseNumber: 'DEV-gb',
      baselineLength: 850,
      maskAngle: 10,
      ellipsoid: 'CGCS2000',
    });

    const badBase = await t.api('POST', `${DEVICE}/common/gnss/add`, {
      token: admin,
      body: {
        ...deviceBody(siteA, termA.terminalId, 'gr2'),
        moduleId: 1,
        stationType: 'rover',
        gnss: { baseNumber: 'DEV-gr' },
      },
    });
    expect(badBase.info).toMatch(/not a GNSS base station/);
    const bad: [Record<string, unknown>, string][] = [
      [{ stationType: 'satellite', gnss: {} }, 'stationType'],
      [{ stationType: 'rover', gnss: { maskAngle: 95 } }, 'gnss.maskAngle'],
      [{ stationType: 'rover', gnss: { ellipsoid: 'Mars' } }, 'gnss.ellipsoid'],
      [{ stationType: 'rover', gnss: { sevenParameters: { dx: 1 } } }, 'gnss.sevenParameters.dy'],
      [{ stationType: 'rover', gnss: { zoneWidth: 4 } }, 'gnss.zoneWidth'],
      [{ stationType: 'base', gnss: { baseNumber: 'DEV-gb' } }, 'gnss.baseNumber'],
      [{ stationType: 'rover', gnss: {}, moduleId: 2 }, 'moduleId'],
    ];
    for (const [extra, field] of bad) {
      const r = await t.api<Invalid>('POST', `${DEVICE}/common/gnss/add`, {
        token: admin,
        body: { ...deviceBody(siteA, termA.terminalId, 'gx'), moduleId: undefined, ...extra },
      });
      expect(r.status, JSON.stringify(extra)).toBe(Status.invalid);
      expect(
        r.data.errors.map((e) => e.field),
        JSON.stringify(extra),
      ).toContain(field);
    }

    const edit = await t.api('POST', `${DEVICE}/common/gnss/edit`, {
      token: admin,
      body: {
        deviceId: rover.data.deviceId,
        ...deviceBody(siteA, termA.terminalId, 'gr'),
        moduleId: undefined,
        stationType: 'rover',
        gnss: { ellipsoid: 'WGS84', projection: 'utm', maskAngle: 5 },
      },
    });
    expect(edit.status).toBe(0);
    expect((await get(rover.data.deviceId)).params.gnss).toMatchObject({
      ellipsoid: 'WGS84',
      projection: 'utm',
      maskAngle: 5,
    });
    // A non-GNSS device cannot be edited through the GNSS route.
    const rain = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'notgnss'));
    const wrong = await t.api('POST', `${DEVICE}/common/gnss/edit`, {
      token: admin,
      body: {
        deviceId: rain,
        ...deviceBody(siteA, termA.terminalId, 'notgnss'),
        moduleId: undefined,
        stationType: 'rover',
        gnss: {},
      },
    });
    expect(wrong.status).toBe(Status.notFound);
  });

  it('pages, filters and sorts the list; pickers get site name and monitor type label', async () => {
    const all = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, { token: admin });
    expect(all.data.pageSize).toBe(1000);
    expect(all.data.total).toBe(all.data.list.length);
    const page = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { pageNum: '2', pageSize: '2', sortField: 'number', sortOrder: 'ascend' },
    });
    const sorted = all.data.list.map((d) => d.number).sort();
    expect(page.data.list.map((d) => d.number)).toEqual(sorted.slice(2, 4));
    const gnss = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { moduleId: '1' },
    });
    expect(gnss.data.list.length).toBe(2);
    const kw = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { keyword: 'rg-0' },
    });
    expect(kw.data.list.map((d) => d.number)).toEqual(['RG-001']);
    const byTerm = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
      token: admin,
      query: { terminalId: String(termB.terminalId), state: 'offline' },
    });
    expect(byTerm.data.list.every((d) => d.terminalId === termB.terminalId)).toBe(true);
    expect(byTerm.data.list.length).toBeGreaterThan(0);

    const opts = await t.api<DeviceOption[]>('GET', `${DEVICE}/getAllDeviceDataList`, {
      token: admin,
      lang: 'zh',
      query: { platformId: String(siteA) },
    });
    const rg = opts.data.find((o) => o.number === 'RG-001')!;
    expect(rg).toMatchObject({ platformName: 'Landslide A', moduleId: 2, moduleName: '雨量', state: 'offline' });
    expect(opts.data.every((o) => o.platformId === siteA)).toBe(true);
    const byRole = await t.api<DeviceRow[]>('GET', `${DEVICE}/common/getListByRoleId`, {
      token: admin,
      query: { roleId: '1' },
    });
    expect(byRole.data.every((d) => d.bound)).toBe(true);
  });

  it('limits devices to the data scope: a foreign id answers like a missing one', async () => {
    await roleWith(t, admin, 'deviceEditor', ['information:device']);
    const tokA = await userToken(t, admin, { account: 'devA', roleCode: 'deviceEditor', platformIds: [siteA] });
    const foreign = await addDevice(t, admin, deviceBody(siteB, termB.terminalId, 'foreign'));
    const list = await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, { token: tokA });
    expect(list.data.total).toBeGreaterThan(0);
    expect(list.data.list.every((d) => d.platformId === siteA)).toBe(true);
    expect(
      (
        await t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, {
          token: tokA,
          query: { platformId: String(siteB) },
        })
      ).data.total,
    ).toBe(0);
    expect(
      (await t.api<DeviceRow[]>('GET', `${DEVICE}/common/getListByRoleId`, { token: tokA })).data.every(
        (d) => d.platformId === siteA,
      ),
    ).toBe(true);
    expect(
      (await t.api<DeviceOption[]>('GET', `${DEVICE}/getAllDeviceDataList`, { token: tokA })).data.every(
        (d) => d.platformId === siteA,
      ),
    ).toBe(true);

    for (const path of ['common/delete', 'module/device/deleteDeviceData']) {
      const f = await t.api('POST', `${DEVICE}/${path}`, { token: tokA, body: { deviceId: foreign } });
      const m = await t.api('POST', `${DEVICE}/${path}`, { token: tokA, body: { deviceId: 987654 } });
      expect(f).toEqual(m);
      expect(f.status).toBe(Status.notFound);
    }
    const edit = await t.api('POST', `${DEVICE}/common/edit`, {
      token: tokA,
      body: { deviceId: foreign, ...deviceBody(siteA, termA.terminalId, 'foreign') },
    });
    expect(edit.info).toBe('The device does not exist');
    // A foreign site or terminal answers like a missing one too.
    const intoB = await t.api('POST', `${DEVICE}/common/add`, {
      token: tokA,
      body: deviceBody(siteB, termB.terminalId, 'sneak'),
    });
    expect(intoB.status).toBe(Status.notFound);
    const foreignTerm = await t.api('POST', `${DEVICE}/common/add`, {
      token: tokA,
      body: deviceBody(siteA, termB.terminalId, 'sneak'),
    });
    expect(foreignTerm.info).toBe('The terminal does not exist');
    expect((await get(foreign)).bound).toBe(true);

    // getAllDeviceDataList only needs a login; the management routes need information:device.
    const plain = await userToken(t, admin, { account: 'devPlain', roleCode: 'user', platformIds: [siteA] });
    expect((await t.api('GET', `${DEVICE}/getAllDeviceDataList`, { token: plain })).status).toBe(0);
    expect((await t.api('GET', `${DEVICE}/common/getListPage`, { token: plain })).status).toBe(Status.noPermission);
    expect(
      (await t.api('POST', `${DEVICE}/common/add`, { token: plain, body: deviceBody(siteA, termA.terminalId, 'p') }))
        .status,
    ).toBe(Status.noPermission);
  });

  it('pages, sorts and filters the list for the read-only device information screen (information:commonDevice)', async () => {
    await roleWith(t, admin, 'deviceViewer', ['information:commonDevice']);
    const tok = await userToken(t, admin, { account: 'devViewer', roleCode: 'deviceViewer', platformIds: [siteA] });
    const list = (query: Record<string, string>) =>
      t.api<Page<DeviceRow>>('GET', `${DEVICE}/common/getListPage`, { token: tok, query });
    const all = await list({ pageSize: '1000' });
    expect(all.status).toBe(0);
    expect(all.data.total).toBeGreaterThan(2);
    expect(all.data.list.every((d) => d.platformId === siteA)).toBe(true);
    const names = all.data.list.map((d) => d.deviceName).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    const page2 = await list({ pageNum: '2', pageSize: '2', sortField: 'deviceName', sortOrder: 'descend' });
    expect(page2.data).toMatchObject({ total: all.data.total, pageNum: 2, pageSize: 2 });
    expect(page2.data.list.map((d) => d.deviceName)).toEqual(names.slice(2, 4));
    const rain = await list({ moduleId: '2', state: 'offline' });
    expect(rain.data.list.length).toBeGreaterThan(0);
    expect(rain.data.list.every((d) => d.moduleId === 2 && d.state === 'offline')).toBe(true);
    expect((await list({ platformId: String(siteB) })).data.total).toBe(0);
    // Read-only: it changes nothing.
    const add = await t.api('POST', `${DEVICE}/common/add`, {
      token: tok,
      body: deviceBody(siteA, termA.terminalId, 'viewer'),
    });
    expect(add.status).toBe(Status.noPermission);
    expect((await t.api('GET', `${DEVICE}/common/export`, { token: tok })).status).toBe(Status.noPermission);
  });
});
