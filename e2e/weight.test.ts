import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, launchBrowser, loginAs, newPage, startServer, type RunningServer } from './harness.ts';

/** The script files a page fetched, with the Content-Encoding each came with ('small' under 1 KB, sent plain). */
function watchScripts(page: Page): Map<string, string> {
  const seen = new Map<string, string>();
  page.on('response', (r) => {
    if (r.request().resourceType() !== 'script') return;
    const h = r.headers();
    const small = !h['content-encoding'] && Number(h['content-length']) < 1024;
    seen.set(r.url().replace(/^.*\//, ''), small ? 'small' : (h['content-encoding'] ?? ''));
  });
  return seen;
}
/** The languages whose catalogues were fetched (each language has a boot chunk and one for the rest). */
const locales = (seen: Map<string, string>): string[] =>
  [...new Set([...seen.keys()].map((f) => /^locale-([a-z]+)-/.exec(f)?.[1]).filter((l): l is string => !!l))].sort();

describe('console weight in a real browser', () => {
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

  it('sends the scripts compressed and loads only the active language, the other on switching', async () => {
    const page = await newPage(browser, 'zh-CN');
    const seen = watchScripts(page);
    await page.goto(`${server.url}/#/login`);
    await page.locator('#account').waitFor();
    expect(locales(seen)).toEqual(['zh']);
    expect(seen.size).toBeGreaterThan(0);
    for (const [file, encoding] of seen) expect(encoding, file).toMatch(/^(br|small)$/);
    expect([...seen.values()].filter((e) => e === 'br').length).toBeGreaterThan(3);
    // The login page does not download the console's layout or its charts, nor the catalogues of its screens.
    expect([...seen.keys()].some((f) => /^(MainLayout|EChart)-/.test(f))).toBe(false);
    expect([...seen.keys()].filter((f) => f.startsWith('locale-'))).toEqual([
      expect.stringMatching(/^locale-zh-boot-/),
    ]);

    await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
    await page.locator('[data-testid="lang-switch"]').click();
    await page.locator('[data-testid="lang-ko"]').click();
    await expect.poll(() => page.locator('[data-testid="tab-/home"]').textContent()).toContain('홈');
    expect(locales(seen)).toEqual(['ko', 'zh']);
    await page.context().close();
  });

  it('asks for the first answers of a signed-in start before its scripts run, once each', async () => {
    const page = await newPage(browser, 'en-US');
    await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
    const asked: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      asked.push(r.resourceType() === 'image' ? `image ${u.pathname}` : u.pathname);
    });
    await page.reload();
    await page.locator('[data-testid="home-greeting"]').waitFor();
    await page.waitForTimeout(500);
    const once = (path: string): void =>
      expect(
        asked.filter((a) => a === path),
        path,
      ).toHaveLength(1);
    // preload.js asked for them (web/public/preload.js askEarly) and the page took those answers (api.ts
    // takeEarly) instead of asking again; the shell's first picture (the logo) is drawn by the scripts, later.
    for (const path of ['/api/v2/manage/user/getUserInfo', '/api/v2/manage/system/getPublicConfig']) {
      once(path);
      expect(asked.indexOf(path)).toBeLessThan(asked.findIndex((a) => a.startsWith('image ')));
    }
    await page.context().close();
  });
});
