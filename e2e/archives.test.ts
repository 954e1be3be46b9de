import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  apiLogin,
  expectNoRawKeys,
  launchBrowser,
  newPage,
  resumeSession,
  shot,
  startServer,
  type Envelope,
  type RunningServer,
} from './harness.ts';

/**
 * Safety supervision in a real browser (issue 20): an inspection with a problem and its photo is recorded, a plan
 * gets a second version that is approved, and a certificate is uploaded into a new folder of a site's file
 * manager, in English at 1280 px; then the three screens are read in Chinese and Korean. Screenshots:
 * test-results/screenshots/archives-*.png.
 */

const SITE = 'Xintan Landslide';

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

async function createSite(url: string): Promise<void> {
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
  await call('POST', '/api/v2/data/information/platform/disaster/add', {
    name: SITE,
    regionCode: node.code,
    lon: 110.5,
    lat: 30.9,
  });
  await call('POST', '/api/v2/data/alert/contract/add', {
    name: 'Zhang Min',
    email: 'zhang@example.com',
    language: 'zh',
  });
}

const dropdown = (page: Page) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();

async function pick(page: Page, selector: string, option: string): Promise<void> {
  await page.locator(selector).click();
  await dropdown(page).locator(`.ant-select-item-option[title="${option}"]`).click();
}

async function typeDate(page: Page, selector: string, date: string): Promise<void> {
  const input = page.locator(selector);
  await input.click();
  await input.fill(date);
  await input.press('Enter');
}

