import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, permissionCodes } from '@geosentry/contract';
import { buildUser, testApp, type TestApp } from '../../../test/harness.ts';

/**
 * A screen's role key is enough to use the screen (issue 14): every call a screen makes is allowed by the
 * screen's key, else the server answers 1003 and the console ends the session (spec §8). Each row is a call
 * the web feature of the screen makes on opening it (web/src/features/...), with the screen's key.
 */
type Call = [method: 'GET', path: string, query?: Record<string, string>];
const SCREEN_CALLS: { key: string; screen: string; calls: (ids: Ids) => Call[] }[] = [
  ...['monitor:comparison', 'monitor:dataProcessing', 'monitor:predict'].map((key) => ({
    key,
    screen: key,
    calls: (ids: Ids): Call[] => [
      ['GET', '/api/v2/data/module/getHistoricalData', { deviceId: String(ids.deviceA), range: '24h' }],
    ],
  })),
  {
    key: 'monitor:realtime-sxxy',
    screen: 'realtimesxxy (cards with trails)',
    calls: (ids) => [
      ['GET', '/api/v2/data/module/getRealTimeData', { platformId: String(ids.siteA) }],
      [
        'GET',
        '/api/v2/data/module/getHistoricalData',
        { deviceId: String(ids.deviceA), range: '24h', maxPoints: '60' },
      ],
    ],
  },
  {
    key: 'monitor:realtime',
    screen: 'realTimeData (trails)',
    calls: (ids) => [
      [
        'GET',
        '/api/v2/data/module/getHistoricalData',
        { deviceId: String(ids.deviceA), range: '24h', maxPoints: '60' },
      ],
    ],
  },
  ...['alert-predict:alert', 'alert-predict:report', 'alert-predict:alert-value', 'alert-predict:alert-contract'].map(
    (key) => ({
      key,
      screen: `${key} (site picker of the alert screens)`,
      calls: (): Call[] => [['GET', '/api/v2/data/monitor/view/getPlatforms']],
    }),
  ),
  {
    key: 'alert-predict:alert-value',
    screen: 'setalert / alertRelation (contact group picker)',
    calls: () => [['GET', '/api/v2/data/alert/group/getListPage']],
  },
  {
    key: 'alert-predict:alert-setting',
    screen: 'AlertConfigure (level members and template pickers)',
    calls: () => [
      ['GET', '/api/v2/data/alert/contract/getListPage'],
      ['GET', '/api/v2/data/alert/template/getListPage'],
    ],
  },
  {
    key: 'system:role',
    screen: 'role dialog (parent role picker)',
    calls: () => [['GET', '/api/v2/manage/role/getAll']],
  },
  {
    key: 'system:permission',
    screen: 'jurisdiction (menu management tree)',
    calls: () => [['GET', '/api/v2/manage/permission/getTree']],
  },
  {
    key: 'information:device',
    screen: 'monitoringDeviceManagement (terminal picker)',
    calls: (ids) => [['GET', '/api/v2/data/information/terminal/getAll', { platformId: String(ids.siteA) }]],
  },
  ...[
    'information:device',
    'information:commonDevice',
    'information:terminal',
    'information:responsible',
    'information:segment',
    'information:riverWater',
  ].map((key) => ({
    key,
    screen: 'site picker (getPlatforms, for roles holding a picker screen key)',
    calls: (): Call[] => [['GET', '/api/v2/data/monitor/view/getPlatforms']],
  })),
  {
    key: 'information:reservoirWater',
    screen: 'reservoirWaterElevation (reservoir picker)',
    calls: () => [['GET', '/api/v2/data/monitor/view/getPlatforms', { type: 'reservoir' }]],
  },
  {
    key: 'information:commonDevice',
    screen: 'deviceInfo (device list)',
    calls: () => [['GET', '/api/v2/data/information/device/common/getListPage']],
  },
];

interface Ids {
  siteA: number;
  siteB: number;
  reservoirA: number;
  reservoirB: number;
  deviceA: number;
  deviceB: number;
}

