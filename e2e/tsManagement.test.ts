import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  resumeSession,
  newPage,
  shot,
  startServer,
  type RunningServer,
  apiLogin,
  type Envelope,
} from './harness.ts';

/**
 * TS management (tailings supervision records) in a real browser: a record of a pond bound to an enterprise
 * (shown read-only with the pond status), with a problem, its problem type, rectification content, a picture
 * document, a responsible person chosen from the site's and a regulatory person is added in English, filtered
 * by problem type and responsible person, marked rectified with a result and a result document, and the list
 * is read in Chinese and Korean. Screenshots: test-results/screenshots/ts-*.png.
 */

const SITE = 'Baiyangping Tailings Pond';
const ENTERPRISE = 'Yunnan Copper Tailings Co.';

/** A small valid PDF (the result document). */
const PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n'),
  'latin1',
);

/**
 * A tailings site bound to a tailings enterprise, its responsible person and one of another site (neither
 * offered nor accepted for it), and a reservoir (which the screen must not offer), through the API.
 */
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
  const ent = await call<{ enterpriseId: number }>('POST', '/api/v2/data/information/enterprise/tailings/add', {
    name: ENTERPRISE,
    code: 'YN-CT',
  });
  const pond = await call<{ platformId: number }>('POST', '/api/v2/data/information/platform/tailings/add', {
    name: SITE,
    regionCode: node.code,
    lon: 101.5,
    lat: 26.6,
    enterpriseId: ent.enterpriseId,
    details: { tailingsType: 'valley', status: 'inUse' },
  });
  const reservoir = await call<{ platformId: number }>('POST', '/api/v2/data/information/platform/reservoir/add', {
    name: 'Not A Tailings Reservoir',
    regionCode: node.code,
    lon: 101.6,
    lat: 26.7,
  });
  const person = (name: string, phone: string, platformId: number) =>
    call('POST', '/api/v2/data/information/responsible/add', {
      name,
      phone,
      title: 'Safety officer',
      platformIds: [platformId],
    });
  await person('Sun Hao', '13900000001', pond.platformId);
  await person('Reservoir Keeper', '13900000002', reservoir.platformId);
}

const dropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();

