import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { signLogin } from '@geosentry/contract';

/**
 * Fixtures of the ingest tests and the telemetry benchmark that need the real server process: start
 * it (and kill it), and provision a site, terminals and devices through its HTTP API.
 */

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');
export const PROC_ADMIN_PASSWORD = 'Ingest-proc-admin-1';

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

export interface ServerProcess {
  url: string;
  proc: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown work at all, as a power cut or an OOM kill. */
  kill(): Promise<void>;
  /** SIGTERM: the graceful stop (the writer drains its queue). */
  stop(): Promise<void>;
}

export interface ServerSettings {
  databaseUrl: string;
  dataDir: string;
  httpPort: number;
  mqttPort: number;
  env?: Record<string, string>;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

/**
 * The node flags of `npm start` (server/package.json): young-generation space of 64 MB, so the ingest's
 * short-lived objects are collected in fewer, cheaper scavenges (alert latency p99 ~300 -> ~150 ms in the bench).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

/** Starts `node --import tsx server/src/main.ts` as `npm start` does and waits until /api/health answers. */
export async function startServerProcess(s: ServerSettings, timeoutMs = 60_000): Promise<ServerProcess> {
  let out = '';
  const args = [...SERVER_NODE_FLAGS, ...(s.nodeArgs ?? []), '--import', 'tsx', 'server/src/main.ts'];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(s.httpPort),
      HOST: '127.0.0.1',
      DATA_DIR: s.dataDir,
      DATABASE_URL: s.databaseUrl,
      MQTT_PORT: String(s.mqttPort),
      MQTT_URL: '',
      DEMO: 'off',
      CAPTCHA: 'off',
      ADMIN_PASSWORD: PROC_ADMIN_PASSWORD,
      WEB_DIST: '',
      LOG_LEVEL: 'warn',
      ...s.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer): void => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = `http://127.0.0.1:${s.httpPort}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server exited: ${out}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const end = async (sig: NodeJS.Signals): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(sig);
    // A graceful stop that hangs is killed after 20 s (and reported), so a run never waits for ever.
    const hung = setTimeout(() => {
      process.stderr.write(`server did not stop on ${sig} in 20 s: killed\n${out.slice(-4000)}\n`);
      proc.kill('SIGKILL');
    }, 20_000);
    await exited;
    clearTimeout(hung);
  };
  return { url, proc, output: () => out, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
}

export function tempDir(prefix = 'gs-ingest-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The console API over real HTTP (JSON bodies, envelope answers). */
export class Api {
  token = '';
  constructor(readonly base: string) {}

  async call<T = unknown>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    const r = await fetch(this.base + url, {
      method,
      headers: {
        language: 'en',
        ...(this.token ? { token: this.token } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const env = (await r.json()) as { status: number; info: string; data: T };
    if (env.status !== 0) throw new Error(`${method} ${url}: ${env.status} ${env.info}`);
    return env.data;
  }

  async login(account = 'admin', password = PROC_ADMIN_PASSWORD): Promise<string> {
    const d = await this.call<{ token: string }>('POST', '/api/v2/manage/user/login', {
      account,
      ...signLogin(password),
      flag: 1,
    });
    this.token = d.token;
    return d.token;
  }
}

export interface ProvisionedTerminal {
  terminalId: number;
  key: string;
  devices: { id: number; number: string }[];
}

/** Creates a site, terminals and devices (rain gauges unless another module id) through the HTTP API. */
export async function provision(
  api: Api,
  opts: { prefix: string; terminals: number; devicesPerTerminal: number; moduleId?: number },
): Promise<{ platformId: number; terminals: ProvisionedTerminal[] }> {
  const { platformId } = await api.call<{ platformId: number }>(
    'POST',
    '/api/v2/data/information/platform/disaster/add',
    { name: `Site ${opts.prefix}` },
  );
  const terminals: ProvisionedTerminal[] = [];
  for (let i = 0; i < opts.terminals; i++) {
    const t = await api.call<{ terminalId: number; key: string }>('POST', '/api/v2/data/information/terminal/add', {
      platformId,
      name: `Logger ${opts.prefix}-${i}`,
      serial: `${opts.prefix}-T${i}`,
      protocolType: 'MQTT',
      manufacturer: 'Acme',
      model: 'DL-1',
      port: 1883,
    });
    const devices: { id: number; number: string }[] = [];
    for (let j = 0; j < opts.devicesPerTerminal; j++) {
      const number = `${opts.prefix}-${i}-${j}`;
      const d = await api.call<{ deviceId: number }>('POST', '/api/v2/data/information/device/common/add', {
        deviceName: `Device ${number}`,
        number,
        moduleId: opts.moduleId ?? 2,
        platformId,
        terminalId: t.terminalId,
        ip: '192.168.1.20',
        port: 502,
      });
      devices.push({ id: d.deviceId, number });
    }
    terminals.push({ ...t, devices });
  }
  return { platformId, terminals };
}
