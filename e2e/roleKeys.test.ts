import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { PERMISSION_CATALOGUE } from '@geosentry/contract';
import {
  ADMIN_PASSWORD,
  SHOTS,
  launchBrowser,
  newPage,
  shot,
  startServer,
  type RunningServer,
  api,
  apiLogin,
} from './harness.ts';

/**
 * Every route role key of the permission catalogue that has a screen: the screen's paths and what the screen shows
 * of the demo portfolio (DEMO=on, plus a template and a river elevation made in the test) once its data is there.
 * `pick`: the data-testid of a site picker whose first option the walk picks before looking for `shows` (the
 * pickers list the sites of the data scope, for the key of any screen with a site picker).
 * `gap`: the screen opens and keeps the session, but its data is out of reach of the role (a web-side limit, not a
 * refused call); `shows` is then the screen's own prompt.
 */
const SCREENS: Record<string, { path: string; shows: string; pick?: string; gap?: string }[]> = {
  // The home of a role with no site kind shows the user's own overview (role, data scope).
  index: [{ path: '/home', shows: 'Data scope' }],
  'information:enterprise': [
    { path: '/information/enterpriseManagement', shows: 'Sichuan Geohazard Prevention Center' },
  ],
  'information:enterprise:tailings': [
    { path: '/information/enterpriseManagementTailings', shows: 'Guangxi Nonferrous Mining Co.' },
  ],
  'information:platform:disaster': [{ path: '/information/disasterPlatformManagement', shows: 'Xinmo Village' }],
  'information:platform:reservoir': [{ path: '/information/reservoirPlatformManagement', shows: 'Xiling reservoir' }],
  'information:platform:river': [{ path: '/information/riverPlatformManagement', shows: 'Min River at Dujiangyan' }],
  'information:platform:tailings': [{ path: '/information/tailingsPlatformManagement', shows: 'Longsheng No. 2' }],
  'information:platform:bridge': [{ path: '/information/PlatformManagement', shows: 'Chaotianmen' }],
  'information:platform:sideslope': [{ path: '/information/sideslopePlatformManagement', shows: 'G318 K2650' }],
  'information:segment': [{ path: '/information/segment', shows: 'Dam section 0+120' }],
  'information:platformInfo': [{ path: '/information/platformInfo', shows: 'Site safety card' }],
  'information:terminal': [{ path: '/information/terminalInfoManagement', shows: 'DL-XM-001' }],
  'information:commonDevice': [{ path: '/information/deviceInfo', shows: 'Chaotianmen Yangtze River Bridge' }],
  'information:device': [
    { path: '/information/monitoringDeviceManagement', shows: 'XM GNSS 01' },
    // The first site of the picker is chosen by the screen: its monitor types with their device counts.
    { path: '/information/modules', shows: 'Bound ·' },
  ],
  'information:reservoirWater': [
    { path: '/information/reservoirWaterElevation', shows: 'Capacity table of the reservoir', pick: 'reservoir-site' },
    { path: '/information/reservoirWaterLevels', shows: 'Manual water levels' },
  ],
  'information:riverWater': [{ path: '/information/riverWaterElevation', shows: 'Yuzui section' }],
  'information:responsible': [{ path: '/information/administrator', shows: 'Kim Minji' }],
  'information:TSManagement': [{ path: '/information/TSManagement', shows: 'Longsheng No. 2' }],
  'information:external-file': [{ path: '/information/cloudDiskLink', shows: 'Geohazard prevention regulations' }],
  'monitor:platform:disaster': [{ path: '/monitor/disasterPlatform', shows: 'XM GNSS 01' }],
  'monitor:platform:tailings': [{ path: '/monitor/tailingsPlatform', shows: 'LS piezometer 01' }],
  'monitor:platform:reservoir': [{ path: '/monitor/reservoirPlatform', shows: 'XL upstream water level' }],
  'monitor:platform:river': [{ path: '/monitor/riverPlatform', shows: 'Min River at Dujiangyan' }],
  'monitor:platform:sideslope': [{ path: '/monitor/sideslopePlatform', shows: 'G318 tilt 01' }],
  'monitor:platform:bridge': [{ path: '/monitor/bridgePlatform', shows: 'Chaotianmen' }],
  'monitor:sketchMap': [{ path: '/monitor/sketchMap', shows: 'Chaotianmen' }],
  'monitor:moduleMap': [{ path: '/monitor/moduleMap', shows: 'Chaotianmen' }],
  'monitor:riverMap': [{ path: '/monitor/reservoirMap', shows: 'Yuzui section' }],
  'monitor:reservoirMap': [{ path: '/monitor/reservoirMap', shows: 'Dam section 0+120' }],
  'monitor:segmentMap': [{ path: '/monitor/segmentMap', shows: 'Dam section 0+120' }],
  'monitor:monitorStation': [{ path: '/monitor/MonitorStation', shows: 'Chaotianmen' }],
  'monitor:realtime': [
    { path: '/monitor/realTimeData', shows: 'CTM pier tilt' },
    { path: '/monitor/deviceStatus', shows: 'CTM pier tilt' },
  ],
  'monitor:realtime-sxxy': [{ path: '/monitor/realtimesxxy', shows: 'CTM pier tilt' }],
  'monitor:history': [{ path: '/monitor/historyData', shows: 'Chaotianmen' }],
  'monitor:dataProcessing': [{ path: '/monitor/DataProcessing', shows: 'Chaotianmen' }],
  'monitor:predict': [{ path: '/monitor/forecast', shows: 'Chaotianmen' }],
  'monitor:comparison': [{ path: '/monitor/DataComparison', shows: 'Chaotianmen' }],
  'monitor:report': [
    { path: '/monitor/reservoirReport', shows: 'Pick a reservoir, the statistics and a period, then run the report.' },
  ],
  'monitor:vibrationReport': [
    { path: '/monitor/VibrationReport', shows: 'Pick a site, a period and a limit curve, then run the report.' },
  ],
  'alert-predict:alert': [{ path: '/alert/alert', shows: 'Xinmo Village landslide' }],
  'alert-predict:report': [{ path: '/alert/alertReport', shows: 'Xinmo Village landslide' }],
  'alert-predict:alert-value': [
    { path: '/alert/setalert', shows: 'Demo duty engineers' },
    // The demo has no multi-device rule: the screen's own list is what it shows.
    {
      path: '/alert/alertRelation',
      shows: 'Add multi-device rule',
      gap: 'the demo portfolio has no multi-device rule',
    },
    { path: '/alert/criteria', shows: 'GB 50497 crack width' },
  ],
  'alert-predict:alert-contract': [
    { path: '/alert/alertContract', shows: 'Duty engineer Zhao' },
    { path: '/alert/alertGroup', shows: 'Demo duty engineers' },
  ],
  'alert-predict:alert-setting': [{ path: '/alert/AlertConfigure', shows: 'Red' }],
  'alert-predict:alert-template': [{ path: '/alert/AlertTemplate', shows: 'Duty message' }],
  'system:data': [{ path: '/information/regions', shows: 'Sichuan' }],
  'system:user': [{ path: '/system/user', shows: 'admin' }],
  'system:role': [{ path: '/system/role', shows: 'superAdmin' }],
  'system:permission': [{ path: '/system/jurisdiction', shows: 'information:enterprise' }],
  // Newest first: the walk users' own sign-ins fill the first page (admin's may be further back).
  'system:audit': [{ path: '/system/audit', shows: 'Signed in' }],
};

