// `npm run simulate`: simulated data loggers publishing plausible readings over MQTT to a Geosentry server.
//
// Credentials come either from a JSON file (--terminals FILE or SIM_TERMINALS):
//   [{"terminalId": 1, "key": "…", "devices": [{"number": "XM-001", "moduleId": 1}, …]}, …]
// or from the HTTP API: the tool logs in as an administrator (--api URL / SIM_API_URL, SIM_ACCOUNT,
// SIM_PASSWORD; the server must run with CAPTCHA=off), issues new keys for the demo sites' loggers through
// POST /api/v2/data/information/terminal/rotateKey (their old keys stop working; an in-process DEMO simulator
// of that server stops publishing) and reads their devices.
//
// Options (flag or environment): --mqtt / MQTT_URL (mqtt://127.0.0.1:1883), --interval / SIM_INTERVAL_MS
// (10000), --backfill-hours / SIM_BACKFILL_HOURS (0), --seed / SIM_SEED (1), --serials / SIM_SERIALS (comma
// list of logger serials to take over by API; default the demo loggers DL-<site>-001).
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { signLogin, type Envelope } from '@geosentry/contract';
import { startSimulator, type SimTerminal } from '../server/src/modules/simulator/simulator.ts';
import { demoTerminalSerial } from '../server/src/modules/simulator/simulator.demo.ts';
import { DEMO_SITES } from '../server/src/modules/demo/demo.seed.ts';

const { values: args } = parseArgs({
  options: {
    mqtt: { type: 'string' },
    terminals: { type: 'string' },
    api: { type: 'string' },
    interval: { type: 'string' },
    'backfill-hours': { type: 'string' },
    seed: { type: 'string' },
    serials: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (args.help) {
  console.log(
    fs
      .readFileSync(new URL(import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('//'))
      .join('\n'),
  );
  process.exit(0);
}

const env = process.env;
const opt = (flag: string | undefined, name: string, dflt: string): string => flag ?? env[name] ?? dflt;
const num = (s: string, name: string): number => {
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${s}"`);
  return n;
};

async function fromApi(base: string): Promise<SimTerminal[]> {
  const account = env.SIM_ACCOUNT ?? env.ADMIN_ACCOUNT ?? 'admin';
  const password = env.SIM_PASSWORD ?? env.ADMIN_PASSWORD;
  if (!password) throw new Error('set SIM_PASSWORD (or ADMIN_PASSWORD), or give --terminals FILE');
  let token = '';
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(new URL(path, base), {
      method,
      headers: { 'content-type': 'application/json', language: 'en', ...(token ? { token } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const env = (await res.json()) as Envelope<T>;
    if (env.status !== 0) throw new Error(`${path}: ${env.status} ${env.info}`);
    return env.data;
  };
  token = (
    await call<{ token: string }>('POST', '/api/v2/manage/user/login', { account, ...signLogin(password), flag: 1 })
  ).token;
  try {
    const serials = new Set(
      (args.serials ?? env.SIM_SERIALS)
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean) ?? DEMO_SITES.map((s) => demoTerminalSerial(s.key)),
    );
    const terms = await call<{ terminalId: number; serial: string }[]>(
      'GET',
      '/api/v2/data/information/terminal/getAll',
    );
    const devices = await call<{ number: string; moduleId: number; terminalId: number | null }[]>(
      'GET',
      '/api/v2/data/information/device/common/getListByRoleId',
    );
    const out: SimTerminal[] = [];
    for (const t of terms.filter((x) => serials.has(x.serial))) {
      const mine = devices.filter((d) => d.terminalId === t.terminalId);
      if (!mine.length) continue;
      const { key } = await call<{ key: string }>('POST', '/api/v2/data/information/terminal/rotateKey', {
        terminalId: t.terminalId,
      });
      out.push({
        terminalId: t.terminalId,
        key,
        devices: mine.map((d) => ({ number: d.number, moduleId: d.moduleId })),
      });
    }
    return out;
  } finally {
    await call('GET', '/api/v2/manage/user/logout').catch(() => undefined);
  }
}

function fromFile(file: string): SimTerminal[] {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as SimTerminal[];
  if (!Array.isArray(data)) throw new Error(`${file}: expected an array of terminals`);
  for (const t of data) {
    if (!t || (typeof t.terminalId !== 'number' && typeof t.terminalId !== 'string') || typeof t.key !== 'string')
      throw new Error(`${file}: every terminal needs terminalId and key`);
    if (
      !Array.isArray(t.devices) ||
      t.devices.some((d) => typeof d.number !== 'string' || !Number.isInteger(d.moduleId))
    )
      throw new Error(`${file}: terminal ${t.terminalId}: devices must be [{number, moduleId}]`);
  }
  return data;
}

async function main(): Promise<void> {
  const mqttUrl = opt(args.mqtt, 'MQTT_URL', 'mqtt://127.0.0.1:1883');
  const file = args.terminals ?? env.SIM_TERMINALS;
  const terminals = file ? fromFile(file) : await fromApi(opt(args.api, 'SIM_API_URL', 'http://127.0.0.1:8080'));
  if (!terminals.length) throw new Error('no terminal with devices to simulate');
  const intervalMs = num(opt(args.interval, 'SIM_INTERVAL_MS', '10000'), 'interval');
  const backfillHours = num(opt(args['backfill-hours'], 'SIM_BACKFILL_HOURS', '0'), 'backfill-hours');
  const seed = num(opt(args.seed, 'SIM_SEED', '1'), 'seed');
  const devices = terminals.reduce((n, t) => n + t.devices.length, 0);
  console.log(`simulating ${terminals.length} terminals, ${devices} devices -> ${mqttUrl} every ${intervalMs} ms`);
  const log = {
    info: (o: object, m?: string) => console.log(m ?? '', JSON.stringify(o)),
    warn: (o: object, m?: string) => console.warn(m ?? '', JSON.stringify(o)),
  };
  const sim = startSimulator({ mqttUrl, terminals, intervalMs, backfillHours, seed, log });
  const report = setInterval(() => console.log('stats', JSON.stringify(sim.stats())), 30_000);
  const stop = (): void => {
    clearInterval(report);
    void sim.stop().then(() => {
      console.log('stopped', JSON.stringify(sim.stats()));
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`simulate: ${(e as Error).message}`);
  process.exit(1);
});
