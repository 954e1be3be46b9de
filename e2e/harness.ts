import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';

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
}

/** Starts the real server process (PGlite in a temp folder, the built web) on a free port. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html')))
    throw new Error('web/dist is missing: run `npm run build` first');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-e2e-'));
  let out = '';
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CAPTCHA: 'off',
      ADMIN_PASSWORD,
      DEMO: 'off',
      LOG_LEVEL: 'warn',
      MQTT_PORT: String(await freePort()),
      ...env,
    },
  });
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
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
  return {
    url,
    dataDir,
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  return page;
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
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
  const notice = page.locator('.gs-login-card .ant-alert');
  await submit.click();
  const deadline = Date.now() + 90_000;
  let retries = 0;
  let lastNotice = '';
  // Every probe has a short timeout: the page may navigate away between two of them, and a probe that waits
  // for an element of the login page would then wait for the default 60 s.
  const quick = { timeout: 1000 };
  while (Date.now() < deadline) {
    if (/#\/home/.test(page.url())) return;
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
