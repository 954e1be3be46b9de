// Web weight benchmark (issue 16, "Weight"): the real server (DEMO on, the built console from web/dist) and a cold
// headless Chromium. Per screen (login, home and every route of the menu): the compressed JavaScript bytes the
// browser fetched to show it and its Largest Contentful Paint, each the median of BENCH_WEB_RUNS (3) cold loads (a
// new browser context each time: empty cache, the session of one login). Builds nothing: run `npm run build` first.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN_PASSWORD, ROOT, launchBrowser, loginAs, startServer } from '../e2e/harness.ts';
import { fmt, machine, num, pct } from './lib.ts';

const RUNS = num('BENCH_WEB_RUNS', 3);
/** BENCH_WEB_FILES=1: also list each script file and its compressed bytes. */
/** BENCH_WEB_SCREENS=<regex>: only the screens whose name matches (e.g. 'login|home'). */
const ONLY = process.env.BENCH_WEB_SCREENS ? new RegExp(process.env.BENCH_WEB_SCREENS) : null;
const KIB = 1024;
const BUDGET = { login: 200 * KIB, home: 350 * KIB, any: 600 * KIB, homeLcpMs: 1000 };

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

interface Load {
  jsBytes: number;
  lcpMs: number;
}

/** Waits until no request has been made or finished for `quietMs` (lazy screens fetch chunks after their data). */
async function settle(page: Page, pending: () => number, lastActivity: () => number, quietMs = 1000): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (pending() === 0 && Date.now() - lastActivity() >= quietMs) return;
    await page.waitForTimeout(100);
  }
}

/** One cold load of a hash route: a fresh context (no cache), the given session, the transferred script bytes. */
async function coldLoad(browser: Browser, url: string, route: string, state?: StorageState): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, storageState: state });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  let jsBytes = 0;
  let pending = 0;
  let last = Date.now();
  // Every request counts for settling (a screen asks for its data, then loads its chart code when it arrives);
  // only scripts count for the bytes.
  page.on('request', () => {
    pending++;
    last = Date.now();
  });
  const done = (): void => {
    pending--;
    last = Date.now();
  };
  page.on('requestfailed', done);
  page.on('requestfinished', (req) => {
    if (req.resourceType() !== 'script') {
      done();
      return;
    }
    // responseBodySize: the body as it crossed the network (compressed when the server compressed it).
    void req
      .sizes()
      .then((s) => {
        jsBytes += s.responseBodySize;
        if (process.env.BENCH_WEB_FILES)
          console.error(`  ${route} ${req.url().replace(/^.*\//, '')} ${s.responseBodySize}`);
      })
      .finally(done);
  });
  await page.goto(`${url}/#${route}`, { waitUntil: 'load' });
  await settle(
    page,
    () => pending,
    () => last,
  );
  const lcpMs = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let value = NaN;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) value = e.startTime;
          // The bench is type-checked with the server's Node libs, which do not know this browser entry type.
        }).observe({ type: 'largest-contentful-paint' as 'mark', buffered: true });
        setTimeout(() => resolve(value), 200);
      }),
  );
  if (!page.url().includes(`#${route}`)) throw new Error(`${route} ended on ${page.url()}`);
  await context.close();
  return { jsBytes, lcpMs };
}

/** The leaf paths of the side menu as the administrator sees it (every group opened). */
async function menuRoutes(page: Page): Promise<string[]> {
  const menu = page.locator('[data-testid="side-menu"]');
  await menu.waitFor();
  for (let round = 0; round < 5; round++) {
    const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
    const n = await closed.count();
    if (n === 0) break;
    for (let i = n - 1; i >= 0; i--) await closed.nth(i).click();
    await page.waitForTimeout(300);
  }
  return menu.evaluate((el) =>
    [...el.querySelectorAll('[data-path]')]
      .filter((s) => !s.closest('.ant-menu-submenu-title'))
      .map((s) => s.getAttribute('data-path')!)
      .filter((p, i, all) => all.indexOf(p) === i),
  );
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html')))
    throw new Error('web/dist is missing: run `npm run build` first');
  // WEB_DIST: a build elsewhere than web/dist (e.g. `vite build --outDir /tmp/x` beside a test run using web/dist).
  const server = await startServer({ DEMO: 'on', ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}) });
  const browser = await launchBrowser();
  try {
    // One login: its session (the token in localStorage) opens every screen below.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
    const routes = (await menuRoutes(page)).filter((r) => r !== '/home');
    const state = await context.storageState();
    await context.close();

    const screens: Array<{ name: string; route: string; state?: StorageState; budget: number }> = [
      { name: 'login', route: '/login', budget: BUDGET.login },
      { name: 'home', route: '/home', state, budget: BUDGET.home },
      // The big screen (issue 18): outside the console, within the screens' budget.
      { name: 'bigScreen', route: '/digitalGallery', state, budget: BUDGET.any },
      ...routes.map((r) => ({ name: r, route: r, state, budget: BUDGET.any })),
    ].filter((s) => !ONLY || ONLY.test(s.name));
    const rows: string[] = [];
    let met = 0;
    let homeLcp = NaN;
    let worst = { name: '', bytes: 0 };
    for (const s of screens) {
      const loads: Load[] = [];
      for (let i = 0; i < RUNS; i++) loads.push(await coldLoad(browser, server.url, s.route, s.state));
      const bytes = pct(
        loads.map((l) => l.jsBytes),
        0.5,
      );
      const lcp = pct(
        loads.map((l) => l.lcpMs),
        0.5,
      );
      if (s.name === 'home') homeLcp = lcp;
      if (bytes > worst.bytes) worst = { name: s.name, bytes };
      const ok = bytes <= s.budget;
      if (ok) met++;
      rows.push(
        `| ${s.name} | ${fmt(bytes / KIB, 1)} | ${fmt(s.budget / KIB)} | ${ok ? 'met' : 'NOT MET'} | ${fmt(lcp)} |`,
      );
      console.error(`${s.name}: ${fmt(bytes / KIB, 1)} KiB, LCP ${fmt(lcp)} ms`);
    }
    console.log(`\nWeb weight: compressed JavaScript per screen, cold, median of ${RUNS} (${machine()})`);
    console.log('\n| screen | JS KiB (compressed) | budget KiB | budget | LCP ms |\n|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    console.log(
      `\nBudgets: ${met}/${screens.length} screens within their JavaScript budget (login ≤ 200 KiB, home ≤ 350 KiB, ` +
        `others ≤ 600 KiB); heaviest ${worst.name} ${fmt(worst.bytes / KIB, 1)} KiB; home LCP ${fmt(homeLcp)} ms ` +
        `(budget < ${BUDGET.homeLcpMs} ms: ${homeLcp < BUDGET.homeLcpMs ? 'met' : 'NOT MET'}).`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
