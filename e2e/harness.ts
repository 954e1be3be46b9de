import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { signLogin } from '@geosentry/contract';
import { copyPgliteTemplate } from '../server/test/templateDb.ts';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const ADMIN_PASSWORD = 'E2e-admin-password-1';
export const SHOTS = path.join(ROOT, 'test-results', 'screenshots');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface RunningServer {
  url: string;
  dataDir: string;
  proc: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
  /** Stops the server process and starts it again on the same port and data folder (the data stays). */
  restart(): Promise<void>;
}

/**
 * A private copy of the built console: the server registers the files it finds at start, so a rebuild of
 * web/dist by someone else while a test file runs would otherwise break the pages that load later. E2E_WEB_DIST
 * names another build (one built into a private folder while others rebuild web/dist).
 */
function copyOfWeb(): string {
  const src = process.env.E2E_WEB_DIST ? path.resolve(process.env.E2E_WEB_DIST) : path.join(ROOT, 'web/dist');
  // A build empties web/dist first: a copy missing index.html or one of its assets is taken again (up to 60 s).
  for (let attempt = 0; attempt < 30; attempt++) {
    if (attempt > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);
    if (!fs.existsSync(path.join(src, 'index.html'))) continue;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-e2e-web-'));
    try {
      fs.cpSync(src, dir, { recursive: true });
      const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
      const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
      if (assets.every((a) => fs.existsSync(path.join(dir, a)))) return dir;
    } catch {
      // Files went away while copying: again.
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('web/dist is missing or being rebuilt: run `npm run build` first');
}

/**
 * Starts the real server process (PGlite in a temp folder, a copy of the built web unless `env.WEB_DIST` says
 * which) on a free port.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const web = env.WEB_DIST === undefined ? copyOfWeb() : undefined;
  const port = await freePort();
  // A copy of the migrated PGlite template (server/test/templateDb.ts): the server's own initdb and migrations
  // took 10 to 25 s per start on the loaded two-core machine; it still runs migrate() (nothing left to do).
  const dataDir =
    (env.DATABASE_URL ?? process.env.DATABASE_URL)
      ? fs.mkdtempSync(path.join(os.tmpdir(), 'gs-e2e-'))
      : await copyPgliteTemplate('migrated');
  let out = '';
  const childEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CAPTCHA: 'off',
    ADMIN_PASSWORD,
    DEMO: 'off',
    LOG_LEVEL: 'warn',
    MQTT_PORT: String(await freePort()),
    ...(web ? { WEB_DIST: web } : {}),
    ...env,
  };
  const url = `http://127.0.0.1:${port}`;
  const launch = async (): Promise<ChildProcess> => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { cwd: ROOT, env: childEnv });
    proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    // Generous: on the shared two-core machine under load a start has taken over 100 s (tsx, PGlite, the app).
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
      try {
        const r = await fetch(`${url}/api/health`);
        if (r.ok) break;
      } catch {
        /* not yet */
      }
      if (Date.now() > deadline) throw new Error(`server did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    return proc;
  };
  const halt = async (proc: ChildProcess): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
  };
  const server: RunningServer = {
    url,
    dataDir,
    proc: await launch(),
    output: () => out,
    async stop() {
      await halt(server.proc);
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (web) fs.rmSync(web, { recursive: true, force: true });
    },
    async restart() {
      await halt(server.proc);
      server.proc = await launch();
    },
  };
  return server;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A page with the browser language set (the console picks its language from it when none is stored). */
export async function newPage(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  // Generous waits: the two-core CI machine runs the server, the browser and the tests at once.
  page.setDefaultTimeout(60_000);
  watch(page);
  return page;
}

interface Watched {
  /** Requests sent and not yet answered (or failed). */
  pending: Set<Request>;
  /** Messages the server sent on the page's sockets, parsed (JSON ones only). */
  received: { type?: unknown; all?: unknown; platformIds?: unknown }[];
}
const watched = new WeakMap<Page, Watched>();

/** Follows a page's requests and socket messages (newPage does it; settle() and subscribed() start it late). */
export function watch(page: Page): Watched {
  let w = watched.get(page);
  if (w) return w;
  const mine: Watched = { pending: new Set(), received: [] };
  page.on('request', (r) => mine.pending.add(r));
  page.on('requestfinished', (r) => mine.pending.delete(r));
  page.on('requestfailed', (r) => mine.pending.delete(r));
  page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => {
      try {
        if (typeof f.payload === 'string') mine.received.push(JSON.parse(f.payload) as Watched['received'][number]);
      } catch {
        /* not JSON */
      }
    }),
  );
  watched.set(page, mine);
  w = mine;
  return w;
}

/**
 * Waits until the server has confirmed a subscription of the page's live socket ({"type":"subscribed"}), to all
 * sites or to `platformId`: a reading ingested after it reaches the page.
 */
export async function subscribed(page: Page, platformId?: number, timeout = 30_000): Promise<void> {
  const w = watch(page);
  const deadline = Date.now() + timeout;
  const ok = (m: Watched['received'][number]): boolean =>
    m.type === 'subscribed' &&
    (platformId === undefined ||
      m.all === true ||
      (Array.isArray(m.platformIds) && (m.platformIds as unknown[]).includes(platformId)));
  // The server answers every subscribe and unsubscribe with the whole set: the last answer is the state.
  const current = (): boolean => {
    const last = w.received.filter((m) => m.type === 'subscribed').at(-1);
    return last !== undefined && ok(last);
  };
  while (!current()) {
    if (Date.now() > deadline)
      throw new Error(`no subscription confirmed by the server (socket messages: ${JSON.stringify(w.received)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * What is still moving on the page, or '' when nothing is: finite CSS animations and transitions (drawers,
 * modals, dropdowns and messages coming and going; spinners' endless ones are not waiting for anything, nor the
 * fading of a button's click wave), visible
 * loading spinners, images and fonts still loading, and canvases (charts draw their entry animation frame by
 * frame) whose pixels changed since the previous probe. Not rc-motion's class names: a button's loading icon
 * keeps its `-leave-active` class when its transition never ends.
 */
// In-page code as source text: bench/web.bench.ts imports this harness and is type-checked with the server's
// Node libraries (no DOM), so no DOM names may appear in this file's TypeScript.
const MOVING_PROBE = `(() => {
  const visible = (el) => el.getClientRects().length > 0;
  if (document.fonts.status !== 'loaded') return 'fonts';
  for (const a of document.getAnimations()) {
    if (a.playState !== 'running') continue;
    // After its 0.4 s ring, the click wave of an antd button fades out over 2 s, nearly invisible: not waited for.
    if (a.transitionProperty === 'opacity' && a.effect?.target?.classList?.contains('ant-wave')) continue;
    if (a.effect?.getComputedTiming().iterations !== Infinity) return 'animation ' + (a.animationName ?? 'transition');
  }
  for (const el of document.querySelectorAll('.ant-spin-spinning')) if (visible(el)) return 'spinner';
  for (const img of document.images) if (!img.complete && visible(img)) return 'image ' + img.src;
  let sig = '';
  for (const c of document.querySelectorAll('canvas')) {
    if (!visible(c)) continue;
    try {
      const d = c.toDataURL();
      let h = 0;
      for (let i = 0; i < d.length; i += 7) h = (h * 31 + d.charCodeAt(i)) | 0;
      sig += c.width + 'x' + c.height + ':' + d.length + ':' + h + ';';
    } catch {
      /* a tainted canvas cannot be read: not waited for */
    }
  }
  const before = window.__gsCanvas;
  window.__gsCanvas = sig;
  return sig !== '' && sig !== before ? 'canvas' : '';
})()`;

/**
 * Waits until the page has settled: no request in flight and nothing moving (movingProbe) in two probes in a
 * row, 100 ms apart. Used before every screenshot instead of a fixed sleep; says what still moved on timeout.
 */
export async function settle(page: Page, timeout = 20_000): Promise<void> {
  const w = watch(page);
  const deadline = Date.now() + timeout;
  let quiet = 0;
  for (;;) {
    const last =
      w.pending.size > 0
        ? `request ${[...w.pending].map((r) => r.url()).join(', ')}`
        : await page.evaluate<string>(MOVING_PROBE).catch((e: unknown) => `probe failed: ${String(e)}`);
    quiet = last === '' ? quiet + 1 : 0;
    if (quiet >= 2) return;
    if (Date.now() > deadline) throw new Error(`the page did not settle in ${timeout} ms: ${last}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until the page has no request in flight in two probes in a row, 100 ms apart (live sockets do not count);
 * gives up quietly after `timeout`. What Playwright's 'networkidle' waits for, without its fixed 500 ms.
 */
export async function requestsDone(page: Page, timeout = 10_000): Promise<void> {
  const w = watch(page);
  const deadline = Date.now() + timeout;
  let quiet = 0;
  while (quiet < 2 && Date.now() < deadline) {
    quiet = w.pending.size === 0 ? quiet + 1 : 0;
    if (quiet < 2) await new Promise((r) => setTimeout(r, 100));
  }
}

/** A screenshot of the viewport (test-results/screenshots/<name>.png) once the page has settled. */
export async function shot(page: Page, name: string, dir = SHOTS, settleMs = 20_000): Promise<void> {
  await settle(page, settleMs);
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** Opens every group of the side menu (nested ones too) and lists the screens its items lead to, in menu order. */
export async function menuScreens(page: Page): Promise<string[]> {
  const menu = page.locator('[data-testid="side-menu"]');
  for (let round = 0; round < 10; round++) {
    const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
    const n = await closed.count();
    if (n === 0) break;
    for (let i = n - 1; i >= 0; i--) await closed.nth(i).click();
  }
  return menu
    .locator('li.ant-menu-item [data-testid^="menu-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
}

/**
 * Fails when the page shows a raw catalogue key instead of its translation: an element whose whole text (or
 * placeholder, or title) looks like `namespace:key` or `a.b` (letters and digits, no spaces). Hidden views
 * (keep-alive) are skipped.
 */
export async function expectNoRawKeys(page: Page): Promise<void> {
  const raw = await page.evaluate<string[]>(`(() => {
    const key = /^[a-z][A-Za-z0-9_]*(?:[.:][A-Za-z][A-Za-z0-9_]*)+$/;
    const found = new Set();
    for (const el of document.body.querySelectorAll('*')) {
      if (el.getClientRects().length === 0) continue;
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? '')
        .join('')
        .trim();
      for (const text of [own, el.getAttribute('placeholder') ?? '', el.getAttribute('title') ?? ''])
        if (key.test(text.trim())) found.add(text.trim());
    }
    return [...found];
  })()`);
  if (raw.length) throw new Error(`raw catalogue keys on ${page.url()}: ${raw.join(', ')}`);
}

// ── The API as a script calls it ─────────────────────────────────────────────────────────────────────────

export interface Envelope<T> {
  status: number;
  info: string;
  data: T;
}

type Params = Record<string, unknown>;

function form(params: Params): URLSearchParams {
  return new URLSearchParams(
    Object.entries(params).flatMap(([k, v]): [string, string][] =>
      Array.isArray(v) ? v.map((x): [string, string] => [k, String(x)]) : [[k, String(v)]],
    ),
  );
}

/** Calls the API (GET query or form-encoded POST, token header) and returns the envelope as it came. */
export async function apiRaw<T>(
  url: string,
  token: string,
  method: 'GET' | 'POST',
  route: string,
  params: Params = {},
): Promise<Envelope<T>> {
  const f = form(params);
  const r = await fetch(method === 'GET' ? `${url}${route}?${f}` : `${url}${route}`, {
    method,
    headers: { token, ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: method === 'POST' ? f : undefined,
  });
  return (await r.json()) as Envelope<T>;
}

/** Calls the API as a script would; fails on an error status (5, "no data", is an answer). */
export async function api<T>(
  url: string,
  token: string,
  method: 'GET' | 'POST',
  route: string,
  params: Params = {},
): Promise<T> {
  const env = await apiRaw<T>(url, token, method, route, params);
  if (env.status !== 0 && env.status !== 5) throw new Error(`${route}: ${env.status} ${env.info}`);
  return env.data;
}

/** Logs in through the API (a signed password, as the login page sends it); returns the token or fails. */
export async function apiLogin(url: string, account = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const { signature, time } = signLogin(password);
  const r = await fetch(`${url}/api/v2/manage/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ account, signature, time, flag: '1' }),
  });
  const env = (await r.json()) as Envelope<{ token: string }>;
  if (env.status !== 0) throw new Error(`login ${account}: ${env.status} ${env.info}`);
  return env.data.token;
}

export interface Terminal {
  terminalId: number;
  key: string;
}

/** Posts readings as a data logger does (HTTP ingest with the terminal's id and key); fails unless accepted. */
export async function ingest(
  url: string,
  term: Terminal,
  device: string,
  readings: { ts: number; values: Record<string, number> }[],
): Promise<void> {
  const r = await fetch(`${url}/api/v2/ingest/readings`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-terminal-id': String(term.terminalId),
      'x-terminal-key': term.key,
      'x-device-number': device,
    },
    body: JSON.stringify(readings),
  });
  const env = (await r.json()) as Envelope<unknown>;
  if (r.status !== 200 || env.status !== 0) throw new Error(`ingest ${device}: ${r.status} ${env.status} ${env.info}`);
}

