import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  loginAs,
  resumeSession,
  newPage,
  shot,
  startServer,
  type RunningServer,
  api,
  apiLogin,
  type Envelope,
} from './harness.ts';

interface RegionNode {
  code: string;
  children?: RegionNode[];
}

/** Creates two sites through the API; a site's region must be a leaf of the region tree. */
async function createSites(url: string): Promise<void> {
  const token = await apiLogin(url);
  let node = (await api<RegionNode[]>(url, token, 'GET', '/api/v2/data/information/region/getTree'))[0]!;
  while (node.children?.length) node = node.children[0]!;
  await api(url, token, 'POST', '/api/v2/data/information/platform/reservoir/add', {
    name: 'Qingshan Reservoir',
    regionCode: node.code,
    lon: 103.9,
    lat: 30.6,
  });
  await api(url, token, 'POST', '/api/v2/data/information/platform/disaster/add', {
    name: 'Hillside Hazard Point 7',
    regionCode: node.code,
    lon: 103.8,
    lat: 30.7,
  });
}

async function loginHere(page: Page, url: string): Promise<void> {
  if (process.env.E2E_DEBUG) {
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    page.on('console', (m) => m.type() === 'error' && console.log('console', m.text()));
  }
  await resumeSession(page, url);
}

/** Opens an antd Select (by the id of its input), optionally types to filter, and picks the option. */
async function pick(page: Page, id: string, option: string | RegExp, type?: string): Promise<void> {
  await page.locator(`#${id}`).click();
  if (type) await page.locator(`#${id}`).fill(type);
  // The dropdown of this Select (antd gives its list the id `<id>_list`): on a busy machine another Select's
  // dropdown (the list's site filter) may still be closing, and holds the same option names.
  await page
    .locator(`.ant-select-dropdown:not(.ant-select-dropdown-hidden):has(#${id}_list) .ant-select-item-option`)
    .filter({ hasText: option })
    .first()
    .click();
}

async function openScreen(page: Page, url: string, path: string, testId: string): Promise<void> {
  await page.goto(`${url}/#${path}`);
  await page.locator(`[data-testid="${testId}"]`).waitFor();
}

/** A screenshot once drawers, modals and messages have finished moving (shot() waits for it). */
const snap = (page: Page, name: string): Promise<void> => shot(page, name);

const table = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"]`);
const errors = (page: Page) => page.locator('.ant-form-item-explain-error');

