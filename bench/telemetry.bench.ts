// Telemetry benchmarks (issue 4). Every part runs against PostgreSQL on 127.0.0.1:5432 in databases of its
// own, created and dropped here.
// a. MQTT QoS 1 end to end: N terminals publish QoS 1 readings through our embedded broker (the real server
//    process), committed and pushed to a WebSocket client subscribed to every site; against the peer:
//    Mosquitto (127.0.0.1:1883) + one mqtt.js subscriber + batched COPY into a plain table, same publishers.
// b. HTTP batch ingest, 100 readings per request, several concurrent clients.
// c. Embedded PGlite ingest against PostgreSQL ingest (same workload, in process through the writer), and
//    the event-loop lag while a big history query runs on PGlite.
// d. History: BENCH_HISTORY_ROWS readings (10 M) over a year; the history API per aggregation against the
//    raw scan (GROUP BY date_trunc over raw readings).
// Sizes come from the environment (see `cfg` below) so a quick run is possible; BENCH_ONLY=a,b picks parts.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { sql } from 'kysely';
import { readingTopic } from '@geosentry/contract';
import { loadConfig } from '../server/src/config.ts';
import { buildApp } from '../server/src/app.ts';
import type { Db } from '../server/src/platform/db/db.ts';
import { ensurePartition } from '../server/src/modules/ingest/ingest.repository.ts';
import type { ReadingRow } from '../server/src/modules/ingest/ingest.repository.ts';
import { bucketSeries } from '../server/src/modules/moduleData/moduleData.repository.ts';
import { Api, provision, type ProvisionedTerminal } from '../server/src/modules/ingest/testkit.ts';
import {
  checkpoint,
  cleanup,
  createDb,
  fmt,
  machine,
  num,
  pct,
  printTable,
  publishLoad as publishReadings,
  sleep,
  startBenchServer,
  tmp,
  type LoadResult,
} from './lib.ts';

const cfg = {
  mqttSeconds: num('BENCH_MQTT_SECONDS', 20),
  rounds: num('BENCH_ROUNDS', 2),
  terminals: num('BENCH_TERMINALS', 20),
  devicesPerTerminal: num('BENCH_DEVICES_PER_TERMINAL', 10),
  inflight: num('BENCH_INFLIGHT', 100),
  httpSeconds: num('BENCH_HTTP_SECONDS', 10),
  httpClients: num('BENCH_HTTP_CLIENTS', 32),
  embedReadings: num('BENCH_EMBED_READINGS', 200_000),
  historyRows: num('BENCH_HISTORY_ROWS', 10_000_000),
  historyDevices: num('BENCH_HISTORY_DEVICES', 20),
  historyRuns: num('BENCH_HISTORY_RUNS', 30),
};
const MOSQUITTO = process.env.BENCH_MOSQUITTO_URL ?? 'mqtt://127.0.0.1:1883';
const PEER_TOPIC = (n: string): string => `peerbench/${n}/readings`;
const only = (process.env.BENCH_ONLY ?? 'a,b,c,d').split(',');
const rows: string[][] = [];
// ------------------------------------------------------------------------------ the peer's subscriber
// Runs as a child process (`telemetry.bench.ts peer-subscriber`), like our server runs as its own process:
// one mqtt.js subscriber on Mosquitto, readings buffered and written with COPY in batches into a plain table.
// Its acks go out on receipt (mqtt.js default), before the COPY: a weaker guarantee than ours.
async function peerSubscriber(): Promise<void> {
  const pool = new pg.Pool({ connectionString: process.env.PEER_DB_URL, max: 2 });
  await pool.query(
    'create table if not exists peer_readings (device text not null, ts timestamptz not null, vals jsonb not null)',
  );
  const lat: number[] = [];
  let count = 0;
  let lastCommit = 0;
  let buf: string[] = [];
  let sentOf: number[] = [];
  let writing = false;
  const flush = async (): Promise<void> => {
    if (writing || buf.length === 0) return;
    writing = true;
    const lines = buf;
    const sents = sentOf;
    buf = [];
    sentOf = [];
    const c = await pool.connect();
    try {
      await pipeline(
        Readable.from([lines.join('')]),
        c.query(copyFrom('copy peer_readings (device, ts, vals) from stdin')),
      );
    } finally {
      c.release();
    }
    const now = Date.now();
    for (const s of sents) lat.push(now - s);
    count += lines.length;
    lastCommit = now;
    writing = false;
    if (buf.length >= 5000) void flush();
  };
  setInterval(() => void flush(), 20);
  const client = mqtt.connect(MOSQUITTO, { clientId: `peer-sub-${process.pid}`, clean: true, reconnectPeriod: 0 });
  client.on('message', (topic, payload) => {
    const device = topic.slice('peerbench/'.length, -'/readings'.length);
    const m = JSON.parse(payload.toString()) as { ts: number; values: Record<string, number>; sent: number };
    buf.push(`${device}\t${new Date(m.ts).toISOString()}\t${JSON.stringify(m.values)}\n`);
    sentOf.push(m.sent);
    if (buf.length >= 5000) void flush();
  });
  client.on('connect', () => {
    client.subscribe('peerbench/+/readings', { qos: 1 }, () => process.send!({ type: 'ready' }));
  });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'reset') {
      lat.length = 0;
      count = 0;
      lastCommit = 0;
      process.send!({ type: 'reset' });
    }
    if (m.type === 'report')
      process.send!({ type: 'report', count, lastCommit, p99: pct(lat, 0.99), p50: pct(lat, 0.5) });
    if (m.type === 'stop') client.end(true, () => void pool.end().then(() => process.exit(0)));
  });
}

