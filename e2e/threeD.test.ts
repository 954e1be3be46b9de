import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { terrainGlb, panoramaPng } from '../server/src/modules/threeD/threeD.testkit.ts';
import {
  api,
  apiLogin,
  expectNoRawKeys,
  ingest,
  launchBrowser,
  loginAs,
  newPage,
  resumeSession,
  shot,
  startServer,
  subscribed,
  type Envelope,
  type RunningServer,
  type Terminal,
} from './harness.ts';

/**
 * The 3D view and panoramas in a real browser (issue 21 items 6, 7): a generated GLB is uploaded and a device
 * placed on it through the API; the 3D view draws the device's marker grey (offline), and green once a reading
 * arrives, live; a click on it shows its value. A panorama with a hotspot bound to the device shows the live
 * value. The 3D route and icon are absent for a user without threeDimensional:show and for a bridge deployment.
 * Screenshots (en, zh, ko at 1280 px): test-results/screenshots/threeD-*.png.
 */

const PASSWORD = 'ThreeD-e2e-2026-pass';
type Node = { code: string; children?: Node[] };

async function upload<T>(
  url: string,
  token: string,
  route: string,
  fields: Record<string, string>,
  name: string,
  data: Buffer,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(data)]), name);
  const r = await fetch(`${url}${route}`, { method: 'POST', headers: { token }, body: form });
  const env = (await r.json()) as Envelope<T>;
  if (env.status !== 0) throw new Error(`${route}: ${env.info}`);
  return env.data;
}