describe('equipment registry in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    await createSites(server.url);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    if (process.env.E2E_DEBUG) console.log(server?.output().slice(-4000));
    await browser?.close();
    await server?.stop();
  });

  it('adds a terminal (key shown once), devices of several types, imports, exports, persons and links', async () => {
    const page = await newPage(browser, 'en-US');
    await loginHere(page, server.url);

    // ---- terminals: add one, its key is shown once in a modal ----
    await openScreen(page, server.url, '/information/terminalInfoManagement', 'terminal-add');
    await page.locator('[data-testid="menu-/information/terminalInfoManagement"]').waitFor();
    await page.locator('[data-testid="terminal-add"]').click();
    await page.locator('[data-testid="terminal-save"]').click();
    await errors(page).first().waitFor();
    expect(await errors(page).allTextContents()).toContain('Please enter the terminal name');
    await pick(page, 'terminal-site', 'Qingshan Reservoir');
    await page.locator('#terminal-name').fill('RTU-01');
    await page.locator('#terminal-serial').fill('QS-RTU-0001');
    await page.locator('#terminal-manufacturer').fill('Geosense');
    await page.locator('#terminal-model').fill('GS-200');
    await page.locator('#terminal-port').fill('1883');
    await snap(page, 'equipment-terminal-form-en');
    await page.locator('[data-testid="terminal-save"]').click();
    const keyText = page.locator('[data-testid="terminal-key"]');
    await keyText.waitFor();
    const key = (await keyText.textContent()) ?? '';
    expect(key.length).toBeGreaterThan(20);
    await snap(page, 'equipment-terminal-key-en');
    await page.locator('[data-testid="terminal-key-done"]').click();
    await expect.poll(() => table(page, 'terminal-table').textContent()).toContain('RTU-01');
    // Once the modal is closed, the key is nowhere in the page any more.
    await expect.poll(() => page.content()).not.toContain(key);
    await snap(page, 'equipment-terminals-en');

    // ---- devices: client rules, then devices of several monitor types ----
    await openScreen(page, server.url, '/information/monitoringDeviceManagement', 'device-add');
    await page.locator('[data-testid="device-add"]').click();
    await page.locator('#device-ip').fill('300.1.1.1');
    await page.locator('#device-offlineHours').fill('-2');
    await page.locator('[data-testid="device-save"]').click();
    await errors(page).first().waitFor();
    const messages = await errors(page).allTextContents();
    for (const m of [
      'Please enter the device name',
      'Please enter the device number',
      'The IP address is not valid',
      'Please enter the port',
      'Please choose a terminal',
    ])
      expect(messages).toContain(m);
    expect(messages.some((m) => m.startsWith('The offline duration must be a valid time'))).toBe(true);
    await snap(page, 'equipment-device-form-invalid-en');
    await page.locator('.ant-drawer-close').click();

    const addDevice = async (o: {
      module: string;
      name: string;
      number: string;
      initial?: [string, string];
      gnss?: 'base' | 'rover';
    }) => {
      await page.locator('[data-testid="device-add"]').click();
      await pick(page, 'device-site', 'Qingshan Reservoir');
      await pick(page, 'device-terminal', 'RTU-01');
      await pick(page, 'device-module', o.module, o.module.replace(/ \(\d+\)$/, ''));
      await page.locator('#device-deviceName').fill(o.name);
      await page.locator('#device-number').fill(o.number);
      await page.locator('#device-ip').fill('10.0.0.8');
      await page.locator('#device-port').fill('502');
      await page.locator('#device-offlineHours').fill('6');
      if (o.initial) await page.locator(`#device-initial-${o.initial[0]}`).fill(o.initial[1]);
      if (o.gnss) {
        await page
          .locator('#device-stationType')
          .getByText(o.gnss === 'base' ? 'Base station' : 'Rover station')
          .click();
        // A seven-parameter set is all or nothing.
        await page.locator('#device-gnss-seven-dx').fill('1.5');
        await page.locator('[data-testid="device-save"]').click();
        await expect.poll(() => errors(page).allTextContents()).toContain('Fill every value of this set, or none');
        await snap(page, `equipment-device-gnss-${o.gnss}-en`);
        for (const k of ['dy', 'dz', 'rx', 'ry', 'rz', 'scale'])
          await page.locator(`#device-gnss-seven-${k}`).fill('0.5');
        if (o.gnss === 'rover') await pick(page, 'device-gnss-baseNumber', 'GNSS base');
      }
      await page.locator('[data-testid="device-save"]').click();
      await expect.poll(() => table(page, 'device-table').textContent(), { timeout: 15_000 }).toContain(o.name);
    };
    await addDevice({
      module: 'Rain gauge (2)',
      name: 'Rain gauge A',
      number: 'QS-RAIN-01',
      initial: ['rainfall', '0'],
    });
    await addDevice({
      module: 'Water level (reservoir) (11)',
      name: 'Reservoir level',
      number: 'QS-WL-01',
      initial: ['waterLevel', '312.5'],
    });
    await addDevice({ module: 'GNSS (1)', name: 'GNSS base', number: 'QS-GNSS-B', gnss: 'base' });
    await addDevice({ module: 'GNSS (1)', name: 'GNSS rover 1', number: 'QS-GNSS-R1', gnss: 'rover' });
    await addDevice({ module: 'Tilt (9)', name: 'Dam tilt', number: 'QS-TILT-01', initial: ['tiltX', '0.12'] });
    await snap(page, 'equipment-devices-en');

    // ---- import: one bad row is reported, the others are added ----
    await page.locator('[data-testid="device-import"]').click();
    await pick(page, 'device-import-site', 'Qingshan Reservoir');
    await pick(page, 'device-import-terminal', 'RTU-01');
    const csv = [
      'deviceName,number,moduleId,ip,port,offlineHours',
      'Imported piezometer 1,QS-IMP-01,17,10.0.0.21,502,12',
      'Imported piezometer 2,QS-IMP-02,17,not-an-ip,502,12',
      'Imported flow 1,QS-IMP-03,12,10.0.0.23,502,',
    ].join('\r\n');
    await page
      .locator('[data-testid="device-import-file"] input[type=file]')
      .setInputFiles({ name: 'devices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator('[data-testid="device-import-start"]:not([disabled])').click();
    await page.locator('[data-testid="device-import-progress"]').waitFor();
    await expect.poll(() => page.locator('[data-testid="device-import-progress"]').textContent()).toContain('3/3');
    await page.locator('[data-testid="device-import-errors"]').waitFor();
    const report = (await page.locator('[data-testid="device-import-errors"] tbody').textContent()) ?? '';
    expect(report).toContain('ip');
    expect(report).toContain('3');
    await snap(page, 'equipment-device-import-en');
    await page.locator('[data-testid="device-import-close"]').click();
    await expect.poll(() => table(page, 'device-table').textContent()).toContain('Imported flow 1');
    expect(await table(page, 'device-table').textContent()).not.toContain('Imported piezometer 2');

    // ---- export: the file carries the filtered devices ----
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid="device-export-csv"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const exported = fs.readFileSync((await download.path())!, 'utf8');
    expect(exported).toContain('QS-GNSS-R1');
    expect(exported).toContain('QS-IMP-03');

    // ---- the device card of the rover, with its GNSS parameters ----
    await page.locator('[data-testid="device-detail-link"]').filter({ hasText: 'GNSS rover 1' }).click();
    await page.locator('[data-testid="device-detail-gnss"]').waitFor();
    expect(await page.locator('[data-testid="device-detail-gnss"]').textContent()).toContain('QS-GNSS-B');
    await snap(page, 'equipment-device-detail-en');

    // ---- unbind and delete warn as the spec says ----
    await openScreen(page, server.url, '/information/monitoringDeviceManagement', 'device-table');
    const row = (name: string) => page.locator('[data-testid="device-table"] .ant-table-row').filter({ hasText: name });
    await row('Dam tilt').locator('[data-testid="device-unbind"]').click();
    await expect
      .poll(() => page.locator('.ant-popover:not(.ant-popover-hidden)').textContent())
      .toContain('a new device must be added');
    await snap(page, 'equipment-device-unbind-en');
    await page.locator('[data-testid="device-unbind-confirm"]').click();
    await expect.poll(() => row('Dam tilt').textContent()).toContain('Unbound');
    await row('Imported flow 1').locator('[data-testid="device-delete"]').click();
    await expect
      .poll(() => page.locator('.ant-popover:not(.ant-popover-hidden)').textContent())
      .toContain('irreversible');
    await page.locator('.ant-popover:not(.ant-popover-hidden) [data-testid="device-delete-confirm"]').click();
    await expect.poll(() => table(page, 'device-table').textContent()).not.toContain('Imported flow 1');

    // ---- a terminal with devices cannot be deleted: the server names them ----
    await openScreen(page, server.url, '/information/terminalInfoManagement', 'terminal-table');
    await page.locator('[data-testid="terminal-delete"]').first().click();
    await page.locator('.ant-popover:not(.ant-popover-hidden) [data-testid="terminal-delete-confirm"]').click();
    await expect
      .poll(() => page.locator('.ant-message-notice-error').allTextContents())
      .toEqual([expect.stringContaining('Rain gauge A')]);
    await snap(page, 'equipment-terminal-delete-refused-en');

    // ---- monitor types of the site ----
    await openScreen(page, server.url, '/information/modules', 'modules-bound');
    await pick(page, 'modules-site', 'Qingshan Reservoir');
    await expect.poll(() => page.locator('[data-testid="modules-bound"]').textContent()).toContain('Rain gauge');
    await pick(page, 'modules-bind', 'Vibration (36)', 'Vibration');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="module-bind"]').click();
    await expect.poll(() => page.locator('[data-testid="modules-bound"]').textContent()).toContain('Vibration');
    await snap(page, 'equipment-modules-en');

    // ---- device overview ----
    await openScreen(page, server.url, '/information/deviceInfo', 'device-info-table');
    await expect.poll(() => page.locator('[data-testid="device-info-count-offline"]').textContent()).toMatch(/\d/);
    await snap(page, 'equipment-device-info-en');

    // ---- responsible persons ----
    await openScreen(page, server.url, '/information/administrator', 'person-add');
    await page.locator('[data-testid="person-add"]').click();
    await page.locator('#person-name').fill('Li Wei');
    await page.locator('#person-phone').fill('call me');
    await page.locator('#person-email').fill('not-an-email');
    await page.locator('[data-testid="person-save"]').click();
    await expect.poll(() => errors(page).allTextContents()).toContain('The email address is not well formed');
    await page.locator('#person-phone').fill('+86 138 0000 1234');
    await page.locator('#person-email').fill('li.wei@example.com');
    await page.locator('#person-title').fill('Dam safety engineer');
    await page.locator('#person-company').fill('Qingshan Water Bureau');
    await pick(page, 'person-sites', 'Qingshan Reservoir');
    await page.keyboard.press('Escape');
    await page.locator('[data-testid="person-save"]').click();
    await expect.poll(() => table(page, 'person-table').textContent()).toContain('Li Wei');
    await snap(page, 'equipment-persons-en');

    // ---- external file links ----
    await openScreen(page, server.url, '/information/cloudDiskLink', 'link-add');
    await page.locator('[data-testid="link-add"]').click();
    await page.locator('#link-name').fill('Dam safety reports');
    await page.locator('#link-url').fill('ftp://files.example.com/reports');
    await page.locator('[data-testid="link-save"]').click();
    await expect.poll(() => errors(page).allTextContents()).toContain('The URL must be a valid http or https address');
    await page.locator('#link-url').fill('https://files.example.com/reports');
    await page.locator('[data-testid="link-save"]').click();
    const link = page.locator('[data-testid="link-open"]').first();
    await link.waitFor();
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await snap(page, 'equipment-links-en');
    await page.context().close();
  }, 300_000);

  it('limits a restricted role to its screens and its data scope', async () => {
    const token = await apiLogin(server.url);
    interface Site {
      platformId: number;
      name: string;
    }
    const sites = [
      ...(
        await api<{ list: Site[] }>(server.url, token, 'GET', '/api/v2/data/information/platform/reservoir/getListPage')
      ).list,
      ...(
        await api<{ list: Site[] }>(server.url, token, 'GET', '/api/v2/data/information/platform/disaster/getListPage')
      ).list,
    ];
    const qingshan = sites.find((s) => s.name === 'Qingshan Reservoir')!.platformId;
    const hillside = sites.find((s) => s.name === 'Hillside Hazard Point 7')!.platformId;
    // Equipment on the other site, which the restricted user must not see.
    const other = await api<{ terminalId: number }>(
      server.url,
      token,
      'POST',
      '/api/v2/data/information/terminal/add',
      {
        platformId: hillside,
        name: 'Hillside RTU',
        serial: 'HS-RTU-0001',
        protocolType: 'MQTT',
      },
    );
    await api(server.url, token, 'POST', '/api/v2/data/information/device/common/add', {
      deviceName: 'Hillside crack meter',
      number: 'HS-CRACK-01',
      moduleId: 7,
      platformId: hillside,
      terminalId: other.terminalId,
      ip: '10.0.1.5',
      port: 502,
    });
    // A role holding home, terminals and monitoring devices only; a user of it limited to Qingshan.
    const keys = ['index', 'information', 'information:terminal', 'information:device'];
    type Perm = { id: number; code: string; children?: Perm[] };
    const tree = await api<Perm[]>(server.url, token, 'GET', '/api/v2/manage/permission/getTree');
    const flat = tree.flatMap((p) => [p, ...(p.children ?? [])]);
    const role = await api<{ id: number }>(server.url, token, 'POST', '/api/v2/manage/role/add', {
      name: 'Reservoir equipment keeper',
      code: 'reservoirKeeper',
    });
    await api(server.url, token, 'POST', '/api/v2/manage/role/setPermissions', {
      roleId: role.id,
      permissionIds: keys.map((k) => flat.find((p) => p.code === k)!.id).join(','),
    });
    const password = 'Keeper-pass-word-7';
    await api(server.url, token, 'POST', '/api/v2/manage/user/add', {
      account: 'keeper',
      password,
      name: 'Reservoir keeper',
      roleId: role.id,
      scopeAll: false,
      platformIds: String(qingshan),
    });

    const page = await newPage(browser, 'en-US');
    await loginAs(page, server.url, 'keeper', password);
    await openScreen(page, server.url, '/information/terminalInfoManagement', 'terminal-table');
    // The menu holds home and the screens of the role's keys (information:device also opens the site's monitor
    // types), nothing else.
    const menuPaths = async () =>
      (await page
        .locator('[data-testid="side-menu"] [data-path]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))) as string[];
    await expect
      .poll(async () => (await menuPaths()).sort())
      .toEqual([
        '/home',
        '/information',
        '/information/modules',
        '/information/monitoringDeviceManagement',
        '/information/terminalInfoManagement',
      ]);
    // Lists show only the equipment of their site.
    await expect.poll(() => table(page, 'terminal-table').textContent()).toContain('RTU-01');
    expect(await table(page, 'terminal-table').textContent()).not.toContain('Hillside RTU');
    await snap(page, 'equipment-restricted-terminals-en');
    await openScreen(page, server.url, '/information/monitoringDeviceManagement', 'device-table');
    await expect.poll(() => table(page, 'device-table').textContent()).toContain('Rain gauge A');
    const devices = (await table(page, 'device-table').textContent()) ?? '';
    expect(devices).not.toContain('Hillside crack meter');
    expect(devices).not.toContain('HS-CRACK-01');
    // The site picker of the device form offers their site only.
    await page.locator('[data-testid="device-add"]').click();
    await page.locator('#device-site').click();
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    await expect.poll(() => options.allTextContents()).toEqual(['Qingshan Reservoir']);
    await page.keyboard.press('Escape');
    await page.locator('.ant-drawer-close').click();
    await snap(page, 'equipment-restricted-devices-en');
    // A screen the role lacks, opened by its address, ends on the 404 page.
    for (const path of ['/information/administrator', '/information/disasterPlatformManagement', '/system/user']) {
      await page.goto(`${server.url}/#${path}`);
      await page.locator('[data-testid="not-found"]').waitFor();
      await expect.poll(() => page.url()).toMatch(/#\/404$/);
    }
    await snap(page, 'equipment-restricted-404-en');
    // And the server refuses what the screens would not offer.
    const keeperToken = (await page.evaluate(() => localStorage.getItem('token'))) ?? '';
    const r = await fetch(`${server.url}/api/v2/data/information/responsible/getListPage`, {
      headers: { token: keeperToken },
    });
    expect(((await r.json()) as Envelope<unknown>).status).not.toBe(0);
    await page.context().close();
  }, 180_000);

  for (const l of [
    { locale: 'zh-CN', lang: 'zh', terminals: '终端信息管理', warning: '仅显示一次' },
    { locale: 'ko-KR', lang: 'ko', terminals: '단말 정보 관리', warning: '한 번만 표시' },
  ]) {
    it(`shows the equipment screens in ${l.lang}`, async () => {
      const page = await newPage(browser, l.locale);
      await loginHere(page, server.url);
      await openScreen(page, server.url, '/information/terminalInfoManagement', 'terminal-table');
      await expect.poll(() => page.locator('[data-testid="breadcrumb"]').textContent()).toContain(l.terminals);
      // A new key is shown once, with the warning in the user's language.
      await page.locator('[data-testid="terminal-rotate"]').first().click();
      await page.locator('.ant-popover:not(.ant-popover-hidden) [data-testid="terminal-rotate-confirm"]').click();
      await page.locator('[data-testid="terminal-key"]').waitFor();
      expect(await page.locator('.ant-modal').textContent()).toContain(l.warning);
      await snap(page, `equipment-terminal-key-${l.lang}`);
      await page.locator('[data-testid="terminal-key-done"]').click();
      await snap(page, `equipment-terminals-${l.lang}`);

      await openScreen(page, server.url, '/information/monitoringDeviceManagement', 'device-table');
      await page.locator('[data-testid="device-table"] .ant-table-row').first().waitFor();
      await snap(page, `equipment-devices-${l.lang}`);
      await page.locator('[data-testid="device-add"]').click();
      await pick(page, 'device-module', /GNSS/, 'GNSS');
      await page.locator('[data-testid="device-save"]').click();
      await errors(page).first().waitFor();
      await snap(page, `equipment-device-form-${l.lang}`);
      await page.locator('.ant-drawer-close').click();

      await page.locator('[data-testid="device-import"]').click();
      await page.locator('[data-testid="device-import-file"]').waitFor();
      await snap(page, `equipment-device-import-${l.lang}`);
      await page.keyboard.press('Escape');

      await page.locator('[data-testid="device-detail-link"]').filter({ hasText: 'GNSS rover 1' }).click();
      await page.locator('[data-testid="device-detail-gnss"]').waitFor();
      await snap(page, `equipment-device-detail-${l.lang}`);

      for (const [path, testId, name] of [
        ['/information/deviceInfo', 'device-info-table', 'device-info'],
        ['/information/modules', 'modules-bound', 'modules'],
        ['/information/administrator', 'person-table', 'persons'],
        ['/information/cloudDiskLink', 'link-table', 'links'],
      ] as const) {
        await openScreen(page, server.url, path, testId);
        if (name === 'modules') await pick(page, 'modules-site', 'Qingshan Reservoir');
        await page
          .locator(`[data-testid="${testId}"] .ant-table-row, [data-testid="${testId}"] .ant-tag`)
          .first()
          .waitFor();
        await snap(page, `equipment-${name}-${l.lang}`);
      }
      await page.context().close();
    }, 180_000);
  }
});
