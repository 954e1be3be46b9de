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
  ingest,
  launchBrowser,
  settle,
  shot,
  signedIn,
  startServer,
  type RunningServer,
  type Terminal,
} from './harness.ts';

const slow = { timeout: 30_000, interval: 250 };

/**
 * /monitor/VibrationReport: a site with one vibration logger and three events today; the screen runs the report and
 * the shared ReportView draws it (the log-log chart, the events with their verdicts), in en, zh and ko at 1280 px.
 */
describe('vibration report screen', () => {
  let server: RunningServer;
  let browser: Browser;

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
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
        name: 'Quarry blast slope',
        regionCode: node.code,
        lon: 103.8,
        lat: 30.7,
      })
    ).platformId;
    const term = await api<Terminal>(server.url, token, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: siteId,
      name: 'Quarry RTU',
      serial: 'QB-RTU-01',
      protocolType: 'HTTP',
    });
    await api(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
      deviceName: 'Blast logger',
      number: 'QB-V1',
      moduleId: 36,
      platformId: siteId,
      terminalId: term.terminalId,
      ip: '10.0.7.18',
      port: 502,
    });
    const now = Date.now() - 3 * 3_600_000;
    const at = (min: number) => now + min * 60_000;
    await ingest(server.url, term, 'QB-V1', [
      { ts: at(0), values: { velocity: 0.05, frequency: 15 } },
      { ts: at(1), values: { velocity: 12.3, frequency: 8 } },
      { ts: at(2), values: { velocity: 0.05, frequency: 15 } },
      { ts: at(3), values: { velocity: 22, frequency: 22 } },
      { ts: at(4), values: { velocity: 0.05, frequency: 15 } },
      { ts: at(5), values: { velocity: 31, frequency: 60 } },
    ]);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (locale: string): Promise<Page> => {
    const page = await signedIn(browser, server.url, locale);
    await settle(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/#/monitor/VibrationReport`);
    await page.locator('[data-testid="vib-run"]').waitFor();
    // The site picker chooses the only site.
    await expect
      .poll(() => page.locator('[data-testid="vib-site"]').textContent(), slow)
      .toContain('Quarry blast slope');
    return page;
  };

  it('runs the report: events judged against GB 6722, the log-log chart, the zone named', async () => {
    const page = await open('en-US');
    await page.locator('[data-testid="vib-run"]').click();
    const view = page.locator('[data-testid="report-view"]');
    await view.waitFor();
    await expect.poll(() => view.textContent(), slow).toContain('Vibration monitoring report');
    const text = (await view.textContent()) ?? '';
    expect(text).toContain("3 events: 1 within the limit, 1 within the standard's range, 1 exceeding it");
    expect(text).toContain('Exceeds the limit');
    expect(text).toContain('GB 6722: ordinary civil buildings');
    expect(await view.locator('[data-testid="report-chart"]').count()).toBeGreaterThan(0);
    await expectNoRawKeys(page);
    await shot(page, 'vibration-report-en-1280');
    // The files: the xlsx parsed, the PDF's text extracted.
    const save = async (format: string): Promise<string> => {
      const wait = page.waitForEvent('download');
      await page.locator(`[data-testid="report-download-${format}"]`).click();
      const d = await wait;
      expect(d.suggestedFilename()).toMatch(new RegExp(`^vibration-\\d+-.*\\.${format}$`));
      const file = path.join(os.tmpdir(), `e2e-vibration-${process.pid}.${format}`);
      await d.saveAs(file);
      return file;
    };
    const xlsx = await save('xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(xlsx);
    const cells: unknown[] = [];
    wb.eachSheet((ws) => ws.eachRow((r) => r.eachCell((c) => cells.push(c.value))));
    expect(cells).toContain('Blast logger');
    expect(cells).toContain(31);
    expect(cells).toContain('Exceeds the limit');
    const pdf = await save('pdf');
    const pdfText = execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' });
    expect(pdfText).toContain('Vibration monitoring report');
    expect(pdfText).toContain('Exceeds the limit');
    fs.rmSync(xlsx, { force: true });
    fs.rmSync(pdf, { force: true });
    await page.close();
  }, 300_000);

  for (const [locale, title, exceed] of [
    ['zh-CN', '振动监测报告', '超过限值'],
    ['ko-KR', '진동 모니터링 보고서', '허용치 초과'],
  ] as const)
    it(`in ${locale}`, async () => {
      const page = await open(locale);
      await page.locator('[data-testid="vib-run"]').click();
      const view = page.locator('[data-testid="report-view"]');
      await view.waitFor();
      await expect.poll(() => view.textContent(), slow).toContain(title);
      expect(await view.textContent()).toContain(exceed);
      await expectNoRawKeys(page);
      await shot(page, `vibration-report-${locale}-1280`);
      await page.close();
    }, 300_000);
});