describe('screen role keys', () => {
  let t: TestApp;
  let admin: string;
  let ids: Ids;
  let tree: { id: number; code: string; children?: { id: number; code: string }[] }[];

  async function ok<T>(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<T> {
    const r = await t.api<T>(
      method,
      path,
      method === 'GET' ? { token: admin, query: body as never } : { token: admin, body },
    );
    if (r.status !== 0) throw new Error(`${path}: ${r.status} ${r.info}`);
    return r.data;
  }

  /** A user whose role holds only `key` (its parent comes along), seeing the given sites. */
  async function userWith(key: string, account: string, platformIds?: number[]): Promise<string> {
    const perm = tree.flatMap((p) => [p, ...(p.children ?? [])]).find((p) => p.code === key);
    if (!perm) throw new Error(`no permission ${key}`);
    const role = await ok<{ id: number }>('POST', '/api/v2/manage/role/add', { name: account, code: account });
    await ok('POST', '/api/v2/manage/role/setPermissions', { roleId: role.id, permissionIds: [perm.id] });
    await buildUser(t, admin, {
      account,
      password: 'Screen-key-pass-1',
      roleCode: account,
      scopeAll: !platformIds,
      platformIds: platformIds ?? [],
    });
    return t.token(account, 'Screen-key-pass-1');
  }

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    tree = await ok('GET', '/api/v2/manage/permission/getTree');
    let node = (
      await ok<{ code: string; children?: unknown[] }[]>('GET', '/api/v2/data/information/region/getTree')
    )[0]!;
    while (node.children?.length) node = node.children[0] as typeof node;
    const site = async (name: string, kind = 'disaster') =>
      (
        await ok<{ platformId: number }>('POST', `/api/v2/data/information/platform/${kind}/add`, {
          name,
          regionCode: node.code,
          lon: 103.8,
          lat: 30.7,
        })
      ).platformId;
    const siteA = await site('Key site A');
    const siteB = await site('Key site B');
    const device = async (platformId: number, n: string) => {
      const term = await ok<{ terminalId: number }>('POST', '/api/v2/data/information/terminal/add', {
        platformId,
        name: `RTU ${n}`,
        serial: `KEY-RTU-${n}`,
        protocolType: 'HTTP',
      });
      return (
        await ok<{ deviceId: number }>('POST', '/api/v2/data/information/device/common/add', {
          deviceName: `Key device ${n}`,
          number: `KEY-D-${n}`,
          moduleId: 30,
          platformId,
          terminalId: term.terminalId,
          ip: '10.0.9.1',
          port: 502,
        })
      ).deviceId;
    };
    ids = {
      siteA,
      siteB,
      reservoirA: await site('Key reservoir A', 'reservoir'),
      reservoirB: await site('Key reservoir B', 'reservoir'),
      deviceA: await device(siteA, 'A'),
      deviceB: await device(siteB, 'B'),
    };
  });
  afterAll(() => t.close());

  it('every route permission names at least one code', () => {
    const empty = t.routes.filter(
      (r) => r.permission && 'code' in r.permission && !permissionCodes(r.permission).length,
    );
    expect(empty.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it("a role holding only a screen's key makes every call of the screen without 1003", async () => {
    const refused: string[] = [];
    for (const [i, s] of SCREEN_CALLS.entries()) {
      const token = await userWith(s.key, `screenkey${i}`);
      for (const [method, path, query] of s.calls(ids)) {
        const r = await t.api(method, path, { token, query });
        if (r.status === Status.noPermission) refused.push(`${s.key} (${s.screen}): ${method} ${path}`);
        else expect(r.status, `${s.key} ${path}: ${r.info}`).toBe(0);
      }
    }
    expect(refused).toEqual([]);
  });

  it('a call allowed by another screen key still reads only the data scope', async () => {
    const token = await userWith('monitor:comparison', 'scopedcmp', [ids.siteA]);
    const own = await t.api('GET', '/api/v2/data/module/getHistoricalData', {
      token,
      query: { deviceId: String(ids.deviceA), range: '24h' },
    });
    expect(own.status).toBe(0);
    const foreign = await t.api('GET', '/api/v2/data/module/getHistoricalData', {
      token,
      query: { deviceId: String(ids.deviceB), range: '24h' },
    });
    const missing = await t.api('GET', '/api/v2/data/module/getHistoricalData', {
      token,
      query: { deviceId: '987654', range: '24h' },
    });
    expect(foreign.status).not.toBe(0);
    expect(foreign).toEqual(missing);
    const terminals = await userWith('information:device', 'scopeddev', [ids.siteA]);
    const all = await t.api<{ platformId: number }[]>('GET', '/api/v2/data/information/terminal/getAll', {
      token: terminals,
    });
    expect(all.status).toBe(0);
    expect(all.data.map((x) => x.platformId)).toEqual([ids.siteA]);
    // The site pickers of the information screens: the sites of the scope with their kind, never a foreign one.
    type Site = { platformId: number; type: string; name: string };
    const picker = await userWith('information:device', 'scopedpick', [ids.siteA, ids.reservoirA]);
    const sites = await t.api<Site[]>('GET', '/api/v2/data/monitor/view/getPlatforms', { token: picker });
    expect(sites.status).toBe(0);
    expect(sites.data.map((x) => [x.platformId, x.type]).sort()).toEqual(
      [
        [ids.siteA, 'disaster'],
        [ids.reservoirA, 'reservoir'],
      ].sort(),
    );
    const water = await userWith('information:reservoirWater', 'scopedres', [ids.reservoirA, ids.siteB]);
    const reservoirs = await t.api<Site[]>('GET', '/api/v2/data/monitor/view/getPlatforms', {
      token: water,
      query: { type: 'reservoir' },
    });
    expect(reservoirs.status).toBe(0);
    expect(reservoirs.data).toEqual([{ platformId: ids.reservoirA, type: 'reservoir', name: 'Key reservoir A' }]);
    // A key of no screen that makes the call is still refused.
    const other = await userWith('information:responsible', 'nokeyresp');
    expect((await t.api('GET', '/api/v2/data/information/terminal/getAll', { token: other })).status).toBe(
      Status.noPermission,
    );
    const noPicker = await userWith('information:external-file', 'nokeyfile');
    expect((await t.api('GET', '/api/v2/data/monitor/view/getPlatforms', { token: noPicker })).status).toBe(
      Status.noPermission,
    );
  });
});