if (process.argv[2] === 'peer-subscriber') {
  await peerSubscriber();
} else {
  await main();
}

// ---------------------------------------------------------------------------------------- publishers
interface Round {
  rate: number;
  p99: number;
  p50: number;
}

/** The telemetry load: readings 5 ms apart per device from `base`, `inflight` (BENCH_INFLIGHT) per terminal. */
function publishLoad(opts: {
  url: string;
  terminals: ProvisionedTerminal[];
  auth: boolean;
  topic: (n: string) => string;
  seconds: number;
  base: number;
  onSent?: (deviceId: number, ts: number, at: number) => void;
}): Promise<LoadResult> {
  const { base, ...rest } = opts;
  return publishReadings({
    ...rest,
    inflight: cfg.inflight,
    reading: (_dev, n) => ({ ts: base + n * 5, values: { rainfall: ((n + 1) % 97) / 10 } }),
  });
}

async function readingsCount(url: string, table = 'readings'): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const r = await c.query<{ n: string }>(`select count(*) as n from ${table}`);
  await c.end();
  return Number(r.rows[0]!.n);
}

// ------------------------------------------------------------------------------------ a + b: server
async function serverBenches(): Promise<void> {
  const db = await createDb('tel');
  const { server, settings } = await startBenchServer(db.url);
  try {
    const api = new Api(server.url);
    const token = await api.login();
    const { terminals } = await provision(api, {
      prefix: 'B',
      terminals: cfg.terminals,
      devicesPerTerminal: cfg.devicesPerTerminal,
    });
    const total = cfg.terminals * cfg.devicesPerTerminal;

    if (only.includes('a')) {
      // Our side: the socket of the administrator, subscribed to every site.
      const sentAt = new Map<string, number>();
      let lat: number[] = [];
      let pushed = 0;
      let lastPush = 0;
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/v2/ws?token=${token}`);
      await new Promise<void>((resolve, reject) => {
        ws.on('error', reject);
        ws.on('message', (m) => {
          const msg = JSON.parse(m.toString()) as { type: string; deviceId: number; ts: string };
          if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'subscribe', platformIds: 'all' }));
          else if (msg.type === 'subscribed') resolve();
          else if (msg.type === 'reading') {
            const k = `${msg.deviceId}:${Date.parse(msg.ts)}`;
            const s = sentAt.get(k);
            if (s !== undefined) {
              const now = Date.now();
              lat.push(now - s);
              sentAt.delete(k);
              pushed++;
              lastPush = now;
            }
          }
        });
      });
      // The peer: Mosquitto + a subscriber process writing with COPY.
      const peerDb = await createDb('peer');
      const child = spawn(process.execPath, ['--import', 'tsx', 'bench/telemetry.bench.ts', 'peer-subscriber'], {
        env: { ...process.env, PEER_DB_URL: peerDb.url },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const ask = <T>(type: string, answer: string): Promise<T> =>
        new Promise((resolve) => {
          const on = (m: { type: string }): void => {
            if (m.type !== answer) return;
            child.off('message', on);
            resolve(m as T);
          };
          child.on('message', on);
          if (type) child.send({ type });
        });
      await ask('', 'ready');
      type Report = { count: number; lastCommit: number; p99: number; p50: number };

      // Rounds alternate ours and the peer, so both see the same background load (this machine is shared);
      // the table shows the best round of each.
      const rounds: { ours: Round; peer: Round }[] = [];
      let oursAcked = 0;
      let oursPushed = 0;
      let peerAcked = 0;
      let errors = 0;
      for (let round = 0; round < cfg.rounds; round++) {
        const base = Date.now() - (cfg.rounds - round + 1) * 3600_000;
        lat = [];
        pushed = 0;
        sentAt.clear();
        const ours = await publishLoad({
          url: `mqtt://127.0.0.1:${settings.mqttPort}`,
          terminals,
          auth: true,
          topic: readingTopic,
          seconds: cfg.mqttSeconds,
          base,
          onSent: (id, ts, at) => sentAt.set(`${id}:${ts}`, at),
        });
        for (let i = 0; i < 100 && pushed < ours.acked; i++) await sleep(100);
        oursAcked += ours.acked;
        oursPushed += pushed;
        errors += ours.errors;
        const o: Round = {
          rate: pushed / ((lastPush - ours.firstSent) / 1000),
          p99: pct(lat, 0.99),
          p50: pct(lat, 0.5),
        };

        await ask<Report>('reset', 'reset');
        const peer = await publishLoad({
          url: MOSQUITTO,
          terminals,
          auth: false,
          topic: PEER_TOPIC,
          seconds: cfg.mqttSeconds,
          base,
        });
        let rep = await ask<Report>('report', 'report');
        // The peer is done when everything acknowledged is in the table, or nothing more arrives.
        for (let i = 0, last = -1; i < 150 && rep.count < peer.acked; i++) {
          await sleep(200);
          rep = await ask<Report>('report', 'report');
          if (rep.count === last) break;
          last = rep.count;
        }
        peerAcked += peer.acked;
        rounds.push({
          ours: o,
          peer: { rate: rep.count / ((rep.lastCommit - peer.firstSent) / 1000), p99: rep.p99, p50: rep.p50 },
        });
        console.log(
          `  round ${round + 1}: ours ${fmt(o.rate)}/s p99 ${fmt(o.p99)} ms; peer ${fmt(rounds.at(-1)!.peer.rate)}/s (acked ${peer.acked}, stored ${rep.count})`,
        );
      }
      ws.close();
      child.send({ type: 'stop' });
      await new Promise((r) => child.once('exit', r));
      const stored = await readingsCount(db.url);
      const peerStored = await readingsCount(peerDb.url, 'peer_readings');
      await peerDb.drop();
      const best = (side: 'ours' | 'peer'): Round => rounds.map((r) => r[side]).sort((x, y) => y.rate - x.rate)[0]!;
      const o = best('ours');
      const p = best('peer');
      rows.push([
        `a. MQTT QoS 1 e2e, ${cfg.terminals} terminals × ${cfg.devicesPerTerminal} devices, ${cfg.inflight} in flight each, ${cfg.mqttSeconds} s (readings/s, best of ${cfg.rounds} alternating rounds)`,
        fmt(o.rate),
        fmt(p.rate),
        `${fmt((o.rate / p.rate) * 100)} % (target ≥ 60 %; ours ≥ 10,000/s)`,
      ]);
      rows.push([
        '   p99 / p50 latency of that round, ms (ours: publish → socket; peer: publish → COPY committed)',
        `${fmt(o.p99)} / ${fmt(o.p50)}`,
        `${fmt(p.p99)} / ${fmt(p.p50)}`,
        'target p99 < 1000',
      ]);
      rows.push([
        '   loss over all rounds: acked / stored / on socket (ours); acked / stored (peer)',
        `${oursAcked} / ${stored} / ${oursPushed}`,
        `${peerAcked} / ${peerStored}`,
        `ours: ${oursAcked === stored && stored === oursPushed && errors === 0 ? 'zero loss' : 'LOSS'}; peer: ${peerAcked === peerStored ? 'zero loss' : `${fmt((1 - peerStored / peerAcked) * 100, 1)} % lost`}`,
      ]);
    }

    if (only.includes('b')) {
      // HTTP: 100 readings per request, the items naming their devices (a gateway's batch).
      const base = Date.now() - 20 * 3600_000;
      let ok = 0;
      let failed = 0;
      const lat: number[] = [];
      const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
      const end = Date.now() + cfg.httpSeconds * 1000;
      const started = Date.now();
      await Promise.all(
        Array.from({ length: cfg.httpClients }, async (_, ci) => {
          const term = terminals[ci % terminals.length]!;
          const counters = term.devices.map(() => 0);
          let k = ci;
          while (Date.now() < end) {
            const items = [];
            for (let i = 0; i < 100; i++) {
              const d = k++ % term.devices.length;
              // Clients sharing a terminal take distinct timestamps (offset by client index).
              const ts = base + (counters[d]!++ * cfg.httpClients + ci) * 5;
              items.push({ device: term.devices[d]!.number, ts, values: { rainfall: (i % 50) / 10 } });
            }
            const t = performance.now();
            const r = await post(agent, `${server.url}/api/v2/ingest/readings`, JSON.stringify(items), {
              'content-type': 'application/json',
              'x-terminal-id': String(term.terminalId),
              'x-terminal-key': term.key,
            });
            const body = JSON.parse(r.body) as { data: { stored?: number } };
            lat.push(performance.now() - t);
            if (r.status === 200 && body.data.stored === 100) ok++;
            else failed++;
          }
        }),
      );
      agent.destroy();
      const secs = (Date.now() - started) / 1000;
      rows.push([
        `b. HTTP batch ingest, 100 readings/request, ${cfg.httpClients} clients, ${cfg.httpSeconds} s (readings/s)`,
        fmt((ok * 100) / secs),
        '',
        `target ≥ 100,000; p99 request ${fmt(pct(lat, 0.99))} ms; failed requests ${failed}`,
      ]);
    }
    void total;
  } finally {
    await server.stop();
    await db.drop();
  }
}

