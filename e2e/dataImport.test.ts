import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  api,
  apiLogin,
  launchBrowser,
  resumeSession,
  settle,
  shot,
  signedIn,
  startServer,
  type RunningServer,
} from './harness.ts';

interface RegionNode {
  code: string;
  children?: RegionNode[];
}

const HOUR = 3_600_000;

/** Picks the option of an antd Select (by the field's id) whose title is `title` (or ends with it). */
async function pick(page: Page, id: string, title: string, endsWith = false): Promise<void> {
  await page.locator(`#${id}`).click();
  const sel = endsWith ? `[title$="${title}"]` : `[title="${title}"]`;
  // The dropdown open now (an earlier one may still be fading out), then let it close.
  await page
    .locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden):visible .ant-select-item-option${sel}`)
    .last()
    .click();
  await page.waitForTimeout(400);
}

// The data import screen end to end: a csv with a bad row, its dry-run error by line, the fixed file, the import
// with live progress, the readings stored (real server, real Chromium).
describe('data import screen', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let token: string;
  let deviceId: number;
  /** The screen's address once the import is done (file, dry run and import job in it). */
  let doneUrl = '';
  const top = Math.floor(Date.now() / HOUR) * HOUR - 48 * HOUR;
  const times = [0, 1, 2].map((i) => new Date(top + i * HOUR).toISOString());
  const csv = (bad: boolean) =>
    [
      'device,time,level',
      `DI-W1,${times[0]},1.25`,
      `DI-W1,${times[1]},${bad ? 'abc' : '1.5'}`,
      `DI-W1,${times[2]},1.75`,
    ]
      .join('\n')
      .concat('\n');

  beforeAll(async () => {
    server = await startServer();
    token = await apiLogin(server.url);
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    const siteId = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
        name: 'Import Ridge',
        regionCode: node.code,
        lon: 121.4,
        lat: 31.2,
      })
    ).platformId;
    const term = await api<{ terminalId: number }>(server.url, token, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: siteId,
      name: 'Import RTU',
      serial: 'DI-RTU-01',
      protocolType: 'HTTP',
    });
    deviceId = (
      await api<{ deviceId: number }>(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
        deviceName: 'Import level W1',
        number: 'DI-W1',
        moduleId: 3,
        platformId: siteId,
        terminalId: term.terminalId,
        ip: '10.0.5.10',
        port: 502,
      })
    ).deviceId;
    browser = await launchBrowser();
    page = await signedIn(browser, server.url);
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const upload = async (bad: boolean) => {
    const before = page.url();
    await page.locator('input[type=file]').setInputFiles({
      name: bad ? 'levels-bad.csv' : 'levels.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv(bad)),
    });
    await page.waitForFunction((u) => location.href !== u && location.href.includes('fileId='), before);
    await page.locator('[data-testid="import-preview"]').getByText('DI-W1').first().waitFor();
  };

  it('refuses a file of another type with a clear message', async () => {
    // The /data group is hidden: the Monitoring group's entry leads to the screen.
    await page.goto(`${server.url}/#/`);
    await page.locator('.ant-menu').getByText('Monitoring', { exact: true }).click();
    await page.locator('.ant-menu').getByText('Data import', { exact: true }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/monitor/dataImport'));
    await page.locator('input[type=file]').waitFor({ state: 'attached' });
    await page.locator('input[type=file]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('x'),
    });
    await expect(page.locator('[data-testid="import-upload-error"]').textContent()).resolves.toContain(
      'Only csv and xlsx',
    );
  }, 120_000);

  it('shows the bad row by its line, then imports the fixed file with progress', async () => {
    await upload(true);
    await pick(page, 'timeColumn', '2. time');
    await pick(page, 'deviceColumn', '1. device');
    await page.locator('#moduleId').click();
    await page.keyboard.type('(3)');
    await page
      .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden):visible .ant-select-item-option[title$="(3)"]')
      .last()
      .click();
    await page.waitForTimeout(400);
    await pick(page, 'quantities_waterLevel', '3. level');
    await page.locator('[data-testid="import-dryrun"]').click();
    const errors = page.locator('[data-testid="import-errors"] tbody tr.ant-table-row');
    await errors.first().waitFor({ timeout: 60_000 });
    expect(await errors.count()).toBe(1);
    const row = (await errors.first().innerText()).replace(/\s+/g, ' ');
    expect(row).toContain('3'); // line 3 of the file (the header is line 1)
    expect(row).toContain('Not a number');
    expect(row).toContain('abc');
    await expect(page.locator('[data-testid="import-run"]').isDisabled()).resolves.toBe(true);
    await shot(page, 'dataImport-dryrun-errors-en');

    // The fixed file: the same mapping stays, the dry run is clean, the import runs to its end.
    await upload(false);
    await page.locator('[data-testid="import-dryrun"]').click();
    const run = page.locator('[data-testid="import-run"]');
    await run.waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => {
      const b = document.querySelector('[data-testid="import-run"]');
      return b && !(b as HTMLButtonElement).disabled;
    });
    await run.click();
    await page.locator('[data-testid="import-result"]').waitFor({ timeout: 60_000 });
    const state = page
      .locator('[data-testid="import-result"]')
      .locator('xpath=ancestor::*[@data-testid="job-progress"]');
    await expect(state.getAttribute('data-state')).resolves.toBe('done');
    const result = (await page.locator('[data-testid="import-result"]').innerText()).replace(/\s+/g, ' ');
    expect(result).toMatch(/Added 3/);
    await settle(page);
    await shot(page, 'dataImport-done-en');

    doneUrl = page.url();
    // The job id is in the address: a refresh shows the same result.
    await page.reload();
    await page.locator('[data-testid="import-result"]').waitFor({ timeout: 60_000 });

    // The readings are in history (a fresh API session: the page's login ended the first one).
    token = await apiLogin(server.url);
    const hist = await api<{ devices: { series: { points?: unknown[]; data?: unknown[] }[] }[] }>(
      server.url,
      token,
      'GET',
      '/api/v2/data/module/getHistoricalData',
      { deviceId, quantity: 'waterLevel', startTime: times[0], endTime: new Date(top + 3 * HOUR).toISOString() },
    );
    const text = JSON.stringify(hist);
    for (const v of ['1.25', '1.5', '1.75']) expect(text).toContain(v);
  }, 240_000);

  it('reads in zh and ko', async () => {
    // The same screen (its file, dry run and import are in the address) in the other languages; signed in
    // again, as the API login above ended the page's session.
    await resumeSession(page, server.url);
    await page.goto(doneUrl);
    for (const [lang, word] of [
      ['zh', '数据导入'],
      ['ko', '데이터 가져오기'],
    ] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.reload();
      await page.locator('[data-testid="import-result"]').waitFor({ timeout: 60_000 });
      await page.getByText(word).first().waitFor();
      await settle(page);
      await shot(page, `dataImport-done-${lang}`);
    }
    await page.evaluate(() => localStorage.setItem('language', 'en'));
  }, 180_000);
});
