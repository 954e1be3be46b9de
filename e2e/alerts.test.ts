import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  resumeSession,
  newPage,
  shot,
  startServer,
  type RunningServer,
  api,
  apiRaw,
  apiLogin,
  ingest,
  type Terminal,
} from './harness.ts';

interface RegionNode {
  code: string;
  children?: RegionNode[];
}
const HOUR = 3_600_000;
/** Generous waits: the two-core machine runs the server, the browser and the test at once. */
const slow = { timeout: 30_000, interval: 250 };

const snap = (page: Page, name: string): Promise<void> => shot(page, name);

describe('alerts in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let token: string;
  let term: Terminal;
  let siteId: number;
  let deviceId: number;
  let alertId: number;
  const DEVICE = 'Dam piezometer P7';

  beforeAll(async () => {
    server = await startServer();
    token = await apiLogin(server.url);
    let node = (await api<RegionNode[]>(server.url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
    while (node.children?.length) node = node.children[0]!;
    siteId = (
      await api<{ platformId: number }>(server.url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
        name: 'North Dam Slope',
        regionCode: node.code,
        lon: 103.8,
        lat: 30.7,
      })
    ).platformId;
    term = await api<Terminal>(server.url, token, 'POST', '/api/v2/data/information/terminal/add', {
      platformId: siteId,
      name: 'North Dam RTU',
      serial: 'NDS-RTU-01',
      protocolType: 'HTTP',
    });
    deviceId = (
      await api<{ deviceId: number }>(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
        deviceName: DEVICE,
        number: 'NDS-P7',
        moduleId: 16,
        platformId: siteId,
        terminalId: term.terminalId,
        ip: '10.0.7.17',
        port: 502,
      })
    ).deviceId;
    const contact = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/contract/add', {
      name: 'Duty engineer Li',
      email: 'duty@example.test',
      language: 'en',
    });
    const group = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/data/alert/group/add', {
      name: 'Dam duty team',
      contactIds: String(contact.id),
      platformIds: String(siteId),
    });
    // Yellow (level 2) when the water level reaches 15 m; red (4) at 20 m.
    for (const [level, value] of [
      [2, 15],
      [4, 20],
    ] as const)
      await api(server.url, token, 'POST', '/api/v2/data/alert/manage/value/add', {
        deviceId,
        quantity: 'waterLevel',
        level,
        valueType: 'threshold',
        value,
        groupId: group.id,
        channels: 'mail',
        pushIntervalMinutes: 30,
        enabled: 1,
      });
    // A day of calm history below the thresholds.
    const now = Date.now();
    await ingest(
      server.url,
      term,
      'NDS-P7',
      Array.from({ length: 24 }, (_, i) => ({
        ts: now - (24 - i) * HOUR,
        values: { waterLevel: Math.round((12 + 0.08 * i + 0.1 * Math.sin(i / 3)) * 1000) / 1000, battery: 90 },
      })),
    );
    browser = await launchBrowser();
  });

  afterAll(async () => {
    if (process.env.E2E_DEBUG) console.log(server?.output().slice(-4000));
    await browser?.close();
    await server?.stop();
  });

  it('raises an alert from a reading, pops it up, and takes it through pre-process to a locked record', async () => {
    const page = await newPage(browser, 'en-US');
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await resumeSession(page, server.url);
    await page.goto(`${server.url}/#/alert/alert`);
    const table = page.locator('[data-testid="alert-table"]');
    await expect.poll(() => table.textContent(), slow).toContain('No alerts');
    await page.locator('[data-testid="alert-bell"][data-live="1"]').waitFor();
    // The pop-up goes to every socket of the session (subscribed or not): the socket is up once it was greeted.

    // ---- a reading over the yellow value: pop-up, then the row ----
    await ingest(server.url, term, 'NDS-P7', [{ ts: Date.now(), values: { waterLevel: 16.25, battery: 89 } }]);
    const popup = page.locator('[data-testid="alert-popup"]');
    await popup.waitFor({ timeout: 15_000 });
    expect(await popup.getAttribute('data-level')).toBe('2');
    const popupText = await popup.textContent();
    expect(popupText).toContain('North Dam Slope');
    expect(popupText).toContain(DEVICE);
    expect(popupText).toContain('16.25');
    alertId = Number(await popup.getAttribute('data-alert-id'));
    expect(alertId).toBeGreaterThan(0);
    await expect.poll(() => table.textContent(), slow).toContain(DEVICE);
    const row = page.locator(`tr[data-alert-id="${alertId}"]`);
    expect(await row.locator('[data-testid="alert-level"]').getAttribute('data-level')).toBe('2');
    expect(await row.locator('[data-testid="alert-status"]').getAttribute('data-status')).toBe('untreated');
    await snap(page, 'alerts-popup-en');

    // ---- open it from the pop-up: evidence, processing form ----
    await page.locator('[data-testid="alert-popup-open"]').click();
    const drawer = page.locator('[data-testid="alert-detail"]');
    await drawer.waitFor();
    expect(await drawer.getAttribute('data-status')).toBe('untreated');
    await page.locator('[data-testid="alert-evidence-chart"] canvas').first().waitFor();
    await snap(page, 'alerts-detail-en');
    // Finishing without a suggestion is refused in the form; nothing is sent.
    await page.locator('[data-testid="alert-finish"]').click();
    await page.locator('[data-testid="alert-finish-confirm"]').click();
    await page.getByText('Enter the handling suggestion before finishing').waitFor();
    await page.locator('#alert-onsite').fill('Checked the dam toe at 03:10; piezometer housing intact.');
    await page.locator('#alert-deformation').fill('No new cracks; slight seepage at the toe drain.');
    await page.locator('#alert-suggestion').fill('Lower the reservoir by 0.5 m and read P7 every 30 minutes.');
    await page.locator('[data-testid="alert-save"]').click();
    // The "saved" toast can sit over the drawer's close button: it must let the click through (and so never
    // pause while the pointer rests on it). Checked in the page the moment it shows, before it fades.
    const toastTakesPointer = await page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const look = () => {
            const notice = document.querySelector('.ant-message-notice');
            const box = notice?.querySelector('.ant-message-notice-wrapper')?.getBoundingClientRect();
            // Wait for the fade-in to end: while it runs, the toast is still moving into place.
            if (!box || box.width === 0 || /appear/.test(notice!.className)) return void requestAnimationFrame(look);
            const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
            resolve(Boolean(hit?.closest('.ant-message')));
          };
          look();
        }),
    );
    expect(toastTakesPointer).toBe(false);
    await expect.poll(() => drawer.getAttribute('data-status'), slow).toBe('preProcess');
    await expect
      .poll(() => row.locator('[data-testid="alert-status"]').getAttribute('data-status'), slow)
      .toBe('preProcess');
    await page.locator('.ant-drawer-close').click({ timeout: 15_000 });
    await drawer.waitFor({ state: 'detached' });

    // ---- reopen: the saved form is there and still editable; finish it ----
    await row.locator('[data-testid="alert-open"]').click();
    await drawer.waitFor();
    expect(await page.locator('#alert-suggestion').inputValue()).toContain('Lower the reservoir');
    expect(await page.locator('#alert-onsite').isEditable()).toBe(true);
    await page.locator('#alert-suggestion').fill('Lowered the reservoir by 0.5 m; P7 back under 15 m at 05:00.');
    await page.locator('[data-testid="alert-finish"]').click();
    await page.locator('[data-testid="alert-finish-confirm"]').click();
    await expect.poll(() => drawer.getAttribute('data-status'), slow).toBe('processed');
    await page.locator('[data-testid="alert-locked"]').waitFor();
    expect(await page.locator('[data-testid="alert-process-form"]').getAttribute('data-locked')).toBe('1');
    expect(await page.locator('#alert-suggestion').isEditable()).toBe(false);
    expect(await page.locator('#alert-onsite').isEditable()).toBe(false);
    expect(await page.locator('[data-testid="alert-save"]').count()).toBe(0);
    expect(await page.locator('[data-testid="alert-finish"]').count()).toBe(0);
    await snap(page, 'alerts-locked-en');
    await page.getByRole('tab', { name: /History/ }).click();
    await expect.poll(() => page.locator('[data-testid="alert-history"]').textContent(), slow).toContain('Processed');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.locator('[data-testid="alert-deliveries"]').waitFor();
    await snap(page, 'alerts-deliveries-en');
    await page.locator('.ant-drawer-close').click();

    // The record is locked on the server too: processing it again is refused. (The browser's login ended the
    // script's session, so these calls use the browser's token.)
    const browserToken = (await page.evaluate(() => localStorage.getItem('token')))!;
    const again = await apiRaw<unknown>(server.url, browserToken, 'POST', '/api/v2/data/alert/processAlert', {
      id: alertId,
      processed: 0,
      suggestion: 'changed',
    });
    expect(again.status).not.toBe(0);
    expect(again.info).toMatch(/processed/i);
    const detail = await api<{ status: string; suggestion: string | null }>(
      server.url,
      browserToken,
      'GET',
      '/api/v2/data/alert/getDetail',
      { id: alertId },
    );
    expect(detail.status).toBe('processed');
    expect(detail.suggestion).toContain('Lowered the reservoir');
    await expect
      .poll(() => row.locator('[data-testid="alert-status"]').getAttribute('data-status'), slow)
      .toBe('processed');
    await snap(page, 'alerts-list-en');

    // ---- an escalation to red pops up again (same alert, higher level) ----
    await ingest(server.url, term, 'NDS-P7', [{ ts: Date.now(), values: { waterLevel: 21.4, battery: 88 } }]);
    await expect
      .poll(() => page.locator('[data-testid="alert-popup"][data-level="4"]').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await snap(page, 'alerts-popup-red-en');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('renders the other alert screens', async () => {
    const page = await newPage(browser, 'en-US');
    await resumeSession(page, server.url);
    await page.goto(`${server.url}/#/alert/setalert`);
    await expect.poll(() => page.locator('[data-testid="rule-table"]').textContent(), slow).toContain(DEVICE);
    await snap(page, 'alerts-setalert-en');
    await page.locator('[data-testid="rule-edit"]').first().click();
    await page.locator('[data-testid="rule-test"]').click();
    await page.locator('[data-testid="rule-test-result"]').waitFor();
    await snap(page, 'alerts-setalert-test-en');
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/#/alert/alertReport`);
    await page.locator('[data-testid="report-level-chart"] canvas').first().waitFor();
    await expect.poll(() => page.locator('[data-testid="report-total"]').textContent(), slow).toMatch(/[1-9]/);
    await snap(page, 'alerts-report-en');
    for (const [path, testid, name] of [
      ['alertRelation', 'relation-table', 'relation'],
      ['criteria', 'criteria-table', 'criteria'],
      ['alertContract', 'contact-table', 'contacts'],
      ['alertGroup', 'group-table', 'groups'],
      ['AlertConfigure', 'levels-list', 'levels'],
      ['AlertTemplate', 'template-table', 'templates'],
    ] as const) {
      await page.goto(`${server.url}/#/alert/${path}`);
      await page.locator(`[data-testid="${testid}"]`).waitFor();
      await snap(page, `alerts-${name}-en`);
    }
    await page.context().close();
  });

  it('shows the alert screens in Chinese and Korean', async () => {
    for (const [locale, lang, title] of [
      ['zh-CN', 'zh', '预警信息'],
      ['ko-KR', 'ko', '경보'],
    ] as const) {
      const page = await newPage(browser, locale);
      await resumeSession(page, server.url);
      await page.goto(`${server.url}/#/alert/alert?id=${alertId}`);
      await page.locator('[data-testid="alert-detail"]').waitFor();
      await page.locator('[data-testid="alert-evidence-chart"] canvas').first().waitFor();
      await snap(page, `alerts-detail-${lang}`);
      await page.locator('.ant-drawer-close').click();
      expect(await page.locator('[data-testid="alert-table"]').textContent()).toContain('North Dam Slope');
      expect(await page.title()).toContain(title);
      await snap(page, `alerts-list-${lang}`);
      await page.goto(`${server.url}/#/alert/setalert`);
      await page.locator('[data-testid="rule-table"]').waitFor();
      await snap(page, `alerts-setalert-${lang}`);
      await page.context().close();
    }
  });
});