/**
 * The load generator's HTTP client: node:http on kept-alive connections, one per client. (fetch costs
 * about twice the CPU per request, which on this 2-core machine is taken from the server under test.)
 */
function post(
  agent: http.Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// ------------------------------------------------------------------------------- c: PGlite vs PG
async function lagDuring(run: () => Promise<unknown>): Promise<{ maxMs: number; ms: number }> {
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
  await sleep(20);
  clearInterval(timer);
  return { maxMs: Math.max(0, maxGap - 5), ms };
}

async function appOn(databaseUrl: string | null): Promise<{
  built: Awaited<ReturnType<typeof buildApp>>;
  api: Api;
  terminals: ProvisionedTerminal[];
}> {
  const config = loadConfig(
    {},
    {
      dataDir: tmp(),
      databaseUrl,
      captcha: false,
      demo: false,
      adminPassword: 'Ingest-proc-admin-1',
      webDist: null,
      logLevel: 'silent',
      mqttPort: -1,
      mqttUrl: null,
      ingestDeviceRate: 1_000_000,
    },
  );
  const built = await buildApp(config, { logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const api = new Api(`http://127.0.0.1:${(built.app.server.address() as { port: number }).port}`);
  await api.login();
  const { terminals } = await provision(api, { prefix: 'E', terminals: 5, devicesPerTerminal: 10 });
  return { built, api, terminals };
}

/** Submits `total` readings through the writer, 100 per submission, 8 submissions at a time (as HTTP clients do). */
async function writerLoad(
  built: Awaited<ReturnType<typeof buildApp>>,
  deviceIds: number[],
  total: number,
): Promise<number> {
  const base = Date.now() - 30 * 86400_000;
  let made = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < total) {
        const chunk: ReadingRow[] = [];
        for (let i = 0; i < 100 && made < total; i++, made++)
          chunk.push({
            deviceId: deviceIds[made % deviceIds.length]!,
            ts: base + Math.floor(made / deviceIds.length) * 10_000,
            values: { rainfall: (made % 37) / 10 },
          });
        await built.ingest.writer.submit(chunk);
      }
    }),
  );
  return total / ((performance.now() - t) / 1000);
}

