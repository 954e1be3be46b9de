import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, resumeSession, newPage, shot, startServer, type RunningServer } from './harness.ts';

/** The table of the screen shown (the views kept alive stay in the page, hidden). */
const visibleTable = (page: Page) => page.locator('.ant-table').filter({ visible: true }).first();

/** The texts of a table column's cells (by the column's header text). */
async function column(page: Page, header: string): Promise<string[]> {
  const table = visibleTable(page);
  await table.locator('tbody tr.ant-table-row').first().waitFor();
  const headers = await table.locator('thead th').allTextContents();
  const at = headers.findIndex((h) => h.trim() === header);
  expect(at, `column ${header} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return table.locator(`tbody tr.ant-table-row > td:nth-child(${at + 1})`).allTextContents();
}

// Issue 16 item 5: enumerated values show their labels in every language, never their codes.
describe('labels, never codes', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ DEMO: 'on' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [locale, lang, valley, gateway, roleNames] of [
    ['zh-CN', 'zh', '山谷型', '网关', ['超级管理员', '普通用户']],
    ['ko-KR', 'ko', '계곡형', '게이트웨이', ['최고 관리자', '사용자']],
  ] as const) {
    it(`${lang}: site types, terminal kinds, built-in roles and audit details by their labels`, async () => {
      const page = await newPage(browser, locale);
      await resumeSession(page, server.url);

      await page.goto(`${server.url}/#/information/tailingsPlatformManagement`);
      const types = await column(page, lang === 'zh' ? '类型' : '유형');
      expect(types).toContain(valley);
      expect(types).not.toContain('valley');
      await shot(page, `labels-${lang}-tailings`);

      // The type is one of the columns shown while they fit: a wide window shows them all.
      await page.setViewportSize({ width: 2560, height: 900 });
      await page.goto(`${server.url}/#/information/terminalInfoManagement`);
      await visibleTable(page).locator('tbody tr.ant-table-row').first().waitFor();
      const body = (await visibleTable(page).locator('tbody').textContent()) ?? '';
      expect(body).toContain(gateway);
      expect(body).not.toMatch(/\bgateway\b/);

      await page.setViewportSize({ width: 1440, height: 900 });
      await page.goto(`${server.url}/#/system/role`);
      await visibleTable(page).locator('tbody tr.ant-table-row').first().waitFor();
      const roles = (await visibleTable(page).locator('tbody').textContent()) ?? '';
      for (const name of roleNames) expect(roles).toContain(name);
      expect(roles).not.toContain('Super Administrator');

      await page.goto(`${server.url}/#/system/audit`);
      await visibleTable(page).locator('tbody tr.ant-table-row').first().waitFor();
      const details = await visibleTable(page).locator('[data-testid="audit-detail"]').allTextContents();
      expect(details.length).toBeGreaterThan(0);
      for (const d of details) expect(d).not.toMatch(/[{}"]/);
      await shot(page, `labels-${lang}-audit`);
      await page.context().close();
    });
  }
});
