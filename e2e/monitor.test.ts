import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  settle,
  launchBrowser,
  resumeSession,
  newPage,
  shot,
  startServer,
  type RunningServer,
  api,
  apiLogin,
  ingest,
  subscribed,
  type Terminal,
} from './harness.ts';

interface RegionNode {
  code: string;
  children?: RegionNode[];
}

const HOUR = 3_600_000;
/** Generous waits: the two-core machine runs the server, the browser and the test at once. */
const slow = { timeout: 30_000, interval: 250 };

const snap = (page: Page, name: string): Promise<void> => shot(page, name);

describe('monitor data screens in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let term: Terminal;
  let siteId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startServer();
    const token = await apiLogin(server.url);
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    siteId = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
        name: 'Ridge Slope 3',
        regionCode: node.code,
        lon: 103.8,
        lat: 30.7,
      })
    ).platformId;
    term = await api<Terminal>(server.url, token, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: siteId,
      name: 'Ridge RTU',
      serial: 'RDG-RTU-01',
      protocolType: 'HTTP',
    });
    const devices = [
      { deviceName: 'Ridge displacement D1', number: 'RDG-D1', moduleId: 30 },
      { deviceName: 'Ridge groundwater W1', number: 'RDG-W1', moduleId: 16 },
      { deviceName: 'Ridge rain gauge R1', number: 'RDG-R1', moduleId: 2 },
      // Never reported: offline until its first reading.
      { deviceName: 'Ridge tilt meter T1', number: 'RDG-T1', moduleId: 9 },
    ];
    for (const [i, d] of devices.entries()) {
      ids[d.number] = (
        await api<{ deviceId: number }>(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
          ...d,
          platformId: siteId,
          terminalId: term.terminalId,
          ip: `10.0.3.${i + 10}`,
          port: 502,
        })
      ).deviceId;
    }
    // Two days of hourly history: an accelerating displacement, a slowly rising water level, showers.
    const now = Date.now();
    const hours = Array.from({ length: 48 }, (_, i) => now - (48 - i) * HOUR);
    await ingest(
      server.url,
      term,
      'RDG-D1',
      hours.map((ts, i) => ({
        ts,
        values: { displacement: Math.round((2 + 0.05 * i + 0.004 * i * i) * 100) / 100, battery: 96 - i / 10 },
      })),
    );
    await ingest(
      server.url,
      term,
      'RDG-W1',
      hours.map((ts, i) => ({
        ts,
        values: { waterLevel: Math.round((12.3 + 0.02 * i + 0.1 * Math.sin(i / 4)) * 1000) / 1000, voltage: 12.4 },
      })),
    );
    await ingest(
      server.url,
      term,
      'RDG-R1',
      hours.map((ts, i) => ({ ts, values: { rainfall: i % 7 === 0 ? 2.5 : i % 11 === 0 ? 0.8 : 0 } })),
    );
    browser = await launchBrowser();
  });

  afterAll(async () => {
    if (process.env.E2E_DEBUG) console.log(server?.output().slice(-4000));
    await browser?.close();
    await server?.stop();
  });

  /** One page for the English walk through the screens (the tests below run in order). */
  let page: Page;

  it('shows a reading pushed by a logger live in realTimeData, without reload', async () => {
    page = await newPage(browser, 'en-US');
    if (process.env.E2E_DEBUG) {
      page.on('pageerror', (e) => console.log('pageerror', e.message));
      page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
    }
    await resumeSession(page, server.url);

    // ---- real-time table: a reading posted by a logger appears without reload ----
    await page.goto(`${server.url}/#/monitor/realTimeData?platformId=${siteId}`);
    const table = page.locator('[data-testid="rt-table"]');
    await expect.poll(() => table.textContent(), slow).toContain('Ridge displacement D1');
    await page.locator('[data-testid="monitor-live"][data-connected="1"]').waitFor();
    // The subscription goes out right after the server's hello: a reading sent before the server took it is lost.
    await subscribed(page, siteId);
    await page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 42));
    const cell = page.locator(`[data-testid="rt-value-${ids['RDG-W1']}-waterLevel"]`);
    expect(await cell.textContent()).not.toContain('15.432');
    await ingest(server.url, term, 'RDG-W1', [{ ts: Date.now(), values: { waterLevel: 15.432, battery: 88 } }]);
    await expect.poll(() => cell.textContent(), { timeout: 15_000 }).toContain('15.432');
    expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(42);
    await snap(page, 'monitor-realtime-en');
    await page.locator('[data-testid="rt-view"]').getByText('Charts').click();
    await page.locator(`[data-testid="rt-chart-${ids['RDG-D1']}"] canvas`).first().waitFor();
    await snap(page, 'monitor-realtime-charts-en');
  }, 300_000);

  it('shows the pushed reading in historyData (chart, statistics, table)', async () => {
    // ---- history: the pushed value is in the series (chart and table) ----
    await page.goto(`${server.url}/#/monitor/historyData?platformId=${siteId}&deviceId=${ids['RDG-W1']}`);
    await page.locator('[data-testid="history-chart"] canvas').first().waitFor();
    await expect.poll(() => page.locator('[data-testid="history-stat-max"]').textContent(), slow).toContain('15.432');
    await snap(page, 'monitor-history-en');
    await page.locator('[data-testid="history-view"]').getByText('Table').click();
    await expect.poll(() => page.locator('[data-testid="history-table"]').textContent(), slow).toContain('15.432');
    await snap(page, 'monitor-history-table-en');
    await page.locator('[data-testid="history-view"]').getByText('Chart').click();
    await page.locator('[data-testid="monitor-aggregation"]').getByText('By hour').click();
    await expect.poll(() => page.locator('[data-testid="history-count"]').textContent(), slow).toMatch(/points/);
    await snap(page, 'monitor-history-hourly-en');
  }, 300_000);

  it('renders the overview, status, comparison, processing and forecast screens', async () => {
    // ---- cards and device status ----
    await page.goto(`${server.url}/#/monitor/realtimesxxy?platformId=${siteId}`);
    await expect
      .poll(() => page.locator(`[data-testid="card-value-${ids['RDG-W1']}-waterLevel"]`).textContent(), slow)
      .toContain('15.432');
    await snap(page, 'monitor-cards-en');
    await page.goto(`${server.url}/#/monitor/deviceStatus?platformId=${siteId}`);
    await expect
      .poll(() => page.locator('[data-testid="status-table"]').textContent(), slow)
      .toContain('Ridge rain gauge R1');
    // A device that comes online changes state in the table without reload.
    const tilt = page.locator(`[data-testid="status-state-${ids['RDG-T1']}"]`);
    expect(await tilt.textContent()).toContain('Offline');
    await page.locator('[data-testid="monitor-status"] [data-testid="monitor-live"][data-connected="1"]').waitFor();
    await subscribed(page, siteId);
    await ingest(server.url, term, 'RDG-T1', [{ ts: Date.now(), values: { tiltX: 0.12, tiltY: -0.05 } }]);
    await expect.poll(() => tilt.textContent(), slow).toContain('Normal');
    await snap(page, 'monitor-status-en');

    // ---- comparison: exactly two devices; a third is refused with a message ----
    await page.goto(`${server.url}/#/monitor/DataComparison?platformId=${siteId}`);
    await page.locator('[data-testid="compare-hint"]').waitFor();
    await page.locator('[data-testid="compare-devices"]').click();
    for (const name of ['Ridge displacement D1', 'Ridge groundwater W1', 'Ridge rain gauge R1']) {
      await page.keyboard.type(name);
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option-active')
        .filter({ hasText: name })
        .waitFor();
      await page.keyboard.press('Enter');
    }
    await page.locator('.ant-message').getByText('The comparison needs exactly 2 devices').waitFor();
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="compare-chart"] canvas').first().waitFor();
    expect(await page.locator('[data-testid="compare-devices"]').textContent()).not.toContain('Ridge rain gauge R1');
    await snap(page, 'monitor-comparison-en');

    // ---- processing: smoothing preview ----
    await page.goto(`${server.url}/#/monitor/DataProcessing?platformId=${siteId}&deviceId=${ids['RDG-W1']}`);
    await page.locator('[data-testid="smooth-preview"]').click();
    await page.locator('[data-testid="smooth-chart"] canvas').first().waitFor();
    await expect.poll(() => page.locator('[data-testid="processing-table"]').textContent(), slow).toContain('13.1');
    await snap(page, 'monitor-processing-en');

    // ---- forecast: GM(1,1) with its checks, inverse velocity as decision support ----
    await page.goto(`${server.url}/#/monitor/forecast?platformId=${siteId}&deviceId=${ids['RDG-D1']}`);
    await page.locator('[data-testid="forecast-chart"] canvas').first().waitFor();
    await page.locator('[data-testid="forecast-run"]').click();
    await expect.poll(() => page.locator('[data-testid="forecast-checks"]').textContent(), slow).toMatch(/C = .*P = /);
    await page.locator('[data-testid="forecast-iv-run"]').click();
    await page.locator('[data-testid="forecast-iv"]').getByText('Decision support').first().waitFor();
    await snap(page, 'monitor-forecast-en');
    await page.locator('[data-testid="forecast-iv"]').scrollIntoViewIfNeeded();
    await snap(page, 'monitor-forecast-iv-en');
  }, 300_000);

  it('has no horizontal overflow at 1280x720', async () => {
    // ---- a smaller screen: no horizontal overflow ----
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const path of ['realTimeData', 'historyData', 'forecast']) {
      await page.goto(`${server.url}/#/monitor/${path}?platformId=${siteId}`);
      await page.locator(`[data-testid="tab-/monitor/${path}"]`).waitFor();
      await settle(page);
      const overflow = await page.evaluate(() => {
        const main = document.querySelector('#gs-main');
        return main ? main.scrollWidth - main.clientWidth : 0;
      });
      expect(overflow, path).toBeLessThanOrEqual(1);
    }
    await snap(page, 'monitor-forecast-1280');
    await page.context().close();
  }, 300_000);

  it('shows the screens in Chinese and Korean', async () => {
    for (const [locale, lang, title] of [
      ['zh-CN', 'zh', '实时数据'],
      ['ko-KR', 'ko', '이력 데이터'],
    ] as const) {
      const page = await newPage(browser, locale);
      await resumeSession(page, server.url);
      await page.goto(`${server.url}/#/monitor/realTimeData?platformId=${siteId}`);
      await expect.poll(() => page.locator('[data-testid="rt-table"]').textContent(), slow).toContain('15.432');
      if (lang === 'zh') expect(await page.locator('[data-testid="monitor-realtime"]').textContent()).toContain(title);
      await snap(page, `monitor-realtime-${lang}`);
      await page.goto(`${server.url}/#/monitor/historyData?platformId=${siteId}&deviceId=${ids['RDG-W1']}`);
      await page.locator('[data-testid="history-chart"] canvas').first().waitFor();
      if (lang === 'ko') expect(await page.locator('[data-testid="monitor-history"]').textContent()).toContain(title);
      await snap(page, `monitor-history-${lang}`);
      await page.goto(`${server.url}/#/monitor/deviceStatus?platformId=${siteId}`);
      await expect.poll(() => page.locator('[data-testid="status-table"]').textContent(), slow).toContain('RDG-R1');
      await snap(page, `monitor-status-${lang}`);
      await page.context().close();
    }
  }, 300_000);
});
