import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Envelope } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { newToken, sha256hex } from '../../platform/auth/crypto.ts';
import { createSession } from '../session/index.ts';
import { endSessions } from '../../platform/auth/sessions.ts';
import { seedDemoAlerts } from '../alerts/index.ts';

/**
 * The demo portfolio (DEMO=on, first start only): one site of every kind in real places, with
 * enterprises, sections, terminals, responsible persons and 40+ devices across the main monitor types.
 * Everything goes through the public API as the first super administrator, so the demo obeys every
 * rule a user's own data does. The telemetry feature makes these devices report.
 */

interface DemoDevice {
  name: string;
  moduleId: number;
  gnss?: 'base' | 'rover';
}

/** A dam section to draw: crest elevation, capacity table [elevation m, volume 10^4 m3], core-wall devices. */
interface DemoDam {
  crest: number;
  capacity: [number, number][];
  heart: string[];
}

/** An API call of the seeding session. */
type DemoCall = <T>(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>) => Promise<T>;

interface DemoSite {
  type: 'disaster' | 'sideslope' | 'tailings' | 'reservoir' | 'river' | 'bridge';
  key: string;
  name: string;
  subType?: string;
  description: string;
  manager: string;
  regionCode: string;
  lon: number;
  lat: number;
  alt: number;
  enterprise?: 'general' | 'tailings';
  details?: Record<string, unknown>;
  sections?: {
    name: string;
    info: string;
    bottomElevation: number;
    dam?: DemoDam;
  }[];
  devices: DemoDevice[];
}

