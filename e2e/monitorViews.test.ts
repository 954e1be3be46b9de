import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  resumeSession,
  newPage,
  shot,
  startServer,
  type RunningServer,
  api,
  apiLogin,
  type Envelope,
} from './harness.ts';

interface RegionNode {
  code: string;
  children?: RegionNode[];
}

const SITE = '/api/v2/data/information/platform';
const SEGMENT = '/api/v2/data/information/segment';
const VIEW = '/api/v2/data/monitor/view';

/** A schematic picture of the site, drawn by the browser itself (valley, reservoir, dam, roads). */
async function drawSchematic(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  await page.setContent(`<body style="margin:0">
    <svg xmlns="http://www.w3.org/2000/svg" width="1200" height="700" viewBox="0 0 1200 700">
      <rect width="1200" height="700" fill="#eef3e8"/>
      <path d="M0 0 H1200 V110 C900 170 700 90 450 150 S100 120 0 180 Z" fill="#c9d8b6"/>
      <path d="M0 700 H1200 V600 C900 560 700 640 420 590 S120 620 0 560 Z" fill="#c9d8b6"/>
      <path d="M80 250 C260 180 420 220 560 300 L560 470 C400 520 220 500 60 430 Z" fill="#9cc3e6" stroke="#6a9fce" stroke-width="3"/>
      <rect x="560" y="270" width="70" height="220" fill="#a7977c" stroke="#6d5c43" stroke-width="3"/>
      <path d="M630 380 C760 370 900 420 1200 400" stroke="#9cc3e6" stroke-width="18" fill="none"/>
      <path d="M0 640 C300 600 700 660 1200 610" stroke="#b5a58a" stroke-width="10" fill="none"/>
      <path d="M640 270 L820 150 L1050 160" stroke="#b5a58a" stroke-width="8" fill="none"/>
      <rect x="840" y="120" width="90" height="60" fill="#f4efe4" stroke="#7a6a52" stroke-width="2"/>
      <text x="885" y="157" font-family="sans-serif" font-size="16" text-anchor="middle" fill="#5b4d38">Control</text>
      <text x="300" y="380" font-family="sans-serif" font-size="28" fill="#2f5f8f">Qingshan Reservoir</text>
      <text x="595" y="520" font-family="sans-serif" font-size="18" text-anchor="middle" fill="#5b4d38">Main dam</text>
    </svg></body>`);
  const png = await page.screenshot({ type: 'png' });
  await page.close();
  return png;
}

interface Fixture {
  platformId: number;
  segmentId: number;
  devices: Record<string, number>;
  terminalId: number;
  key: string;
}