/** Route role keys with no screen in this console (their modules are not built), and the menu groups. */
const NO_SCREEN = new Set([
  'information:road',
  'camera:real-time',
  'camera:cameraTask',
  'camera:camera',
  'camera:group',
  'area:monitor',
  'area:manage',
  'threeDimensional:show',
  'threeDimensional:manage',
  'monitor:realtime-trade',
  'monitor:generalReport',
  'monitor:dataImport',
  'supervisor:dynamic',
  'supervisor:plan',
  'supervisor:archive',
  'task:receivetask',
  'task:assignedtask',
  'task:reviewtask',
  'system:database',
  'appDownload',
  'digitalGallery',
  'digitalGallery:common',
]);

/** Envelope statuses that end the session (spec §8). */
const SESSION_END = new Set([1000, 1001, 1002, 1003, 1004, 40004]);

describe('a role holding only a screen key uses the screen', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let admin: string;
  const PASSWORD = 'Role-key-walk-2026';
  /** Each key's user account. */
  const accounts = new Map<string, string>();

  beforeAll(async () => {
    server = await startServer({ DEMO: 'on' });
    admin = await apiLogin(server.url, 'admin', ADMIN_PASSWORD);
    const tree = await api<{ id: number; code: string; children?: { id: number; code: string }[] }[]>(
      server.url,
      admin,
      'GET',
      '/api/v2/manage/permission/getTree',
    );
    const ids = new Map(tree.flatMap((p) => [p, ...(p.children ?? [])]).map((p) => [p.code, p.id]));
    // The demo has no hand-entered river elevation: one for the riverWaterElevation screen.
    const sections = await api<{ list: { segmentId: number; name: string }[] }>(
      server.url,
      admin,
      'GET',
      '/api/v2/data/information/segment/getListPage',
      { pageNum: 1, pageSize: 100 },
    );
    await api(server.url, admin, 'POST', '/api/v2/data/information/segment/addRiverWaterElevation', {
      segmentId: sections.list.find((x) => x.name === 'Yuzui section')!.segmentId,
      time: new Date().toISOString(),
      elevation: 719.25,
    });
    // Nor alert contacts or message templates: one of each.
    await api(server.url, admin, 'POST', '/api/v2/data/alert/contract/add', {
      name: 'Duty engineer Zhao',
      email: 'zhao@example.com',
    });
    await api(server.url, admin, 'POST', '/api/v2/data/alert/template/add', {
      name: 'Duty message',
      subject: JSON.stringify({ en: 'Alert {level}', zh: '预警 {level}', ko: '경보 {level}' }),
      content: JSON.stringify({ en: '{device}: {value}', zh: '{device}：{value}', ko: '{device}: {value}' }),
    });
    // Nor an alert criterion: one for the criteria screen.
    await api(server.url, admin, 'POST', '/api/v2/data/alert/manage/criteria/add', {
      name: 'GB 50497 crack width',
      type: 'standard',
    });
    // The demo has no information template: one for the platformInfo screen.
    await api(server.url, admin, 'POST', '/api/v2/data/information/template/addMenu', {
      menuName: 'Site safety card',
      directoryName: 'Safety',
    });
    for (const [i, key] of Object.keys(SCREENS).entries()) {
      const code = `rk${i}`;
      const role = await api<{ id: number }>(server.url, admin, 'POST', '/api/v2/manage/role/add', {
        name: `Only ${key}`,
        code,
      });
      // Only the key: the server grants its parent menu group with it.
      await api(server.url, admin, 'POST', '/api/v2/manage/role/setPermissions', {
        roleId: role.id,
        permissionIds: [ids.get(key)!],
      });
      await api(server.url, admin, 'POST', '/api/v2/manage/user/add', {
        account: code,
        password: PASSWORD,
        name: `Only ${key}`,
        roleId: role.id,
        scopeAll: true,
      });
      accounts.set(key, code);
    }
    browser = await launchBrowser();
    page = await newPage(browser, 'en-US');
  });

  /**
   * Opens a screen as a signed-in user: the session a login leaves in storage (token and user name; the console
   * reads the permissions itself), in a fresh document (`query` differs per call).
   */
  async function openAs(query: string, token: string, account: string, path: string): Promise<void> {
    // A small document of the server's origin (not the console: loading it only to write storage took as long
    // as the screen), then the screen in a new document.
    await page.goto(`${server.url}/api/health?${query}`);
    await page.evaluate(
      ({ t, a }) => {
        localStorage.clear();
        localStorage.setItem('token', t);
        localStorage.setItem('userName', a);
      },
      { t: token, a: account },
    );
    await page.goto(`${server.url}/?${query}#${path}`);
  }

  afterAll(async () => {
    if (process.env.E2E_DEBUG) console.log(server?.output().slice(-4000));
    await browser?.close();
    await server?.stop();
  });

  it('every route role key of the catalogue is walked or has no screen', () => {
    const keys = PERMISSION_CATALOGUE.flatMap((p) => (p.children ?? []).map((c) => c.code));
    const unlisted = keys.filter((k) => !(k in SCREENS) && !NO_SCREEN.has(k));
    expect(unlisted).toEqual([]);
    // Keys only the index (a level 1 entry without children) stands for.
    expect(Object.keys(SCREENS).filter((k) => k !== 'index' && !keys.includes(k))).toEqual([]);
  });

  it('opens each screen, sees its data, and is never logged out', async () => {
    /** Session-ending answers and script errors of the current screen, and its API calls not answered yet. */
    let ended: string[] = [];
    let errors: string[] = [];
    let pending = 0;
    let crashed = false;
    const watch = (p: Page): void => {
      p.on('request', (r) => void (r.url().includes('/api/') && pending++));
      p.on('requestfinished', (r) => void (r.url().includes('/api/') && pending--));
      p.on('requestfailed', (r) => void (r.url().includes('/api/') && pending--));
      p.on('pageerror', (e) => errors.push(e.message.slice(0, 200)));
      p.on('crash', () => (crashed = true));
      p.on('response', (r: Response) => {
        if (!r.url().includes('/api/') || !(r.headers()['content-type'] ?? '').includes('json')) return;
        void r
          .json()
          .then((env: { status?: number; info?: string }) => {
            if (typeof env.status === 'number' && SESSION_END.has(env.status))
              ended.push(`${new URL(r.url()).pathname} answered ${env.status} ${env.info ?? ''}`);
          })
          .catch(() => undefined);
      });
    };
    watch(page);
    const failures: string[] = [];
    let n = 0;
    for (const [key, screens] of Object.entries(SCREENS)) {
      const account = accounts.get(key)!;
      const token = await apiLogin(server.url, account, PASSWORD);
      for (const s of screens) {
        if (crashed) {
          // A renderer crash is reported with its screen; the walk goes on in a new page.
          await page.context().close();
          page = await newPage(browser, 'en-US');
          watch(page);
          crashed = false;
        }
        ended = [];
        errors = [];
        pending = 0;
        n++;
        // A fresh document per screen (the query string differs), with this user's session in storage.
        await openAs(`walk=${n}`, token, account, s.path);
        const content = page.locator('.gs-content');
        /** Picks the first option of the screen's site picker (a miss is reported as the data not shown). */
        const pick = async (testId: string): Promise<void> => {
          const option = page
            .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
            .first();
          for (let attempt = 1; attempt <= 3; attempt++) {
            try {
              if (!(await option.isVisible()))
                await page.locator(`[data-testid="${testId}"]`).click({ timeout: 30_000 });
              await option.click({ timeout: 15_000 });
              return;
            } catch {
              // Opened again below, at most three tries.
            }
          }
        };
        const shows = async () => {
          if (s.pick) await pick(s.pick);
          return expect
            .poll(async () => ((await content.textContent().catch(() => '')) ?? '').includes(s.shows), {
              timeout: 45_000,
              interval: 250,
            })
            .toBe(true)
            .then(() => true)
            .catch(() => false);
        };
        let seen = await shows();
        // A document that never rendered its layout (a slow start on the busy machine, or web/dist being rebuilt
        // meanwhile by another build): load it again, up to three times.
        for (let retry = 0; retry < 3 && !seen && !(await content.count()); retry++) {
          await page.reload();
          seen = await shows();
        }
        // The screen's later calls (pickers, trails) have answered too.
        await expect
          .poll(() => pending, { timeout: 15_000, interval: 100 })
          .toBeLessThanOrEqual(0)
          .catch(() => undefined);
        const where = page.url();
        const problems = [
          ...(seen ? [] : [`does not show "${s.shows}"`]),
          ...(/#\/login/.test(where) ? [`was sent to ${where}`] : []),
          ...((await page.locator('[data-testid="not-found"]').count()) ? ['shows not found'] : []),
          ...(crashed ? ['the page crashed'] : []),
          ...ended,
        ];
        if (problems.length) {
          const text = ((await content.textContent().catch(() => '')) ?? '').replace(/\s+/g, ' ').slice(0, 300);
          const line = `${key} ${s.path}: ${problems.join('; ')} [content: ${text}] [errors: ${errors.join(' | ')}]`;
          failures.push(line);
          console.log(`FAIL ${line}`);
          // A failing screen may never settle: its picture is taken after at most 2 s.
          await shot(page, `role-key-${key.replace(/[^a-z0-9]+/gi, '_')}`, undefined, 2_000).catch(() =>
            page
              .screenshot({ path: `${SHOTS}/role-key-${key.replace(/[^a-z0-9]+/gi, '_')}.png` })
              .catch(() => undefined),
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 1_200_000);

  it('a proxy error page (502) shows the translated message, not a parse error, and keeps the session', async () => {
    const account = accounts.get('information:external-file')!;
    const token = await apiLogin(server.url, account, PASSWORD);
    await page.route('**/api/v2/data/information/externalFile/getListPage*', (route) =>
      route.fulfill({
        status: 502,
        contentType: 'text/html',
        body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
      }),
    );
    await openAs('walk=proxy', token, account, '/information/cloudDiskLink');
    const msg = page.locator('.ant-message').getByText('Bad gateway (502)');
    await msg.first().waitFor();
    expect(await page.locator('.ant-message').textContent()).not.toMatch(/JSON|Unexpected token/);
    expect(page.url()).toMatch(/#\/information\/cloudDiskLink/);
    await shot(page, 'proxy-502-en');
    await page.unrouteAll();
  });
});