export const DEMO_SITES: DemoSite[] = [
  {
    type: 'disaster',
    key: 'XM',
    name: 'Xinmo Village landslide',
    subType: 'landslide',
    description: 'Rock avalanche scar above Xinmo Village; post-event monitoring of the source area and the deposit.',
    manager: 'Li Wei',
    regionCode: '513223',
    lon: 103.6627,
    lat: 32.0712,
    alt: 2250,
    enterprise: 'general',
    sections: [
      {
        name: 'Main sliding profile A–A′',
        info: 'Longitudinal section through the source area',
        bottomElevation: 2280,
      },
    ],
    devices: [
      { name: 'XM GNSS base', moduleId: 1, gnss: 'base' },
      { name: 'XM GNSS 01', moduleId: 1, gnss: 'rover' },
      { name: 'XM GNSS 02', moduleId: 1, gnss: 'rover' },
      { name: 'XM GNSS 03', moduleId: 1, gnss: 'rover' },
      { name: 'XM rain gauge', moduleId: 2 },
      { name: 'XM crack meter 01', moduleId: 30 },
      { name: 'XM crack meter 02', moduleId: 30 },
      { name: 'XM inclinometer 01', moduleId: 13 },
      { name: 'XM soil moisture 01', moduleId: 14 },
    ],
  },
  {
    type: 'sideslope',
    key: 'G318',
    name: 'G318 K2650 cut slope',
    subType: 'cut',
    description: 'High cut slope on National Road G318 above the Dadu River; anchored frame beams.',
    manager: 'Zhang Min',
    regionCode: '511823',
    lon: 102.6521,
    lat: 29.3472,
    alt: 1120,
    enterprise: 'general',
    devices: [
      { name: 'G318 surface displacement 01', moduleId: 5 },
      { name: 'G318 surface displacement 02', moduleId: 5 },
      { name: 'G318 tilt 01', moduleId: 9 },
      { name: 'G318 tilt 02', moduleId: 9 },
      { name: 'G318 anchor load 01', moduleId: 20 },
      { name: 'G318 anchor load 02', moduleId: 20 },
      { name: 'G318 rain gauge', moduleId: 2 },
    ],
  },
  {
    type: 'tailings',
    key: 'LS',
    name: 'Longsheng No. 2 tailings pond',
    subType: 'valley',
    description: 'Valley-type tailings pond, upstream raising; monitoring of the dam crest, phreatic line and beach.',
    manager: 'Huang Jun',
    regionCode: '450328',
    lon: 110.0113,
    lat: 25.7982,
    alt: 420,
    enterprise: 'tailings',
    devices: [
      { name: 'LS dam crest GNSS 01', moduleId: 1, gnss: 'rover' },
      { name: 'LS GNSS base', moduleId: 1, gnss: 'base' },
      { name: 'LS piezometer 01', moduleId: 10 },
      { name: 'LS piezometer 02', moduleId: 10 },
      { name: 'LS pond water level', moduleId: 3 },
      { name: 'LS dry beach length', moduleId: 15 },
      { name: 'LS rain gauge', moduleId: 2 },
    ],
  },
  {
    type: 'reservoir',
    key: 'XL',
    name: 'Xiling reservoir dam',
    subType: 'concrete',
    description: 'Concrete gravity dam; seepage, deformation and water level monitoring.',
    manager: 'Chen Hao',
    regionCode: '420506',
    lon: 111.0036,
    lat: 30.8235,
    alt: 185,
    enterprise: 'general',
    details: { damType: 'concrete', damHeight: 95, elevation: 185, floodLevel: 180, limitedFloodLevel: 175 },
    sections: [
      {
        name: 'Dam section 0+120',
        info: 'Overflow section',
        bottomElevation: 90,
        dam: {
          crest: 185,
          capacity: [
            [90, 0],
            [120, 9000],
            [150, 42000],
            [170, 88000],
            [185, 139000],
          ],
          heart: ['XL upstream water level', 'XL uplift pressure 01', 'XL uplift pressure 02'],
        },
      },
      { name: 'Dam section 0+260', info: 'Non-overflow section', bottomElevation: 92 },
    ],
    devices: [
      { name: 'XL upstream water level', moduleId: 11 },
      { name: 'XL seepage flow', moduleId: 12 },
      { name: 'XL uplift pressure 01', moduleId: 17 },
      { name: 'XL uplift pressure 02', moduleId: 17 },
      { name: 'XL dam crest displacement', moduleId: 13 },
      { name: 'XL air temperature & humidity', moduleId: 8 },
      { name: 'XL strain 01', moduleId: 27 },
    ],
  },
  {
    type: 'river',
    key: 'MJ',
    name: 'Min River at Dujiangyan',
    description: 'Flood and water quality monitoring upstream of the Dujiangyan irrigation system.',
    manager: 'Wang Fang',
    regionCode: '510181',
    lon: 103.6087,
    lat: 31.0062,
    alt: 720,
    enterprise: 'general',
    sections: [{ name: 'Yuzui section', info: 'Fish-mouth diversion', bottomElevation: 718 }],
    devices: [
      { name: 'MJ water level', moduleId: 16 },
      { name: 'MJ flow', moduleId: 4 },
      { name: 'MJ water quality', moduleId: 32 },
      { name: 'MJ rain gauge', moduleId: 2 },
      { name: 'MJ gate opening', moduleId: 33 },
    ],
  },
  {
    type: 'bridge',
    key: 'CTM',
    name: 'Chaotianmen Yangtze River Bridge',
    subType: 'highway',
    description: 'Steel truss arch bridge, main span 552 m; structural health monitoring.',
    manager: 'Zhou Qiang',
    regionCode: '500103',
    lon: 106.5862,
    lat: 29.5849,
    alt: 230,
    details: { code: 'CQ-YZ-0552', custodyUnit: 'Chongqing Urban Bridge Administration', bridgeType: 'steelTrussArch' },
    devices: [
      { name: 'CTM arch crown vibration', moduleId: 36 },
      { name: 'CTM deck vibration', moduleId: 36 },
      { name: 'CTM chord strain 01', moduleId: 27 },
      { name: 'CTM chord strain 02', moduleId: 27 },
      { name: 'CTM pier tilt', moduleId: 9 },
      { name: 'CTM deck temperature', moduleId: 8 },
      { name: 'CTM arch GNSS', moduleId: 1, gnss: 'rover' },
      { name: 'CTM GNSS base', moduleId: 1, gnss: 'base' },
    ],
  },
];

