import { writeArrayBuffer } from 'geotiff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type ThreeDScene } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';
import { multipartBody, tilesAround, xyzTile, xyzZip } from '../maps/maps.testkit.ts';

const B = '/api/v2/data/threeD';

/** A plane rising 2 m a column eastwards from 500 m: 60 x 50 cells of 0.001°, south-west corner 104.04 E 30.64 N. */
const COLS = 60;
const ROWS = 50;
const heightOf = (col: number): number => 500 + 2 * col;
const asc = (): Buffer => {
  const lines = ['ncols 60', 'nrows 50', 'xllcorner 104.04', 'yllcorner 30.64', 'cellsize 0.001', 'NODATA_value -9999'];
  for (let r = 0; r < ROWS; r++) lines.push(Array.from({ length: COLS }, (_, c) => heightOf(c)).join(' '));
  return Buffer.from(lines.join('\n'));
};
const tiff = (keys: Record<string, number>): Buffer =>
  Buffer.from(
    writeArrayBuffer(
      Array.from({ length: COLS * ROWS }, (_, i) => heightOf(i % COLS)),
      {
        width: COLS,
        height: ROWS,
        ModelPixelScale: [0.001, 0.001, 0],
        ModelTiepoint: [0, 0, 0, 104.04, 30.69, 0],
        ...keys,
      } as Parameters<typeof writeArrayBuffer>[1],
    ),
  );

/** The GLB's JSON chunk. */
const gltfJson = (
  glb: Buffer,
): { images?: unknown[]; meshes: { primitives: { attributes: Record<string, number> }[] }[] } =>
  JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8'));

/** Great-circle distance in metres (spherical, R = 6,371,008.8 m: within 0.5 % of the ellipsoid). */
const haversine = (lon1: number, lat1: number, lon2: number, lat2: number): number => {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(a));
};

