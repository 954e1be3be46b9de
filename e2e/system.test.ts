import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launchBrowser, newPage, shot, startServer, type RunningServer } from './harness.ts';

async function login(page: Page, url: string, account: string, password: string): Promise<void> {
  await page.goto(`${url}/#/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
}

describe('system administration in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an administrator creates a user, who then sees only what the User role allows', async () => {
    const page = await newPage(browser, 'en-US');
    await login(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/#\/home/);
    await page.goto(`${server.url}/#/system/user`);
    await page.locator('[data-testid="user-add"]').click();
    await page.locator('#user-account').fill('engineer1');
    await page.locator('#user-password').fill('Slope-watch 2026');
    await page.locator('#user-name').fill('Field Engineer');
    await page.locator('#user-role').click();
    await page
      .locator('.ant-select-dropdown .ant-select-item-option')
      .filter({ hasText: /^User$/ })
      .click();
    // A malformed email is refused on the form, nothing is saved.
    await page.locator('#user-email').fill('not-an-email');
    await page.locator('[data-testid="user-save"]').click();
    await page.locator('.ant-form-item-explain-error').first().waitFor();
    await shot(page, 'user-form-invalid-en');
    await page.locator('#user-email').fill('engineer1@example.com');
    await page.locator('[data-testid="user-save"]').click();
    await expect
      .poll(() => page.locator('[data-testid="user-table"]').textContent(), { timeout: 15_000 })
      .toContain('engineer1');
    await shot(page, 'users-after-add-en');

    const other = await newPage(browser, 'en-US');
    await login(other, server.url, 'engineer1', 'Slope-watch 2026');
    await other.waitForURL(/#\/home/);
    await other.locator('[data-testid="side-menu"]').waitFor();
    expect(await other.locator('[data-testid="menu-/system"]').count()).toBe(0);
    // A screen outside the role answers 404 in the console.
    await other.goto(`${server.url}/#/system/user`);
    await other.locator('[data-testid="not-found"]').waitFor();
    await other.context().close();
    await page.context().close();
  });

  it('the audit log shows the sign-ins', async () => {
    const page = await newPage(browser, 'zh-CN');
    await login(page, server.url, 'admin', ADMIN_PASSWORD);
    // The first test's session is still open: take over.
    await page.locator('[data-testid="login-elsewhere-confirm"]').click();
    await page.waitForURL(/#\/home/);
    await page.goto(`${server.url}/#/system/audit`);
    await page.locator('[data-testid="audit-table"] [data-action="login.success"]').first().waitFor();
    await shot(page, 'audit-zh');
    await page.context().close();
  });
});