export const DEMO_PERSONS = [
  {
    name: 'Li Wei',
    phone: '13800138001',
    title: 'Geotechnical engineer',
    company: 'Sichuan Geohazard Prevention Center',
    email: 'li.wei@example.com',
  },
  {
    name: 'Chen Hao',
    phone: '13800138002',
    title: 'Dam safety engineer',
    company: 'Xiling Hydropower',
    email: 'chen.hao@example.com',
  },
  {
    name: 'Kim Minji',
    phone: '01012345678',
    title: 'Monitoring duty officer',
    company: 'Geosentry Korea',
    email: 'minji.kim@example.com',
  },
];

export interface DemoResult {
  sites: number;
  devices: number;
  /** Terminal id and key per site key, for the simulator (shown only in memory, never logged). */
  terminals: Record<string, { terminalId: number; key: string }>;
}

/**
 * Seeds the demo portfolio through the API, as the first super administrator in a session of its own
 * (made here, ended at the end, so the captcha setting does not matter). Call only on an empty database.
 */
export async function seedDemo(app: FastifyInstance, db: Db, account: string): Promise<DemoResult> {
  const admin = await db.k
    .selectFrom('users')
    .select('id')
    .where(sql`lower(account)`, '=', account.toLowerCase())
    .executeTakeFirstOrThrow();
  const token = newToken();
  const sessionId = await createSession(db, {
    tokenHash: sha256hex(token),
    userId: admin.id,
    ip: '127.0.0.1',
    userAgent: 'demo seed',
  });
  try {
    return await seedWith(app, token);
  } finally {
    await endSessions(db, { sessionIds: [sessionId] }, 'logout');
  }
}

