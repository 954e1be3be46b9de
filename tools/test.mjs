#!/usr/bin/env node
// `npm test`: everything. Type check, lint, unit and API tests (PGlite, and PostgreSQL on 127.0.0.1:5432: under
// CI=true an unreachable PostgreSQL is a failure, not a skip), the web build, and browser tests in headless
// Chromium (installed from Debian's packages when missing and we are root).
// Steps overlap so that both cores stay busy: type check, lint and the web build run side by side while the unit
// and API tests run (two test files at a time); the browser tests start as soon as the build is done. Each
// step's output is printed as one block when it ends.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ci = process.env.CI === 'true';
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-testrun-'));
const started = Date.now();
let passed = 0;
let failed = 0;
let skipped = 0;

const timings = [];

/** Runs a step with its output in a file, printed as one block when it ends; resolves to whether it passed. */
function step(name, cmd, args) {
  const t = Date.now();
  const log = path.join(tmp, `${name.replace(/\W+/g, '-')}.log`);
  const fd = fs.openSync(log, 'w');
  console.log(`━━ ${name}: started (${cmd} ${args.join(' ')})`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    });
    const done = (ok, why = '') => {
      fs.closeSync(fd);
      const secs = (Date.now() - t) / 1000;
      timings.push([name, secs, (t - started) / 1000]);
      console.log(`\n━━ ${name}: ${cmd} ${args.join(' ')}`);
      process.stdout.write(fs.readFileSync(log, 'utf8') + why);
      console.log(`━━ ${name}: ${ok ? 'ok' : 'FAILED'} (${secs.toFixed(1)} s)`);
      resolve(ok);
    };
    child.on('error', (e) => done(false, `${e.message}\n`));
    child.on('close', (code) => done(code === 0));
  });
}

function finish(ok) {
  if (timings.length) {
    console.log('\nsteps (start after, duration):');
    for (const [name, secs, at] of timings)
      console.log(`  ${name.padEnd(20)} +${at.toFixed(0).padStart(4)} s  ${secs.toFixed(1).padStart(6)} s`);
  }
  console.log(`\nnpm test finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(ok ? 0 : 1);
}

function tally(file) {
  try {
    const j = JSON.parse(fs.readFileSync(file, 'utf8'));
    passed += j.numPassedTests ?? 0;
    failed += j.numFailedTests ?? 0;
    skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  } catch {
    failed += 1;
  }
}

function reachable(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 2000 }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

function ensureFonts() {
  // Chinese and Korean glyphs for readable screenshots and for the PDF reports (their tests read the Chinese text).
  if (
    fs.existsSync('/usr/share/fonts/opentype/noto') ||
    !(typeof process.getuid === 'function' && process.getuid() === 0)
  )
    return;
  spawnSync('apt-get', ['install', '-y', '-qq', 'fonts-noto-cjk'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** pdftotext (poppler-utils): the report tests read the text of the PDFs they download. */
function ensurePdfText() {
  if (fs.existsSync('/usr/bin/pdftotext')) return true;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log('pdftotext is missing: installing Debian package poppler-utils');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'poppler-utils'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return fs.existsSync('/usr/bin/pdftotext');
}

function ensureChromium() {
  if (process.env.CHROMIUM_PATH && fs.existsSync(process.env.CHROMIUM_PATH)) return true;
  if (fs.existsSync('/usr/bin/chromium')) return true;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log('Chromium is missing: installing Debian package chromium');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return fs.existsSync('/usr/bin/chromium');
  }
  return false;
}

/** ffmpeg: the camera tests remux and grab frames of a synthetic RTSP stream with it (Debian package ffmpeg). */
function ensureFfmpeg() {
  const have = () => spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).status === 0;
  if (have()) return true;
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    console.log('ffmpeg is missing: installing Debian package ffmpeg');
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    spawnSync('apt-get', ['install', '-y', '-qq', 'ffmpeg'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  return have();
}

const pgUp = await reachable('127.0.0.1', 5432);
if (!pgUp && ci) {
  console.error('PostgreSQL on 127.0.0.1:5432 is unreachable, and CI=true: failing.');
  failed += 1;
  finish(false);
}
const haveChromium = ensureChromium();
// The fonts also give the PDF reports their Chinese and Korean glyphs (server/src/platform/reports/fonts.ts).
if (haveChromium) ensureFonts();
if (!ensurePdfText() && ci) {
  console.error('pdftotext (poppler-utils) could not be installed, and CI=true: failing.');
  failed += 1;
  finish(false);
}
if (!ensureFfmpeg() && ci) {
  console.error('ffmpeg could not be installed, and CI=true: failing.');
  failed += 1;
  finish(false);
}
if (!haveChromium && ci) {
  console.error('Chromium could not be installed, and CI=true: failing.');
  failed += 1;
  finish(false);
}

const projects = ['--project', 'unit', '--project', 'api-pglite'];
if (pgUp) projects.push('--project', 'api-pg');
else
  console.warn(
    '\nWARNING: PostgreSQL is not reachable on 127.0.0.1:5432; the api-pg tests are not run (they are in CI).',
  );
const apiJson = path.join(tmp, 'api.json');
// Two test files at a time: a PGlite file keeps one core busy, a PostgreSQL one waits on the server half the time.
const apiTests = step('unit and API tests', 'npx', [
  'vitest',
  'run',
  ...projects,
  '--maxWorkers=2',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${apiJson}`,
]).then((ok) => {
  tally(apiJson);
  return ok;
});
// Type check and lint side by side; failures do not stop the run, so that one run shows every problem.
const checks = Promise.all([
  step('type check', 'npm', ['run', '--silent', 'typecheck']),
  step('lint', 'npm', ['run', '--silent', 'lint']),
]).then((oks) => {
  const ok = oks.every(Boolean);
  if (!ok) failed += 1;
  return ok;
});
const build = step('web build', 'npm', ['run', '--silent', 'build']);
const browserTests = build.then(async (built) => {
  if (!haveChromium) {
    console.warn('\nWARNING: no Chromium (not root, cannot install): browser tests not run.');
    return true;
  }
  if (!built) {
    console.warn('\nThe web build failed: browser tests not run.');
    failed += 1;
    return false;
  }
  const e2eJson = path.join(tmp, 'e2e.json');
  const ok = await step('browser tests', 'npx', [
    'vitest',
    'run',
    '--project',
    'e2e',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${e2eJson}`,
  ]);
  tally(e2eJson);
  return ok;
});
const oks = await Promise.all([checks, build, apiTests, browserTests]);
finish(oks.every(Boolean) && failed === 0);
