import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  type MapConfig,
  type MapLayer,
  type MapLayerRow,
  type MapSettings,
  type TileSet,
} from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { addSite, roleWith, scopedUser, snapshot } from '../platforms/platforms.testkit.ts';
import { mbtiles, multipartBody, pmtiles, tilePng, tilesAround, xyzTile, xyzZip } from './maps.testkit.ts';

const M = '/api/v2/data/map';
const KEY = 'tdt-secret-0123456789abcdef';
const KML = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
  <Style id="red"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle><PolyStyle><color>7f00ff00</color></PolyStyle></Style>
  <Placemark><name>Gauge hut</name><Point><coordinates>104.07,30.66,0</coordinates></Point></Placemark>
  <Placemark><name>Access road</name><styleUrl>#red</styleUrl><LineString><coordinates>104.07,30.66 104.08,30.67</coordinates></LineString></Placemark>
  <Placemark><name>Slide body</name><styleUrl>#red</styleUrl><Polygon><outerBoundaryIs><LinearRing><coordinates>104.06,30.65 104.08,30.65 104.08,30.67 104.06,30.65</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
</Document></kml>`;

describe('map configuration, offline tile sets and map layers', () => {
  let t: TestApp;
  let admin: string;
  let viewer: string;
  let sysUser: string;
  let site: number;
  let foreign: number;
  const upload = async (
    url: string,
    token: string,
    fields: Record<string, string>,
    file: { name: string; data: Buffer } | null,
  ) => {
    const { payload, headers } = multipartBody(fields, file);
    const res = await t.raw('POST', url, { token, payload, headers: { ...headers, language: 'en' } });
    return res.json() as { status: number; info: string; data: unknown };
  };

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await addSite(t, admin, 'disaster', { name: 'Map slope', lon: 104.07, lat: 30.66 });
    foreign = await addSite(t, admin, 'disaster', { name: 'Foreign slope', lon: 104.2, lat: 30.7 });
    await roleWith(t, admin, 'mapViewer', ['monitor', 'monitor:moduleMap']);
    await roleWith(t, admin, 'mapSystem', ['system', 'system:user']);
    viewer = await scopedUser(t, admin, 'map.viewer', 'mapViewer', [site]);
    sysUser = await scopedUser(t, admin, 'map.system', 'mapSystem', [site]);
  });
  afterAll(async () => t.close());

  it('answers a default configuration; settings and keys only to the system permission', async () => {
    const c = await t.api<MapConfig>('GET', `${M}/getConfig`, { token: viewer });
    expect(c.status).toBe(0);
    expect(c.data).toMatchObject({ type: 'tianditu', mode: 'online', zoom: 5, tileSet: null, tiandituReady: false });
    expect((await t.api('GET', `${M}/getSettings`, { token: viewer })).status).toBe(Status.noPermission);
    const before = await snapshot(t, 'settings');
    const set = await t.api('POST', `${M}/setSettings`, {
      token: viewer,
      body: { type: 'amap', mode: 'online', centerLat: 30, centerLon: 104, zoom: 8 },
    });
    expect(set.status).toBe(Status.noPermission);
    expect(await snapshot(t, 'settings')).toEqual(before);
  });

  it('refuses a bad configuration with a clear message and saves nothing', async () => {
    const before = await snapshot(t, 'settings');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'tianditu', mode: 'online', centerLat: 30, centerLon: 104, zoom: 8 }, /Tianditu/],
      [{ type: 'amap', mode: 'offline', centerLat: 30, centerLon: 104, zoom: 8 }, /tile set/],
      [{ type: 'amap', mode: 'online', centerLat: 91, centerLon: 104, zoom: 8 }, /centerLat/],
      [{ type: 'osm', mode: 'online', centerLat: 30, centerLon: 104, zoom: 8 }, /type/],
      [{ type: 'amap', mode: 'online', centerLat: 30, centerLon: 104, zoom: 8, tiandituKey: 'a b&c' }, /tiandituKey/],
    ];
    for (const [body, msg] of cases) {
      const r = await t.api('POST', `${M}/setSettings`, { token: sysUser, body });
      expect(r.status, JSON.stringify(body)).toBe(Status.invalid);
      expect(r.info).toMatch(msg);
    }
    expect(await snapshot(t, 'settings')).toEqual(before);
  });

  it('keeps the Tianditu key from users without the system permission', async () => {
    const r = await t.api<MapSettings>('POST', `${M}/setSettings`, {
      token: sysUser,
      form: true,
      body: { type: 'tianditu', mode: 'online', centerLat: 30.66, centerLon: 104.07, zoom: 9, tiandituKey: KEY },
    });
    expect(r.status, r.info).toBe(0);
    expect(r.data.keys.tianditu).toBe(KEY);
    const raw = await t.raw('GET', `${M}/getConfig`, { token: viewer });
    expect(raw.body).not.toContain(KEY);
    expect(JSON.parse(raw.body).data).toMatchObject({ type: 'tianditu', tiandituReady: true, zoom: 9 });
    // The OpenAPI document lists the map routes; no answer of a map route other than getSettings carries keys.
    const doc = await t.raw('GET', '/api/docs/json');
    expect(doc.body).toContain(`${M}/getConfig`);
    expect(doc.body).toContain(`${M}/tile`);
  });

  const around = (z0: number, z1: number, rgb: [number, number, number]) =>
    tilesAround((z) => xyzTile(104.07, 30.66, z), z0, z1, 1, rgb);

  it('imports a zipped XYZ folder, an MBTiles and a PMTiles file and serves their tiles', async () => {
    const sets: [string, Buffer, string][] = [
      ['amap.zip', xyzZip(around(10, 11, [250, 230, 200]), 'amap', { 'README.txt': Buffer.from('tiles') }), 'xyz'],
      ['google.mbtiles', await mbtiles(around(10, 11, [220, 240, 220])), 'mbtiles'],
      ['tdt.pmtiles', pmtiles(around(10, 11, [220, 230, 250]), [103.9, 30.5, 104.2, 30.8]), 'pmtiles'],
    ];
    const providers = ['amap', 'google', 'tianditu'];
    for (const [i, [name, data, format]] of sets.entries()) {
      const r = await upload(`${M}/tileSet/upload`, sysUser, { name, provider: providers[i]! }, { name, data });
      expect(r.status, r.info).toBe(0);
      const set = r.data as TileSet;
      expect(set).toMatchObject({ format, imageType: 'png', minZoom: 10, maxZoom: 11, tiles: 18 });
      const { x, y } = xyzTile(104.07, 30.66, 11);
      const tile = await t.raw('GET', `${M}/tile?set=${set.id}&z=11&x=${x}&y=${y}&token=${sysUser}`);
      expect(tile.statusCode).toBe(200);
      expect(tile.headers['content-type']).toBe('image/png');
      expect(tile.rawPayload.equals(tilePng([0, 0, 0], 'x').subarray(0, 0))).toBe(false);
      expect(tile.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
      // Where the set has no tile: not found, an envelope.
      const none = await t.raw('GET', `${M}/tile?set=${set.id}&z=3&x=0&y=0&token=${sysUser}`);
      expect(JSON.parse(none.body).status).toBe(Status.notFound);
    }
    // A tile needs a session.
    const anon = await t.raw('GET', `${M}/tile?set=1&z=11&x=0&y=0`);
    expect(JSON.parse(anon.body).status).toBe(Status.notLoggedIn);
  });

  it('refuses what is not a tile set and keeps nothing', async () => {
    const before = await snapshot(t, 'map_tile_sets');
    const dir = path.join(t.config.dataDir, 'maps', 'tiles');
    const files = () =>
      fs.existsSync(dir)
        ? fs
            .readdirSync(dir)
            .filter((f) => f !== 'tmp')
            .sort()
        : [];
    const tmp = () => (fs.existsSync(path.join(dir, 'tmp')) ? fs.readdirSync(path.join(dir, 'tmp')) : []);
    const beforeFiles = files();
    const bad: [string, Buffer][] = [
      ['evil.pmtiles', Buffer.from('<script>alert(1)</script>')],
      ['empty.zip', xyzZip([], 'x', { 'a.txt': Buffer.from('no tiles') })],
      ['fake.zip', xyzZip([{ z: 1, x: 0, y: 0, data: Buffer.from('not an image') }])],
      ['broken.mbtiles', Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(200, 7)])],
    ];
    for (const [name, data] of bad) {
      const r = await upload(`${M}/tileSet/upload`, sysUser, { name, provider: 'amap' }, { name, data });
      expect(r.status, name).toBe(Status.invalid);
      expect(r.info).toMatch(/tile set|no tiles/);
    }
    const noName = await upload(
      `${M}/tileSet/upload`,
      sysUser,
      { provider: 'amap' },
      { name: 'a.zip', data: xyzZip(around(3, 3, [1, 2, 3])) },
    );
    expect(noName.status).toBe(Status.invalid);
    const user = await upload(
      `${M}/tileSet/upload`,
      viewer,
      { name: 'x', provider: 'amap' },
      { name: 'a.zip', data: xyzZip(around(3, 3, [1, 2, 3])) },
    );
    expect(user.status).toBe(Status.noPermission);
    expect(await snapshot(t, 'map_tile_sets')).toEqual(before);
    expect(files()).toEqual(beforeFiles);
    expect(tmp()).toEqual([]);
  });

  it('goes offline on an imported set of the same provider; the set in use cannot be deleted', async () => {
    const list = await t.api<TileSet[]>('GET', `${M}/tileSet/getList`, { token: sysUser });
    const amap = list.data.find((s) => s.provider === 'amap')!;
    const wrong = await t.api('POST', `${M}/setSettings`, {
      token: sysUser,
      body: { type: 'baidu', mode: 'offline', centerLat: 30.66, centerLon: 104.07, zoom: 11, tileSetId: amap.id },
    });
    expect(wrong.status).toBe(Status.invalid);
    expect(wrong.info).toMatch(/amap/);
    const ok = await t.api<MapSettings>('POST', `${M}/setSettings`, {
      token: sysUser,
      body: { type: 'amap', mode: 'offline', centerLat: 30.66, centerLon: 104.07, zoom: 11, tileSetId: amap.id },
    });
    expect(ok.status, ok.info).toBe(0);
    expect(ok.data.keys.tianditu).toBe(KEY); // omitted keys are kept
    const c = await t.api<MapConfig>('GET', `${M}/getConfig`, { token: viewer });
    expect(c.data.tileSet?.id).toBe(amap.id);
    const del = await t.api('POST', `${M}/tileSet/delete`, { token: sysUser, body: { id: amap.id } });
    expect(del.status).toBe(Status.conflict);
    const other = list.data.find((s) => s.provider === 'google')!;
    expect((await t.api('POST', `${M}/tileSet/delete`, { token: sysUser, body: { id: other.id } })).status).toBe(0);
    expect((await t.api('POST', `${M}/tileSet/delete`, { token: sysUser, body: { id: other.id } })).status).toBe(
      Status.notFound,
    );
  });

  it('imports KML and KMZ as layers with names and styles; refuses malformed files and saves nothing', async () => {
    const r = await upload(
      `${M}/layer/import`,
      viewer,
      { platformId: String(site), name: 'Survey' },
      { name: 'survey.kml', data: Buffer.from(KML) },
    );
    expect(r.status, r.info).toBe(0);
    const row = r.data as MapLayerRow;
    expect(row).toMatchObject({ platformId: site, format: 'kml', points: 1, lines: 1, polygons: 1, name: 'Survey' });
    const got = await t.api<MapLayer>('GET', `${M}/layer/getInfo`, { token: viewer, query: { id: String(row.id) } });
    const names = got.data.data.features.map((f) => f.properties.name);
    expect(names).toEqual(['Gauge hut', 'Access road', 'Slide body']);
    const road = got.data.data.features[1]!.properties.style;
    expect(road.color).toBe('#ff0000');
    expect(road.weight).toBe(3);
    const kmz = await upload(
      `${M}/layer/import`,
      sysUser,
      {},
      { name: 'system.kmz', data: xyzZip([], 'x', { 'doc.kml': Buffer.from(KML) }) },
    );
    expect(kmz.status, kmz.info).toBe(0);
    expect(kmz.data).toMatchObject({ platformId: null, format: 'kmz', name: 'system' });

    const before = await snapshot(t, 'map_layers');
    const bad: [string, string | Buffer, RegExp][] = [
      ['broken.kml', '<kml><Document><Placemark>', /not valid KML/],
      ['entity.kml', '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x "y">]><kml/>', /not valid KML/],
      ['empty.kml', '<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>', /no places/],
      ['far.kml', KML.replace('104.07,30.66,0', '204.07,30.66,0'), /out of range/],
      ['bad.geojson', '{"type": "FeatureCollection", "features": [', /not valid GeoJSON/],
      [
        'odd.geojson',
        '{"type": "Feature", "geometry": {"type": "Point", "coordinates": ["a", 1]}}',
        /not valid GeoJSON/,
      ],
      ['text.kmz', 'not a zip', /not valid KMZ/],
      ['image.png', tilePng([1, 2, 3], '1'), /\.kml, \.kmz/],
    ];
    for (const [name, data, msg] of bad) {
      const e = await upload(
        `${M}/layer/import`,
        viewer,
        { platformId: String(site) },
        { name, data: Buffer.from(data) },
      );
      expect(e.status, name).toBe(Status.invalid);
      expect(e.info, name).toMatch(msg);
    }
    // A system layer needs the system permission; a foreign site answers as a missing one.
    const sys = await upload(`${M}/layer/import`, viewer, {}, { name: 'a.kml', data: Buffer.from(KML) });
    expect(sys.status).toBe(Status.noPermission);
    const far = await upload(
      `${M}/layer/import`,
      viewer,
      { platformId: String(foreign) },
      { name: 'a.kml', data: Buffer.from(KML) },
    );
    const missing = await upload(
      `${M}/layer/import`,
      viewer,
      { platformId: '999999' },
      { name: 'a.kml', data: Buffer.from(KML) },
    );
    expect(far.status).toBe(Status.notFound);
    expect(far).toEqual(missing);
    expect(await snapshot(t, 'map_layers')).toEqual(before);
  });

  it('hides the layers of foreign sites: not listed, not served, not deleted', async () => {
    const r = await upload(
      `${M}/layer/import`,
      admin,
      { platformId: String(foreign) },
      { name: 'f.kml', data: Buffer.from(KML) },
    );
    const id = (r.data as MapLayerRow).id;
    const list = await t.api<MapLayerRow[]>('GET', `${M}/layer/getList`, {
      token: viewer,
      query: { platformId: String(foreign) },
    });
    expect(list.data).toEqual([]);
    const one = await t.api('GET', `${M}/layer/getInfo`, { token: viewer, query: { id: String(id) } });
    const none = await t.api('GET', `${M}/layer/getInfo`, { token: viewer, query: { id: '999999' } });
    expect(one.status).toBe(Status.notFound);
    expect(one).toEqual(none);
    const del = await t.api('POST', `${M}/layer/delete`, { token: viewer, body: { id } });
    expect(del.status).toBe(Status.notFound);
    const mine = await t.api<MapLayerRow[]>('GET', `${M}/layer/getList`, {
      token: viewer,
      query: { platformId: String(site) },
    });
    expect(mine.data.map((l) => l.name)).toEqual(['Survey']);
    const system = await t.api<MapLayerRow[]>('GET', `${M}/layer/getList`, { token: viewer });
    expect(system.data.map((l) => l.name)).toEqual(['system']);
  });
});