describe('3D terrain from an elevation model', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let device: number;

  const upload = async (name: string, data: Buffer, lang = 'en') => {
    const body = multipartBody({ platformId: String(site) }, { name, data });
    const res = await t.raw('POST', `${B}/uploadModel`, {
      token: admin,
      payload: body.payload,
      headers: { ...body.headers, language: lang },
    });
    return res.json() as { status: number; info: string; data: { triangles: number; url: string } | null };
  };
  const scene = async () =>
    (await t.api<ThreeDScene>('GET', `${B}/getScene`, { token: admin, query: { platformId: String(site) } })).data;
  const modelBytes = async () => {
    const s = await scene();
    return (await t.raw('GET', s.model!.url, { token: admin })).rawPayload;
  };

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await buildPlatform(t, { type: 'reservoir', name: 'Terrain Dam' });
    const term = await addTerminal(t, admin, site, 'TDEM');
    device = await addDevice(t, admin, deviceBody(site, term.terminalId, 'DEM1'));
    // The device's map position (what the monitor view's map sets): inside the DEM, on column 30's centre.
    await t.db.k
      .insertInto('device_positions')
      .values({ device_id: device, lon: 104.0705, lat: 30.665, sketch_x: null, sketch_y: null })
      .execute();
  });
  afterAll(() => t.close());

  it("builds the terrain of an ASCII grid, coloured by height, and stands the site's devices on it", async () => {
    const r = await upload('dam.asc', asc());
    expect(r.status, r.info).toBe(0);
    expect(r.data!.triangles).toBe((COLS - 1) * (ROWS - 1) * 2);
    const json = gltfJson(await modelBytes());
    expect(json.meshes[0]!.primitives[0]!.attributes).toHaveProperty('COLOR_0');
    expect(json.images ?? []).toHaveLength(0);
    const d = (await scene()).devices.find((x) => x.deviceId === device)!;
    // Height: column 30 stands at 560 m, the lowest point at 500 m: 60 m up. East: 0.0005° east of the centre
    // 104.07 E at 30.665 N, south: 0.0015° south of the centre 30.665 + ... (centre latitude 30.665).
    expect(d.placement!.y).toBeCloseTo(60, 1);
    const east = haversine(104.07, 30.665, 104.0705, 30.665);
    expect(Math.abs(d.placement!.x - east) / east).toBeLessThan(0.005);
    expect(Math.abs(d.placement!.z)).toBeLessThan(0.05);
  });

  it('reads a GeoTIFF in WGS-84 and refuses a projected one, a broken one and a malformed grid, keeping the model', async () => {
    const ok = await upload('dem.tif', tiff({ GTModelTypeGeoKey: 2, GeographicTypeGeoKey: 4326 }));
    expect(ok.status, ok.info).toBe(0);
    expect(ok.data!.triangles).toBe((COLS - 1) * (ROWS - 1) * 2);
    const before = (await scene()).model!;

    const projected = await upload('utm.tif', tiff({ GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32648 }));
    expect(projected.status).toBe(Status.invalid);
    expect(projected.info).toBe(
      'utm.tif is not an elevation model that can be used: its coordinates are projected; export the elevation model in WGS-84 longitude and latitude (EPSG:4326)',
    );
    const zh = await upload('utm.tif', tiff({ GTModelTypeGeoKey: 1, ProjectedCSTypeGeoKey: 32648 }), 'zh');
    expect(zh.info).toContain('EPSG:4326');
    expect(zh.info).toContain('不是可用的高程模型');
    const broken = await upload('x.tif', Buffer.from('II*\u0000 not a tiff at all'));
    expect(broken.status).toBe(Status.invalid);
    const grid = await upload(
      'x.asc',
      Buffer.from('ncols 3\nnrows 2\nxllcorner 104\nyllcorner 30\ncellsize 0.1\n1 2 3\n'),
    );
    expect(grid.status).toBe(Status.invalid);
    expect(grid.info).toContain('neither a GeoTIFF nor an ESRI ASCII grid');
    const far = await upload('far.asc', Buffer.from(asc().toString().replace('yllcorner 30.64', 'yllcorner 89.9')));
    expect(far.status).toBe(Status.invalid);
    expect((await scene()).model).toEqual(before);
  });

  it('drapes the offline map over the terrain', async () => {
    const tiles = tilesAround((z) => xyzTile(104.07, 30.665, z), 13, 14, 2, [200, 220, 240]);
    const set = multipartBody({ name: 'tdt', provider: 'tianditu' }, { name: 'tdt.zip', data: xyzZip(tiles, 'tdt') });
    const up = (
      await t.raw('POST', '/api/v2/data/map/tileSet/upload', {
        token: admin,
        payload: set.payload,
        headers: set.headers,
      })
    ).json() as { status: number; info: string; data: { id: number } };
    expect(up.status, up.info).toBe(0);
    const on = await t.api('POST', '/api/v2/data/map/setSettings', {
      token: admin,
      body: {
        type: 'tianditu',
        mode: 'offline',
        centerLat: 30.665,
        centerLon: 104.07,
        zoom: 13,
        tileSetId: up.data.id,
      },
    });
    expect(on.status, on.info).toBe(0);
    const r = await upload('dam.asc', asc());
    expect(r.status, r.info).toBe(0);
    const json = gltfJson(await modelBytes());
    expect(json.images).toHaveLength(1);
    const audit = await t.api<{ list: { action: string; target: string | null; detail: unknown }[] }>(
      'GET',
      '/api/v2/manage/audit/getListPage',
      { token: admin, query: { pageSize: '3' } },
    );
    expect(audit.data.list.map((r) => [r.action, r.target, r.detail])).toEqual([
      ['threeD.model', `threeD:${site}`, { name: 'dam.asc', triangles: (COLS - 1) * (ROWS - 1) * 2 }],
      ['map.settings', null, { type: 'tianditu', mode: 'offline', tileSet: 'tdt' }],
      ['map.tileSetAdd', `tileSet:${up.data.id}`, { name: 'tdt', provider: 'tianditu' }],
    ]);
    expect(json.meshes[0]!.primitives[0]!.attributes).toHaveProperty('TEXCOORD_0');
  });
});
