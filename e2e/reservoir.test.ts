import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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

const slow = { timeout: 30_000, interval: 250 };
const DAY = 86_400_000;

/**
 * The reservoir screens: manual water levels (list with storage, add through the form) and the comprehensive
 * report drawn by ReportView, in en, zh and ko at 1280 px.
 */
describe('reservoir screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let sectionId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const token = await apiLogin(server.url);
    interface RegionNode {
      code: string;
      children?: RegionNode[];
    }
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    const siteId = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/reservoir/add', {
        name: 'Qingshui reservoir',
        regionCode: node.code,
        lon: 103.8,
        lat: 30.7,
        details: JSON.stringify({ floodLevel: 110, limitedFloodLevel: 105 }),
      })
    ).platformId;
    sectionId = (
      await api<{ segmentId: number }>(server.url, token, 'POST', '/api/v2/data/information/segment/add', {
        platformId: siteId,
        name: 'Main dam',
        bottomElevation: 90,
      })
    ).segmentId;
    await api(server.url, token, 'POST', '/api/v2/data/information/segment/setCapacityList', {
      platformId: siteId,
      rows: JSON.stringify([
        { index: 1, waterLevelElevation: 100, waterVolume: 1000 },
        { index: 2, waterLevelElevation: 105, waterVolume: 1500 },
        { index: 3, waterLevelElevation: 110, waterVolume: 2200 },
      ]),
    });
    const t0 = Date.now() - 3 * DAY;
    await api(server.url, token, 'POST', '/api/v2/data/information/device/module/water/insert', {
      segmentId: sectionId,
      levels: JSON.stringify([
        { time: new Date(t0).toISOString(), elevation: 102 },
        { time: new Date(t0 + DAY).toISOString(), elevation: 106 },
      ]),
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (locale: string, path: string): Promise<Page> => {
    const page = await signedIn(browser, server.url, locale);
    await settle(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/#${path}`);
    return page;
  };

  it('manual water levels: the list with storage, and a level added through the form', async () => {
    const page = await open('en-US', '/information/reservoirWaterLevels');
    const table = page.locator('[data-testid="reservoir-level-table"]');
    await expect.poll(() => table.textContent(), slow).toContain('Qingshui reservoir');
    // 102 m: 1000 + 500·2/5 = 1200; 106 m: 1500 + 700·1/5 = 1640 (10⁴ m³).
    expect(await table.textContent()).toContain('1200');
    expect(await table.textContent()).toContain('1640');
    await page.locator('[data-testid="reservoir-level-add"]').click();
    await page.locator('#reservoirLevel-platformId').click();
    await page.locator('.ant-select-item-option[title="Qingshui reservoir"]').click();
    await page.locator('#reservoirLevel-segmentId').click();
    await page.locator('.ant-select-item-option[title="Main dam"]').click();
    await page.locator('#reservoirLevel-elevation').fill('107.5');
    await page.locator('[data-testid="reservoir-level-save"]').click();
    await expect.poll(() => table.textContent(), slow).toContain('1850');
    await expectNoRawKeys(page);
    await shot(page, 'reservoir-levels-en-1280');
    await page.close();
  }, 300_000);

  for (const [locale, title, flood] of [
    ['en-US', 'Reservoir comprehensive report', 'Flood-limited level'],
    ['zh-CN', '水库综合报表', '汛限水位'],
    ['ko-KR', '저수지 종합 보고서', '제한 수위'],
  ] as const)
    it(`the comprehensive report in ${locale}`, async () => {
      const page = await open(locale, '/monitor/reservoirReport');
      await expect.poll(() => page.locator('[data-testid="res-site"]').textContent(), slow).toContain('Qingshui');
      await page.locator('[data-testid="res-run"]').click();
      const view = page.locator('[data-testid="report-view"]');
      await view.waitFor();
      await expect.poll(() => view.textContent(), slow).toContain(title);
      const text = (await view.textContent()) ?? '';
      expect(text).toContain(flood);
      expect(text).toContain('1640');
      expect(await view.locator('[data-testid="report-chart"]').count()).toBeGreaterThan(0);
      await expectNoRawKeys(page);
      await shot(page, `reservoir-report-${locale}-1280`);
      // The files in the page's language: the xlsx parsed, the PDF's text extracted.
      const save = async (format: string): Promise<string> => {
        const wait = page.waitForEvent('download');
        await page.locator(`[data-testid="report-download-${format}"]`).click();
        const file = path.join(os.tmpdir(), `e2e-reservoir-${process.pid}-${locale}.${format}`);
        await (await wait).saveAs(file);
        return file;
      };
      const xlsx = await save('xlsx');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(xlsx);
      const cells: unknown[] = [];
      wb.eachSheet((ws) => ws.eachRow((r) => r.eachCell((c) => cells.push(c.value))));
      expect(cells).toContain(1640);
      const pdf = await save('pdf');
      const pdfText = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
      expect(pdfText).toContain(title);
      expect(pdfText).toContain(flood);
      fs.rmSync(xlsx, { force: true });
      fs.rmSync(pdf, { force: true });
      await page.close();
    }, 300_000);
});
