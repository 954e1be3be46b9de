import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import {
  settle,
  ADMIN_PASSWORD,
  SHOTS,
  launchBrowser,
  loginAs,
  resumeSession,
  shot,
  startServer,
  type RunningServer,
  api,
  apiLogin,
} from './harness.ts';

interface RegionNode {
  code: string;
  children?: RegionNode[];
}

const HOUR = 3_600_000;
const slow = { timeout: 30_000, interval: 250 };

/** The calendar date (yyyy-MM-dd) of an instant in a zone. */
const dateIn = (t: number, zone: string) => new Date(t).toLocaleDateString('sv-SE', { timeZone: zone });

/** A screenshot of the history chart card (its time axis and the zone named under it). */
async function chartShot(page: Page, name: string): Promise<void> {
  await settle(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.locator('[data-testid="history-chart"]').screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** A reading every hour for 9 days: rainfall 0.5 mm an hour, a water level rising 1 cm an hour. */
const HOURS = 9 * 24;

describe('time in the user zone (issue 14) in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let siteId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    server = await startServer();
    const token = await apiLogin(server.url);
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    siteId = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
        name: 'Zone Ridge',
        regionCode: node.code,
        lon: 121.4,
        lat: 31.2,
      })
    ).platformId;
    const term = await api<{ terminalId: number; key: string }>(
      server.url,
      token,
      'POST',
      '/api/v2/data/information/terminal/add',
      { platformId: siteId, name: 'Zone RTU', serial: 'ZN-RTU-01', protocolType: 'HTTP' },
    );
    for (const [i, d] of [
      { deviceName: 'Zone water level W1', number: 'ZN-W1', moduleId: 16 },
      { deviceName: 'Zone rain gauge R1', number: 'ZN-R1', moduleId: 2 },
    ].entries()) {
      ids[d.number] = (
        await api<{ deviceId: number }>(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
          ...d,
          platformId: siteId,
          terminalId: term.terminalId,
          ip: `10.0.4.${i + 10}`,
          port: 502,
        })
      ).deviceId;
    }
    const top = Math.floor(Date.now() / HOUR) * HOUR;
    const hours = Array.from({ length: HOURS }, (_, i) => top - (HOURS - 1 - i) * HOUR);
    const post = async (device: string, readings: { ts: number; values: Record<string, number> }[]) => {
      const r = await fetch(`${server.url}/api/v2/ingest/readings`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-terminal-id': String(term.terminalId),
          'x-terminal-key': term.key,
          'x-device-number': device,
        },
        body: JSON.stringify(readings),
      });
      if (r.status !== 200) throw new Error(`ingest ${device}: ${r.status} ${await r.text()}`);
    };
    await post(
      'ZN-W1',
      hours.map((ts, i) => ({ ts, values: { waterLevel: Math.round((10 + i * 0.01) * 100) / 100 } })),
    );
    await post(
      'ZN-R1',
      hours.map((ts) => ({ ts, values: { rainfall: 0.5 } })),
    );
    browser = await launchBrowser();
    // The browser runs in UTC: the user's zone is not the browser's, so labels must name it.
    context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(60_000);
    if (process.env.E2E_DEBUG) page.on('pageerror', (e) => console.log('pageerror', e.message));
  });

  afterAll(async () => {
    if (process.env.E2E_DEBUG) console.log(server?.output().slice(-4000));
    await browser?.close();
    await server?.stop();
  });

  /** Picks a zone in user info (searchable list) and waits until it is saved. */
  async function chooseZone(zone: string, label: string): Promise<void> {
    await page.goto(`${server.url}/#/userinfo`);
    const select = page.locator('[data-testid="userinfo-timezone"]');
    await select.waitFor();
    await select.click();
    await page.keyboard.type(zone);
    const option = page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .last()
      .locator(`.ant-select-item-option[title="${label}"]`);
    await option.click();
    await expect.poll(() => select.textContent(), slow).toContain(label);
    await page.locator('.ant-message').getByText('Time zone saved').waitFor();
  }

  /** History of a device by day over the last 7 calendar days (a custom range), as a table. */
  async function historyByDay(deviceId: number): Promise<void> {
    await page.goto(`${server.url}/#/monitor/historyData?platformId=${siteId}&deviceId=${deviceId}`);
    await page.locator('[data-testid="history-chart"] canvas').first().waitFor();
    await page.locator('[data-testid="monitor-range"]').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .last()
      .locator('.ant-select-item-option[title="Custom"]')
      .click();
    await page.locator('[data-testid="monitor-aggregation"]').getByText('By day').click();
  }

  it('first login saves the browser zone; history by day in Asia/Shanghai starts at its midnight', async () => {
    await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
    // No zone of its own yet: the console saved the browser's (UTC) after the login.
    await page.goto(`${server.url}/#/userinfo`);
    await expect.poll(() => page.locator('[data-testid="userinfo-timezone"]').textContent(), slow).toContain('UTC');

    await chooseZone('Shanghai', 'UTC+08:00 Asia/Shanghai');
    await shot(page, 'tz-userinfo-shanghai');

    await historyByDay(ids['ZN-W1']!);
    // The range picker and the table say which zone their times are in.
    await expect
      .poll(() => page.locator('[data-testid="monitor-zone"]').textContent(), slow)
      .toBe('UTC+08:00 Asia/Shanghai');
    const today = dateIn(Date.now(), 'Asia/Shanghai');
    const first = dateIn(Date.now() - 6 * 24 * HOUR, 'Asia/Shanghai');
    await page.locator('[data-testid="history-view"]').getByText('Table').click();
    const table = page.locator('[data-testid="history-table"]');
    await expect.poll(() => table.locator('thead').textContent(), slow).toContain('Period (UTC+08:00 Asia/Shanghai)');
    // Newest first: the first row is today's bucket in Shanghai, labelled by its date alone (it starts at
    // 00:00 there, not at 08:00 as a UTC day would).
    const firstCell = table.locator('tbody tr.ant-table-row').first().locator('td').first();
    await expect.poll(() => firstCell.textContent(), slow).toBe(today);
    const rows = table.locator('tbody tr.ant-table-row');
    await expect.poll(() => rows.count(), slow).toBe(7);
    expect(await rows.last().locator('td').first().textContent()).toBe(first);
    await page.locator('[data-testid="history-view"]').getByText('Chart').click();
    await page.locator('[data-testid="history-chart"] canvas').first().waitFor();
    await shot(page, 'tz-history-day-shanghai');
    await chartShot(page, 'tz-history-day-shanghai-chart');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  }, 300_000);

  it('rainfall by day is a Total per Shanghai day', async () => {
    await historyByDay(ids['ZN-R1']!);
    await page.locator('[data-testid="history-view"]').getByText('Table').click();
    const table = page.locator('[data-testid="history-table"]');
    await expect.poll(() => table.locator('thead').textContent(), slow).toContain('Total (mm)');
    expect(await table.locator('thead').textContent()).not.toContain('Average');
    // Yesterday in Shanghai is a whole day of 0.5 mm an hour: 12 mm.
    const yesterday = dateIn(Date.now() - 24 * HOUR, 'Asia/Shanghai');
    const row = table.locator('tbody tr.ant-table-row').filter({ hasText: yesterday });
    await expect.poll(() => row.locator('td').nth(1).textContent(), slow).toBe('12');
    await expect.poll(() => page.locator('[data-testid="history-stat-total"]').textContent(), slow).toContain('Total');
    await page.locator('[data-testid="history-view"]').getByText('Chart').click();
    await page.locator('[data-testid="history-chart"] canvas').first().waitFor();
    await shot(page, 'tz-history-rainfall-shanghai');
    await chartShot(page, 'tz-history-rainfall-shanghai-chart');
  }, 300_000);

  it('history by day in Europe/Berlin', async () => {
    const label = `UTC+0${new Date().toLocaleString('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'shortOffset' }).endsWith('+2') ? 2 : 1}:00 Europe/Berlin`;
    await chooseZone('Berlin', label);
    await historyByDay(ids['ZN-W1']!);
    await expect.poll(() => page.locator('[data-testid="monitor-zone"]').textContent(), slow).toBe(label);
    await page.locator('[data-testid="history-view"]').getByText('Table').click();
    const firstCell = page
      .locator('[data-testid="history-table"] tbody tr.ant-table-row')
      .first()
      .locator('td')
      .first();
    await expect.poll(() => firstCell.textContent(), slow).toBe(dateIn(Date.now(), 'Europe/Berlin'));
    await shot(page, 'tz-history-day-berlin-table');
    await page.locator('[data-testid="history-view"]').getByText('Chart').click();
    await page.locator('[data-testid="history-chart"] canvas').first().waitFor();
    await shot(page, 'tz-history-day-berlin');
    await chartShot(page, 'tz-history-day-berlin-chart');

    // By week the custom range is picked in weeks, which start on Monday (in English too).
    await page.locator('[data-testid="monitor-aggregation"]').getByText('By week').click();
    await page.locator('[data-testid="monitor-range-custom"]').first().click();
    const heads = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden) .ant-picker-content thead th');
    await heads.first().waitFor();
    const days = (await heads.allTextContents()).map((x) => x.trim()).filter(Boolean);
    // (the week picker's first column is the week number)
    expect(days.filter((d) => d.length === 2).slice(0, 2)).toEqual(['Mo', 'Tu']);
    await shot(page, 'tz-history-week-picker-berlin');
    await page.keyboard.press('Escape');
  }, 300_000);

  it('names the zone and the rainfall total in Chinese and Korean', async () => {
    for (const [locale, custom, byDay, table, period, total] of [
      ['zh-CN', '自定义', '按天', '表格', '时段', '累计'],
      ['ko-KR', '사용자 지정', '일별', '표', '기간', '합계'],
    ] as const) {
      const ctx = await browser.newContext({ locale, timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });
      const p = await ctx.newPage();
      p.setDefaultTimeout(60_000);
      await resumeSession(p, server.url);
      await p.goto(`${server.url}/#/monitor/historyData?platformId=${siteId}&deviceId=${ids['ZN-R1']}`);
      await p.locator('[data-testid="history-chart"] canvas').first().waitFor();
      await p.locator('[data-testid="monitor-range"]').click();
      await p
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
        .last()
        .locator(`.ant-select-item-option[title="${custom}"]`)
        .click();
      await p.locator('[data-testid="monitor-aggregation"]').getByText(byDay).click();
      await p.locator('[data-testid="history-view"]').getByText(table, { exact: true }).click();
      const head = p.locator('[data-testid="history-table"] thead');
      await expect.poll(() => head.textContent(), slow).toContain(`${period} (UTC+0`);
      expect(await head.textContent()).toContain('Europe/Berlin');
      expect(await head.textContent()).toContain(`${total} (mm)`);
      expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      await shot(p, `tz-history-rainfall-berlin-${locale}`);
      await ctx.close();
    }
  }, 300_000);
});
