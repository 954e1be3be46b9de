// Helpers shared by the benchmarks: sizes from the environment, temporary folders, own PostgreSQL databases,
// percentiles and number formatting, the server process, MQTT QoS 1 publishers and the result table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import mqtt, { type MqttClient } from 'mqtt';
import {
  freePort,
  startServerProcess,
  type ProvisionedTerminal,
  type ServerProcess,
  type ServerSettings,
} from '../server/src/modules/ingest/testkit.ts';

/** A number from the environment, or the default. */
export const num = (k: string, d: number): number => (process.env[k] ? Number(process.env[k]) : d);
export const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const temps: string[] = [];
/** A temporary folder, removed by cleanup(). */
export const tmp = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-'));
  temps.push(d);
  return d;
};
export const cleanup = (): void => {
  for (const d of temps.splice(0)) fs.rmSync(d, { recursive: true, force: true });
};
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** The p-quantile (0..1) of a sample; NaN when empty. */
export const pct = (xs: number[], p: number): number => {
  // A percent (95 for 0.95) here once made two benches print their maximum as the p95.
  if (!(p >= 0 && p <= 1)) throw new RangeError(`pct: the quantile is a fraction from 0 to 1, not ${p}`);
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
};
export const fmt = (n: number, d = 0): string =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : '-';

/** A database of its own on the PostgreSQL server (dropped first if a crashed run left it). */
export async function createDb(tag: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `gs_bench_${tag}_${process.pid}`;
  const a = new pg.Client({ connectionString: PG_ADMIN });
  await a.connect();
  await a.query(`drop database if exists ${name} with (force)`);
  await a.query(`create database ${name}`);
  await a.end();
  const u = new URL(PG_ADMIN);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Asks PostgreSQL for a checkpoint: a bench phase then starts with the WAL of the phases before it written
 * back, so a checkpoint they forced does not land in this phase (and not in one side of a comparison only).
 */
export async function checkpoint(): Promise<void> {
  const c = new pg.Client({ connectionString: PG_ADMIN });
  await c.connect();
  try {
    await c.query('checkpoint');
  } finally {
    await c.end();
  }
}

/**
 * The real server process on a database, with free HTTP and MQTT ports. The per-device rate limit
 * protects against a broken logger; benches measure the pipeline, so it is lifted.
 * BENCH_PROFILE=<dir>: a CPU profile of the server process, written when it stops.
 */
export async function startBenchServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ server: ServerProcess; settings: ServerSettings }> {
  const settings: ServerSettings = {
    databaseUrl,
    dataDir: tmp(),
    httpPort: await freePort(),
    mqttPort: await freePort(),
    env: { INGEST_DEVICE_RATE: '1000000', LOG_LEVEL: 'error', ...env },
    nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
  };
  return { server: await startServerProcess(settings), settings };
}

export interface LoadResult {
  acked: number;
  /** Messages published. */
  sent: number;
  firstSent: number;
  lastAck: number;
  errors: number;
}

export type BenchDevice = ProvisionedTerminal['devices'][number];

/** One MQTT connection per terminal (authenticated as the terminal when `auth`). */
export function connectTerminals(url: string, terminals: ProvisionedTerminal[], auth: boolean): Promise<MqttClient[]> {
  return Promise.all(
    terminals.map((t) =>
      mqtt.connectAsync(url, {
        ...(auth ? { username: String(t.terminalId), password: t.key } : {}),
        clientId: `bench-pub-${process.pid}-${t.terminalId}-${Math.random().toString(36).slice(2, 8)}`,
        reconnectPeriod: 0,
      }),
    ),
  );
}

/**
 * One MQTT connection per terminal, each keeping `inflight` QoS 1 publishes outstanding for `seconds`,
 * one reading per message, round robin over the terminal's devices; `reading(device, n)` gives the device's
 * n-th reading of this run. Every payload carries its send time (`sent`, ignored by our server).
 */
export async function publishLoad(opts: {
  url: string;
  terminals: ProvisionedTerminal[];
  auth: boolean;
  topic: (n: string) => string;
  seconds: number;
  inflight: number;
  reading: (dev: BenchDevice, n: number) => { ts: number; values: Record<string, number> };
  onSent?: (deviceId: number, ts: number, at: number) => void;
}): Promise<LoadResult> {
  const clients = await connectTerminals(opts.url, opts.terminals, opts.auth);
  const res: LoadResult = { acked: 0, sent: 0, firstSent: Date.now(), lastAck: 0, errors: 0 };
  const end = Date.now() + opts.seconds * 1000;
  await Promise.all(
    clients.map(
      (c, i) =>
        new Promise<void>((resolve) => {
          const term = opts.terminals[i]!;
          const counters = term.devices.map(() => 0);
          let next = 0;
          let outstanding = 0;
          const send = (): void => {
            if (Date.now() >= end) {
              if (outstanding === 0) resolve();
              return;
            }
            const d = next++ % term.devices.length;
            const dev = term.devices[d]!;
            const { ts, values } = opts.reading(dev, counters[d]!++);
            const at = Date.now();
            opts.onSent?.(dev.id, ts, at);
            outstanding++;
            res.sent++;
            c.publish(opts.topic(dev.number), JSON.stringify({ ts, values, sent: at }), { qos: 1 }, (err) => {
              outstanding--;
              if (err) res.errors++;
              else {
                res.acked++;
                res.lastAck = Date.now();
              }
              send();
            });
          };
          for (let k = 0; k < opts.inflight; k++) send();
        }),
    ),
  );
  await Promise.all(clients.map((c) => c.endAsync()));
  return res;
}

/** Prints the result table: benchmark, ours, the peer, ratio or note. */
export function printTable(title: string, rows: string[][]): void {
  console.log(`\n${title}`);
  console.log('\n| benchmark | ours | peer | ratio / note |\n|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

/** The machine the numbers come from. */
export const machine = (): string => `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`;
