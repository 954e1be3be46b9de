// Foundation benchmarks:
// 1. Event-loop lag during a heavy query on the embedded database: ours (PGlite on a worker thread) against
//    the peer (PGlite on the main thread, as a plain embedding does it).
// 2. Authenticated API calls per second (getUserInfo: session check + role + permissions + scope)
//    on PGlite and on PostgreSQL, against the peer: a bare Fastify route that answers a constant.
// 3. Start-up time to a healthy server on a fresh data folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { signLogin } from '@geosentry/contract';
import { openDb } from '../server/src/platform/db/db.ts';
import { loadConfig } from '../server/src/config.ts';
import { buildApp } from '../server/src/app.ts';

const HEAVY = 'select sum(x * 1.5) from generate_series(1, 4000000) x';
const PG_ADMIN = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rows: [string, string, string, string][] = [];
const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-'));

async function lagDuring(run: () => Promise<unknown>): Promise<{ maxMs: number; ms: number }> {
  // The longest gap between ticks of a 5 ms timer, minus its period: how long the loop was held.
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 5);
  const t = performance.now();
  await run();
  const ms = performance.now() - t;
  await new Promise((r) => setTimeout(r, 20));
  clearInterval(timer);
  return { maxMs: Math.max(0, maxGap - 5), ms };
}

async function loadTest(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  concurrency = 16,
): Promise<{ rps: number; p99: number }> {
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const r = await fetch(url, { headers });
        await r.arrayBuffer();
        lat.push(performance.now() - t);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  return { rps: lat.length / seconds, p99: lat[Math.floor(lat.length * 0.99)] ?? 0 };
}

// 1. Event-loop lag
{
  const db = await openDb({ databaseUrl: null, dataDir: tmp(), memory: true });
  await sql.raw(HEAVY).execute(db.k); // warm
  const ours = await lagDuring(() => sql.raw(HEAVY).execute(db.k));
  await db.close();
  const peerDb = await PGlite.create();
  await peerDb.query(HEAVY);
  const peer = await lagDuring(() => peerDb.query(HEAVY));
  await peerDb.close();
  rows.push([
    'event-loop lag during a 4 M-row query (max ms, lower is better)',
    ours.maxMs.toFixed(1),
    peer.maxMs.toFixed(1),
    `${(peer.maxMs / Math.max(ours.maxMs, 0.1)).toFixed(0)}× less`,
  ]);
  rows.push(['  the query itself (ms)', ours.ms.toFixed(0), peer.ms.toFixed(0), (ours.ms / peer.ms).toFixed(2)]);
}

// 2. Authenticated calls
const peerApp = Fastify();
peerApp.get('/x', async () => ({ status: 0, info: 'ok', data: { user: 'constant' } }));
await peerApp.listen({ port: 0, host: '127.0.0.1' });
const peerUrl = `http://127.0.0.1:${(peerApp.server.address() as { port: number }).port}/x`;
const peer = await loadTest(peerUrl, {}, 5);

async function apiBench(kind: 'pglite' | 'postgres'): Promise<void> {
  let databaseUrl: string | null = null;
  let dbName = '';
  if (kind === 'postgres') {
    dbName = `gs_bench_${process.pid}`;
    const a = new pg.Client({ connectionString: PG_ADMIN });
    try {
      await a.connect();
    } catch {
      rows.push(['getUserInfo on PostgreSQL', 'unreachable', '', '']);
      return;
    }
    await a.query(`create database ${dbName}`);
    await a.end();
    const u = new URL(PG_ADMIN);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const config = loadConfig(
    {},
    {
      dataDir: tmp(),
      databaseUrl,
      captcha: false,
      demo: false,
      adminPassword: 'Bench-admin-pass-1',
      webDist: null,
      logLevel: 'silent',
      // No broker: this bench measures the API (and 1883 is the machine's Mosquitto).
      mqttPort: -1,
    },
  );
  const built = await buildApp(config, { logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`;
  const login = await fetch(`${base}/api/v2/manage/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', ...signLogin('Bench-admin-pass-1'), flag: 1 }),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const r = await loadTest(`${base}/api/v2/manage/user/getUserInfo`, { token }, 5);
  rows.push([
    `getUserInfo on ${kind} (req/s / p99 ms)`,
    `${r.rps.toFixed(0)} / ${r.p99.toFixed(1)}`,
    `${peer.rps.toFixed(0)} / ${peer.p99.toFixed(1)}`,
    (r.rps / peer.rps).toFixed(2),
  ]);
  await built.close();
  if (dbName) {
    const a = new pg.Client({ connectionString: PG_ADMIN });
    await a.connect();
    await a.query(`drop database if exists ${dbName} with (force)`);
    await a.end();
  }
}
await apiBench('pglite');
await apiBench('postgres');
await peerApp.close();

// 3. Start-up
{
  const dir = tmp();
  const t = performance.now();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: '18999',
      HOST: '127.0.0.1',
      WEB_DIST: '',
      CAPTCHA: 'off',
      DEMO: 'off',
      ADMIN_PASSWORD: 'Bench-admin-pass-1',
      LOG_LEVEL: 'warn',
    },
  });
  for (;;) {
    try {
      if ((await fetch('http://127.0.0.1:18999/api/health')).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - t;
  proc.kill('SIGTERM');
  await new Promise((r) => proc.once('exit', r));
  rows.push(['start-up to healthy, fresh data folder (s)', (ms / 1000).toFixed(1), '', '']);
}

console.log('\n| benchmark | ours | peer | ratio |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
process.exit(0);
