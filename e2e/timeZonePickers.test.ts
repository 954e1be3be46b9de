import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launchBrowser, loginAs, shot, startServer, type RunningServer } from './harness.ts';

const slow = { timeout: 30_000, interval: 250 };

/**
 * Issue 14: a date-time picked on a screen means that wall clock in the user's zone, not the browser's. The
 * browser runs in UTC, the user's zone is Asia/Shanghai (UTC+08:00, no daylight saving).
 */
describe('picked times in the user zone (issue 14) in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(60_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the audit log range 09:30 in Asia/Shanghai is sent as 01:30Z; its time column names the zone', async () => {
    await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.goto(`${server.url}/#/userinfo`);
    const select = page.locator('[data-testid="userinfo-timezone"]');
    await select.waitFor();
    await select.click();
    await page.keyboard.type('Shanghai');
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .last()
      .locator('.ant-select-item-option[title="UTC+08:00 Asia/Shanghai"]')
      .click();
    await page.locator('.ant-message').getByText('Time zone saved').waitFor();

    await page.goto(`${server.url}/#/system/audit`);
    const table = page.locator('[data-testid="audit-table"]');
    await table.locator('[data-action="login.success"]').first().waitFor();
    await expect.poll(() => table.locator('thead').textContent(), slow).toContain('Time (UTC+08:00 Asia/Shanghai)');

    const inputs = page.locator('.ant-picker-range input');
    await inputs.first().click();
    await inputs.first().fill('2026-01-01 09:30');
    await page.keyboard.press('Enter');
    await inputs.last().click();
    await inputs.last().fill('2026-01-02 10:00');
    await page.keyboard.press('Enter');
    await expect.poll(() => inputs.last().inputValue(), slow).toBe('2026-01-02 10:00');

    const sent = page.waitForRequest(
      (r) => r.url().includes('/api/v2/manage/audit/getListPage') && r.url().includes('from='),
    );
    await page.locator('[data-testid="audit-search"]').click();
    const q = new URL((await sent).url()).searchParams;
    expect(q.get('from')).toBe('2026-01-01T01:30:00.000Z');
    expect(q.get('to')?.startsWith('2026-01-02T02:00:')).toBe(true);
    await shot(page, 'tz-audit-shanghai');
  }, 300_000);
});
