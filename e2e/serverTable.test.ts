import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, apiLogin, launchBrowser, settle, shot, signedIn, startServer, type RunningServer } from './harness.ts';

/**
 * ServerTable (web/src/shared/table): a list's page, sort and filters live in the address, so a refresh or a
 * shared link shows the same list; hidden columns stay hidden for the user. Checked on System > Roles.
 */
describe('server table state in the address', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const token = await apiLogin(server.url);
    for (let i = 1; i <= 25; i++) {
      const n = String(i).padStart(2, '0');
      await api(server.url, token, 'POST', '/api/v2/manage/role/add', { name: `tbl-role-${n}`, code: `tblRole${n}` });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const table = (page: Page) => page.locator('[data-testid="role-table"]');
  const firstName = (page: Page) =>
    table(page).locator('.ant-table-tbody tr.ant-table-row').first().locator('td').first().innerText();
  /** The table with its pagination (antd puts the test id on the table, inside the wrapper). */
  const wrapper = (page: Page) =>
    table(page).locator('xpath=ancestor-or-self::div[contains(@class,"ant-table-wrapper")]');
  const activePage = (page: Page) => wrapper(page).locator('.ant-pagination-item-active').innerText();

  it('page, sort and filter survive a refresh and open from a shared link', async () => {
    const page = await signedIn(browser, server.url);
    await page.goto(`${server.url}/#/system/role`);
    await table(page).waitFor();
    await settle(page);

    // Filter, sort by name descending, then page 2.
    await page.locator('[data-testid="role-search"] input').fill('tbl-role');
    await page.locator('[data-testid="role-search"] input').press('Enter');
    await expect.poll(() => wrapper(page).locator('.ant-pagination-item').count()).toBe(2);
    const nameHeader = table(page).locator('th.ant-table-column-has-sorters').filter({ hasText: 'Role name' });
    await nameHeader.first().click();
    await settle(page);
    await nameHeader.first().click();
    await expect.poll(() => firstName(page)).toBe('tbl-role-25');
    await wrapper(page).locator('.ant-pagination-item-2').click();
    await expect.poll(() => firstName(page)).toBe('tbl-role-05');

    const url = page.url();
    expect(url).toContain('page=2');
    expect(url).toContain('sort=name');
    expect(url).toContain('order=descend');
    expect(url).toContain('keyword=tbl-role');

    // Hide the Code column.
    await page.locator('[data-testid="table-columns"]').click();
    await page.locator('[data-testid="table-columns-menu"] label').filter({ hasText: 'Code' }).click();
    await expect
      .poll(() =>
        table(page)
          .locator('th')
          .filter({ hasText: /^Code$/ })
          .count(),
      )
      .toBe(0);
    await page.keyboard.press('Escape');

    // A refresh shows the same list.
    await page.reload();
    await table(page).waitFor();
    await expect.poll(() => firstName(page)).toBe('tbl-role-05');
    expect(await activePage(page)).toBe('2');
    expect(await page.locator('[data-testid="role-search"] input').inputValue()).toBe('tbl-role');
    expect(await table(page).locator('th.ant-table-column-sort').innerText()).toContain('Role name');
    expect(
      await table(page)
        .locator('th')
        .filter({ hasText: /^Code$/ })
        .count(),
    ).toBe(0);
    await shot(page, 'server-table-roles-after-refresh-en');

    // The same address in another browser context (a shared link) shows the same page.
    const other = await signedIn(browser, server.url);
    await other.goto(url);
    await table(other).waitFor();
    await expect.poll(() => firstName(other)).toBe('tbl-role-05');
    expect(await activePage(other)).toBe('2');
    await other.context().close();
    await page.context().close();
  });
});
