// Big-screen soak (issue 18): the real server (DEMO on: its portfolio and simulated loggers feed live readings and
// alerts), the built console, and headless Chromium showing the common big screen (/digitalGallery) at 1920x1080 for
// BENCH_BIGSCREEN_MINUTES (30). After BENCH_BIGSCREEN_WARMUP_MINUTES (2) of warm-up, every 30 s: the JS heap after a
// forced garbage collection (CDP Performance.getMetrics JSHeapUsedSize after HeapProfiler.collectGarbage), the
// page's element count, and the frame times of the 30 s (requestAnimationFrame deltas collected in the page).
// Prints heap growth after warm-up (target < 10 %), element growth (target 0) and frame time p95 (target < 50 ms).
// Builds nothing: run `npm run build` first.
import fs from 'node:fs';
import path from 'node:path';
import { apiLogin, launchBrowser, ROOT, startServer } from '../e2e/harness.ts';
import { fmt, machine, num, pct, printTable, sleep } from './lib.ts';

const MINUTES = num('BENCH_BIGSCREEN_MINUTES', 30);
const WARMUP_MINUTES = num('BENCH_BIGSCREEN_WARMUP_MINUTES', 2);
const EVERY_MS = num('BENCH_BIGSCREEN_SAMPLE_SECONDS', 30) * 1000;
const TARGET = { heapGrowthPct: 10, elementGrowth: 0, frameP95Ms: 50 };
const MB = 1024 * 1024;

interface Sample {
  atMin: number;
  heap: number;
  elements: number;
  frames: number[];
  updatedAt: number;
}

// In-page code as source text (this file is type-checked with Node's libraries, without the DOM's names).
/** Collects requestAnimationFrame deltas into a buffer the sampler empties (so the buffer never grows). */
const FRAME_COLLECTOR = `(() => {
  if (window.__bsFrames) return;
  window.__bsFrames = [];
  let last = 0;
  const loop = (t) => {
    if (last) window.__bsFrames.push(t - last);
    last = t;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
})()`;
const TAKE_FRAMES = `(() => { const f = window.__bsFrames; window.__bsFrames = []; return f; })()`;
const ELEMENTS = `document.getElementsByTagName('*').length`;
const UPDATED_AT = `Number(document.querySelector('[data-testid="big-screen-updated"]')?.getAttribute('data-at') ?? 0)`;

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html')))
    throw new Error('web/dist is missing: run `npm run build` first');
  const server = await startServer({ DEMO: 'on' });
  const browser = await launchBrowser();
  const errors: string[] = [];
  try {
    const token = await apiLogin(server.url);
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    page.on('pageerror', (e) => errors.push(e.message));
    // Signed in as the login page leaves it; the map's tiles are the local grid (no tile server is reached here).
    await page.goto(`${server.url}/api/health`);
    await page.evaluate(`(() => {
      localStorage.setItem('token', ${JSON.stringify(token)});
      localStorage.setItem('userName', 'admin');
      localStorage.setItem('mapTileUrl', 'none');
    })()`);
    await page.goto(`${server.url}/#/digitalGallery`);
    await page.locator('[data-testid="big-screen"][data-variant="common"][data-ready="true"]').waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.enable');
    await page.evaluate(FRAME_COLLECTOR);
    const start = Date.now();
    console.error(`big screen open; warm-up ${WARMUP_MINUTES} min, then a sample every ${EVERY_MS / 1000} s`);
    await sleep(WARMUP_MINUTES * 60_000);
    await page.evaluate(TAKE_FRAMES); // frames of the warm-up are not counted

    const samples: Sample[] = [];
    const end = start + MINUTES * 60_000;
    for (;;) {
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
      const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
      const s: Sample = {
        atMin: (Date.now() - start) / 60_000,
        heap,
        elements: await page.evaluate<number>(ELEMENTS),
        frames: await page.evaluate<number[]>(TAKE_FRAMES),
        updatedAt: await page.evaluate<number>(UPDATED_AT),
      };
      samples.push(s);
      console.error(
        `${fmt(s.atMin, 1)} min: heap ${fmt(s.heap / MB, 2)} MB, ${s.elements} elements, ` +
          `${s.frames.length} frames (p95 ${fmt(pct(s.frames, 0.95), 1)} ms)`,
      );
      if (Date.now() + EVERY_MS > end + 1000) break;
      await sleep(EVERY_MS);
    }

    const first = samples[0]!;
    const last = samples.at(-1)!;
    const heapGrowth = ((last.heap - first.heap) / first.heap) * 100;
    // The growth trend over the samples (least squares), less sensitive to where one collection landed.
    const n = samples.length;
    const mx = samples.reduce((a, s) => a + s.atMin, 0) / n;
    const my = samples.reduce((a, s) => a + s.heap, 0) / n;
    const slope =
      samples.reduce((a, s) => a + (s.atMin - mx) * (s.heap - my), 0) /
      Math.max(
        1e-9,
        samples.reduce((a, s) => a + (s.atMin - mx) ** 2, 0),
      );
    const elementGrowth = last.elements - first.elements;
    const frames = samples.flatMap((s) => s.frames);
    const p95 = pct(frames, 0.95);
    const updates = new Set(samples.map((s) => s.updatedAt)).size;
    const ok = (b: boolean): string => (b ? 'met' : 'NOT MET');
    printTable(
      `Big screen soak: ${MINUTES} min of the common variant with the demo's live data, ${n} samples after ` +
        `${WARMUP_MINUTES} min of warm-up (${machine()}, headless Chromium, software rendering)`,
      [
        [
          'JS heap growth after warm-up',
          `${fmt(heapGrowth, 1)} % (${fmt(first.heap / MB, 2)} → ${fmt(last.heap / MB, 2)} MB; trend ${fmt((slope / MB) * 60, 2)} MB/h)`,
          `< ${TARGET.heapGrowthPct} %`,
          ok(heapGrowth < TARGET.heapGrowthPct),
        ],
        [
          'element growth',
          `${elementGrowth} (${first.elements} → ${last.elements})`,
          `${TARGET.elementGrowth}`,
          ok(elementGrowth <= TARGET.elementGrowth),
        ],
        [
          'frame time p95',
          `${fmt(p95, 1)} ms (p50 ${fmt(pct(frames, 0.5), 1)}, max ${fmt(Math.max(...frames), 0)}, ${frames.length} frames)`,
          `< ${TARGET.frameP95Ms} ms`,
          ok(p95 < TARGET.frameP95Ms),
        ],
        [
          'answers shown (distinct getBigScreen times at the samples)',
          `${updates} of ${n}`,
          'live',
          updates > 1 ? 'updating' : 'NOT UPDATING',
        ],
        ['page errors', `${errors.length}`, '0', errors.length === 0 ? 'none' : errors.slice(0, 3).join(' / ')],
      ],
    );
    if (heapGrowth >= TARGET.heapGrowthPct || elementGrowth > 0 || !(p95 < TARGET.frameP95Ms)) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
