import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  expectNoRawKeys,
  launchBrowser,
  loginAs,
  newPage,
  shot,
  startServer,
  type RunningServer,
} from './harness.ts';

const LANGS = [
  { locale: 'en-US', lang: 'en', login: 'User login', home: 'Home', users: 'Users' },
  { locale: 'zh-CN', lang: 'zh', login: '用户登录', home: '首页', users: '用户管理' },
  { locale: 'ko-KR', lang: 'ko', login: '사용자 로그인', home: '홈', users: '사용자 관리' },
];

async function login(page: Page, url: string, account: string, password: string): Promise<void> {
  await page.goto(`${url}/#/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('button[type=submit]').click();
}

/** Logs in, ending another open session of the account if the server says there is one. */
async function loginHere(page: Page, url: string, account: string, password: string): Promise<void> {
  await loginAs(page, url, account, password);
}

describe('console shell in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  // The whole walk in English; Chinese and Korean are checked on the same screens (labels, no raw keys) below.
  for (const l of LANGS.slice(0, 1)) {
    it(`logs in through the login page and walks the shell in ${l.lang}`, async () => {
      const page = await newPage(browser, l.locale);
      await page.goto(`${server.url}/`);
      // Not logged in: the guard sends us to the login page, in the browser's language.
      await page.waitForURL(/#\/login/);
      await expect.poll(() => page.locator('.gs-login-title').textContent()).toBe(l.login);
      await shot(page, `login-${l.lang}`);

      await login(page, server.url, 'admin', ADMIN_PASSWORD);
      await page.waitForURL(/#\/home/);
      await page.locator('[data-testid="side-menu"]').waitFor();
      await expect.poll(() => page.locator('[data-testid="tab-/home"]').textContent()).toContain(l.home);
      await shot(page, `home-${l.lang}`);

      // The side menu is built from the permissions: the super administrator sees the system group.
      await page
        .locator('[data-testid="side-menu"]')
        .getByText(l.users === 'Users' ? 'System' : l.lang === 'zh' ? '系统管理' : '시스템 관리')
        .click();
      await page.locator('[data-testid="menu-/system/user"]').click();
      await page.waitForURL(/#\/system\/user/);
      await page.locator('[data-testid="tab-/system/user"]').waitFor();
      await expect.poll(() => page.locator('[data-testid="breadcrumb"]').textContent()).toContain(l.users);
      await page.locator('.ant-table-row').first().waitFor();
      expect(await page.locator('.ant-table-row').count()).toBeGreaterThan(0);
      await shot(page, `users-${l.lang}`);

      // Visiting the same path again does not add a second tab.
      await page.locator('[data-testid="menu-/system/user"]').click();
      expect(await page.locator('[data-testid="tab-/system/user"]').count()).toBe(1);

      // Tab context menu: close others keeps the pinned home tab and the current one.
      await page.locator('[data-testid="menu-/system/role"]').click();
      await page.locator('[data-testid="tab-/system/role"]').waitFor();
      await page.locator('[data-testid="tab-/system/role"]').click({ button: 'right' });
      await page.locator('[data-testid="tab-menu-close-others"]').click();
      await expect.poll(() => page.locator('[data-testid="tab-/system/user"]').count()).toBe(0);
      expect(await page.locator('[data-testid="tab-/home"]').count()).toBe(1);
      // Close all: only the pinned tab stays, and we land on it.
      await page.locator('[data-testid="tab-/system/role"]').click({ button: 'right' });
      await page.locator('[data-testid="tab-menu-close-all"]').click();
      await page.waitForURL(/#\/home/);
      expect(await page.locator('[data-testid="tab-/system/role"]').count()).toBe(0);

      // Unknown path: the 404 page.
      await page.goto(`${server.url}/#/no/such/screen`);
      await page.locator('[data-testid="not-found"]').waitFor();

      // Logout: back to the login page, and the old token no longer works.
      await page.goto(`${server.url}/#/home`);
      await page.locator('[data-testid="user-menu"]').click();
      await page.locator('[data-testid="user-menu-logout"]').click();
      await page.waitForURL(/#\/login/);
      expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await page.context().close();
    });
  }

  for (const l of LANGS.slice(1)) {
    it(`shows the login page, home and users in ${l.lang}`, async () => {
      const page = await newPage(browser, l.locale);
      await page.goto(`${server.url}/`);
      await page.waitForURL(/#\/login/);
      await expect.poll(() => page.locator('.gs-login-title').textContent()).toBe(l.login);
      await expectNoRawKeys(page);
      await shot(page, `login-${l.lang}`);

      // The session of the test before is still open: loginHere ends it when the server asks.
      await loginHere(page, server.url, 'admin', ADMIN_PASSWORD);
      await page.locator('[data-testid="side-menu"]').waitFor();
      await expect.poll(() => page.locator('[data-testid="tab-/home"]').textContent()).toContain(l.home);
      await expectNoRawKeys(page);
      await shot(page, `home-${l.lang}`);

      await page
        .locator('[data-testid="side-menu"]')
        .getByText(l.lang === 'zh' ? '系统管理' : '시스템 관리')
        .click();
      await page.locator('[data-testid="menu-/system/user"]').click();
      await page.waitForURL(/#\/system\/user/);
      await expect.poll(() => page.locator('[data-testid="breadcrumb"]').textContent()).toContain(l.users);
      await page.locator('.ant-table-row').first().waitFor();
      await expectNoRawKeys(page);
      await shot(page, `users-${l.lang}`);
      await page.context().close();
    });
  }

  it('switches language from the shell and remembers the choice', async () => {
    const page = await newPage(browser, 'en-US');
    await loginHere(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.locator('[data-testid="lang-switch"]').click();
    await page.locator('[data-testid="lang-ko"]').click();
    await expect.poll(() => page.locator('[data-testid="tab-/home"]').textContent()).toContain('홈');
    await page.reload();
    await expect.poll(() => page.locator('[data-testid="tab-/home"]').textContent()).toContain('홈');
    // The sidebar toggle is remembered in the sidebarStatus cookie.
    await page.locator('[data-testid="sidebar-toggle"]').click();
    await expect.poll(() => page.locator('[data-testid="sidebar"]').getAttribute('data-collapsed')).toBe('true');
    await page.reload();
    await expect.poll(() => page.locator('[data-testid="sidebar"]').getAttribute('data-collapsed')).toBe('true');
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => c.name === 'sidebarStatus')).toBe(true);
    await page.context().close();
  });

  it('shows remaining attempts on a wrong password', async () => {
    const page = await newPage(browser, 'en-US');
    await login(page, server.url, 'admin', 'definitely-wrong');
    await expect.poll(() => page.locator('[data-testid="login-notice"]').textContent()).toMatch(/4 attempts remaining/);
    await shot(page, 'login-wrong-password');
    await page.context().close();
  });

  it('offers to end the other session when the account is logged in elsewhere', async () => {
    const first = await newPage(browser, 'en-US');
    await loginHere(first, server.url, 'admin', ADMIN_PASSWORD);
    const second = await newPage(browser, 'en-US');
    await login(second, server.url, 'admin', ADMIN_PASSWORD);
    await second.locator('[data-testid="login-elsewhere-confirm"]').waitFor();
    await shot(second, 'login-elsewhere');
    await second.locator('[data-testid="login-elsewhere-confirm"]').click();
    await second.waitForURL(/#\/home/);
    // The first session has ended: its next request sends it to the login page.
    await first.goto(`${server.url}/#/system/user`);
    await first.waitForURL(/#\/login/);
    await first.context().close();
    await second.context().close();
  });
});

describe('login with the identifying code switched on', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ CAPTCHA: 'on' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the captcha image and refuses a wrong code', async () => {
    const page = await newPage(browser, 'zh-CN');
    await page.goto(`${server.url}/#/login`);
    await page.locator('[data-testid="captcha-image"]').waitFor();
    await page.locator('#account').fill('admin');
    await page.locator('#password').fill(ADMIN_PASSWORD);
    await page.locator('#captcha').fill('zzzz');
    await page.locator('button[type=submit]').click();
    await expect.poll(() => page.locator('[data-testid="login-notice"]').textContent()).toMatch(/验证码/);
    await shot(page, 'login-captcha-zh');
    await page.context().close();
  });
});