// ── Signing in ──────────────────────────────────────────────────────────────────────────────────────────

/**
 * A new page in the browser language `locale`, signed in (admin by default): with the session of an earlier
 * login of the account on this server when the server still takes it (resumeSession), else through the login
 * page. Not for tests of logging in itself.
 */
export async function signedIn(
  browser: Browser,
  url: string,
  locale = 'en-US',
  account = 'admin',
  password = ADMIN_PASSWORD,
): Promise<Page> {
  const page = await newPage(browser, locale);
  await resumeSession(page, url, account, password);
  return page;
}

/** What a login through the page left in storage (the session keys the login page writes), by server and account. */
const sessions = new Map<string, { token: string; userName: string; platformType: string }>();

/**
 * Signs the page in and opens the home page, reusing the session an earlier login through the page (in any page
 * of this test file) left, when the server still answers getUserInfo with its token: the token, user name and
 * platform type go into storage as the login page puts them, and the console reads the user's permissions and
 * details itself, as after a login. Otherwise (first time, logged out, ended by another login) it logs in through
 * the page (loginAs). A login through the page takes 2 to 3 s on the busy two-core machine.
 */
export async function resumeSession(
  page: Page,
  url: string,
  account = 'admin',
  password = ADMIN_PASSWORD,
): Promise<void> {
  const key = `${url} ${account} ${password}`;
  const held = sessions.get(key);
  if (held && (await apiRaw(url, held.token, 'GET', '/api/v2/manage/user/getUserInfo')).status === 0) {
    // A small document of the same origin to write its storage, then the console, signed in.
    await page.goto(`${url}/api/health`);
    await page.evaluate(`(() => {
      const s = ${JSON.stringify(held)};
      localStorage.setItem('token', s.token);
      localStorage.setItem('userName', s.userName);
      localStorage.setItem('platformType', s.platformType);
      document.cookie = 'token=' + encodeURIComponent(s.token) + '; max-age=7200; path=/; samesite=strict';
    })()`);
    await page.goto(`${url}/#/home`);
    return;
  }
  await loginAs(page, url, account, password);
}