/** The reservoir site, its picture, a terminal, devices, a section with coordinates, capacity table and core wall. */
async function createReservoir(url: string, picture: Buffer): Promise<Fixture> {
  const token = await apiLogin(url);
  let node = (await api<RegionNode[]>(url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
  while (node.children?.length) node = node.children[0]!;
  const site = {
    name: 'Qingshan Reservoir',
    regionCode: node.code,
    lon: 103.9,
    lat: 30.6,
    manager: 'Wang Fang',
    description: 'Earth-rock dam, 36 m high; core wall with piezometers',
  };
  const { platformId } = await api<{ platformId: number }>(url, token, 'POST', `${SITE}/reservoir/add`, site);
  const form = new FormData();
  form.append('kind', 'picture');
  form.append('platformId', String(platformId));
  form.append('file', new Blob([new Uint8Array(picture)], { type: 'image/png' }), 'schematic.png');
  const up = await fetch(`${url}/api/v2/file/upload`, { method: 'POST', headers: { token }, body: form });
  const upEnv = (await up.json()) as Envelope<{ fileId: string }>;
  if (upEnv.status !== 0) throw new Error(`upload: ${upEnv.info}`);
  await api(url, token, 'POST', `${SITE}/reservoir/edit`, { platformId, ...site, pictures: upEnv.data.fileId });

  const term = await api<{ terminalId: number; key: string }>(
    url,
    token,
    'POST',
    '/api/v2/data/information/terminal/add',
    {
      platformId,
      name: 'Dam logger 1',
      serial: 'QS-RTU-0001',
      protocolType: 'MQTT',
      manufacturer: 'Geosense',
      model: 'GS-200',
      port: 1883,
    },
  );
  const spare = await api<{ terminalId: number }>(url, token, 'POST', '/api/v2/data/information/terminal/add', {
    platformId,
    name: 'Spillway logger',
    serial: 'QS-RTU-0002',
    protocolType: 'MQTT',
  });
  const devices: Record<string, number> = {};
  const add = async (number: string, name: string, moduleId: number, terminalId: number, extra = {}) => {
    const r = await api<{ deviceId: number }>(url, token, 'POST', '/api/v2/data/information/device/common/add', {
      deviceName: name,
      number,
      moduleId,
      platformId,
      terminalId,
      ip: '192.168.10.20',
      port: 502,
      ...extra,
    });
    devices[number] = r.deviceId;
  };
  await add('QS-WL-01', 'Reservoir level', 11, term.terminalId);
  await add('QS-PZ-01', 'Piezometer P1', 16, term.terminalId);
  await add('QS-PZ-02', 'Piezometer P2', 16, term.terminalId);
  await add('QS-SP-01', 'Seepage gauge S1', 17, term.terminalId, { initialLevel: 90 });
  await add('QS-RG-01', 'Rain gauge', 2, term.terminalId);
  await add('QS-DS-01', 'Crest displacement', 30, spare.terminalId);

  const { segmentId } = await api<{ segmentId: number }>(url, token, 'POST', `${SEGMENT}/add`, {
    platformId,
    name: 'Main dam 0+120',
    info: 'Maximum section',
    bottomElevation: 90,
  });
  await api(url, token, 'POST', `${SEGMENT}/setUpstreamCoords`, {
    segmentId,
    coords: JSON.stringify([
      { x: 40, y: 380, elevation: 90 },
      { x: 330, y: 80, elevation: 126 },
      { x: 390, y: 80, elevation: 126 },
      { x: 700, y: 380, elevation: 90 },
    ]),
  });
  await api(url, token, 'POST', `${SEGMENT}/setCapacityList`, {
    platformId,
    segmentId,
    rows: JSON.stringify([
      { index: 1, waterLevelElevation: 90, waterVolume: 0 },
      { index: 2, waterLevelElevation: 100, waterVolume: 120 },
      { index: 3, waterLevelElevation: 110, waterVolume: 420 },
      { index: 4, waterLevelElevation: 120, waterVolume: 900 },
      { index: 5, waterLevelElevation: 125, waterVolume: 1200 },
    ]),
  });
  await api(url, token, 'POST', `${SEGMENT}/bindMiltiHeartWallDevice`, {
    segmentId,
    deviceIds: [devices['QS-PZ-01'], devices['QS-PZ-02'], devices['QS-SP-01']].join(','),
  });
  await api(url, token, 'POST', `${SEGMENT}/setWaterLevel`, { segmentId, source: 'auto' });
  return { platformId, segmentId, devices, terminalId: term.terminalId, key: term.key };
}

/** Sends readings as the dam logger does (HTTP ingest, a batch naming each item's device). */
async function sendReadings(url: string, f: Fixture, items: { device: string; values: Record<string, number> }[]) {
  const ts = Date.now();
  const r = await fetch(`${url}/api/v2/ingest/readings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-terminal-id': String(f.terminalId), 'x-terminal-key': f.key },
    body: JSON.stringify(items.map((i) => ({ ...i, ts }))),
  });
  if (r.status !== 200) throw new Error(`ingest ${r.status}: ${await r.text()}`);
}

async function openScreen(page: Page, url: string, path: string, testId: string): Promise<void> {
  await page.goto(`${url}/#${path}`);
  try {
    await page.locator(`[data-testid="${testId}"]`).waitFor();
  } catch (e) {
    await shot(page, `monitor-views-failed-${testId}`);
    throw e;
  }
}

const snap = (page: Page, name: string): Promise<void> => shot(page, name);

/** The page must not scroll sideways at 1440 x 900. */
async function noSidewaysOverflow(page: Page): Promise<void> {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(over).toBeLessThanOrEqual(0);
}

describe('monitor views in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let f: Fixture;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    f = await createReservoir(server.url, await drawSchematic(browser));
    await sendReadings(server.url, f, [
      { device: 'QS-WL-01', values: { waterLevel: 118.4 } },
      { device: 'QS-PZ-01', values: { waterLevel: 112.5, battery: 87 } },
      { device: 'QS-PZ-02', values: { waterLevel: 101.2 } },
      { device: 'QS-SP-01', values: { pressure: 39.2266 } },
      { device: 'QS-RG-01', values: { rainfall: 2.5, voltage: 12.4 } },
    ]);
  });
  afterAll(async () => {
    if (process.env.E2E_DEBUG) console.log(server?.output().slice(-4000));
    await browser?.close();
    await server?.stop();
  });

  let page: Page;
  let wl: number;
  it('signs in (English)', async () => {
    page = await newPage(browser, 'en-US');
    if (process.env.E2E_DEBUG) page.on('pageerror', (e) => console.log('pageerror', e.message));
    await resumeSession(page, server.url);
    // No internet in the test machine: the maps draw their coordinate grid only.
    await page.evaluate(() => localStorage.setItem('mapTileUrl', 'none'));
    wl = f.devices['QS-WL-01']!;
  });

  it('shows the reservoir display with live values and its real-time data', async () => {
    // ---- reservoir display: header, state counts, devices by type, picture; live values ----
    await openScreen(page, server.url, '/monitor/reservoirPlatform', 'view-site-header');
    await expect
      .poll(() => page.locator('[data-testid="view-site-header"]').textContent())
      .toContain('Qingshan Reservoir');
    const header = (await page.locator('[data-testid="view-site-header"]').textContent()) ?? '';
    expect(header).toContain('Wang Fang');
    expect(await page.locator('[data-testid="view-state-counts"] [data-state="normal"]').textContent()).toContain('5');
    expect(await page.locator('[data-testid="view-state-counts"] [data-state="offline"]').textContent()).toContain('1');
    await expect.poll(() => page.locator(`[data-testid="view-tile-${wl}"]`).textContent()).toContain('118.4');
    await page.locator('[data-testid="view-picture"] img, img[data-testid="view-picture"]').first().waitFor();
    await expect
      .poll(() => page.locator('[data-testid="view-live"]').getAttribute('data-connected'), { timeout: 20_000 })
      .toBe('1');
    await sendReadings(server.url, f, [{ device: 'QS-WL-01', values: { waterLevel: 118.6 } }]);
    await expect.poll(() => page.locator(`[data-testid="view-tile-${wl}"]`).textContent()).toContain('118.6');
    await noSidewaysOverflow(page);
    await snap(page, 'monitor-views-reservoir-display-en');
    await page.locator('[data-testid="view-display-tab"]').getByText('Real-time data').click();
    await page.locator('[data-testid="view-realtime-table"]').waitFor();
    expect(await page.locator('[data-testid="view-realtime-table"]').textContent()).toContain('Piezometer P1');
    await snap(page, 'monitor-views-reservoir-realtime-en');
  });

  it('places devices on the sketch map by dragging, and keeps them there', async () => {
    // ---- sketch map: drag a device from the list onto the picture, then move it; both saved ----
    await openScreen(page, server.url, '/monitor/sketchMap', 'sketch-stage');
    await page.locator('[data-testid="sketch-picture"]').waitFor();
    await expect
      .poll(() => page.locator('[data-testid="sketch-picture"]').evaluate((i: HTMLImageElement) => i.naturalWidth))
      .toBe(1200);
    await page.locator('[data-testid="sketch-edit"]').click();
    const stage = (await page.locator('[data-testid="sketch-stage"]').boundingBox())!;
    const item = (await page.locator(`[data-testid="sketch-unplaced-${wl}"]`).boundingBox())!;
    await page.mouse.move(item.x + 40, item.y + item.height / 2);
    await page.mouse.down();
    await page.mouse.move(stage.x + stage.width * 0.3, stage.y + stage.height * 0.45, { steps: 8 });
    await page.mouse.up();
    await page.locator(`[data-testid="sketch-marker-${wl}"]`).waitFor();
    const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
    const stored = async () =>
      (
        await api<{ deviceId: number; sketchX: number | null; sketchY: number | null }[]>(
          server.url,
          token,
          'GET',
          `${VIEW}/getPositions`,
          { platformId: f.platformId },
        )
      ).find((p) => p.deviceId === wl);
    await expect.poll(async () => (await stored())?.sketchX ?? -1).toBeCloseTo(0.3, 1);
    // Place two more devices, then move the first one: the move is saved.
    for (const [n, x, y] of [
      ['QS-PZ-01', 0.52, 0.42],
      ['QS-RG-01', 0.78, 0.2],
    ] as const) {
      const box = (await page.locator(`[data-testid="sketch-unplaced-${f.devices[n]}"]`).boundingBox())!;
      await page.mouse.move(box.x + 40, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(stage.x + stage.width * x, stage.y + stage.height * y, { steps: 8 });
      await page.mouse.up();
      await page.locator(`[data-testid="sketch-marker-${f.devices[n]}"]`).waitFor();
    }
    const marker = (await page.locator(`[data-testid="sketch-marker-${wl}"] .gs-sketch-pin`).boundingBox())!;
    await page.mouse.move(marker.x + marker.width / 2, marker.y + marker.height / 2);
    await page.mouse.down();
    await page.mouse.move(stage.x + stage.width * 0.2, stage.y + stage.height * 0.62, { steps: 10 });
    await page.mouse.up();
    await expect.poll(async () => (await stored())?.sketchX ?? -1).toBeCloseTo(0.2, 1);
    expect((await stored())?.sketchY ?? -1).toBeCloseTo(0.62, 1);
    await page.locator('[data-testid="sketch-edit"]').click();
    // After a reload the marker is where it was dropped, with its live value and state colour.
    await page.reload();
    await page.locator(`[data-testid="sketch-marker-${wl}"]`).waitFor();
    const left = await page.locator(`[data-testid="sketch-marker-${wl}"]`).evaluate((e: HTMLElement) => e.style.left);
    expect(parseFloat(left)).toBeCloseTo(20, 0);
    expect(await page.locator(`[data-testid="sketch-value-${wl}"]`).textContent()).toContain('118.6');
    expect(await page.locator(`[data-testid="sketch-marker-${wl}"]`).getAttribute('data-state')).toBe('normal');
    await noSidewaysOverflow(page);
    await snap(page, 'monitor-views-sketch-en');
  });

  it('shows the devices on the map, filtered by type', async () => {
    // ---- device distribution map: markers by state, popup with values, filter by type ----
    await openScreen(page, server.url, '/monitor/moduleMap', 'module-map');
    await expect.poll(() => page.locator('[data-testid="module-map"] [data-device-id]').count()).toBe(6);
    await page.locator(`[data-testid="module-map"] [data-device-id="${wl}"]`).click();
    await expect.poll(() => page.locator('[data-testid="module-map-popup"]').textContent()).toContain('118.6');
    await noSidewaysOverflow(page);
    await snap(page, 'monitor-views-module-map-en');
    // Edit mode: drag the displacement gauge (shown on the ring around the site) to its place; it is saved.
    const ds = f.devices['QS-DS-01']!;
    await page.locator('[data-testid="module-map-edit"]').click();
    await page.keyboard.press('Escape');
    const pin = (await page.locator(`[data-testid="module-map"] [data-device-id="${ds}"]`).boundingBox())!;
    await page.mouse.move(pin.x + pin.width / 2, pin.y + pin.height / 2);
    await page.mouse.down();
    await page.mouse.move(pin.x + pin.width / 2 - 120, pin.y + pin.height / 2 + 60, { steps: 10 });
    await page.mouse.up();
    const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
    const placed = async () =>
      (
        await api<{ deviceId: number; lon: number | null; lat: number | null }[]>(
          server.url,
          token,
          'GET',
          `${VIEW}/getPositions`,
          { platformId: f.platformId },
        )
      ).find((p) => p.deviceId === ds);
    await expect.poll(async () => (await placed())?.lon ?? null).not.toBeNull();
    const p = (await placed())!;
    expect(p.lon!).toBeGreaterThan(103.89);
    expect(p.lon!).toBeLessThan(103.91);
    expect(p.lat!).toBeLessThan(30.61);
    await page.locator('[data-testid="module-map-edit"]').click();
    await page.locator('#module-map-type').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
      .filter({ hasText: 'Pressure (seepage)' })
      .click();
    await expect.poll(() => page.locator('[data-testid="module-map"] [data-device-id]').count()).toBe(1);
  });

  it('draws the dam section with level, storage and phreatic line', async () => {
    // ---- reservoir view: the dam section, level, stored volume, phreatic line ----
    await openScreen(page, server.url, '/monitor/reservoirMap', 'dam-svg');
    await expect.poll(() => page.locator('[data-testid="dam-level-value"]').textContent()).toBe('118.6 m');
    // 110 m holds 420, 120 m holds 900 (10^4 m³): 118.6 m holds 420 + 0.86 x 480.
    expect(await page.locator('[data-testid="dam-volume-value"]').textContent()).toBe('832.8');
    await page.locator('[data-testid="dam-phreatic"]').waitFor();
    await page.locator('[data-testid="dam-water"]').waitFor();
    expect(await page.locator('[data-testid="dam-svg"]').textContent()).toContain('94 m');
    await noSidewaysOverflow(page);
    await snap(page, 'monitor-views-reservoir-map-en');
  });

  it('shows the sections and the monitoring stations', async () => {
    // ---- section display and monitoring station ----
    await openScreen(page, server.url, '/monitor/segmentMap', `segment-card-${f.segmentId}`);
    await expect
      .poll(() => page.locator(`[data-testid="segment-card-${f.segmentId}"]`).textContent())
      .toContain('Piezometer P2');
    await snap(page, 'monitor-views-segment-en');
    await openScreen(page, server.url, '/monitor/MonitorStation', 'station-table');
    await expect.poll(() => page.locator('[data-testid="station-table"]').textContent()).toContain('Spillway logger');
    expect(await page.locator('[data-testid="station-table"] [data-online="1"]').count()).toBe(1);
    expect(await page.locator('[data-testid="station-table"] [data-online="0"]').count()).toBe(1);
    await noSidewaysOverflow(page);
    await snap(page, 'monitor-views-station-en');
    await page.context().close();
  });

  it('speaks Chinese', async () => {
    const zh = await newPage(browser, 'zh-CN');
    await resumeSession(zh, server.url);
    await openScreen(zh, server.url, '/monitor/reservoirMap', 'dam-svg');
    await expect.poll(() => zh.locator('[data-testid="view-reservoir"]').textContent()).toContain('库容曲线');
    await snap(zh, 'monitor-views-reservoir-map-zh');
    await zh.context().close();
  });

  it('speaks Korean', async () => {
    const ko = await newPage(browser, 'ko-KR');
    if (process.env.E2E_DEBUG) ko.on('pageerror', (e) => console.log('pageerror', e.message));
    await resumeSession(ko, server.url);
    await openScreen(ko, server.url, '/monitor/sketchMap', 'sketch-stage');
    await expect.poll(() => ko.locator('[data-testid="view-sketch"]').textContent()).toContain('미배치');
    await snap(ko, 'monitor-views-sketch-ko');
    await openScreen(ko, server.url, '/monitor/reservoirPlatform', 'view-site-header');
    await expect.poll(() => ko.locator('[data-testid="view-site-header"]').textContent()).toContain('저수지');
    await snap(ko, 'monitor-views-reservoir-display-ko');
    await ko.context().close();
  });
});
