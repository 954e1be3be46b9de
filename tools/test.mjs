#!/usr/bin/env node
// `npm test`: everything, in order. Type check, lint, unit and API tests (PGlite, and PostgreSQL on
// 127.0.0.1:5432: under CI=true an unreachable PostgreSQL is a failure, not a skip), the web build,
// and browser tests in headless Chromium (installed from Debian's packages when missing and we are root).
import { spawnSync } from 'node:child_process';
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

function step(name, cmd, args, opts = {}) {
  const t = Date.now();
  console.log(`\n━━ ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
    ...opts,
  });
  const ok = r.status === 0;
  console.log(`━━ ${name}: ${ok ? 'ok' : 'FAILED'} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  return ok;
}

function finish(ok) {
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
  // Chinese and Korean glyphs for readable screenshots (best effort; tests do not depend on it).
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

const pgUp = await reachable('127.0.0.1', 5432);
if (!pgUp && ci) {
  console.error('PostgreSQL on 127.0.0.1:5432 is unreachable, and CI=true: failing.');
  failed += 1;
  finish(false);
}
const haveChromium = ensureChromium();
if (haveChromium) ensureFonts();
if (!haveChromium && ci) {
  console.error('Chromium could not be installed, and CI=true: failing.');
  failed += 1;
  finish(false);
}

let ok = true;
ok = step('type check', 'npm', ['run', '--silent', 'typecheck']) && ok;
ok = step('lint', 'npm', ['run', '--silent', 'lint']) && ok;
// Go on after a type or lint failure, so that one run shows every problem.
if (!ok) failed += 1;

const projects = ['--project', 'unit', '--project', 'api-pglite'];
if (pgUp) projects.push('--project', 'api-pg');
else
  console.warn(
    '\nWARNING: PostgreSQL is not reachable on 127.0.0.1:5432; the api-pg tests are not run (they are in CI).',
  );
const apiJson = path.join(tmp, 'api.json');
ok =
  step('unit and API tests', 'npx', [
    'vitest',
    'run',
    ...projects,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${apiJson}`,
  ]) && ok;
tally(apiJson);

ok = step('web build', 'npm', ['run', '--silent', 'build']) && ok;
if (haveChromium) {
  const e2eJson = path.join(tmp, 'e2e.json');
  ok =
    step('browser tests', 'npx', [
      'vitest',
      'run',
      '--project',
      'e2e',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${e2eJson}`,
    ]) && ok;
  tally(e2eJson);
} else {
  console.warn('\nWARNING: no Chromium (not root, cannot install): browser tests not run.');
}
finish(ok && failed === 0);
