import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

const slow = { timeout: 60_000, interval: 250 };

/**
 * /data/reportform, the report centre: a general report queued through the form runs as a job, its row shows the
 * state and its PDF downloads (text checked); a schedule listed with its next run; in en, zh and ko at 1280 px.
 */
describe('report centre screen', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer(process.env.RJ_PORT ? { PORT: process.env.RJ_PORT } : {});
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
        name: 'Qingshui dam',
        regionCode: node.code,
        lon: 103.8,
        lat: 30.7,
      })
    ).platformId;
    const c = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/contract/add', {
      name: 'Dam owner',
      email: 'owner@example.com',
      language: 'zh',
    });
    const g = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/group/add', {
      name: 'Dam owners',
      contactIds: String(c.id),
    });
    await api(server.url, token, 'POST', '/api/v2/data/report/schedule/add', {
      name: 'Monthly dam report',
      kind: 'general',
      params: JSON.stringify({ platformId: siteId }),
      formats: 'pdf,xlsx',
      frequency: 'monthly',
      monthDay: 1,
      time: '08:00',
      timeZone: 'Asia/Shanghai',
      period: 'lastMonth',
      groupId: g.id,
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = async (locale: string, tab = ''): Promise<Page> => {
    const page = await signedIn(browser, server.url, locale);
    await settle(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/#/data/reportform${tab}`);
    await page.locator(tab ? '[data-testid="rs-table"]' : '[data-testid="rj-table"]').waitFor();
    return page;
  };

  it('queues a report through the form, shows it done and downloads its PDF', async () => {
    const page = await open('en-US');
    await page.locator('[data-testid="rj-new"]').click();
    const dialog = page.locator('.ant-modal');
    await dialog.waitFor();
    await dialog.locator('[data-testid="rj-kind"]').click();
    await page.locator('.ant-select-item-option', { hasText: 'General monitoring report' }).click();
    await dialog.locator('[data-testid="rj-site"]').click();
    await page.locator('.ant-select-item-option', { hasText: 'Qingshui dam' }).click();
    await page.locator('#rj-submit').click();
    const state = page.locator('[data-testid="rj-table"] [data-testid="rj-state"]').first();
    await expect.poll(() => state.getAttribute('data-state'), slow).toBe('done');
    await expectNoRawKeys(page);
    await shot(page, 'report-centre-jobs-en-1280');
    const wait = page.waitForEvent('download');
    await page.locator('[data-testid^="rj-download-"]').first().click();
    const d = await wait;
    expect(d.suggestedFilename()).toMatch(/\.pdf$/);
    const file = path.join(os.tmpdir(), `e2e-report-centre-${process.pid}.pdf`);
    await d.saveAs(file);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Monitoring report');
    expect(text).toContain('Qingshui dam');
    fs.rmSync(file, { force: true });
    await page.close();
  }, 300_000);

  for (const locale of ['en-US', 'zh-CN', 'ko-KR'])
    it(`lists the schedules in ${locale}`, async () => {
      const page = await open(locale, '?tab=schedules');
      const table = page.locator('[data-testid="rs-table"]');
      await expect.poll(() => table.textContent(), slow).toContain('Monthly dam report');
      await expectNoRawKeys(page);
      await shot(page, `report-centre-schedules-${locale}-1280`);
      await page.locator('[data-testid="rs-new"]').click();
      await page.locator('.ant-modal').waitFor();
      await shot(page, `report-centre-schedule-form-${locale}-1280`);
      if (locale !== 'en-US') {
        await page.goto(`${server.url}/#/data/reportform`);
        await page.locator('[data-testid="rj-table"]').waitFor();
        await shot(page, `report-centre-jobs-${locale}-1280`);
      }
      await page.close();
    }, 300_000);
});
