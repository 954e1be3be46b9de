import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { Resvg } from '@resvg/resvg-js';
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
} from './harness.ts';

const slow = { timeout: 30_000, interval: 250 };
const HOUR = 3_600_000;

interface Terminal {
  terminalId: number;
  key: string;
}
interface RegionNode {
  code: string;
  children?: RegionNode[];
}

/**
 * The module report (templates on screen, xlsx and PDF in the page's language) and the general report (with the
 * conclusions written on screen, as xlsx, PDF and Word), at 1280 px.
 */
describe('report screens', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let siteId: number;

  beforeAll(async () => {
    server = await startServer(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {});
    token = await apiLogin(server.url);
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    siteId = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
        name: 'Report Slope 7',
        regionCode: node.code,
        lon: 103.8,
        lat: 30.7,
      })
    ).platformId;
    const term = await api<Terminal>(server.url, token, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: siteId,
      name: 'Report RTU',
      serial: 'RPT-RTU-01',
      protocolType: 'HTTP',
    });
    for (const [i, number] of ['RPT-W1', 'RPT-W2'].entries())
      await api(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
        deviceName: `Report groundwater ${i + 1}`,
        number,
        moduleId: 16,
        platformId: siteId,
        terminalId: term.terminalId,
        ip: `10.0.4.${i + 10}`,
        port: 502,
      });
    // Three days of hourly water levels ending an hour ago.
    const now = Date.now();
    const hours = Array.from({ length: 72 }, (_, i) => now - (72 - i) * HOUR);
    for (const [k, number] of ['RPT-W1', 'RPT-W2'].entries())
      await ingest(
        server.url,
        term,
        number,
        hours.map((ts, i) => ({ ts, values: { waterLevel: Math.round((12 + k + 0.01 * i) * 1000) / 1000 } })),
      );
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (locale: string, route: string): Promise<Page> => {
    const page = await signedIn(browser, server.url, locale);
    await settle(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/#${route}`);
    return page;
  };
  const save = async (page: Page, format: string, tag: string): Promise<string> => {
    const wait = page.waitForEvent('download');
    await page.locator(`[data-testid="report-download-${format}"]`).click();
    const file = path.join(os.tmpdir(), `e2e-report-${process.pid}-${tag}.${format}`);
    await (await wait).saveAs(file);
    return file;
  };
  const xlsxCells = async (file: string): Promise<unknown[]> => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const cells: unknown[] = [];
    wb.eachSheet((ws) => ws.eachRow((r) => r.eachCell((c) => cells.push(c.value))));
    return cells;
  };
  const pdfText = (file: string): string =>
    execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });

  for (const [locale, template, title, column] of [
    ['en-US', 'E', 'Dam safety observation form', 'Cumulative change'],
    ['zh-CN', 'B', '模块数据报表', '累计变化量'],
  ] as const)
    it(`module report, template ${template}, in ${locale}`, async () => {
      const page = await open(locale, '/monitor/report');
      await expect
        .poll(() => page.locator('[data-testid="monitor-site"]').textContent(), slow)
        .toContain('Report Slope');
      await page.locator('[data-testid="mr-template"]').click();
      await page.locator(`.ant-select-item-option[title^="${template} ·"]`).click();
      await page.locator('[data-testid="mr-run"]').click();
      const view = page.locator('[data-testid="report-view"]');
      await view.waitFor();
      await expect.poll(() => view.textContent(), slow).toContain(title);
      await expect.poll(() => view.textContent(), slow).toContain(column);
      expect(await view.textContent()).toContain('Report groundwater 2');
      // The parameters are in the URL: a reload shows the same report.
      expect(page.url()).toContain(`template=${template}`);
      await expectNoRawKeys(page);
      await shot(page, `module-report-${template}-${locale}-1280`);
      const xlsx = await save(page, 'xlsx', `module-${locale}`);
      const cells = await xlsxCells(xlsx);
      expect(cells.some((c) => typeof c === 'string' && c.includes(title))).toBe(true);
      const pdf = await save(page, 'pdf', `module-${locale}`);
      const text = pdfText(pdf);
      expect(text).toContain(title);
      expect(text).toContain(column);
      fs.rmSync(xlsx, { force: true });
      fs.rmSync(pdf, { force: true });
      await page.close();
    }, 300_000);

  it('general report with conclusions, as xlsx, PDF and Word', async () => {
    const page = await open('zh-CN', '/monitor/generalReport');
    await expect.poll(() => page.locator('[data-testid="gr-site"]').textContent(), slow).toContain('Report Slope');
    await page.locator('[data-testid="gr-conclusions"]').fill('坡体稳定，水位缓慢上升，建议加密观测。');
    await page.locator('[data-testid="gr-run"]').click();
    const view = page.locator('[data-testid="report-view"]');
    await view.waitFor();
    await expect.poll(() => view.textContent(), slow).toContain('监测报告');
    expect(await view.textContent()).toContain('建议加密观测');
    expect(await view.locator('[data-testid="report-chart"]').count()).toBeGreaterThan(0);
    await expectNoRawKeys(page);
    await shot(page, 'general-report-zh-CN-1280');
    const xlsx = await save(page, 'xlsx', 'general');
    expect(await xlsxCells(xlsx)).toContain('Report groundwater 1');
    const pdf = await save(page, 'pdf', 'general');
    expect(pdfText(pdf)).toContain('建议加密观测');
    const docx = await save(page, 'docx', 'general');
    const zip = await JSZip.loadAsync(fs.readFileSync(docx));
    expect(await zip.file('word/document.xml')!.async('string')).toContain('建议加密观测');
    for (const f of [xlsx, pdf, docx]) fs.rmSync(f, { force: true });
    await page.close();
  }, 300_000);

  it('image comparison of two site pictures, as PDF', async () => {
    // Two pictures of the site, drawn for the test (a crack that grew).
    const picture = (label: string, crack: number): Buffer =>
      new Resvg(
        `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320"><rect width="480" height="320" fill="#c9b48f"/>` +
          `<path d="M60 40 L${140 + crack} 160 L${120 + crack} 300" stroke="#3a2a1a" stroke-width="${2 + crack / 10}" fill="none"/>` +
          `<text x="300" y="290" font-size="28" fill="#222">${label}</text></svg>`,
      )
        .render()
        .asPng();
    // One session per account: the browser tests before signed the API's token out.
    token = await apiLogin(server.url);
    for (const [name, data] of [
      ['crest-march.png', picture('March', 0)],
      ['crest-june.png', picture('June', 60)],
    ] as const) {
      const form = new FormData();
      form.append('kind', 'picture');
      form.append('platformId', String(siteId));
      form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);
      const r = await fetch(`${server.url}/api/v2/file/upload`, { method: 'POST', headers: { token }, body: form });
      expect(((await r.json()) as { status: number }).status).toBe(0);
    }
    const page = await open('en-US', '/monitor/imageComparison');
    await expect.poll(() => page.locator('[data-testid="ic-site"]').textContent(), slow).toContain('Report Slope');
    for (const [which, name] of [
      ['before', 'crest-march.png'],
      ['after', 'crest-june.png'],
    ] as const) {
      await page.locator(`[data-testid="ic-${which}"]`).click();
      const open = '.ant-select-dropdown:not(.ant-select-dropdown-hidden)';
      await page.locator(`${open} .ant-select-item-option[title^="${name}"]`).click();
      // The list closes with an animation: the next picker's list must not be confused with this one.
      await expect.poll(() => page.locator(open).count(), slow).toBe(0);
    }
    await page.locator('[data-testid="ic-run"]').click();
    const view = page.locator('[data-testid="report-view"]');
    await view.waitFor();
    await expect.poll(() => view.textContent(), slow).toContain('Image comparison');
    await expect.poll(() => view.locator('img').count(), slow).toBe(2);
    await expectNoRawKeys(page);
    await shot(page, 'image-comparison-en-US-1280');
    const pdf = await save(page, 'pdf', 'images');
    expect(pdfText(pdf).replace(/\s+/g, ' ')).toContain('crest-june.png');
    fs.rmSync(pdf, { force: true });
    await page.close();
  }, 300_000);
});
