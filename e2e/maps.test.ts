import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { bd09ToBdMercator, wgs84ToBd09 } from '@geosentry/contract';
import {
  api,
  apiLogin,
  expectNoRawKeys,
  launchBrowser,
  settle,
  shot,
  signedIn,
  startServer,
  type RunningServer,
} from './harness.ts';
import { mbtiles, pmtiles, tilesAround, xyzTile, xyzZip } from '../server/src/modules/maps/maps.testkit.ts';

const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SITE = { lat: 30.66, lon: 104.07 };
const M = '/api/v2/data/map';
const slow = { timeout: 30_000, interval: 250 };
const VIEWER = 'map.engineer';
const VIEWER_PASSWORD = 'Map-engineer-pass-1';

/** Tiles around the site at zooms 11-13 in a provider's scheme (Baidu: its own rows and columns). */
function tilesOf(provider: string, rgb: [number, number, number]) {
  if (provider !== 'baidu') return tilesAround((z) => xyzTile(SITE.lon, SITE.lat, z), 11, 13, 2, rgb);
  const [mx, my] = bd09ToBdMercator(...wgs84ToBd09(SITE.lon, SITE.lat));
  return tilesAround(
    (z) => ({ x: Math.floor((mx * 2 ** (z - 18)) / 256), y: Math.floor((my * 2 ** (z - 18)) / 256) }),
    11,
    13,
    2,
    rgb,
  );
}

async function upload(
  url: string,
  token: string,
  path: string,
  fields: Record<string, string>,
  name: string,
  data: Buffer,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { token, language: 'en' }, body: form });
  const env = (await r.json()) as { status: number; info: string; data: { id: number } };
  if (env.status !== 0) throw new Error(`${path}: ${env.info}`);
  return env.data;
}

/**
 * Maps and areas (issue 21): offline tile sets of each provider imported and shown with the outside network cut
 * (every request to another origin is refused and counted: none may be made), the map settings screen, and an area
 * in alarm on its live map, in en, zh and ko at 1280 px.
 */
