// Screenshots of every list page, to look at (issue 16: "screenshots of every list page at 1280 px and 1440 px in
// one language, and of five in the other two"). Starts the real server with demo data and the built console
// (`npm run build` first), opens every screen of the super administrator's menu, and for each screen that shows a
// table saves test-results/screens/<lang>-<width>-<path>.png. It also prints, per list, any column header the fixed
// columns cover and whether the page scrolls sideways, so a reader knows which pictures to look at first.
// Run: npx tsx tools/screens.ts   (SCREENS_OTHER=5: how many lists to take in zh and ko)
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  ADMIN_PASSWORD,
  ROOT,
  launchBrowser,
  loginAs,
  menuScreens,
  newPage,
  requestsDone,
  startServer,
} from '../e2e/harness.ts';

const OUT = path.join(ROOT, 'test-results', 'screens');
const OTHER = Number(process.env.SCREENS_OTHER ?? 5);

/** Opens a screen and waits until its view shows and has stopped loading. */
async function open(page: Page, url: string, screen: string): Promise<void> {
  await page.goto(`${url}/#${screen}`);
  const view = page.locator(`.gs-view[data-view-path="${screen}"]`);
  await view.waitFor({ state: 'visible' });
  await page
    .waitForFunction(
      // A string: this file is type-checked without the DOM's types (tools run under the server's settings).
      `(() => {
        const v = document.querySelector('.gs-view[data-view-path="${screen}"]');
        return !!v && !v.querySelector('.gs-view-loading, .ant-skeleton, .ant-spin-spinning');
      })()`,
      undefined,
      { timeout: 15_000, polling: 100 },
    )
    .catch(() => undefined);
  await requestsDone(page, 10_000);
  await page.waitForTimeout(300); // the table's sticky columns settle after the first layout
}

interface Findings {
  isList: boolean;
  covered: string[];
  sideways: boolean;
}

/** Whether the active view holds a table; the header cells a fixed column covers; sideways scrolling of the page. */
function findings(page: Page, screen: string): Promise<Findings> {
  return page.evaluate<Findings>(`(() => {
    const view = document.querySelector('.gs-view[data-view-path="${screen}"]');
    const table = view ? view.querySelector('.ant-table') : null;
    const covered = [];
    if (table)
      for (const th of table.querySelectorAll(
        'thead th:not(.ant-table-cell-fix-left):not(.ant-table-cell-fix-right):not(.ant-table-selection-column)',
      )) {
        const r = th.getBoundingClientRect();
        if (r.width === 0) continue;
        const top = document.elementFromPoint(r.left + Math.min(12, r.width / 2), r.top + r.height / 2);
        const fixed = top ? top.closest('.ant-table-cell-fix-left, .ant-table-cell-fix-right') : null;
        if (fixed && fixed !== th) covered.push((th.textContent || '').trim() || '(blank)');
      }
    return {
      isList: !!table,
      covered,
      sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    };
  })()`);
}

const server = await startServer({ DEMO: 'on' });
const browser = await launchBrowser();
fs.mkdirSync(OUT, { recursive: true });
try {
  const lists: string[] = [];
  for (const lang of ['en', 'zh', 'ko'] as const) {
    const page = await newPage(browser, lang);
    await loginAs(page, server.url, 'admin', ADMIN_PASSWORD);
    // In zh and ko, OTHER lists spread over the menu (not the first few, which are all site lists).
    const step = Math.max(1, Math.floor(lists.length / OTHER));
    const screens = lang === 'en' ? await menuScreens(page) : lists.filter((_, i) => i % step === 0).slice(0, OTHER);
    for (const width of lang === 'en' ? [1440, 1280] : [1440]) {
      await page.setViewportSize({ width, height: 900 });
      for (const screen of screens) {
        await open(page, server.url, screen);
        const f = await findings(page, screen);
        if (!f.isList) continue;
        if (lang === 'en' && width === 1440) lists.push(screen);
        const file = path.join(OUT, `${lang}-${width}-${screen.replace(/^\//, '').replace(/\W+/g, '_')}.png`);
        await page.screenshot({ path: file });
        const notes = [
          f.covered.length ? `covered: ${f.covered.join(', ')}` : '',
          f.sideways ? 'page scrolls sideways' : '',
        ].filter(Boolean);
        console.log(`${lang} ${width} ${screen}${notes.length ? `  !! ${notes.join('; ')}` : ''}`);
      }
    }
    await page.context().close();
  }
  console.log(`\n${lists.length} list pages; screenshots in ${path.relative(ROOT, OUT)}`);
} finally {
  await browser.close();
  await server.stop();
}
