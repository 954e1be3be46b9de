import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  ALERT_LEVELS,
  DEVICE_STATES,
  PLATFORM_TYPES,
  Status,
  type AlertCounts,
  type BigScreenData,
  type DeviceAndData,
  type DeviceStatusData,
  type HomeData,
  type Page,
  type PlatformAlertRow,
  type Weather,
} from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';

const HOME = '/api/v2/data/dashboard/getHome';
const SCREEN = '/api/v2/data/dashboard/getBigScreen';
const DEVICES = '/api/v2/data/bigData/getDeviceAndData';
const WEATHER = '/api/v2/data/dashboard/getWeather';
const PLATFORM_ALERT = '/api/v2/data/bigData/getPlatformAndAlert';
const MIN = 60_000;

/**
 * Home, the big screen, bigData/getDeviceAndData and the weather over real data: sites added through the API,
 * readings through the HTTP ingest, alerts raised by the alert engine from rules, devices gone offline through
 * the offline sweep. Every count is compared with the list it links to.
 */
describe('dashboard: home, big screen, devices with data, weather', () => {
  let t: TestApp;
  let admin: string;
  let scoped: string;
  const site: Record<string, number> = {};
  const term: Record<string, { terminalId: number; key: string }> = {};
  const dev: Record<string, number> = {};
  let clock = Date.now() - 50 * MIN;

  const get = async <T>(url: string, token: string, query: Record<string, string> = {}) => {
    const r = await t.api<T>('GET', url, { token, query });
    return r;
  };
  const ok = async <T>(url: string, token: string, query: Record<string, string> = {}): Promise<T> => {
    const r = await get<T>(url, token, query);
    expect(r.status, `${url} ${r.info}`).toBe(0);
    return r.data;
  };
  const addSite = async (type: string, name: string, extra: Record<string, unknown> = {}) => {
    const r = await t.api<{ platformId: number }>('POST', `/api/v2/data/information/platform/${type}/add`, {
      token: admin,
      body: { name, lon: 104, lat: 30.5, ...extra },
    });
    expect(r.status, r.info).toBe(0);
    return r.data.platformId;
  };
  const send = async (key: string, number: string, values: Record<string, number>[]) => {
    const k = term[key]!;
    const r = await t.raw('POST', '/api/v2/ingest/readings', {
      payload: JSON.stringify(values.map((v) => ({ ts: (clock += MIN), values: v }))),
      headers: {
        'content-type': 'application/json',
        'x-terminal-id': String(k.terminalId),
        'x-terminal-key': k.key,
        'x-device-number': number,
      },
    });
    expect(r.statusCode).toBe(200);
    await new Promise((res) => setTimeout(res, 10));
    await t.built.alertEngine.idle();
  };
  const rule = async (deviceId: number, level: number, value: string) => {
    const r = await t.api('POST', '/api/v2/data/alert/manage/value/add', {
      token: admin,
      body: { deviceId, quantity: 'waterLevel', valueType: 'threshold', level, value, channels: ['mail'], groupId: 1 },
    });
    expect(r.status, r.info).toBe(0);
  };
  /** Makes devices silent past their offline hours and runs the offline sweep. */
  const silence = async (...ids: number[]) => {
    await sql`update devices set last_seen_at = now() - interval '30 hours' where id = any(${ids}::int[])`.execute(
      t.db.k,
    );
    await t.built.ingest.sweepOffline();
    await t.built.alertEngine.idle();
  };

  /** The totals of the lists home links to, for a caller. */
  const listTotal = async (token: string, url: string, query: Record<string, string>) =>
    (await ok<Page<unknown>>(url, token, { pageNum: '1', pageSize: '1', ...query })).total;
  const alertTotal = (token: string, q: Record<string, string>) =>
    listTotal(token, '/api/v2/data/alert/getByPlatformId', q);
  const deviceTotal = (token: string, q: Record<string, string>) =>
    listTotal(token, '/api/v2/data/information/device/common/getListPage', { bound: 'true', ...q });
  const siteTotal = (token: string, type: string, q: Record<string, string>) =>
    listTotal(token, `/api/v2/data/information/platform/${type}/getListPage`, q);

  beforeAll(async () => {
    t = await testApp({ weatherUrl: 'https://weather.example.com/w?lat={lat}&lon={lon}' });
    admin = await t.token();
    site.A = await addSite('disaster', 'Chengdu slope', { regionCode: '510104' });
    site.B = await addSite('reservoir', 'Aba reservoir', {
      regionCode: '513223',
      details: { floodLevel: 100, limitedFloodLevel: 90 },
    });
    site.C = await addSite('disaster', 'Guilin hazard', { regionCode: '450328' });
    site.D = await addSite('river', 'Silent river');
    site.E = await buildPlatform(t, { type: 'bridge', name: 'Empty bridge' }); // no coordinates
    for (const k of ['A', 'B', 'C', 'D']) term[k] = await addTerminal(t, admin, site[k]!, `DB-${k}`);
    const add = async (k: string, n: string, moduleId: number) =>
      (dev[n] = await addDevice(t, admin, deviceBody(site[k]!, term[k]!.terminalId, `db${n}`, { moduleId })));
    await add('A', 'a1', 3);
    await add('A', 'a2', 2);
    await add('A', 'a3', 8);
    await add('B', 'b1', 11);
    await add('B', 'b2', 3);
    await add('C', 'c1', 3);
    await add('C', 'c2', 3);
    await add('D', 'd1', 30);
    await rule(dev.a1!, 1, '10');
    await rule(dev.a1!, 3, '20');
    await rule(dev.b1!, 1, '40');

    // A: water level crossing 10 then 20 (an alarm), rain, temperature/humidity with wind.
    await send('A', 'DEV-dba1', [{ waterLevel: 5 }, { waterLevel: 12 }, { waterLevel: 25 }, { waterLevel: 26 }]);
    await send('A', 'DEV-dba2', [{ rainfall: 1.5 }, { rainfall: 2 }, { rainfall: 0.25 }]);
    await send('A', 'DEV-dba3', [{ temperature: 21.5, humidity: 60, windSpeed: 3.2, windDirection: 90 }]);
    // B: the reservoir at 45 of its flood level 100 (an alert, handled to pre-process), and its second gauge.
    await send('B', 'DEV-dbb1', [{ waterLevel: 45 }]);
    await send('B', 'DEV-dbb2', [{ waterLevel: 3 }]);
    const bAlert = (
      await ok<Page<{ id: number }>>('/api/v2/data/alert/getByPlatformId', admin, {
        platformId: String(site.B),
      })
    ).list[0]!;
    const p = await t.api('POST', '/api/v2/data/alert/processAlert', {
      token: admin,
      body: { id: bAlert.id, processed: 0, suggestion: 'On the way' },
    });
    expect(p.status, p.info).toBe(0);
    // C: both report, then c2 goes silent (offline, with its offline alert): the site is abnormal.
    await send('C', 'DEV-dbc1', [{ waterLevel: 1 }]);
    await send('C', 'DEV-dbc2', [{ waterLevel: 1 }]);
    await silence(dev.c2!);

    await roleWith(t, admin, 'dashDuty', [
      'index',
      'digitalGallery',
      'alert-predict:alert',
      'information:device',
      'information:platform:disaster',
      'information:platform:reservoir',
      'information:platform:river',
      'information:platform:bridge',
      'information:platform:tailings',
      'information:platform:sideslope',
    ]);
    scoped = await userToken(t, admin, {
      account: 'dashScoped',
      roleCode: 'dashDuty',
      platformIds: [site.A!, site.C!],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts on home equal the lists they link to, for an administrator and a scoped user', async () => {
    for (const [who, token] of [
      ['admin', admin],
      ['scoped', scoped],
    ] as const) {
      const h = await ok<HomeData>(HOME, token);
      for (const level of ALERT_LEVELS)
        expect(h.alerts.open[level], `${who} open level ${level}`).toBe(
          await alertTotal(token, { level: String(level), status: 'open' }),
        );
      expect(h.alerts.openTotal).toBe(await alertTotal(token, { status: 'open' }));
      expect(h.alerts.untreated).toBe(await alertTotal(token, { status: 'untreated' }));
      expect(h.alerts.preProcess).toBe(await alertTotal(token, { status: 'preProcess' }));
      for (const state of DEVICE_STATES)
        expect(h.devices.byState[state], `${who} devices ${state}`).toBe(await deviceTotal(token, { state }));
      expect(h.devices.total).toBe(await deviceTotal(token, {}));
      expect(h.devices.online + h.devices.offline).toBe(h.devices.total);
      expect(h.classification.reduce((s, c) => s + c.total, 0)).toBe(h.devices.total);
      expect(h.sites.byType.map((x) => x.type)).toEqual([...PLATFORM_TYPES]);
      for (const k of h.sites.byType) expect(k.total, `${who} ${k.type}`).toBe(await siteTotal(token, k.type, {}));
      expect(h.map).toHaveLength(h.sites.total);
      // The days agree with getCounts' 7 days (same zone).
      const c = await ok<AlertCounts>('/api/v2/data/alert/getCounts', token, { timeZone: h.timeZone });
      expect(h.alertDays.slice(-7).map((d) => [d.day, d.total])).toEqual(c.daily.map((d) => [d.day, d.count]));
      expect(h.alertTypes.reduce((s, x) => s + x.total, 0)).toBe(h.alertDays.reduce((s, x) => s + x.total, 0));
      expect(h.latestAlerts.length).toBeGreaterThan(0);
    }
    // Not vacuous: the administrator sees the alarm of A, the pre-processed alert of B, the offline alert of C.
    const h = await ok<HomeData>(HOME, admin);
    expect(h.alerts.open).toEqual({ 1: 1, 2: 1, 3: 1, 4: 0 });
    expect([h.alerts.untreated, h.alerts.preProcess]).toEqual([2, 1]);
    expect(h.devices).toMatchObject({ total: 8, online: 6, offline: 2 });
    expect(h.devices.byState).toEqual({ normal: 4, alert: 1, alarm: 1, abnormal: 0, offline: 2 });
    expect(h.alertDays).toHaveLength(30);
    expect(h.alertDays.reduce((s, d) => s + d.total, 0)).toBe(3);
    expect(h.alertTypes).toEqual([
      { moduleId: 3, total: 1, levels: { 1: 0, 2: 0, 3: 1, 4: 0 } },
      { moduleId: 11, total: 1, levels: { 1: 1, 2: 0, 3: 0, 4: 0 } },
      { moduleId: null, total: 1, levels: { 1: 0, 2: 1, 3: 0, 4: 0 } },
    ]);
    expect(h.classification.find((x) => x.moduleId === 3)).toMatchObject({ total: 4 });
  });

  it('site states follow from their devices, on home, the big screen and getPlatformAndAlert', async () => {
    const expected = { A: 'alarm', B: 'alert', C: 'abnormal', D: 'offline', E: 'offline' };
    const h = await ok<HomeData>(HOME, admin);
    const screen = await ok<BigScreenData>(SCREEN, admin);
    const pa = await ok<PlatformAlertRow[]>(PLATFORM_ALERT, admin);
    for (const [k, state] of Object.entries(expected)) {
      expect(h.map.find((s) => s.platformId === site[k])?.state, k).toBe(state);
      expect(screen.sites.find((s) => s.platformId === site[k])?.state, k).toBe(state);
      expect(pa.find((s) => s.platformId === site[k])?.state, k).toBe(state);
    }
    expect(h.sites.byState).toEqual({ normal: 0, alert: 1, alarm: 1, abnormal: 1, offline: 2 });
    expect(h.sites.byType.find((x) => x.type === 'disaster')).toEqual({
      type: 'disaster',
      total: 2,
      byState: { normal: 0, alert: 0, alarm: 1, abnormal: 1, offline: 0 },
    });

    // C: its silent device reports again (normal), then both go silent (offline), then one comes back (abnormal).
    const state = async () =>
      (await ok<PlatformAlertRow[]>(PLATFORM_ALERT, admin)).find((s) => s.platformId === site.C);
    await send('C', 'DEV-dbc2', [{ waterLevel: 2 }]);
    expect((await state())?.state).toBe('normal');
    await silence(dev.c1!, dev.c2!);
    expect((await state())?.state).toBe('offline');
    expect((await ok<HomeData>(HOME, admin)).map.find((s) => s.platformId === site.C)?.state).toBe('offline');
    await send('C', 'DEV-dbc1', [{ waterLevel: 3 }]);
    expect((await state())?.state).toBe('abnormal');
  });

  it('regionCode selects the region and every region below it', async () => {
    const sichuan = await ok<HomeData>(HOME, admin, { regionCode: '510000' });
    expect(sichuan.map.map((s) => s.name).sort()).toEqual(['Aba reservoir', 'Chengdu slope']);
    expect(sichuan.devices.total).toBe(5);
    expect(sichuan.alerts.openTotal).toBe(2);
    for (const k of sichuan.sites.byType)
      expect(k.total).toBe(await siteTotal(admin, k.type, { regionCode: '510000' }));
    // The device and alert lists home links to take the region too, so each count equals its list.
    for (const [who, token] of [
      ['admin', admin],
      ['scoped', scoped],
    ] as const) {
      const h = await ok<HomeData>(HOME, token, { regionCode: '510000' });
      for (const state of DEVICE_STATES)
        expect(h.devices.byState[state], `${who} ${state}`).toBe(
          await deviceTotal(token, { state, regionCode: '510000' }),
        );
      for (const level of ALERT_LEVELS)
        expect(h.alerts.open[level], `${who} level ${level}`).toBe(
          await alertTotal(token, { level: String(level), status: 'open', regionCode: '510000' }),
        );
      expect(h.alerts.openTotal).toBe(await alertTotal(token, { status: 'open', regionCode: '510000' }));
    }
    expect(await deviceTotal(admin, { regionCode: '510000' })).toBe(5);
    expect(await alertTotal(admin, { status: 'open', regionCode: '510000' })).toBe(2);
    const guangxi = (await ok<HomeData>(HOME, admin, { regionCode: '450000' })).alerts.openTotal;
    expect(guangxi).toBeGreaterThan(0);
    expect(await alertTotal(admin, { status: 'open', regionCode: '450000' })).toBe(guangxi);
    const chengdu = await ok<HomeData>(HOME, admin, { regionCode: '510100' });
    expect(chengdu.map.map((s) => s.name)).toEqual(['Chengdu slope']);
    expect(chengdu.latestAlerts.every((a) => a.platformId === site.A)).toBe(true);
    expect(chengdu.alertDays.reduce((s, d) => s + d.total, 0)).toBe(1);
    const screen = await ok<BigScreenData>(SCREEN, admin, { regionCode: '513223' });
    expect(screen.sites.map((s) => s.platformId)).toEqual([site.B]);
    expect(screen.rainRanking).toEqual([]);
    const devices = await ok<DeviceAndData[]>(DEVICES, admin, { regionCode: '450000' });
    expect(new Set(devices.map((d) => d.platformId))).toEqual(new Set([site.C]));
    // A region with no site, and a code that is no region: nothing.
    expect((await ok<HomeData>(HOME, admin, { regionCode: '51' })).map).toEqual([]);
  });

  it('the big screen: online rate, rainfall, reservoir levels, alerts and the curves of devices in alarm', async () => {
    const s = await ok<BigScreenData>(SCREEN, admin);
    expect(s.devices.total).toBe(8);
    expect(s.onlineRate).toBe(Math.round((s.devices.online / 8) * 1000) / 10);
    expect(s.rainRanking).toEqual([
      { deviceId: dev.a2, deviceName: 'Device dba2', platformName: 'Chengdu slope', rain: 3.8 },
    ]);
    expect(s.reservoirs).toEqual([
      expect.objectContaining({
        platformId: site.B,
        level: 45,
        floodLevel: 100,
        limitedFloodLevel: 90,
        percentOfFlood: 45,
      }),
    ]);
    expect(s.open).toEqual((await ok<HomeData>(HOME, admin)).alerts.open);
    expect(s.latestAlerts[0]).toMatchObject({ level: expect.any(Number), firstAt: expect.any(String) });
    expect(s.alarmCurves).toHaveLength(1);
    expect(s.alarmCurves[0]).toMatchObject({ deviceId: dev.a1, quantity: 'waterLevel', unit: 'm' });
    expect(s.alarmCurves[0]!.points.map((p) => p[1])).toEqual([5, 12, 25, 26]);
  });

  it('devices with data and the weather come from the site in scope', async () => {
    const list = await ok<DeviceAndData[]>(DEVICES, admin, { platformId: String(site.A) });
    expect(list.map((d) => d.deviceId).sort()).toEqual([dev.a1, dev.a2, dev.a3].sort());
    const a1 = list.find((d) => d.deviceId === dev.a1)!;
    expect(a1).toMatchObject({ state: 'alarm', online: true, values: { waterLevel: 26 }, units: { waterLevel: 'm' } });
    const w = await ok<Weather>(WEATHER, admin, { platformId: String(site.A) });
    expect(w).toMatchObject({
      platformId: site.A,
      temperature: 21.5,
      humidity: 60,
      windSpeed: 3.2,
      windDirection: 90,
      windCompass: 'E',
      rain1h: 3.8,
      rain24h: 3.8,
      providerUrl: 'https://weather.example.com/w?lat=30.5&lon=104',
    });
    const none = await ok<Weather>(WEATHER, admin, { platformId: String(site.E) });
    expect(none).toMatchObject({ temperature: null, rain24h: null, windCompass: null, providerUrl: null });
  });

  it('a user outside a site sees nothing of it in any of the four calls', async () => {
    const h = await ok<HomeData>(HOME, scoped);
    expect(h.map.map((s) => s.platformId).sort()).toEqual([site.A, site.C].sort());
    expect(h.latestAlerts.every((a) => a.platformId === site.A || a.platformId === site.C)).toBe(true);
    expect(h.devices.total).toBe(5);
    const s = await ok<BigScreenData>(SCREEN, scoped);
    expect(s.sites.map((x) => x.platformId).sort()).toEqual([site.A, site.C].sort());
    expect(s.reservoirs).toEqual([]);
    expect(s.latestAlerts.every((a) => a.platformId === site.A || a.platformId === site.C)).toBe(true);
    expect(JSON.stringify(s)).not.toContain('Aba reservoir');
    const all = await ok<DeviceAndData[]>(DEVICES, scoped);
    expect(new Set(all.map((d) => d.platformId))).toEqual(new Set([site.A, site.C]));
    // A foreign site answers exactly as a missing one.
    for (const url of [DEVICES, WEATHER]) {
      const foreign = await get(url, scoped, { platformId: String(site.B) });
      const missing = await get(url, scoped, { platformId: '987654' });
      expect(foreign).toEqual(missing);
      expect(foreign.status).toBe(Status.notFound);
    }
    // Its default weather site is one of its own.
    expect([site.A, site.C]).toContain((await ok<Weather>(WEATHER, scoped)).platformId);
    // A region outside the scope narrows to nothing, not to the region's sites.
    expect((await ok<HomeData>(HOME, scoped, { regionCode: '513223' })).map).toEqual([]);
  });

  it('needs index for home and digitalGallery for the big screen; the big screen may read a site panel', async () => {
    await roleWith(t, admin, 'dashHomeOnly', ['index']);
    await roleWith(t, admin, 'dashScreenOnly', ['digitalGallery']);
    const home = await userToken(t, admin, { account: 'dashHome', roleCode: 'dashHomeOnly', platformIds: [site.A!] });
    const screen = await userToken(t, admin, {
      account: 'dashScreen',
      roleCode: 'dashScreenOnly',
      platformIds: [site.A!],
    });
    expect((await get(SCREEN, home)).status).toBe(Status.noPermission);
    expect((await get(HOME, screen)).status).toBe(Status.noPermission);
    expect((await get(HOME, home)).status).toBe(0);
    expect((await get(SCREEN, screen)).status).toBe(0);
    for (const token of [home, screen]) expect((await get(DEVICES, token)).status).toBe(0);
    const panel = '/api/v2/data/business/module/getRealTimeDataAndDeviceStatus';
    expect((await get<DeviceStatusData>(panel, screen, { platformId: String(site.A) })).data.total).toBe(3);
    expect((await get(panel, screen, { platformId: String(site.B) })).status).toBe(Status.notFound);
    expect((await get(panel, home, { platformId: String(site.A) })).status).toBe(Status.noPermission);
  });
});