/**
 * Logs in through the login page, ending another open session of the account when the server
 * says there is one. Tolerates a slow machine: it watches for the landing page, the "logged in
 * elsewhere" dialog and an error notice, and submits again (fresh signature) if the form shows an
 * error; on failure it says what the page showed.
 */
export async function loginAs(page: Page, url: string, account: string, password: string): Promise<void> {
  await page.goto(`${url}/#/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  const submit = page.locator('button[type=submit]');
  const confirm = page.locator('[data-testid="login-elsewhere-confirm"]');
  const notice = page.locator('[data-testid="login-notice"]');
  await submit.click();
  const deadline = Date.now() + 90_000;
  let retries = 0;
  let lastNotice = '';
  // Every probe has a short timeout: the page may navigate away between two of them, and a probe that waits
  // for an element of the login page would then wait for the default 60 s.
  const quick = { timeout: 1000 };
  while (Date.now() < deadline) {
    if (/#\/home/.test(page.url())) {
      // Kept for resumeSession (the login page wrote these before it went home).
      const held = await page
        .evaluate<{ token: string; userName: string; platformType: string }>(
          `({ token: localStorage.getItem('token') ?? '', userName: localStorage.getItem('userName') ?? '', platformType: localStorage.getItem('platformType') ?? '' })`,
        )
        .catch(() => undefined);
      if (held?.token) sessions.set(`${url} ${account} ${password}`, held);
      return;
    }
    if (await confirm.isVisible().catch(() => false)) {
      await confirm.click(quick).catch(() => undefined);
    } else if (await notice.isVisible().catch(() => false)) {
      lastNotice = (await notice.textContent(quick).catch(() => '')) ?? '';
      if (retries < 2 && (await submit.isEnabled(quick).catch(() => false))) {
        retries++;
        const pw = await page
          .locator('#password')
          .inputValue(quick)
          .catch(() => 'x');
        if (!pw)
          await page
            .locator('#password')
            .fill(password, quick)
            .catch(() => undefined);
        await submit.click(quick).catch(() => undefined);
      }
    }
    await page.waitForTimeout(250);
  }
  await shot(page, `login-failed-${account}`).catch(() => undefined);
  throw new Error(
    `login as ${account} did not reach the home page; url ${page.url()}; notice: ${lastNotice || 'none'}`,
  );
}