describe('3D view and panoramas', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: string;
  let siteId: number;
  let deviceId: number;
  let panoId: number;
  let term: Terminal;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    admin = await apiLogin(server.url);
    let node = (await api<Node[]>(server.url, admin, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    siteId = (
      await api<{ platformId: number }>(server.url, admin, 'POST', '/api/v2/data/information/platform/reservoir/add', {
        name: 'Shuikou Dam',
        regionCode: node.code,
        lon: 119.2,
        lat: 26.1,
      })
    ).platformId;
    term = await api<Terminal>(server.url, admin, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: siteId,
      name: 'Dam RTU',
      serial: 'DAM-RTU-3D',
      protocolType: 'HTTP',
    });
    deviceId = (
      await api<{ deviceId: number }>(server.url, admin, 'POST', '/api/v2/data/information/device/common/add', {
        deviceName: 'Crest displacement D1',
        number: 'DAM-D1',
        moduleId: 5,
        platformId: siteId,
        terminalId: term.terminalId,
        ip: '10.0.5.10',
        port: 502,
      })
    ).deviceId;
    await upload(
      server.url,
      admin,
      '/api/v2/data/threeD/uploadModel',
      { platformId: String(siteId) },
      'dam.glb',
      terrainGlb(60),
    );
    await api(server.url, admin, 'POST', '/api/v2/data/threeD/savePlacements', {
      platformId: siteId,
      placements: JSON.stringify([{ deviceId, x: 0, y: 8, z: 0 }]),
    });
    panoId = (
      await upload<{ id: number }>(
        server.url,
        admin,
        '/api/v2/data/vr/upload',
        { platformId: String(siteId), name: 'Dam crest' },
        'crest.png',
        panoramaPng(1024),
      )
    ).id;
    await api(server.url, admin, 'POST', '/api/v2/data/vr/saveHotspots', {
      id: panoId,
      hotspots: JSON.stringify([{ kind: 'device', yaw: 10, pitch: -5, deviceId }]),
    });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The colour drawn at the device's marker: [r, g, b]. */
  const markerColour = (page: Page) =>
    page.evaluate<[number, number, number] | null>(`(() => {
      const s = window.__gsThreeD;
      const at = s && s.markerScreen(${deviceId});
      return at ? s.pixelAt(at.x, at.y) : null;
    })()`);

  it('draws the device on the model, coloured by its live state, and shows its value on a click', async () => {
    const page = await newPage(browser, 'en-US');
    await page.setViewportSize({ width: 1280, height: 800 });
    await resumeSession(page, server.url);
    await expect.poll(() => page.locator('[data-testid="three-d-link"]').count()).toBe(1);
    await page.locator('[data-testid="three-d-link"]').click();
    await page.waitForURL(/#\/dimensional\/3D/);
    const scene = page.locator('[data-testid="three-d-scene"]');
    await expect.poll(() => scene.getAttribute('data-triangles'), { timeout: 60_000 }).toBe('7200');
    await subscribed(page, siteId);
    // Offline before any reading: grey.
    await expect
      .poll(() => markerColour(page))
      .toSatisfy((c) => c !== null && Math.abs(c[0] - c[1]) < 12 && Math.abs(c[1] - c[2]) < 12);
    await ingest(server.url, term, 'DAM-D1', [{ ts: Date.now(), values: { deformation: 12.5 } }]);
    // Normal once it reports: green, without a reload.
    await expect
      .poll(() => markerColour(page), { timeout: 30_000 })
      .toSatisfy((c) => c !== null && c[1] > c[0] + 30 && c[1] > c[2] + 30);
    const at = (await page.evaluate<{ x: number; y: number }>(`window.__gsThreeD.markerScreen(${deviceId})`))!;
    const box = (await scene.boundingBox())!;
    await page.mouse.click(box.x + at.x, box.y + at.y);
    const panel = page.locator('[data-testid="three-d-device-panel"]');
    await expect.poll(() => panel.textContent()).toContain('12.5 mm');
    await expect.poll(() => page.locator('[data-testid="three-d-chart"]').count()).toBe(1);
    await expectNoRawKeys(page);
    await shot(page, 'threeD-view-en');

    // The panorama: the hotspot shows the live value in the state's colour; a newer reading replaces it.
    await page.goto(`${server.url}/#/vr?platformId=${siteId}&id=${panoId}`);
    const spot = page.locator('[data-testid="pano-device"]');
    await expect.poll(() => spot.textContent(), { timeout: 60_000 }).toContain('12.5 mm');
    await subscribed(page, siteId);
    await ingest(server.url, term, 'DAM-D1', [{ ts: Date.now(), values: { deformation: 13.75 } }]);
    await expect.poll(() => spot.textContent(), { timeout: 30_000 }).toContain('13.75 mm');
    expect(await spot.getAttribute('data-state')).toBe('normal');
    await shot(page, 'threeD-panorama-en');
    await page.goto(`${server.url}/#/vrManage`);
    await expect
      .poll(() => page.locator('[data-testid="pano-table"] tbody tr.ant-table-row').first().textContent())
      .toContain('Dam crest');
    await shot(page, 'threeD-panorama-manage-en');
    await page.locator('[data-testid="pano-hotspots"]').first().click();
    await expect.poll(() => page.locator('[data-testid="pano-hotspot-row"]').count()).toBe(1);
    await shot(page, 'threeD-hotspots-en');
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/#/dimensional/3DManage?platformId=${siteId}`);
    await expect.poll(() => page.locator('[data-testid="three-d-model-info"]').textContent()).toContain('7,200');
    await shot(page, 'threeD-manage-en');

    for (const lang of ['zh-CN', 'ko-KR']) {
      const p = await newPage(browser, lang);
      await p.setViewportSize({ width: 1280, height: 800 });
      await resumeSession(p, server.url);
      await p.goto(`${server.url}/#/dimensional/3D?platformId=${siteId}`);
      await expect
        .poll(() => p.locator('[data-testid="three-d-scene"]').getAttribute('data-triangles'), { timeout: 60_000 })
        .toBe('7200');
      await expectNoRawKeys(p);
      await shot(p, `threeD-view-${lang.slice(0, 2)}`);
      await p.goto(`${server.url}/#/vr?platformId=${siteId}&id=${panoId}`);
      await expect
        .poll(() => p.locator('[data-testid="pano-device"]').textContent(), { timeout: 60_000 })
        .toContain('13.75');
      await shot(p, `threeD-panorama-${lang.slice(0, 2)}`);
      await p.close();
    }
    await page.close();
  }, 300_000);

  it('makes a terrain from an elevation model uploaded on the manage screen, devices standing at their map places', async () => {
    admin = await apiLogin(server.url);
    let node = (await api<Node[]>(server.url, admin, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    const W = 119.3;
    const S = 26.2;
    const CELL = 0.0005;
    const [COLS, ROWS] = [120, 100];
    const site = (
      await api<{ platformId: number }>(server.url, admin, 'POST', '/api/v2/data/information/platform/tailings/add', {
        name: 'Yangshan tailings pond',
        regionCode: node.code,
        lon: W + (COLS * CELL) / 2,
        lat: S + (ROWS * CELL) / 2,
      })
    ).platformId;
    const rtu = await api<Terminal>(server.url, admin, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: site,
      name: 'Pond RTU',
      serial: 'POND-RTU-3D',
      protocolType: 'HTTP',
    });
    // Three piezometers on the slope, by their GNSS places (the module map's positions).
    const ids: number[] = [];
    for (const [i, [fx, fy]] of [
      [0.3, 0.5],
      [0.5, 0.45],
      [0.7, 0.6],
    ].entries()) {
      const id = (
        await api<{ deviceId: number }>(server.url, admin, 'POST', '/api/v2/data/information/device/common/add', {
          deviceName: `Piezometer P${i + 1}`,
          number: `POND-P${i + 1}`,
          moduleId: 5,
          platformId: site,
          terminalId: rtu.terminalId,
          ip: '10.0.6.10',
          port: 502,
        })
      ).deviceId;
      await api(server.url, admin, 'POST', '/api/v2/data/monitor/view/updatePosition', {
        deviceId: id,
        lon: W + fx! * COLS * CELL,
        lat: S + (1 - fy!) * ROWS * CELL,
      });
      ids.push(id);
    }
    // A valley between two ridges, the pond's dam across it: an ESRI ASCII grid.
    const rows: string[] = [];
    for (let r = 0; r < ROWS; r++) {
      const y = r / ROWS;
      const row: number[] = [];
      for (let c = 0; c < COLS; c++) {
        const x = c / COLS;
        const ridge = 90 * Math.abs(x - 0.5) ** 1.2 * 2;
        const dam = 25 * Math.exp(-(((y - 0.7) / 0.05) ** 2)) * (Math.abs(x - 0.5) < 0.3 ? 1 : 0);
        row.push(Math.round((420 + ridge + 30 * y + dam + 4 * Math.sin(x * 40) * Math.cos(y * 30)) * 10) / 10);
      }
      rows.push(row.join(' '));
    }
    const asc = [
      `ncols ${COLS}`,
      `nrows ${ROWS}`,
      `xllcorner ${W}`,
      `yllcorner ${S}`,
      `cellsize ${CELL}`,
      'NODATA_value -9999',
      ...rows,
    ].join('\n');

    // And a 3D Tiles tileset the operator put under DATA_DIR (the dam's body), shown on the site.
    const folder = path.join(server.dataDir, 'threeD', 'tilesets', 'pond-dam');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'dam.glb'), terrainGlb(8, 800, 40));
    fs.writeFileSync(
      path.join(folder, 'tileset.json'),
      JSON.stringify({
        asset: { version: '1.1' },
        geometricError: 50,
        root: {
          boundingVolume: { box: [0, 0, 0, 400, 0, 0, 0, 400, 0, 0, 0, 40] },
          geometricError: 0,
          content: { uri: 'dam.glb' },
        },
      }),
    );
    await api(server.url, admin, 'POST', '/api/v2/data/threeD/setTileset', { platformId: site, name: 'pond-dam' });

    const page = await newPage(browser, 'en-US');
    await page.setViewportSize({ width: 1280, height: 800 });
    await resumeSession(page, server.url);
    await page.goto(`${server.url}/#/dimensional/3DManage?platformId=${site}`);
    await page.locator('[data-testid="three-d-upload"]').waitFor();
    await page
      .locator('.ant-upload input[type="file"]')
      .setInputFiles({ name: 'yangshan-dem.asc', mimeType: 'text/plain', buffer: Buffer.from(asc) });
    await expect
      .poll(() => page.locator('.ant-message').textContent(), { timeout: 60_000 })
      .toContain('Model uploaded');
    await ingest(server.url, rtu, 'POND-P1', [{ ts: Date.now(), values: { deformation: 3.5 } }]);
    await ingest(server.url, rtu, 'POND-P2', [{ ts: Date.now(), values: { deformation: 4.25 } }]);
    await page.goto(`${server.url}/#/dimensional/3D?platformId=${site}`);
    const scene = page.locator('[data-testid="three-d-scene"]');
    await expect.poll(() => scene.getAttribute('data-triangles'), { timeout: 60_000 }).toBe(String(119 * 99 * 2));
    // The tileset streams in beside the terrain, through the server with the session's token.
    await expect.poll(() => scene.getAttribute('data-tileset-ms'), { timeout: 60_000 }).toMatch(/^\d+$/);
    // Every device stands on the terrain, where the map has it; two report (green), one has not (grey).
    const colour = (id: number) =>
      page.evaluate<[number, number, number] | null>(`(() => {
        const s = window.__gsThreeD;
        const at = s && s.markerScreen(${id});
        return at ? s.pixelAt(at.x, at.y) : null;
      })()`);
    for (const id of ids.slice(0, 2))
      await expect
        .poll(() => colour(id), { timeout: 30_000 })
        .toSatisfy((c) => c !== null && c[1] > c[0] + 30 && c[1] > c[2] + 30);
    await expect
      .poll(() => colour(ids[2]!))
      .toSatisfy((c) => c !== null && Math.abs(c[0] - c[1]) < 12 && Math.abs(c[1] - c[2]) < 12);
    await expectNoRawKeys(page);
    await shot(page, 'threeD-terrain-en');
    await page.close();
  });

  it('has no 3D route or icon without threeDimensional:show, nor for a bridge deployment', async () => {
    // The browser's login ended the script's session.
    admin = await apiLogin(server.url);
    const role = await api<{ id: number }>(server.url, admin, 'POST', '/api/v2/manage/role/add', {
      name: 'No 3D',
      code: 'no3d',
    });
    type Perm = { id: number; code: string; children?: Perm[] };
    const flat = (await api<Perm[]>(server.url, admin, 'GET', '/api/v2/manage/permission/getTree')).flatMap((p) => [
      p,
      ...(p.children ?? []),
    ]);
    await api(server.url, admin, 'POST', '/api/v2/manage/role/setPermissions', {
      roleId: role.id,
      permissionIds: flat
        .filter((p) => p.code === 'index' || p.code === 'monitor' || p.code === 'monitor:realtime')
        .map((p) => p.id),
    });
    await api(server.url, admin, 'POST', '/api/v2/manage/user/add', {
      account: 'no3d',
      password: PASSWORD,
      name: 'No 3D',
      roleId: role.id,
      scopeAll: true,
    });
    const page = await newPage(browser, 'en-US');
    await loginAs(page, server.url, 'no3d', PASSWORD);
    await expect.poll(() => page.locator('[data-testid="project-title"]').count()).toBe(1);
    expect(await page.locator('[data-testid="three-d-link"]').count()).toBe(0);
    await page.goto(`${server.url}/#/dimensional/3D`);
    await page.waitForURL(/#\/404/);
    await page.close();

    // The admin on a bridge deployment: the server's user info says the platform type (PLATFORM_TYPE=bridge).
    const bridge = await newPage(browser, 'en-US');
    await resumeSession(bridge, server.url);
    await expect.poll(() => bridge.locator('[data-testid="three-d-link"]').count()).toBe(1);
    await bridge.route('**/api/v2/manage/user/getUserInfo', async (route) => {
      const res = await route.fetch();
      const env = (await res.json()) as Envelope<{ platformType: string }>;
      env.data.platformType = 'bridge';
      await route.fulfill({ response: res, json: env });
    });
    await bridge.evaluate(`localStorage.setItem('platformType', 'bridge')`);
    await bridge.reload();
    await expect.poll(() => bridge.locator('[data-testid="project-title"]').count()).toBe(1);
    expect(await bridge.locator('[data-testid="three-d-link"]').count()).toBe(0);
    await bridge.goto(`${server.url}/#/dimensional/3D`);
    await bridge.waitForURL(/#\/404/);
    await bridge.close();
  }, 180_000);
});