async function embeddedBench(): Promise<void> {
  const lite = await appOn(null);
  const liteIds = lite.terminals.flatMap((t) => t.devices.map((d) => d.id));
  const liteRate = await writerLoad(lite.built, liteIds, cfg.embedReadings);
  const pgDb = await createDb('emb');
  const pgApp = await appOn(pgDb.url);
  const pgIds = pgApp.terminals.flatMap((t) => t.devices.map((d) => d.id));
  const pgRate = await writerLoad(pgApp.built, pgIds, cfg.embedReadings);
  rows.push([
    `c. ingest through the writer, ${fmt(cfg.embedReadings)} readings, 100 per submission (readings/s): PGlite vs PostgreSQL`,
    fmt(liteRate),
    fmt(pgRate),
    `${fmt((liteRate / pgRate) * 100)} % (target ≥ 40 %)`,
  ]);
  // A big history query on PGlite: the raw scan over every reading, grouped by hour, and the history API.
  const heavy = sql`select device_id, date_trunc('hour', ts) as h, avg((vals->>'rainfall')::float8), min((vals->>'rainfall')::float8), max((vals->>'rainfall')::float8)
    from readings group by 1, 2 order by 1, 2`;
  const db: Db = lite.built.ctx.db;
  await heavy.execute(db.k);
  const lag = await lagDuring(() => heavy.execute(db.k));
  const from = new Date(Date.now() - 31 * 86400_000).toISOString();
  const to = new Date().toISOString();
  const q = new URLSearchParams({
    deviceId: String(liteIds[0]),
    quantity: 'rainfall',
    aggregation: 'original',
    startTime: from,
    endTime: to,
  });
  let apiNote = '';
  const apiLag = await lagDuring(async () => {
    try {
      await lite.api.call('GET', `/api/v2/data/module/getHistoricalData?${q.toString()}`);
    } catch (e) {
      apiNote = ` (history API: ${(e as Error).message.slice(0, 60)})`;
    }
  });
  rows.push([
    `   event-loop lag on PGlite during a raw GROUP BY over ${fmt(cfg.embedReadings)} readings / a month of raw history via the API (max ms)`,
    `${fmt(lag.maxMs, 1)} / ${fmt(apiLag.maxMs, 1)}`,
    '',
    `target < 50; query ${fmt(lag.ms)} ms / ${fmt(apiLag.ms)} ms${apiNote}`,
  ]);
  await lite.built.close();
  await pgApp.built.close();
  await pgDb.drop();
}

