import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  areaLevel,
  DEFAULT_AREA_RULE,
  type AreaInfo,
  type AreaRow,
  type Page,
  type ParsedPolygon,
} from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addSite, roleWith, scopedUser, snapshot } from '../platforms/platforms.testkit.ts';
import { multipartBody } from '../maps/maps.testkit.ts';

const A = '/api/v2/data/area';
// A square around (104.07, 30.66) about 2 km wide.
const SQUARE = [
  { lat: 30.65, lon: 104.06 },
  { lat: 30.65, lon: 104.08 },
  { lat: 30.67, lon: 104.08 },
  { lat: 30.67, lon: 104.06 },
];

describe('the area rule', () => {
  it('takes the highest device level, raised by counts (3 blue make yellow, 2 yellow make orange)', () => {
    expect(areaLevel([], DEFAULT_AREA_RULE)).toBe(0);
    expect(areaLevel([0, 1, 1], DEFAULT_AREA_RULE)).toBe(1);
    expect(areaLevel([1, 1, 1], DEFAULT_AREA_RULE)).toBe(2);
    // Chained: 3 at blue or above make yellow; with two yellows, orange.
    expect(areaLevel([2, 2, 1], DEFAULT_AREA_RULE)).toBe(3);
    expect(areaLevel([4], DEFAULT_AREA_RULE)).toBe(4);
    expect(areaLevel([1, 1, 1, 1], { steps: [{ level: 1, count: 4, makes: 4 }] })).toBe(4);
  });
});

