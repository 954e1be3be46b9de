import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { signLogin } from '@geosentry/contract';
import { ADMIN_PASSWORD, launchBrowser, loginAs, newPage, shot, startServer, type RunningServer } from './harness.ts';

/**
 * TS management (tailings supervision records) in a real browser: a record with a problem, its rectification
 * requirement and a picture attachment is added in English, marked rectified, and the list is read in Chinese
 * and Korean. Screenshots: test-results/screenshots/ts-*.png.
 */

interface Envelope<T> {
  status: number;
  info: string;
  data: T;
}

const SITE = 'Baiyangping Tailings Pond';

async function apiLogin(url: string): Promise<string> {
  const { signature, time } = signLogin(ADMIN_PASSWORD);
  const r = await fetch(`${url}/api/v2/manage/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account: 'admin', signature, time, flag: '1' }),
  });
  return ((await r.json()) as Envelope<{ token: string }>).data.token;
}

/** A tailings site (and a reservoir, which the screen must not offer) through the API. */
async function createSites(url: string): Promise<void> {
  const token = await apiLogin(url);
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${url}${path}`, {
      method,
      headers: { token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const env = (await r.json()) as Envelope<T>;
    if (env.status !== 0) throw new Error(`${path}: ${env.info}`);
    return env.data;
  };
  type Node = { code: string; children?: Node[] };
  let node = (await call<Node[]>('GET', '/api/v2/data/information/region/getTree'))[0]!;
  while (node.children?.length) node = node.children[0]!;
  await call('POST', '/api/v2/data/information/platform/tailings/add', {
    name: SITE,
    regionCode: node.code,
    lon: 101.5,
    lat: 26.6,
    details: { tailingsType: 'valley', status: 'inUse' },
  });
  await call('POST', '/api/v2/data/information/platform/reservoir/add', {
    name: 'Not A Tailings Reservoir',
    regionCode: node.code,
    lon: 101.6,
    lat: 26.7,
  });
}

const dropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();

async function snap(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(600);
  await shot(page, name);
}

async function openScreen(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#/information/TSManagement`);
  await page.locator('[data-testid="ts-table"]').waitFor();
}

/** Types a date into an antd date picker. */
async function typeDate(page: Page, id: string, date: string): Promise<void> {
  await page.locator(`#${id}`).click();
  await page.locator(`#${id}`).fill(date);
  await page.locator(`#${id}`).press('Enter');
}

const day = (offset: number): string => {
  const d = new Date(Date.now() + offset * 86_400_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
};

describe('TS management in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    await createSites(server.url);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('adds a record with a problem and an attachment, then marks it rectified (en)', async () => {
    const page = await newPage(browser, 'en-US');
    await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
    const picture = await page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 160 } });
    await openScreen(page, server.url);
    await page.locator('[data-testid="menu-/information/TSManagement"]').waitFor();
    await page.locator('[data-testid="ts-add"]').click();

    // Only tailings sites are offered.
    await page.locator('#ts-platformId').click();
    const options = dropdown(page).locator('.ant-select-item-option');
    await expect.poll(() => options.allTextContents()).toEqual([SITE]);
    await options.first().click();
    await page.locator('#ts-inspector').fill('Zhao Lei');
    await page.locator('#ts-responsiblePerson').fill('Sun Hao');
    await page.locator('#ts-dryBeachLength').fill('86.5');
    await page.locator('[data-testid="ts-item-seepageDrainage-result"]').getByText('Problem').click();
    // A problem needs its description, a requirement and a deadline: the form says so before sending.
    await page.locator('[data-testid="ts-save"]').click();
    const errors = page.locator('.ant-drawer .ant-form-item-explain-error');
    await expect
      .poll(() => errors.allTextContents())
      .toEqual(
        expect.arrayContaining([
          'Describe the problem',
          'A problem was found: enter the rectification requirement',
          'A problem was found: enter the rectification deadline',
        ]),
      );
    await snap(page, 'ts-form-invalid-en');
    await page.locator('#ts-item-seepageDrainage-note').fill('Turbid seepage at the toe of the initial dam');
    await page.locator('#ts-findings').fill('Seepage at the toe; dry beach within limits.');
    await page.locator('#ts-requirement').fill('Rebuild the drainage filter at the toe and monitor turbidity daily.');
    await typeDate(page, 'ts-deadline', day(14));
    await page
      .locator('.ant-drawer [data-testid="upload-input"]')
      .setInputFiles({ name: 'toe-seepage.png', mimeType: 'image/png', buffer: picture });
    await page.locator('.ant-drawer [data-testid="upload-picture"]').waitFor();
    await snap(page, 'ts-form-en');
    await page.locator('[data-testid="ts-save"]').click();
    await page.locator('.ant-drawer').waitFor({ state: 'detached' });

    const row = page.locator('[data-testid="ts-table"] tr.ant-table-row').filter({ hasText: SITE });
    await expect.poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    for (const part of ['Zhao Lei', '1 problem', 'Rebuild the drainage filter', day(14), 'Incomplete'])
      expect(text).toContain(part);
    expect(await row.locator('[data-testid="ts-attachment-count"]').textContent()).toContain('1');
    // The expanded row shows every inspected item and the attachment, which downloads as the uploaded picture.
    await row.locator('.ant-table-row-expand-icon').click();
    const detail = page.locator('[data-testid="ts-detail"]');
    await expect.poll(() => detail.textContent()).toContain('Turbid seepage at the toe of the initial dam');
    expect(await detail.textContent()).toContain('86.5 m');
    const link = detail.locator('[data-testid="ts-attachment"]');
    expect(await link.textContent()).toContain('toe-seepage.png');
    const file = await fetch(`${server.url}${await link.getAttribute('href')}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(picture)).toBe(true);
    await snap(page, 'ts-list-en');

    // Filters are answered by the server.
    await page.locator('[data-testid="ts-filter-state"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Completed"]').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.locator('[data-testid="ts-filter-state"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Incomplete"]').click();
    await expect.poll(() => row.count()).toBe(1);

    // Rectified: completed today.
    await row.locator('[data-testid="ts-rectify"]').click();
    await page.locator('#ts-rectify-note').fill('Filter rebuilt; water clear on 3 consecutive days.');
    await snap(page, 'ts-rectify-en');
    await page.locator('[data-testid="ts-rectify-save"]').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.locator('[data-testid="ts-filter-state"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Completed"]').click();
    await expect.poll(() => row.textContent()).toContain('Completed');
    expect(await row.textContent()).toContain(day(0));
    await page.context().close();
  }, 180_000);

  for (const l of [
    { locale: 'zh-CN', lang: 'zh', title: 'TS 管理', completed: '已完成', problems: '1 个问题', item: '渗流及排渗' },
    { locale: 'ko-KR', lang: 'ko', title: 'TS 관리', completed: '완료', problems: '문제 1건', item: '침투 및 배수' },
  ]) {
    it(`shows the records in ${l.lang}`, async () => {
      const page = await newPage(browser, l.locale);
      await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
      await openScreen(page, server.url);
      await expect.poll(() => page.locator('[data-testid="breadcrumb"]').textContent()).toContain(l.title);
      const row = page.locator('[data-testid="ts-table"] tr.ant-table-row').filter({ hasText: SITE });
      await expect.poll(() => row.textContent()).toContain(l.completed);
      expect(await row.textContent()).toContain(l.problems);
      await row.locator('.ant-table-row-expand-icon').click();
      await expect.poll(() => page.locator('[data-testid="ts-detail"]').textContent()).toContain(l.item);
      expect(await page.locator('[data-testid="ts-detail"]').textContent()).toContain('toe-seepage.png');
      await snap(page, `ts-list-${l.lang}`);
      await row.locator('[data-testid="ts-edit"]').click();
      await expect.poll(() => page.locator('#ts-inspector').inputValue()).toBe('Zhao Lei');
      await page.locator('.ant-drawer [data-testid="upload-picture"]').waitFor();
      await snap(page, `ts-form-${l.lang}`);
      await page.locator('.ant-drawer-close').click();
      await page.context().close();
    }, 120_000);
  }
});
