// Map benchmark (issue 21, "20,000 devices on one map stay fluid"): the console's map code (Leaflet, the coordinate
// grid, ClusterLayer from web/src/shared/map/cluster.ts, bundled here with esbuild) in headless Chromium at 1280x800
// with 20,000 devices. Frame time = the interval between animation frames while the map pans (a step every frame,
// each one a redraw) and zooms (animated, in and out). Ours: clustered (supercluster, one canvas). The peer: every
// device its own circle on a canvas renderer (Leaflet's fastest plain drawing). Budget: pan and zoom p95 < 33 ms.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { launchBrowser, ROOT } from '../e2e/harness.ts';
import { fmt, machine, num, pct, printTable } from './lib.ts';

const DEVICES = num('BENCH_MAP_DEVICES', 20_000);
const BUDGET_MS = 33;

async function bundle(): Promise<string> {
  const r = await build({
    entryPoints: [path.join(ROOT, 'bench', 'web-map.entry.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    minify: true,
    target: 'es2022',
    logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}

interface Run {
  pan: number[];
  panWork: number[];
  zoom: number[];
  zoomWork: number[];
  setupMs: number;
  drawn: number;
}

async function run(script: string, css: string, mode: 'cluster' | 'plain'): Promise<Run> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('crash', () => console.error(`${mode}: the page crashed`));
    page.on('pageerror', (e) => console.error(`${mode}: ${e.message}`));
    await page.setContent(
      '<!doctype html><html><body style="margin:0"><div id="map" style="width:1280px;height:800px"></div></body></html>',
    );
    await page.addStyleTag({ content: css });
    await page.addScriptTag({ content: script });
    return await page.evaluate(
      ({ mode, n }) =>
        (globalThis as unknown as { gsBench: { run(m: string, n: number): Promise<Run> } }).gsBench.run(mode, n),
      { mode, n: DEVICES },
    );
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const script = await bundle();
  const css = fs.readFileSync(path.join(ROOT, 'node_modules', 'leaflet', 'dist', 'leaflet.css'), 'utf8');
  const ours = await run(script, css, 'cluster');
  const peer = await run(script, css, 'plain');
  const p95 = (xs: number[]) => pct(xs, 0.95);
  const cores = os.cpus().length;
  const load = os.loadavg()[0]!;
  const judged = load < cores;
  const verdict = (v: number) => (v < BUDGET_MS ? 'pass' : judged ? 'FAIL' : 'over (machine loaded)');
  const row = (name: string, o: number[], p: number[], budget: boolean) => [
    name,
    fmt(p95(o), 1),
    fmt(p95(p), 1),
    fmt(p95(p) / p95(o), 1),
    budget ? verdict(p95(o)) : '',
  ];
  printTable(`Map with ${DEVICES} devices, 1280x800, headless Chromium (${machine()}, load average ${fmt(load, 1)})`, [
    ['pan frame time p95, ms', ...row('', ours.pan, peer.pan, true).slice(1)],
    ['zoom frame time p95, ms', ...row('', ours.zoom, peer.zoom, true).slice(1)],
    row('pan main-thread work per frame p95, ms', ours.panWork, peer.panWork, true),
    row('zoom main-thread work per frame p95, ms', ours.zoomWork, peer.zoomWork, true),
    ['pan frame time median, ms', fmt(pct(ours.pan, 0.5), 1), fmt(pct(peer.pan, 0.5), 1), '', ''],
    ['first draw, ms', fmt(ours.setupMs, 0), fmt(peer.setupMs, 0), fmt(peer.setupMs / ours.setupMs, 1), ''],
    ['shapes drawn at the end', String(ours.drawn), String(peer.drawn), 'peer: every device', ''],
  ]);
  if (!judged)
    console.log(
      `\nThe machine is loaded (load average ${fmt(load, 1)} on ${cores} cores): frame times are shown, not judged.`,
    );
  const fail = [ours.pan, ours.zoom].some((x) => p95(x) >= BUDGET_MS) && judged;
  const workFail = [ours.panWork, ours.zoomWork].some((x) => p95(x) >= BUDGET_MS);
  if (fail || workFail) process.exit(1);
}

await main();
