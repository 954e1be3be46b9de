import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { HomeData } from '@geosentry/contract';
import {
  api,
  apiLogin,
  expectNoRawKeys,
  ingest,
  launchBrowser,
  newPage,
  resumeSession,
  shot,
  startServer,
  subscribed,
  type RunningServer,
  type Terminal,
} from './harness.ts';

/**
 * Home (issue 18): the counters equal the server's answer and the lists they link to; a region narrows them and stays
 * over a reload; a scoped user sees only their sites; an alert raised by a reading updates the page without a reload;
 * zh and ko show labels, never codes. The real server process and headless Chromium; waits for conditions only.
 */
const HOUR = 3600_000;
const slow = { timeout: 60_000 };
const PASSWORD = 'Home-e2e-2026-pass';
interface RegionNode {
  code: string;
  name: string;
  children?: RegionNode[];
}

describe('home', () => {
  let server: RunningServer;
  let browser: Browser;
  let admin: string;
  const terms: Terminal[] = [];
  const sites: number[] = [];
  let regionCode = '';
  let regionName = '';

  const home = (token: string, region?: string) =>
    api<HomeData>(server.url, token, 'GET', '/api/v2/data/dashboard/getHome', region ? { regionCode: region } : {});
  const count = async (page: Page, testId: string): Promise<number> => {
    const el = page.locator(`[data-testid="${testId}"]`);
    const inner = el.locator('[data-testid="home-count"]');
    const text = (await inner.count()) > 0 ? await inner.first().textContent() : await el.textContent();
    return Number((text ?? '').replace(/\D+/g, ''));
  };
  /** The page's token: one session per account, so a login through the page ends the script's. */
  const tokenOf = (page: Page) => page.evaluate<string>(`localStorage.getItem('token') ?? ''`);
  /** Every counter of the page equals the answer. */
  async function expectCounts(page: Page, h: HomeData): Promise<void> {
    await expect.poll(() => count(page, 'home-sites-total'), slow).toBe(h.sites.total);
    expect(await count(page, 'home-devices-total')).toBe(h.devices.total);
    for (const s of ['alarm', 'alert', 'abnormal', 'offline'] as const)
      expect(await count(page, `home-device-state-${s}`), s).toBe(h.devices.byState[s]);
    for (const s of ['normal', 'alert', 'alarm', 'abnormal', 'offline'] as const)
      expect(Number(await page.locator(`[data-testid="home-site-state-${s}"]`).getAttribute('data-count')), s).toBe(
        h.sites.byState[s],
      );
    expect(await count(page, 'home-open-total')).toBe(h.alerts.openTotal);
    for (const l of ['1', '2', '3', '4'] as const)
      expect(await count(page, `home-open-${l}`), l).toBe(h.alerts.open[l]);
  }

  beforeAll(async () => {
    server = await startServer();
    admin = await apiLogin(server.url);
    // Two leaves of the region tree under different parents: the first parent is the region the test picks.
    const tree = await api<RegionNode[]>(server.url, admin, 'GET', '/api/v2/data/information/region/getTree');
    const leaves: { node: RegionNode; parent: RegionNode }[] = [];
    const walk = (n: RegionNode, parent: RegionNode): void => {
      if (!n.children?.length) leaves.push({ node: n, parent });
      else for (const c of n.children) walk(c, n);
    };
    for (const root of tree) walk(root, root);
    const a = leaves[0]!;
    const b = leaves.find((l) => l.parent.code !== a.parent.code)!;
    regionCode = a.parent.code;
    regionName = a.parent.name;

    const add = async (type: string, name: string, region: string, lon: number, lat: number, n: number) => {
      const platformId = (
        await api<{ platformId: number }>(server.url, admin, 'POST', `/api/v2/data/information/platform/${type}/add`, {
          name,
          regionCode: region,
          lon,
          lat,
        })
      ).platformId;
      const term = await api<Terminal>(server.url, admin, 'POST', '/api/v2/data/information/terminal/add', {
        platformId,
        name: `${name} RTU`,
        serial: `HOME-RTU-${n}`,
        protocolType: 'HTTP',
      });
      const deviceId = (
        await api<{ deviceId: number }>(server.url, admin, 'POST', '/api/v2/data/information/device/common/add', {
          deviceName: `${name} water level`,
          number: `HOME-W${n}`,
          moduleId: 16,
          platformId,
          terminalId: term.terminalId,
          ip: `10.0.9.${n}`,
          port: 502,
        })
      ).deviceId;
      sites.push(platformId);
      terms.push(term);
      return deviceId;
    };
    const devA = await add('reservoir', 'Home Dam', a.node.code, 103.6, 30.9, 1);
    const devB = await add('disaster', 'Home Slope', b.node.code, 104.2, 29.8, 2);

    const contact = await api<{ id: number }>(server.url, admin, 'POST', '/api/v2/data/alert/contract/add', {
      name: 'Duty engineer Zhao',
      email: 'zhao@example.test',
      language: 'en',
    });
    const group = await api<{ id: number }>(server.url, admin, 'POST', '/api/v2/data/alert/group/add', {
      name: 'Home duty',
      contactIds: String(contact.id),
      platformIds: sites.join(','),
    });
    // Red at the dam from 20 m, orange at the slope from 20 m.
    for (const [deviceId, level] of [
      [devA, 4],
      [devB, 3],
    ] as const)
      await api(server.url, admin, 'POST', '/api/v2/data/alert/manage/value/add', {
        deviceId,
        quantity: 'waterLevel',
        level,
        valueType: 'threshold',
        value: 20,
        groupId: group.id,
        channels: 'mail',
        pushIntervalMinutes: 30,
        enabled: 1,
      });
    const now = Date.now();
    const calm = (i: number) => ({ ts: now - (4 - i) * HOUR, values: { waterLevel: 12 + i * 0.1 } });
    await ingest(server.url, terms[0]!, 'HOME-W1', [0, 1, 2].map(calm));
    await ingest(server.url, terms[1]!, 'HOME-W2', [0, 1, 2].map(calm));
    // The dam goes red.
    await ingest(server.url, terms[0]!, 'HOME-W1', [{ ts: now - HOUR / 2, values: { waterLevel: 23.4 } }]);
    for (const deadline = Date.now() + 60_000; (await home(admin)).alerts.open['4'] !== 1;) {
      if (Date.now() > deadline) throw new Error('the red alert of the dam was not raised');
      await new Promise((r) => setTimeout(r, 200));
    }

    // A duty engineer who sees the slope only.
    const perms = await api<{ id: number; code: string; children?: { id: number; code: string }[] }[]>(
      server.url,
      admin,
      'GET',
      '/api/v2/manage/permission/getTree',
    );
    const ids = new Map(perms.flatMap((p) => [p, ...(p.children ?? [])]).map((p) => [p.code, p.id]));
    const role = await api<{ id: number }>(server.url, admin, 'POST', '/api/v2/manage/role/add', {
      name: 'Home duty',
      code: 'homeDuty',
    });
    await api(server.url, admin, 'POST', '/api/v2/manage/role/setPermissions', {
      roleId: role.id,
      permissionIds: ['index', 'alert-predict', 'alert-predict:alert'].map((p) => ids.get(p)!),
    });
    await api(server.url, admin, 'POST', '/api/v2/manage/user/add', {
      account: 'homeDuty',
      password: PASSWORD,
      name: 'Duty Zhao',
      roleId: role.id,
      scopeAll: false,
      platformIds: [sites[1]!],
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    if (process.env.E2E_DEBUG) console.log(server?.output().slice(-4000));
    await browser?.close();
    await server?.stop();
  });

  it("shows the administrator the server's counts; the red count opens the alert list of that many", async () => {
    const page = await newPage(browser, 'en-US');
    await resumeSession(page, server.url);
    admin = await tokenOf(page);
    await page.locator('[data-testid="home-greeting"]').waitFor();
    expect(await page.locator('[data-testid="home-role"]').textContent()).toContain('Super Administrator');
    const h = await home(admin);
    expect(h.sites.total).toBe(2);
    await expectCounts(page, h);
    expect(Number(await page.locator('[data-testid="home-map"]').getAttribute('data-markers'))).toBe(2);
    await expect.poll(() => page.locator('[data-testid="home-latest-row"]').count(), slow).toBe(h.latestAlerts.length);
    // The 30 days of alerts: one bar per day, each the day's total.
    const bars = await page
      .locator('[data-testid="home-chart-days"] [data-day]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-day'), Number(e.getAttribute('data-total'))]));
    expect(bars).toEqual(h.alertDays.map((d) => [d.day, d.total]));
    expect(await page.locator('[data-testid="home-chart-types"] li').count()).toBe(
      h.alertTypes.filter((r) => r.total > 0).length,
    );
    await shot(page, 'home-admin', undefined, 30_000).catch(() => undefined);

    const red = h.alerts.open['4'];
    await page.locator('[data-testid="home-open-4"]').click();
    await page.waitForURL(/#\/alert\/alert\?/);
    const url = new URL(page.url().replace('#/', ''));
    expect([url.searchParams.get('level'), url.searchParams.get('status')]).toEqual(['4', 'open']);
    // The list's filters show the level and 'open' by their labels.
    await expect
      .poll(() => page.locator('[data-testid="alert-filter-status"]').textContent(), slow)
      .toContain('Open (not processed)');
    expect(await page.locator('[data-testid="alert-filter-level"]').textContent()).toContain('Red');
    const rows = page.locator('[data-testid="alert-table"] tr[data-alert-id]');
    await expect.poll(() => rows.count(), slow).toBe(red);
    await expect.poll(() => page.locator('.ant-pagination-total-text').textContent(), slow).toContain(String(red));
    const list = await api<{ total: number }>(server.url, admin, 'GET', '/api/v2/data/alert/getByPlatformId', {
      level: 4,
      status: 'open',
      pageNum: 1,
      pageSize: 10,
    });
    expect(list.total).toBe(red);
    await page.context().close();
  });

  it('narrows every count to a region and its subtree, and keeps it over a reload', async () => {
    const page = await newPage(browser, 'en-US');
    await resumeSession(page, server.url);
    admin = await tokenOf(page);
    await expect.poll(() => count(page, 'home-sites-total'), slow).toBe(2);
    const picker = page.locator('[data-testid="home-region"]');
    await picker.click();
    await picker.locator('input').fill(regionName);
    await page.locator(`.ant-select-tree-node-content-wrapper[title="${regionName}"]`).first().click();
    await page.waitForURL(new RegExp(`regionCode=${regionCode}`));
    const narrowed = await home(admin, regionCode);
    expect(narrowed.sites.total).toBe(1);
    expect(narrowed.map.map((s) => s.platformId)).toEqual([sites[0]]);
    await expectCounts(page, narrowed);
    await page.reload();
    await page.locator(`[data-testid="home-page"][data-region="${regionCode}"]`).waitFor();
    await expectCounts(page, narrowed);
    // Clearing the region shows everything again.
    await page.locator('[data-testid="home-region-clear"]').click();
    await expect.poll(() => count(page, 'home-sites-total'), slow).toBe(2);
    expect(page.url()).not.toContain('regionCode');
    // With a region, the open count opens the alert list of that region: the same number, the region shown.
    await page.goto(`${server.url}/#/home?regionCode=${regionCode}`);
    await page.locator(`[data-testid="home-page"][data-region="${regionCode}"]`).waitFor();
    await expectCounts(page, narrowed);
    await page.locator('[data-testid="home-open-total"]').click();
    await page.waitForURL(new RegExp(`#/alert/alert\\?.*regionCode=${regionCode}`));
    const rows = page.locator('[data-testid="alert-table"] tr[data-alert-id]');
    await expect.poll(() => rows.count(), slow).toBe(narrowed.alerts.openTotal);
    await expect
      .poll(() => page.locator('[data-testid="alert-filter-region"]').textContent(), slow)
      .toContain(regionName);
    // And the device count opens the devices of that region (fewer than all: the filter is not idle).
    await page.goBack();
    await page.locator(`[data-testid="home-page"][data-region="${regionCode}"]`).waitFor();
    await page.locator('[data-testid="home-devices-total"]').click();
    await page.waitForURL(new RegExp(`#/information/monitoringDeviceManagement\\?.*regionCode=${regionCode}`));
    const devices = page.locator('[data-testid="device-detail-link"]');
    await expect.poll(() => devices.count(), slow).toBe(narrowed.devices.total);
    expect(narrowed.devices.total).toBeLessThan((await home(admin)).devices.total);
    await page.context().close();
  });

  it('shows a scoped user only the sites of their data scope', async () => {
    const page = await newPage(browser, 'en-US');
    await resumeSession(page, server.url, 'homeDuty', PASSWORD);
    const token = await tokenOf(page);
    const h = await home(token);
    expect(h.sites.total).toBe(1);
    expect(h.map.map((s) => s.name)).toEqual(['Home Slope']);
    await expectCounts(page, h);
    await expect.poll(() => page.locator('[data-testid="home-map"]').getAttribute('data-markers'), slow).toBe('1');
    expect(await page.locator('[data-testid="home-page"]').textContent()).not.toContain('Home Dam');
    await shot(page, 'home-scoped', undefined, 30_000).catch(() => undefined);
    await page.context().close();
  });

  it('updates the counts live when a reading raises an alert, without a reload', async () => {
    const page = await newPage(browser, 'en-US');
    await resumeSession(page, server.url);
    admin = await tokenOf(page);
    await expect.poll(() => count(page, 'home-sites-total'), slow).toBe(2);
    await subscribed(page, sites[1]);
    const before = await home(admin);
    expect(await count(page, 'home-open-3')).toBe(before.alerts.open['3']);
    await page.evaluate('window.__gsNoReload = true');
    await ingest(server.url, terms[1]!, 'HOME-W2', [{ ts: Date.now(), values: { waterLevel: 21.7 } }]);
    await expect.poll(() => count(page, 'home-open-3'), slow).toBe(before.alerts.open['3'] + 1);
    await expect.poll(() => count(page, 'home-device-state-alarm'), slow).toBe(before.devices.byState.alarm + 1);
    await expect
      .poll(() => page.locator('[data-testid="home-site-state-alarm"]').getAttribute('data-count'), slow)
      .toBe(String(before.sites.byState.alarm + 1));
    expect(await page.evaluate('window.__gsNoReload')).toBe(true);
    await expectCounts(page, await home(admin));
    await page.context().close();
  });

  it('shows labels, never codes, in zh and ko', async () => {
    const words = {
      zh: { locale: 'zh-CN', alarm: '告警', red: '红色', type: '地下水位', title: '首页' },
      ko: { locale: 'ko-KR', alarm: '경보', red: '빨강', type: '지하수위', title: '홈' },
    };
    for (const [lang, w] of Object.entries(words)) {
      const page = await newPage(browser, w.locale);
      await resumeSession(page, server.url);
      await expect.poll(() => count(page, 'home-sites-total'), slow).toBe(2);
      expect(await page.locator('[data-testid="home-site-state-alarm"]').textContent()).toContain(w.alarm);
      expect(await page.locator('[data-testid="home-open-4"]').textContent()).toContain(w.red);
      await expect
        .poll(() => page.locator('[data-testid="home-classification"]').textContent(), slow)
        .toContain(w.type);
      const text = (await page.locator('[data-testid="home-page"]').textContent()) ?? '';
      for (const code of ['alarm', 'abnormal', 'offline', 'untreated', 'preProcess', 'groundwaterLevel'])
        expect(text, `${lang}: ${code}`).not.toMatch(new RegExp(`\\b${code}\\b`));
      await expectNoRawKeys(page);
      await shot(page, `home-${lang}`, undefined, 30_000).catch(() => undefined);
      await page.context().close();
    }
  });
});