// ------------------------------------------------------------------------------------- d: history
async function historyBench(): Promise<void> {
  const pgDb = await createDb('hist');
  const app = await appOn(pgDb.url);
  const db = app.built.ctx.db;
  try {
    // Devices for the history: the first `historyDevices` of the provisioned ones.
    const ids = app.terminals.flatMap((t) => t.devices.map((d) => d.id)).slice(0, cfg.historyDevices);
    const perDevice = Math.floor(cfg.historyRows / ids.length);
    const to = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const from = to - 365 * 86400_000;
    const stepMs = Math.floor((to - from) / perDevice);
    for (let m = from; m < to + 31 * 86400_000; m += 28 * 86400_000) await ensurePartition(db, m);
    const t0 = performance.now();
    // Raw rows: a daily cycle with noise, so the aggregates are not trivial. One device at a time, in
    // primary-key order (appends to the index).
    await sql`set synchronous_commit = off`.execute(db.k);
    for (const d of ids) {
      await sql`insert into readings (device_id, ts, vals)
        select ${d}::int, to_timestamp((${from}::float8 + g::float8 * ${stepMs}) / 1000),
               jsonb_build_object('rainfall', round((2 + 2 * sin(g::float8 / 300) + random())::numeric, 2))
        from generate_series(0, ${perDevice - 1}::int) g`.execute(db.k);
    }
    const rawMs = performance.now() - t0;
    const t1 = performance.now();
    // Rollups as the writer would have built them; first/last without ordered aggregates (min/max over
    // [epoch, value] arrays), one device at a time.
    for (const d of ids) {
      await sql`insert into readings_hourly (device_id, quantity, bucket, n, total, min_v, max_v, first_ts, first_v, last_ts, last_v)
        select device_id, 'rainfall', h, count(*), sum(v), min(v), max(v),
               to_timestamp((min(array[e, v]))[1]), (min(array[e, v]))[2], to_timestamp((max(array[e, v]))[1]), (max(array[e, v]))[2]
        from (select device_id, date_trunc('hour', ts at time zone 'UTC') at time zone 'UTC' as h,
                     extract(epoch from ts)::float8 as e, (vals->>'rainfall')::float8 as v
              from readings where device_id = ${d}) r
        group by 1, 2, 3`.execute(db.k);
    }
    await sql`insert into readings_daily (device_id, quantity, bucket, n, total, min_v, max_v, first_ts, first_v, last_ts, last_v)
      select device_id, quantity, date_trunc('day', bucket at time zone 'UTC') at time zone 'UTC', sum(n), sum(total), min(min_v), max(max_v),
             min(first_ts), (array_agg(first_v order by first_ts))[1], max(last_ts), (array_agg(last_v order by last_ts desc))[1]
      from readings_hourly group by 1, 2, 3`.execute(db.k);
    // Vacuum now, so autovacuum of the fresh 10 M rows does not run during the timings (it would slow both sides).
    await sql`vacuum (analyze) readings`.execute(db.k);
    await sql`vacuum (analyze) readings_hourly`.execute(db.k);
    await sql`vacuum (analyze) readings_daily`.execute(db.k);
    // And a checkpoint, so the checkpointer does not write the fresh gigabyte back during the timings.
    await checkpoint();
    const rollMs = performance.now() - t1;
    const count = Number((await sql<{ n: string }>`select count(*) as n from readings`.execute(db.k)).rows[0]!.n);
    rows.push([
      `d. history data: ${fmt(count)} readings of ${ids.length} devices over a year (generate / rollups + vacuum, s)`,
      `${fmt(rawMs / 1000, 1)} / ${fmt(rollMs / 1000, 1)}`,
      '',
      '',
    ]);
    const dev = ids[0]!;
    const fromIso = new Date(from).toISOString();
    const toIso = new Date(to).toISOString();
    for (const agg of ['hour', 'day', 'week', 'month', 'year'] as const) {
      const q = new URLSearchParams({
        deviceId: String(dev),
        quantity: 'rainfall',
        aggregation: agg,
        startTime: fromIso,
        endTime: toIso,
      });
      const ours: number[] = [];
      let note = '';
      for (let i = 0; i < cfg.historyRuns + 2; i++) {
        const t = performance.now();
        try {
          await app.api.call('GET', `/api/v2/data/module/getHistoricalData?${q.toString()}`);
        } catch (e) {
          note = `API failed: ${(e as Error).message.slice(0, 80)}`;
          break;
        }
        if (i >= 2) ours.push(performance.now() - t);
      }
      // The rollup query alone (the repository function the API calls), to tell database time from API work.
      const query: number[] = [];
      for (let i = 0; i < cfg.historyRuns + 2; i++) {
        const t = performance.now();
        await bucketSeries(db, agg, dev, 'rainfall', from, to);
        if (i >= 2) query.push(performance.now() - t);
      }
      const peer: number[] = [];
      const unit = agg;
      // As many runs as ours, so both p95 come from samples of the same size.
      for (let i = 0; i < cfg.historyRuns; i++) {
        const t = performance.now();
        await sql`select date_trunc(${unit}, ts at time zone 'UTC') as b, count(*), avg(v), min(v), max(v)
          from (select ts, (vals->>'rainfall')::float8 as v from readings where device_id = ${dev}
                and ts >= ${fromIso}::timestamptz and ts < ${toIso}::timestamptz) r group by 1 order by 1`.execute(
          db.k,
        );
        peer.push(performance.now() - t);
      }
      const o = pct(ours, 0.95);
      const p = pct(peer, 0.95);
      const qp = pct(query, 0.95);
      rows.push([
        `   history, one sensor, a year by ${agg}: API / its rollup query (p95 (p50) ms; peer: raw GROUP BY date_trunc)`,
        `${note ? '-' : `${fmt(o, 1)} (${fmt(pct(ours, 0.5), 1)})`} / ${fmt(qp, 1)} (${fmt(pct(query, 0.5), 1)})`,
        `${fmt(p, 1)} (${fmt(pct(peer, 0.5), 1)})`,
        `${note || `API ${fmt(p / o, 1)}×`}, query ${fmt(p / qp, 0)}× faster at p95 (target p95 < 100 ms, ≥ 10×)`,
      ]);
    }
  } finally {
    await app.built.close();
    await pgDb.drop();
  }
}

async function main(): Promise<void> {
  const t = performance.now();
  if (only.includes('a') || only.includes('b')) await serverBenches();
  if (only.includes('c')) await embeddedBench();
  if (only.includes('d')) await historyBench();
  printTable(`Telemetry benchmarks (${machine()}; total ${fmt((performance.now() - t) / 1000)} s)`, rows);
  cleanup();
  process.exit(0);
}