describe('area monitoring', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let monitor: string;
  let site: number;
  let foreign: number;
  let inside: number[];
  let outside: number;
  let areaId: number;
  let foreignArea: number;

  const place = async (deviceId: number, lat: number, lon: number) =>
    sql`insert into device_positions (device_id, lat, lon) values (${deviceId}, ${lat}, ${lon})
        on conflict (device_id) do update set lat = excluded.lat, lon = excluded.lon`.execute(t.db.k);
  const alert = async (deviceId: number, platformId: number, level: number) =>
    sql`insert into alerts (platform_id, device_id, kind, family, value_type, level, first_level, first_at, last_at, evidence, last_value, quantity)
        values (${platformId}, ${deviceId}, 'single', ${`single:x:${level}`}, 'static', ${level}, ${level}, now(), now(), '{}', 12.5, 'x')`.execute(
      t.db.k,
    );

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await addSite(t, admin, 'disaster', { name: 'Area slope', lon: 104.07, lat: 30.66 });
    foreign = await addSite(t, admin, 'disaster', { name: 'Other slope', lon: 104.2, lat: 30.7 });
    await roleWith(t, admin, 'areaManager', ['area', 'area:manage']);
    await roleWith(t, admin, 'areaMonitor', ['area', 'area:monitor']);
    manager = await scopedUser(t, admin, 'area.manager', 'areaManager', [site]);
    monitor = await scopedUser(t, admin, 'area.monitor', 'areaMonitor', [site]);
    inside = [];
    for (let i = 0; i < 3; i++) {
      const d = await addDevice(t, site, 1, `Crack ${i}`);
      await place(d, 30.66 + i * 0.001, 104.07);
      inside.push(d);
    }
    outside = await addDevice(t, site, 1, 'Far crack');
    await place(outside, 30.7, 104.1);
    await addDevice(t, site, 1, 'Unplaced crack');
    const f = await t.api<{ id: number }>('POST', `${A}/add`, {
      token: admin,
      body: { platformId: foreign, name: 'Foreign area', points: SQUARE },
    });
    foreignArea = f.data.id;
  });
  afterAll(async () => t.close());

  it('adds an area; the devices inside are decided on the server', async () => {
    const r = await t.api<{ id: number }>('POST', `${A}/add`, {
      token: manager,
      form: true,
      body: { platformId: site, name: 'Landslide A', points: JSON.stringify(SQUARE) },
    });
    expect(r.status, r.info).toBe(0);
    areaId = r.data.id;
    const info = await t.api<AreaInfo>('GET', `${A}/getInfo`, { token: monitor, query: { id: String(areaId) } });
    expect(info.status).toBe(0);
    expect(info.data.deviceList.map((d) => d.deviceId).sort()).toEqual([...inside].sort());
    expect(info.data).toMatchObject({ level: 0, devices: 3, alerting: 0, unplaced: 1, rule: DEFAULT_AREA_RULE });
    expect(info.data.points).toEqual(SQUARE);
  });

  it('follows its devices by the rule: three blue alerts make the area yellow, a red one red', async () => {
    for (const d of inside) await alert(d, site, 1);
    await alert(outside, site, 4); // outside the polygon: no effect
    const info = await t.api<AreaInfo>('GET', `${A}/getInfo`, { token: monitor, query: { id: String(areaId) } });
    expect(info.data.level).toBe(2);
    expect(info.data.alerting).toBe(3);
    expect(info.data.alerts).toHaveLength(3);
    const list = await t.api<Page<AreaRow>>('GET', `${A}/getListPage`, { token: monitor });
    expect(list.data.list.map((a) => [a.name, a.level])).toEqual([['Landslide A', 2]]);
    const strict = await t.api('POST', `${A}/edit`, {
      token: manager,
      body: {
        id: areaId,
        platformId: site,
        name: 'Landslide A',
        points: SQUARE,
        rule: { steps: [{ level: 1, count: 3, makes: 4 }] },
      },
    });
    expect(strict.status, strict.info).toBe(0);
    const red = await t.api<AreaInfo>('GET', `${A}/getInfo`, { token: monitor, query: { id: String(areaId) } });
    expect(red.data.level).toBe(4);
  });

  it('refuses crossing polygons, coordinates out of range and bad rules; nothing saved', async () => {
    const before = await snapshot(t, 'areas');
    const bow = [SQUARE[0], SQUARE[2], SQUARE[1], SQUARE[3]]; // a bow tie crosses itself
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ points: bow }, /crosses itself/],
      [{ points: [...SQUARE.slice(0, 3), { lat: 95, lon: 104 }] }, /lat/],
      [{ points: [SQUARE[0], SQUARE[1], SQUARE[0]] }, /3 distinct|at least 3|points/],
      [{ points: [SQUARE[0], SQUARE[1], { lat: 30.65, lon: 104.1 }] }, /no area/],
      [{ points: 'not json' }, /points/],
      [{ rule: JSON.stringify({ steps: [{ level: 3, count: 1, makes: 2 }] }) }, /higher/],
      [{ name: 'Landslide A' }, /already has/],
    ];
    for (const [patch, msg] of cases) {
      const r = await t.api('POST', `${A}/add`, {
        token: manager,
        body: { platformId: site, name: 'Bad area', points: SQUARE, ...patch },
      });
      expect(r.status, JSON.stringify(patch)).not.toBe(0);
      expect(r.info, JSON.stringify(patch)).toMatch(msg);
    }
    const monitorAdd = await t.api('POST', `${A}/add`, {
      token: monitor,
      body: { platformId: site, name: 'M', points: SQUARE },
    });
    expect(monitorAdd.status).toBe(Status.noPermission);
    expect(await snapshot(t, 'areas')).toEqual(before);
  });

  it('does not list or serve areas of foreign sites; a foreign id answers as a missing one', async () => {
    const list = await t.api<Page<AreaRow>>('GET', `${A}/getListPage`, {
      token: monitor,
      query: { platformId: String(foreign) },
    });
    expect(list.data.total).toBe(0);
    const all = await t.api<Page<AreaRow>>('GET', `${A}/getListPage`, { token: monitor });
    expect(all.data.list.map((a) => a.id)).not.toContain(foreignArea);
    for (const [method, url, opts] of [
      ['GET', `${A}/getInfo`, (id: number) => ({ query: { id: String(id) } })],
      ['POST', `${A}/delete`, (id: number) => ({ body: { id } })],
      ['POST', `${A}/edit`, (id: number) => ({ body: { id, platformId: site, name: 'X', points: SQUARE } })],
    ] as const) {
      const far = await t.api(method, url, { token: manager, ...opts(foreignArea) });
      const none = await t.api(method, url, { token: manager, ...opts(999999) });
      expect(far.status, url).toBe(Status.notFound);
      expect(far).toEqual(none);
    }
    // Moving one's own area to a foreign site: as missing.
    const move = await t.api('POST', `${A}/add`, {
      token: manager,
      body: { platformId: foreign, name: 'Sneak', points: SQUARE },
    });
    expect(move.status).toBe(Status.notFound);
    const still = await t.api<AreaInfo>('GET', `${A}/getInfo`, { token: admin, query: { id: String(foreignArea) } });
    expect(still.data.name).toBe('Foreign area');
  });

  it('reads polygons from GeoJSON and KML files; malformed files refused', async () => {
    const send = async (name: string, data: string) => {
      const { payload, headers } = multipartBody({}, { name, data: Buffer.from(data) });
      return (
        await t.raw('POST', `${A}/parseFile`, { token: manager, payload, headers: { ...headers, language: 'en' } })
      ).json() as {
        status: number;
        info: string;
        data: ParsedPolygon[];
      };
    };
    const ring = [...SQUARE, SQUARE[0]!].map((p) => [p.lon, p.lat]);
    const gj = await send(
      'area.geojson',
      JSON.stringify({
        type: 'Feature',
        properties: { name: 'Slide' },
        geometry: { type: 'Polygon', coordinates: [ring] },
      }),
    );
    expect(gj.status, gj.info).toBe(0);
    expect(gj.data).toEqual([{ name: 'Slide', points: SQUARE }]);
    const kml = await send(
      'area.kml',
      `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>K</name><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring.map((p) => p.join(',')).join(' ')}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>`,
    );
    expect(kml.data[0]?.name).toBe('K');
    const bowRing = [ring[0], ring[2], ring[1], ring[3], ring[0]];
    const cases: [string, string, RegExp][] = [
      ['bad.geojson', '{"type":', /not valid GeoJSON/],
      ['point.geojson', JSON.stringify({ type: 'Point', coordinates: [104, 30] }), /no polygon/],
      ['bow.geojson', JSON.stringify({ type: 'Polygon', coordinates: [bowRing] }), /crosses itself/],
      [
        'far.geojson',
        JSON.stringify({
          type: 'Polygon',
          coordinates: [
            [
              [104, 30],
              [190, 30],
              [104, 31],
              [104, 30],
            ],
          ],
        }),
        /out of range/,
      ],
    ];
    for (const [name, data, msg] of cases) {
      const r = await send(name, data);
      expect(r.status, name).toBe(Status.invalid);
      expect(r.info, name).toMatch(msg);
    }
  });

  it('keeps one area of a name per site under 100 parallel adds', async () => {
    const rs = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.api('POST', `${A}/add`, { token: manager, body: { platformId: site, name: 'Race area', points: SQUARE } }),
      ),
    );
    expect(rs.filter((r) => r.status === 0)).toHaveLength(1);
    expect(rs.filter((r) => r.status === Status.conflict)).toHaveLength(99);
    const n = await sql<{ n: number }>`select count(*)::int as n from areas where name = 'Race area'`.execute(t.db.k);
    expect(n.rows[0]!.n).toBe(1);
  });
});
