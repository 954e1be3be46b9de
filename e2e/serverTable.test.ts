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

/**
 * The information lists converted to ServerTable (river water, device information, info templates, site monitor
 * types): each one's page, sort and filter are written to the address by the UI and survive a reload; screenshots
 * at 1280 and 1440 px.
 */
describe('information lists keep their state in the address', () => {
  let server: RunningServer;
  let browser: Browser;
  let riverId = 0;
  let reservoirId = 0;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const token = await apiLogin(server.url);
    type Region = { code: string; children?: Region[] };
    let node = (await api<Region[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    const site = async (type: string, name: string) =>
      (
        await api<{ platformId: number }>(server.url, token, 'POST', `/api/v2/data/information/platform/${type}/add`, {
          name,
          regionCode: node.code,
          lon: 103.9,
          lat: 30.6,
        })
      ).platformId;
    riverId = await site('river', 'Tbl River');
    reservoirId = await site('reservoir', 'Tbl Reservoir');
    const { segmentId } = await api<{ segmentId: number }>(
      server.url,
      token,
      'POST',
      '/api/v2/data/information/segment/add',
      { platformId: riverId, name: 'Tbl gauge' },
    );
    const { terminalId } = await api<{ terminalId: number }>(
      server.url,
      token,
      'POST',
      '/api/v2/data/information/terminal/add',
      { platformId: reservoirId, name: 'Tbl logger', serial: 'TBL1', protocolType: 'MQTT', port: 1883 },
    );
    for (let i = 1; i <= 25; i++) {
      const n = String(i).padStart(2, '0');
      await api(server.url, token, 'POST', '/api/v2/data/information/segment/addRiverWaterElevation', {
        segmentId,
        time: new Date(Date.UTC(2024, 4, 1, i)).toISOString(),
        elevation: 500 + i,
      });
      await api(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
        deviceName: `Tbl device ${n}`,
        number: `TBL-${n}`,
        moduleId: i % 2 ? 2 : 3,
        platformId: reservoirId,
        terminalId,
        ip: '192.168.1.20',
        port: 502,
      });
      await api(server.url, token, 'POST', '/api/v2/data/information/template/addMenu', {
        menuName: `tbl-tpl-${n}`,
        directoryName: `Dir ${n}`,
        fields: JSON.stringify([{ name: 'Height', kind: 'text' }]),
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const view = (page: Page, testId: string) => page.locator(`.gs-view:visible [data-testid="${testId}"]`);
  const firstCell = (page: Page, testId: string, col = 0) =>
    view(page, testId).locator('.ant-table-tbody tr.ant-table-row').first().locator('td').nth(col).innerText();
  const activePage = (page: Page, testId: string) =>
    view(page, testId)
      .locator('xpath=ancestor-or-self::div[contains(@class,"ant-table-wrapper")]')
      .locator('.ant-pagination-item-active')
      .innerText();
  const goPage2 = (page: Page, testId: string) =>
    view(page, testId)
      .locator('xpath=ancestor-or-self::div[contains(@class,"ant-table-wrapper")]')
      .locator('.ant-pagination-item-2')
      .click();
  const header = (page: Page, testId: string, title: string | RegExp) =>
    view(page, testId).locator('th.ant-table-column-has-sorters').filter({ hasText: title }).first();
  const choose = async (page: Page, testId: string, option: string) => {
    await view(page, testId).click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .last()
      .locator(`.ant-select-item-option[title="${option}"]`)
      .click();
  };
  const search = async (page: Page, testId: string, text: string) => {
    await view(page, testId).locator('input').fill(text);
    await view(page, testId).locator('input').press('Enter');
  };

  /** After a reload (and in a fresh tab from the same link) the list shows the same rows; shots at 1440 and 1280. */
  async function survivesReload(page: Page, testId: string, first: string, col: number, name: string) {
    const url = page.url();
    await page.reload();
    await view(page, testId).waitFor();
    await expect.poll(() => firstCell(page, testId, col)).toContain(first);
    expect(await activePage(page, testId)).toBe('2');
    expect(page.url()).toBe(url);
    await shot(page, `${name}-1440-en`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, `${name}-1280-en`);
    const other = await signedIn(browser, server.url);
    await other.goto(url);
    await view(other, testId).waitFor();
    await expect.poll(() => firstCell(other, testId, col)).toContain(first);
    await other.context().close();
  }

  it('river water elevation: river, sort by elevation and page 2', async () => {
    const page = await signedIn(browser, server.url);
    await page.goto(`${server.url}/#/information/riverWaterElevation`);
    await view(page, 'river-water-table').waitFor();
    await settle(page);
    await choose(page, 'river-site', 'Tbl River');
    await header(page, 'river-water-table', 'Water elevation').click();
    await expect.poll(() => firstCell(page, 'river-water-table', 3)).toBe('501');
    await goPage2(page, 'river-water-table');
    await expect.poll(() => firstCell(page, 'river-water-table', 3)).toBe('521');
    const url = page.url();
    for (const part of [`platformId=${riverId}`, 'sort=elevation', 'order=ascend', 'page=2'])
      expect(url).toContain(part);
    await survivesReload(page, 'river-water-table', '521', 3, 'list-river-water');
    await page.context().close();
  });

  it('device information: keyword, sort by name descending and page 2', async () => {
    const page = await signedIn(browser, server.url);
    await page.goto(`${server.url}/#/information/deviceInfo`);
    await view(page, 'device-info-table').waitFor();
    await settle(page);
    await search(page, 'device-info-search', 'Tbl device');
    await choose(page, 'device-info-site', 'Tbl Reservoir');
    const name = header(page, 'device-info-table', 'Device name');
    await name.click();
    await settle(page);
    await name.click();
    await expect.poll(() => firstCell(page, 'device-info-table')).toBe('Tbl device 25');
    await goPage2(page, 'device-info-table');
    await expect.poll(() => firstCell(page, 'device-info-table')).toBe('Tbl device 05');
    const url = page.url();
    for (const part of [
      'keyword=Tbl+device',
      `platformId=${reservoirId}`,
      'sort=deviceName',
      'order=descend',
      'page=2',
    ])
      expect(url).toContain(part);
    await survivesReload(page, 'device-info-table', 'Tbl device 05', 0, 'list-device-info');
    expect(await view(page, 'device-info-search').locator('input').inputValue()).toBe('Tbl device');
    await page.context().close();
  });

  it('info templates: keyword, sort by name descending and page 2', async () => {
    const page = await signedIn(browser, server.url);
    await page.goto(`${server.url}/#/information/platformInfo`);
    await view(page, 'template-table').waitFor();
    await settle(page);
    await search(page, 'template-search', 'tbl-tpl');
    await choose(page, 'template-filter-bound', 'Not bound');
    const name = header(page, 'template-table', 'Template name');
    await name.click();
    await settle(page);
    await name.click();
    await expect.poll(() => firstCell(page, 'template-table')).toContain('tbl-tpl-25');
    await goPage2(page, 'template-table');
    await expect.poll(() => firstCell(page, 'template-table')).toContain('tbl-tpl-05');
    const url = page.url();
    for (const part of ['keyword=tbl-tpl', 'bound=false', 'sort=menuName', 'order=descend', 'page=2'])
      expect(url).toContain(part);
    await survivesReload(page, 'template-table', 'tbl-tpl-05', 0, 'list-templates');
    await page.context().close();
  });

  it('site monitor types: site, not bound, sort by id descending and page 2', async () => {
    const page = await signedIn(browser, server.url);
    await page.goto(`${server.url}/#/information/modules`);
    await view(page, 'modules-table').waitFor();
    await settle(page);
    await page.locator('.gs-view:visible #modules-site').click();
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
      .last()
      .locator('.ant-select-item-option[title="Tbl Reservoir"]')
      .click();
    await choose(page, 'modules-filter-bound', 'Not bound');
    const id = header(page, 'modules-table', /^ID$/);
    await id.click();
    await settle(page);
    await id.click();
    await expect.poll(() => firstCell(page, 'modules-table')).toBe('37');
    await goPage2(page, 'modules-table');
    // 28 types, 2 of them (rain, water level) bound by the site's devices: the second page of the other 26.
    await expect.poll(() => firstCell(page, 'modules-table')).toBe('8');
    const url = page.url();
    for (const part of [`platformId=${reservoirId}`, 'bound=false', 'sort=moduleId', 'order=descend', 'page=2'])
      expect(url).toContain(part);
    await survivesReload(page, 'modules-table', '8', 0, 'list-modules');
    await page.context().close();
  });
});