async function seedWith(app: FastifyInstance, token: string): Promise<DemoResult> {
  const call = async <T>(method: 'GET' | 'POST', url: string, body?: Record<string, unknown>): Promise<T> => {
    const r = await app.inject({
      method,
      url,
      headers: { token },
      ...(method === 'POST' ? { payload: body ?? {} } : { query: body as Record<string, string> }),
    });
    const env = r.json() as Envelope<T>;
    if (env.status !== 0) throw new Error(`demo seed: ${url} answered ${env.status} ${env.info}`);
    return env.data;
  };

  const ent = {
    general: (await call<{ id?: number; enterpriseId?: number }>(
      'POST',
      '/api/v2/data/information/enterprise/general/add',
      {
        name: 'Sichuan Geohazard Prevention Center',
        code: 'SC-GPC',
        address: '28 Renmin South Road, Chengdu',
        description: 'Provincial monitoring and early-warning centre',
      },
    )) as { id?: number; enterpriseId?: number },
    tailings: (await call<{ id?: number; enterpriseId?: number }>(
      'POST',
      '/api/v2/data/information/enterprise/tailings/add',
      {
        name: 'Guangxi Nonferrous Mining Co.',
        code: 'GX-NFM',
        address: 'Longsheng County, Guilin',
      },
    )) as { id?: number; enterpriseId?: number },
  };
  const entId = (e: { id?: number; enterpriseId?: number }): number | undefined => e.enterpriseId ?? e.id;

  const result: DemoResult = { sites: 0, devices: 0, terminals: {} };
  const made: { deviceId: number; number: string; moduleId: number }[] = [];
  const platformIds: number[] = [];
  let n = 0;
  for (const s of DEMO_SITES) {
    const added = await call<{ platformId?: number; id?: number }>(
      'POST',
      `/api/v2/data/information/platform/${s.type}/add`,
      {
        name: s.name,
        ...(s.subType ? { subType: s.subType } : {}),
        description: s.description,
        manager: s.manager,
        regionCode: s.regionCode,
        lon: s.lon,
        lat: s.lat,
        alt: s.alt,
        ...(s.details ? { details: s.details } : {}),
      },
    );
    const platformId = (added.platformId ?? added.id)!;
    platformIds.push(platformId);
    result.sites++;
    if (s.enterprise) {
      const eid = entId(ent[s.enterprise]);
      await call('POST', `/api/v2/data/information/enterprise/${s.enterprise}/bindPlatform`, {
        enterpriseId: eid,
        platformId,
      });
    }
    const dams: { segmentId: number; dam: DemoDam }[] = [];
    for (const { dam, ...sec } of s.sections ?? []) {
      const seg = await call<{ segmentId: number }>('POST', '/api/v2/data/information/segment/add', {
        platformId,
        ...sec,
      });
      if (dam) dams.push({ segmentId: seg.segmentId, dam });
    }
    const idOfName = new Map<string, number>();
    const term = await call<{ terminalId: number; key: string }>('POST', '/api/v2/data/information/terminal/add', {
      platformId,
      name: `${s.key} data logger`,
      serial: `DL-${s.key}-001`,
      manufacturer: 'Geosentry',
      model: 'GL-8',
      protocolType: 'MQTT',
      port: 1883,
      type: 'gateway',
    });
    result.terminals[s.key] = { terminalId: term.terminalId, key: term.key };
    const modules = [...new Set(s.devices.map((d) => d.moduleId))];
    await call('POST', '/api/v2/data/module/bindModules', { platformId, moduleId: modules });
    const bases = s.devices.filter((d) => d.gnss === 'base');
    const ordered = [...bases, ...s.devices.filter((d) => d.gnss !== 'base')];
    let i = 0;
    let baseNumber: string | undefined;
    for (const d of ordered) {
      i++;
      n++;
      const number = `${s.key}-${String(i).padStart(3, '0')}`;
      const common = {
        deviceName: d.name,
        number,
        platformId,
        terminalId: term.terminalId,
        protocolType: 'MQTT',
        ip: `10.20.${platformIds.length}.${10 + i}`,
        port: 502,
        offlineHours: 2,
        description: `Demo instrument ${n}`,
      };
      if (d.gnss) {
        const g = await call<{ deviceId: number }>('POST', '/api/v2/data/information/device/common/gnss/add', {
          ...common,
          stationType: d.gnss,
          gnss: {
            ellipsoid: 'CGCS2000',
            projection: 'gaussKruger',
            ...(d.gnss === 'rover' && baseNumber ? { baseNumber } : {}),
          },
        });
        idOfName.set(d.name, g.deviceId);
        if (d.gnss === 'base') baseNumber = number;
        else made.push({ deviceId: g.deviceId, number, moduleId: d.moduleId });
      } else {
        const c = await call<{ deviceId: number }>('POST', '/api/v2/data/information/device/common/add', {
          ...common,
          moduleId: d.moduleId,
        });
        idOfName.set(d.name, c.deviceId);
        made.push({ deviceId: c.deviceId, number, moduleId: d.moduleId });
      }
      result.devices++;
    }
    for (const { segmentId, dam } of dams) await seedDemoDam(call, platformId, segmentId, dam, idOfName);
    await placeDemoDevices(call, platformId, s.lon, s.lat);
  }
  // Alert values on a few devices, placed on the simulator's series so its episodes raise several levels.
  await seedDemoAlerts(call, made);
  for (const p of DEMO_PERSONS) await call('POST', '/api/v2/data/information/responsible/add', { ...p, platformIds });
  await call('POST', '/api/v2/data/information/externalFile/add', {
    name: 'Geohazard prevention regulations (national)',
    url: 'https://www.mnr.gov.cn/',
  });
  await seedDemoTsRecords(call, platformIds[DEMO_SITES.findIndex((s) => s.type === 'tailings')]);
  return result;
}

/**
 * A dam section of the reservoir view: the upstream face (a trapezoid from the bottom to the crest), the capacity
 * table, the core-wall devices (water level, uplift pressure) and the water level read from the level gauge.
 */