const day = (offset: number): string => {
  const d = new Date(Date.now() + offset * 86_400_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
};

async function page1280(browser: Browser, locale: string, url: string): Promise<Page> {
  const page = await newPage(browser, locale);
  await page.setViewportSize({ width: 1280, height: 800 });
  await resumeSession(page, url);
  return page;
}

describe('safety supervision in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    await createSite(server.url);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('records an inspection with a problem, approves a new plan version and uploads a safety file (en)', async () => {
    const page = await page1280(browser, 'en-US', server.url);
    const photo = await page.screenshot({ clip: { x: 0, y: 0, width: 200, height: 120 } });

    // Dynamic supervision: an inspection with a problem and its photo.
    await page.goto(`${server.url}/#/archives/supervise`);
    await page.locator('[data-testid="inspection-table"]').waitFor();
    await page.locator('[data-testid="inspection-add"]').click();
    await pick(page, '#inspection-site', SITE);
    await page.locator('#inspection-inspector').fill('Li Wei');
    await page.locator('[data-testid="item-name-0"]').fill('Retaining wall');
    await page.locator('[data-testid="item-result-0"]').getByText('Problem').click();
    await page.locator('[data-testid="item-note-0"]').fill('Crack 2 mm wide at the toe');
    await page.locator('[data-testid="problem-add"]').click();
    await page.locator('[data-testid="problem-description-0"]').fill('Crack in the retaining wall');
    await page
      .locator('.ant-drawer [data-testid="upload-input"]')
      .setInputFiles({ name: 'crack.png', mimeType: 'image/png', buffer: photo });
    await page.locator('.ant-drawer [data-testid="upload-picture"]').waitFor();
    await page.locator('#inspection-requirement').fill('Seal the crack and monitor it weekly');
    await typeDate(page, '#inspection-deadline', day(14));
    await shot(page, 'archives-supervise-form-en');
    await page.locator('[data-testid="inspection-save"]').click();
    await page.locator('.ant-drawer').waitFor({ state: 'detached' });
    const row = page.locator('[data-testid="inspection-table"] tr.ant-table-row').filter({ hasText: SITE });
    await expect.poll(() => row.textContent()).toContain('1 problem');
    expect(await row.textContent()).toContain('Incomplete');
    await row.locator('.ant-table-row-expand-icon').click();
    await expect.poll(() => page.locator('[data-testid="inspection-photo"]').textContent()).toContain('crack.png');
    await shot(page, 'archives-supervise-en');

    // Plan management: a plan (version 1), a second version, approved.
    await page.goto(`${server.url}/#/archives/plan`);
    await page.locator('[data-testid="plan-add"]').click();
    await pick(page, '#plan-site', SITE);
    await page.locator('#plan-name').fill('Landslide emergency plan');
    await pick(page, '#plan-contact', 'Zhang Min <zhang@example.com>');
    const range = page.locator('.ant-picker-range:has(#plan-validity) input');
    await typeDate(page, '#plan-validity', day(-200));
    await range.nth(1).fill(day(20));
    await range.nth(1).press('Enter');
    await page.locator('[data-testid="plan-save"]').click();
    const plan = page
      .locator('[data-testid="plan-table"] tr.ant-table-row')
      .filter({ hasText: 'Landslide emergency plan' });
    await expect.poll(() => plan.textContent()).toContain('Not approved');
    await plan.locator('[data-testid="plan-open"]').click();
    await page.locator('[data-testid="version-add"]').click();
    const vrange = page.locator('.ant-picker-range:has(#version-validity) input');
    await typeDate(page, '#version-validity', day(0));
    await vrange.nth(1).fill(day(365));
    await vrange.nth(1).press('Enter');
    await page.locator('[data-testid="version-save"]').click();
    await page.locator('[data-testid="version-approve-2"]').click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await expect.poll(() => page.locator('[data-testid="version-approved-by"]').count()).toBe(1);
    await expect.poll(() => page.locator('.ant-drawer').textContent()).toContain('v2');
    await shot(page, 'archives-plan-detail-en');
    await page.locator('.ant-drawer-close').click();
    await expect.poll(() => plan.textContent()).toContain('Valid');
    await shot(page, 'archives-plan-en');

    // Security files: a folder and a certificate in it.
    await page.goto(`${server.url}/#/archives/Safety`);
    await pick(page, '[data-testid="safety-site"]', SITE);
    await page.locator('[data-testid="folder-add"]').click();
    await page.locator('[data-testid="folder-name"]').fill('Certificates');
    await page.locator('[data-testid="folder-save"]').click();
    await page.locator('[data-testid="folder-panel"]').getByText('Certificates (0)').click();
    await page.locator('[data-testid="document-add"]').click();
    await page
      .locator('.ant-modal [data-testid="upload-input"]')
      .setInputFiles({ name: 'blasting-certificate.pdf', mimeType: 'application/pdf', buffer: PDF });
    await page.locator('.ant-modal [data-testid="upload-document"]').waitFor();
    await page.locator('#document-name').fill('Blasting operation certificate');
    await typeDate(page, '#document-expires', day(20));
    await page.locator('[data-testid="document-save"]').click();
    const doc = page
      .locator('[data-testid="document-table"] tr.ant-table-row')
      .filter({ hasText: 'Blasting operation certificate' });
    await expect.poll(() => doc.textContent()).toContain('Expiring soon');
    expect(await doc.locator('[data-testid="document-file"]').textContent()).toContain('blasting-certificate.pdf');
    await expect.poll(() => page.locator('[data-testid="folder-panel"]').textContent()).toContain('Certificates (1)');
    await shot(page, 'archives-safety-en');
    await page.context().close();
  }, 240_000);

  it('reads the three screens in Chinese and Korean at 1280 px', async () => {
    for (const l of [
      { locale: 'zh-CN', lang: 'zh', problem: '1 个问题', valid: '有效', expiring: '即将到期' },
      { locale: 'ko-KR', lang: 'ko', problem: '문제 1건', valid: '유효', expiring: '만료 예정' },
    ]) {
      const page = await page1280(browser, l.locale, server.url);
      await page.goto(`${server.url}/#/archives/supervise`);
      await expect
        .poll(() => page.locator('[data-testid="inspection-table"]').textContent(), { timeout: 30_000 })
        .toContain(l.problem);
      await expectNoRawKeys(page);
      await shot(page, `archives-supervise-${l.lang}`);
      await page.goto(`${server.url}/#/archives/plan`);
      await expect
        .poll(() => page.locator('[data-testid="plan-table"]').textContent(), { timeout: 30_000 })
        .toContain(l.valid);
      await expectNoRawKeys(page);
      await shot(page, `archives-plan-${l.lang}`);
      await page.locator('[data-testid="plan-open"]').click();
      await expect.poll(() => page.locator('.ant-drawer').textContent(), { timeout: 30_000 }).toContain('v2');
      await shot(page, `archives-plan-detail-${l.lang}`);
      await page.goto(`${server.url}/#/archives/Safety`);
      await expect
        .poll(() => page.locator('[data-testid="document-table"]').textContent(), { timeout: 30_000 })
        .toContain(l.expiring);
      await expectNoRawKeys(page);
      await shot(page, `archives-safety-${l.lang}`);
      await page.context().close();
    }
  }, 180_000);
});