describe('maps offline and areas', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let db: pg.Client;
  const dbName = `gs_e2e_maps_${crypto.randomBytes(4).toString('hex')}`;
  const sets: Record<string, number> = {};
  const outside: string[] = [];
  let site: number;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const u = new URL(PG_ADMIN);
    u.pathname = `/${dbName}`;
    server = await startServer({ DATABASE_URL: u.toString() });
    db = new pg.Client({ connectionString: u.toString() });
    await db.connect();
    browser = await launchBrowser();
    token = await apiLogin(server.url);
    // The browser signs in as another administrator: one session per account, the API keeps its own.
    const roles = await api<{ id: number; code: string }[]>(server.url, token, 'GET', '/api/v2/manage/role/getAll');
    await api(server.url, token, 'POST', '/api/v2/manage/user/add', {
      account: VIEWER,
      password: VIEWER_PASSWORD,
      name: 'Map engineer',
      roleId: roles.find((r) => r.code === 'superAdmin')!.id,
      scopeAll: true,
    });
    interface RegionNode {
      code: string;
      children?: RegionNode[];
    }
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    site = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
        name: 'Longmen landslide',
        regionCode: node.code,
        lon: SITE.lon,
        lat: SITE.lat,
      })
    ).platformId;
    // Three crack meters inside the area, with open alerts of levels 2, 3 and 3: two oranges make red.
    for (const [i, level] of [2, 3, 3].entries()) {
      const d = await db.query<{ id: number }>(
        `insert into devices (device_name, number, module_id, platform_id) values ($1, $2, 1, $3) returning id`,
        [`Crack meter ${i + 1}`, `CM-${i + 1}`, site],
      );
      const id = d.rows[0]!.id;
      await db.query(`insert into device_positions (device_id, lat, lon) values ($1, $2, $3)`, [
        id,
        SITE.lat + (i - 1) * 0.002,
        SITE.lon + (i - 1) * 0.003,
      ]);
      await db.query(
        `insert into alerts (platform_id, device_id, kind, family, value_type, level, first_level, first_at, last_at, evidence, last_value, quantity)
         values ($1, $2, 'single', 'single:x:static', 'static', $3, $3, now(), now(), '{}', $4, 'x')`,
        [site, id, level, 12.5 + i],
      );
    }
    await api(server.url, token, 'POST', '/api/v2/data/area/add', {
      platformId: site,
      name: 'Longmen slide body',
      points: JSON.stringify([
        { lat: SITE.lat - 0.006, lon: SITE.lon - 0.008 },
        { lat: SITE.lat - 0.006, lon: SITE.lon + 0.008 },
        { lat: SITE.lat + 0.006, lon: SITE.lon + 0.009 },
        { lat: SITE.lat + 0.007, lon: SITE.lon - 0.007 },
      ]),
    });
    const files: [string, string, Buffer][] = [
      ['tianditu', 'tianditu.pmtiles', pmtiles(tilesOf('tianditu', [214, 228, 246]), [103.9, 30.5, 104.3, 30.8])],
      ['amap', 'amap.zip', xyzZip(tilesOf('amap', [247, 236, 214]), 'amap')],
      ['google', 'google.mbtiles', await mbtiles(tilesOf('google', [222, 240, 222]))],
      ['baidu', 'baidu.zip', xyzZip(tilesOf('baidu', [236, 226, 246]), 'baidu')],
    ];
    for (const [provider, name, data] of files)
      sets[provider] = (
        await upload(server.url, token, `${M}/tileSet/upload`, { name: `${provider} offline`, provider }, name, data)
      ).id;
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await db?.end();
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  /** Cuts the outside network: any request to another origin is refused and remembered. */
  async function cut(page: Page): Promise<void> {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.context().route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith(server.url) || u.startsWith('data:') || u.startsWith('blob:')) return route.continue();
      outside.push(u);
      return route.abort();
    });
  }

  const offline = (type: string) =>
    api(server.url, token, 'POST', `${M}/setSettings`, {
      type,
      mode: 'offline',
      centerLat: SITE.lat,
      centerLon: SITE.lon,
      zoom: 12,
      tileSetId: sets[type]!,
    });

  it('shows each provider’s offline tiles from the server with the network cut; the settings screen', async () => {
    const page = await signedIn(browser, server.url, 'en-US', VIEWER, VIEWER_PASSWORD);
    await cut(page);
    for (const type of ['tianditu', 'amap', 'google', 'baidu']) {
      await offline(type);
      await page.goto(`${server.url}/#/system/map`);
      await page.reload();
      const preview = page.locator(`[data-testid="map-preview"][data-provider="${type}"]`);
      await preview.waitFor();
      await expect.poll(() => preview.locator('img.leaflet-tile-loaded').count(), slow).toBeGreaterThan(3);
      // Every tile the map asked for came from the server's tile route.
      const srcs = await preview
        .locator('img.leaflet-tile')
        .evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
      expect(srcs.every((s) => s.includes(`${M}/tile?set=${sets[type]}`))).toBe(true);
      await settle(page);
      await shot(page, `maps-offline-${type}-en`);
    }
    await expectNoRawKeys(page);
    // The device map and home on the offline Baidu configuration: still nothing outside.
    await page.goto(`${server.url}/#/home`);
    await settle(page);
    expect(outside).toEqual([]);
  });

  it('shows an area in alarm on its live map, in en, zh and ko', async () => {
    await offline('amap');
    for (const locale of ['en-US', 'zh-CN', 'ko-KR']) {
      const page = await signedIn(browser, server.url, locale, VIEWER, VIEWER_PASSWORD);
      await cut(page);
      await page.goto(`${server.url}/#/areasmos/myareasmos`);
      await expect
        .poll(() => page.locator('[data-testid="area-level"] [data-level]').getAttribute('data-level'), slow)
        .toBe('4');
      await expect.poll(() => page.locator('[data-testid="area-map"] .gs-area-dev').count(), slow).toBe(3);
      await expect.poll(() => page.locator('[data-testid="area-alerts"] tbody tr').count(), slow).toBe(3);
      await settle(page);
      await expectNoRawKeys(page);
      const lang = locale.slice(0, 2);
      await shot(page, `areas-alarm-${lang}`);
      if (lang !== 'en') {
        await page.goto(`${server.url}/#/system/map`);
        await page.locator('[data-testid="map-preview"] img.leaflet-tile-loaded').first().waitFor();
        await settle(page);
        await shot(page, `maps-settings-${lang}`);
      }
      await page.close();
    }
    expect(outside).toEqual([]);
  });

  it('imports a KML layer of the site on its module map and draws it with its name', async () => {
    await offline('tianditu');
    const page = await signedIn(browser, server.url, 'en-US', VIEWER, VIEWER_PASSWORD);
    await cut(page);
    await page.goto(`${server.url}/#/monitor/moduleMap?platformId=${site}`);
    await page.locator('[data-testid="module-map"] img.leaflet-tile-loaded').first().waitFor();
    const paths = page.locator('[data-testid="module-map"] .leaflet-overlay-pane path');
    const before = await paths.count();
    await page.locator('[data-testid="site-layers"]').click();
    await page.locator('[data-testid="site-layer-table"]').waitFor();
    const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document>
<Style id="crack"><LineStyle><color>ff0000ff</color><width>3</width></LineStyle></Style>
<Placemark><name>Main scarp</name><styleUrl>#crack</styleUrl><LineString><coordinates>
${SITE.lon - 0.004},${SITE.lat + 0.003},0 ${SITE.lon},${SITE.lat + 0.004},0 ${SITE.lon + 0.004},${SITE.lat + 0.003},0
</coordinates></LineString></Placemark></Document></kml>`;
    await page
      .locator('[data-testid="site-layer-import-input"]')
      .setInputFiles({ name: 'scarp.kml', mimeType: 'application/vnd.google-earth.kml+xml', buffer: Buffer.from(kml) });
    await expect
      .poll(() => page.locator('[data-testid="site-layer-table"] tbody').textContent(), slow)
      .toContain('scarp');
    expect(await page.locator('[data-testid="site-layer-table"] tbody tr').count()).toBe(1);
    await page.keyboard.press('Escape');
    // The map draws the line (red, as its style says) over the tiles.
    await expect.poll(() => paths.count(), slow).toBe(before + 1);
    await expect(paths.last().getAttribute('stroke')).resolves.toBe('#ff0000');
    await settle(page);
    await expectNoRawKeys(page);
    await shot(page, 'site-kml-layer-en');
    expect(outside).toEqual([]);
    await page.close();
  });
});