async function seedDemoDam(
  call: DemoCall,
  platformId: number,
  segmentId: number,
  dam: DemoDam,
  idOfName: ReadonlyMap<string, number>,
): Promise<void> {
  const SEGMENT = '/api/v2/data/information/segment';
  const bottom = dam.capacity[0]![0];
  await call('POST', `${SEGMENT}/setUpstreamCoords`, {
    segmentId,
    coords: JSON.stringify([
      { x: 40, y: 380, elevation: bottom },
      { x: 330, y: 60, elevation: dam.crest },
      { x: 390, y: 60, elevation: dam.crest },
      { x: 700, y: 380, elevation: bottom },
    ]),
  });
  await call('POST', `${SEGMENT}/setCapacityList`, {
    platformId,
    segmentId,
    rows: JSON.stringify(
      dam.capacity.map(([waterLevelElevation, waterVolume], i) => ({ index: i + 1, waterLevelElevation, waterVolume })),
    ),
  });
  const ids = dam.heart.map((n) => idOfName.get(n)).filter((x): x is number => x !== undefined);
  if (ids.length) await call('POST', `${SEGMENT}/bindMiltiHeartWallDevice`, { segmentId, deviceIds: ids.join(',') });
  await call('POST', `${SEGMENT}/setWaterLevel`, { segmentId, source: 'auto' });
}

/** Two supervision records for the demo tailings pond: one rectified, one still open. */
async function seedDemoTsRecords(call: DemoCall, platformId: number | undefined): Promise<void> {
  if (platformId === undefined) return;
  const TS = '/api/v2/data/information/tsManagement';
  const persons = await call<{ id: number; name: string }[]>('GET', `${TS}/getPersons`, {
    platformId: String(platformId),
  });
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const ok = { result: 'ok' };
  const items = {
    damCrestSlopes: ok,
    dryBeachLength: ok,
    seepageDrainage: ok,
    floodDischarge: ok,
    monitoringFacilities: ok,
  };
  const common = {
    platformId,
    inspector: 'Zhao Lei',
    regulatoryPerson: 'Wang Jian, Longsheng County Emergency Bureau',
  };
  await call('POST', `${TS}/add`, {
    ...common,
    inspectionDate: day(-40),
    problemType: 'dryBeach',
    items: {
      ...items,
      dryBeachLength: { result: 'problem', note: 'Dry beach 62 m at the left abutment, below the 70 m minimum' },
    },
    dryBeachLength: 62,
    requirement: 'Move the discharge points to the left abutment and raise the beach to at least 70 m.',
    deadline: day(-20),
    responsiblePersonId: persons[0]?.id,
    state: 'completed',
    completedDate: day(-24),
    result: 'Discharge points moved; dry beach measured at 84 m on three consecutive days.',
  });
  await call('POST', `${TS}/add`, {
    ...common,
    inspectionDate: day(-6),
    problemType: 'monitoringFacilities',
    items: { ...items, monitoringFacilities: { result: 'problem', note: 'Piezometer P3 silent since last week' } },
    requirement: 'Restore piezometer P3 and check the phreatic line readings against the manual measurement.',
    deadline: day(10),
    responsiblePersonId: persons[1]?.id ?? persons[0]?.id,
    state: 'incomplete',
  });
}

/**
 * Places a site's demo devices for the graphical monitor screens: down the schematic as a line of
 * instruments across the slope or structure, and on the map on a ring of about 150 m around the site.
 */
async function placeDemoDevices(call: DemoCall, platformId: number, lon: number, lat: number): Promise<void> {
  const list = await call<{ list: { deviceId: number }[] }>(
    'GET',
    '/api/v2/data/information/device/common/getListPage',
    {
      platformId: String(platformId),
      pageNum: '1',
      pageSize: '100',
    },
  );
  const ids = list.list.map((d) => d.deviceId).sort((a, b) => a - b);
  const n = ids.length;
  // On the sketch: rows of three, a label's width apart (labels never overlap), each column a little lower.
  const cols = 3;
  const rows = Math.ceil(n / cols);
  for (let i = 0; i < n; i++) {
    const angle = (2 * Math.PI * i) / n;
    const row = Math.floor(i / cols);
    await call('POST', '/api/v2/data/monitor/view/updatePosition', {
      deviceId: ids[i],
      sketchX: Number((0.08 + 0.31 * (i % cols)).toFixed(3)),
      sketchY: Number(((rows === 1 ? 0.45 : 0.14 + (0.66 * row) / (rows - 1)) + 0.05 * (i % cols)).toFixed(3)),
      lon: Number((lon + 0.0018 * Math.cos(angle)).toFixed(6)),
      lat: Number((lat + 0.0013 * Math.sin(angle)).toFixed(6)),
    });
  }
}