const snap = (page: Page, name: string): Promise<void> => shot(page, name);

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

  it("adds a record with a problem, a document and the site's responsible person, then marks it rectified with a result document (en)", async () => {
    const page = await newPage(browser, 'en-US');
    await resumeSession(page, server.url);
    const picture = await page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 160 } });
    await openScreen(page, server.url);
    await page.locator('[data-testid="menu-/information/TSManagement"]').waitFor();
    await page.locator('[data-testid="ts-add"]').click();

    // Only tailings sites are offered.
    await page.locator('#ts-platformId').click();
    const options = dropdown(page).locator('.ant-select-item-option');
    await expect.poll(() => options.allTextContents()).toEqual([SITE]);
    await options.first().click();
    // The affiliated enterprise and the pond status are the site's, shown read-only.
    await expect.poll(() => page.locator('#ts-enterprise').inputValue()).toBe(ENTERPRISE);
    expect(await page.locator('#ts-pondStatus').inputValue()).toBe('In use');
    expect(await page.locator('#ts-enterprise').getAttribute('readonly')).not.toBeNull();
    await page.locator('#ts-inspector').fill('Zhao Lei');
    // Only the site's responsible persons are offered.
    await page.locator('#ts-responsiblePersonId').click();
    const people = dropdown(page).locator('.ant-select-item-option');
    await expect.poll(() => people.allTextContents()).toEqual(['Sun Hao (Safety officer)']);
    await people.first().click();
    await page.locator('#ts-regulatoryPerson').fill('Wang Jian');
    await page.locator('#ts-dryBeachLength').fill('86.5');
    await page.locator('[data-testid="ts-item-seepageDrainage-result"]').getByText('Problem').click();
    // A problem needs its description, a problem type, the rectification content and a deadline: the form
    // says so before sending.
    await page.locator('[data-testid="ts-save"]').click();
    const errors = page.locator('.ant-drawer .ant-form-item-explain-error');
    await expect
      .poll(() => errors.allTextContents())
      .toEqual(
        expect.arrayContaining([
          'Describe the problem',
          'A problem was found: choose the problem type',
          'A problem was found: enter the rectification content',
          'A problem was found: enter the rectification deadline',
        ]),
      );
    await snap(page, 'ts-form-invalid-en');
    await page.locator('#ts-item-seepageDrainage-note').fill('Turbid seepage at the toe of the initial dam');
    await page.locator('#ts-findings').fill('Seepage at the toe; dry beach within limits.');
    await page.locator('#ts-problemType').click();
    await dropdown(page).locator('.ant-select-item-option[title="Seepage"]').click();
    await page.locator('#ts-requirement').fill('Rebuild the drainage filter at the toe and monitor turbidity daily.');
    await typeDate(page, 'ts-deadline', day(14));
    await page
      .locator('[data-testid="ts-section-problem"] [data-testid="upload-input"]')
      .setInputFiles({ name: 'toe-seepage.png', mimeType: 'image/png', buffer: picture });
    await page.locator('.ant-drawer [data-testid="upload-picture"]').waitFor();
    await snap(page, 'ts-form-en');
    await page.locator('[data-testid="ts-save"]').click();
    await page.locator('.ant-drawer').waitFor({ state: 'detached' });

    const row = page.locator('[data-testid="ts-table"] tr.ant-table-row').filter({ hasText: SITE });
    await expect.poll(() => row.count()).toBe(1);
    const text = (await row.textContent()) ?? '';
    for (const part of ['Zhao Lei', 'Sun Hao', 'Seepage', '1 problem', 'Rebuild the drainage filter', day(14)])
      expect(text).toContain(part);
    expect(text).toContain('Incomplete');
    expect(await row.locator('[data-testid="ts-attachment-count"]').textContent()).toContain('1');
    // The expanded row shows every inspected item and the attachment, which downloads as the uploaded picture.
    await row.locator('.ant-table-row-expand-icon').click();
    const detail = page.locator('[data-testid="ts-detail"]');
    await expect.poll(() => detail.textContent()).toContain('Turbid seepage at the toe of the initial dam');
    const detailText = (await detail.textContent()) ?? '';
    for (const part of ['86.5 m', ENTERPRISE, 'In use', 'Sun Hao (13900000001)', 'Wang Jian'])
      expect(detailText).toContain(part);
    const link = detail.locator('[data-testid="ts-attachment"]');
    expect(await link.textContent()).toContain('toe-seepage.png');
    const file = await fetch(`${server.url}${await link.getAttribute('href')}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(picture)).toBe(true);
    await snap(page, 'ts-list-en');

    // Filters are answered by the server.
    await page.locator('[data-testid="ts-filter-problemType"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Dry beach"]').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.locator('[data-testid="ts-filter-problemType"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Seepage"]').click();
    await expect.poll(() => row.count()).toBe(1);
    await page.locator('[data-testid="ts-filter-person"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Reservoir Keeper"]').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.locator('[data-testid="ts-filter-person"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Sun Hao"]').click();
    await expect.poll(() => row.count()).toBe(1);
    await snap(page, 'ts-filters-en');
    await page.locator('[data-testid="ts-filter-state"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Completed"]').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.locator('[data-testid="ts-filter-state"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Incomplete"]').click();
    await expect.poll(() => row.count()).toBe(1);

    // Rectified: completed today, with its result and a result document.
    await row.locator('[data-testid="ts-rectify"]').click();
    await page.locator('#ts-rectify-result').fill('Filter rebuilt; water clear on 3 consecutive days.');
    await page
      .locator('.ant-modal [data-testid="upload-input"]')
      .setInputFiles({ name: 'acceptance.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.locator('.ant-modal [data-testid="upload-document"]').waitFor();
    await snap(page, 'ts-rectify-en');
    await page.locator('[data-testid="ts-rectify-save"]').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.locator('[data-testid="ts-filter-state"]').click();
    await dropdown(page).locator('.ant-select-item-option[title="Completed"]').click();
    await expect.poll(() => row.textContent()).toContain('Completed');
    expect(await row.textContent()).toContain(day(0));
    await row.locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => detail.textContent()).toContain('Filter rebuilt; water clear on 3 consecutive days.');
    expect(await detail.textContent()).toContain('acceptance.pdf');
    await page.context().close();
  }, 180_000);

  for (const l of [
    {
      locale: 'zh-CN',
      lang: 'zh',
      title: 'TS 管理',
      completed: '已完成',
      problems: '1 个问题',
      problemType: '渗流',
      item: '渗流及排渗',
      status: '在用',
    },
    {
      locale: 'ko-KR',
      lang: 'ko',
      title: 'TS 관리',
      completed: '완료',
      problems: '문제 1건',
      problemType: '침투',
      item: '침투 및 배수',
      status: '사용 중',
    },
  ]) {
    it(`shows the records in ${l.lang}`, async () => {
      const page = await newPage(browser, l.locale);
      await resumeSession(page, server.url);
      await openScreen(page, server.url);
      await expect.poll(() => page.locator('[data-testid="breadcrumb"]').textContent()).toContain(l.title);
      const row = page.locator('[data-testid="ts-table"] tr.ant-table-row').filter({ hasText: SITE });
      await expect.poll(() => row.textContent()).toContain(l.completed);
      expect(await row.textContent()).toContain(l.problems);
      expect(await row.textContent()).toContain(l.problemType);
      await row.locator('.ant-table-row-expand-icon').click();
      await expect.poll(() => page.locator('[data-testid="ts-detail"]').textContent()).toContain(l.item);
      const detail = (await page.locator('[data-testid="ts-detail"]').textContent()) ?? '';
      for (const part of ['toe-seepage.png', 'acceptance.pdf', l.status]) expect(detail).toContain(part);
      await snap(page, `ts-list-${l.lang}`);
      await row.locator('[data-testid="ts-edit"]').click();
      await expect.poll(() => page.locator('#ts-inspector').inputValue()).toBe('Zhao Lei');
      await page.locator('.ant-drawer [data-testid="upload-picture"]').waitFor();
      await page.locator('.ant-drawer [data-testid="upload-document"]').waitFor();
      expect(await page.locator('#ts-pondStatus').inputValue()).toBe(l.status);
      expect(await page.locator('.ant-drawer').textContent()).toContain('Sun Hao');
      await snap(page, `ts-form-${l.lang}`);
      await page.locator('.ant-drawer-close').click();
      await page.context().close();
    }, 120_000);
  }
});
