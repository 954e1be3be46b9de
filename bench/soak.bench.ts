// Soak (issue 15): the real server process on PostgreSQL with the demo on (portfolio and its simulated loggers),
// plus SOAK_RATE (5,000) readings/s over MQTT QoS 1, SOAK_SOCKETS (20) console sockets subscribed to every site,
// and a user working through the API, for SOAK_MINUTES (30). Prints readings sent, acked, stored and lost
// (acked but not stored), 5xx answers, the server's memory at start and end and its event-loop lag (measured
// inside the server process by bench/soak.probe.mjs).
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { readingTopic } from '@geosentry/contract';
import {
  Api,
  PROC_ADMIN_PASSWORD,
  ROOT,
  freePort,
  provision,
  startServerProcess,
  type ProvisionedTerminal,
} from '../server/src/modules/ingest/testkit.ts';
import { cleanup, createDb, fmt, machine, num, pct, printTable, sleep, tmp } from './lib.ts';

const cfg = {
  minutes: num('SOAK_MINUTES', 30),
  rate: num('SOAK_RATE', 5000),
  terminals: num('SOAK_TERMINALS', 10),
  devicesPerTerminal: num('SOAK_DEVICES_PER_TERMINAL', 50),
  sockets: num('SOAK_SOCKETS', 20),
  /** Unacknowledged publishes per connection at most; a tick that finds the window full is counted as behind. */
  window: num('SOAK_WINDOW', 2000),
};
const MB = 1024 * 1024;

interface Probe {
  at: number;
  rss: number;
  heapUsed: number;
  p50: number;
  p99: number;
  max: number;
}

/** Paced QoS 1 publishers: `rate` readings/s in total, one reading per message, every 50 ms a share per terminal. */
function publishers(
  url: string,
  terminals: ProvisionedTerminal[],
  rate: number,
): { stats: { sent: number; acked: number; errors: number; behind: number }; stop(): Promise<void> } {
  const stats = { sent: 0, acked: 0, errors: 0, behind: 0 };
  const base = Date.now();
  const clients: MqttClient[] = [];
  const timers: NodeJS.Timeout[] = [];
  const drained: Promise<void>[] = [];
  const perMs = rate / terminals.length / 1000;
  for (const t of terminals) {
    const c = mqtt.connect(url, {
      username: String(t.terminalId),
      password: t.key,
      clientId: `soak-${process.pid}-${t.terminalId}`,
      reconnectPeriod: 1000,
    });
    c.on('error', () => undefined);
    clients.push(c);
    const counters = t.devices.map(() => 0);
    let next = 0;
    let outstanding = 0;
    let owed = 0;
    let last = Date.now();
    let stopping = false;
    let resolveDrain: () => void = () => undefined;
    drained.push(new Promise((r) => (resolveDrain = r)));
    const tick = (): void => {
      if (stopping) return;
      // Paced by the clock, not by ticks: a late timer sends what is due (at most a second's worth).
      const now = Date.now();
      owed = Math.min(owed + (now - last) * perMs, perMs * 1000);
      last = now;
      while (owed >= 1) {
        if (outstanding >= cfg.window || !c.connected) {
          stats.behind += Math.floor(owed);
          owed -= Math.floor(owed);
          break;
        }
        owed--;
        const d = next++ % t.devices.length;
        const dev = t.devices[d]!;
        // Readings 100 ms apart per device from the start: unique per device, never in the future at 10/s.
        const ts = base + counters[d]!++ * 100;
        outstanding++;
        stats.sent++;
        c.publish(
          readingTopic(dev.number),
          JSON.stringify({ ts, values: { rainfall: (ts % 97) / 10 } }),
          { qos: 1 },
          (err) => {
            outstanding--;
            if (err) stats.errors++;
            else stats.acked++;
            if (stopping && outstanding === 0) resolveDrain();
          },
        );
      }
    };
    timers.push(setInterval(tick, 50));
    const stop = (): void => {
      stopping = true;
      if (outstanding === 0) resolveDrain();
    };
    (c as unknown as { soakStop: () => void }).soakStop = stop;
  }
  return {
    stats,
    async stop() {
      for (const t of timers) clearInterval(t);
      for (const c of clients) (c as unknown as { soakStop: () => void }).soakStop();
      await Promise.race([Promise.all(drained), sleep(60_000)]);
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

/** Console sockets of the session, subscribed to every site; counts what they receive. */
async function consoleSockets(
  base: string,
  token: string,
  n: number,
): Promise<{ received: { readings: number; other: number; closes: number }; close(): void }> {
  const received = { readings: 0, other: 0, closes: 0 };
  const sockets: WebSocket[] = [];
  let closing = false;
  for (let i = 0; i < n; i++) {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v2/ws?token=${token}`);
    await new Promise<void>((resolve, reject) => {
      ws.on('error', reject);
      // A close before the end (the server closed it) is counted; ours at the end are not.
      ws.on('close', () => !closing && received.closes++);
      ws.on('message', (m) => {
        const msg = JSON.parse(m.toString()) as { type: string };
        if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'subscribe', platformIds: 'all' }));
        else if (msg.type === 'subscribed') resolve();
        else if (msg.type === 'reading') received.readings++;
        else received.other++;
      });
    });
    sockets.push(ws);
  }
  return {
    received,
    close() {
      closing = true;
      for (const s of sockets) s.close();
    },
  };
}

/** A user at the console: a round of screens' calls, a pause, again. Counts answers, 5xx and other failures. */
function apiUser(
  base: string,
  token: string,
  platformId: number,
  deviceId: number,
): {
  stats: { calls: number; serverErrors: number; failed: Record<string, number>; latency: number[] };
  stop(): Promise<void>;
} {
  const stats = { calls: 0, serverErrors: 0, failed: {} as Record<string, number>, latency: [] as number[] };
  let running = true;
  const calls = (): string[] => {
    const end = new Date();
    const start = new Date(end.getTime() - 6 * 3600_000);
    const range = `startTime=${encodeURIComponent(start.toISOString())}&endTime=${encodeURIComponent(end.toISOString())}`;
    return [
      '/api/v2/manage/user/getUserInfo',
      '/api/v2/data/monitor/view/getPlatforms',
      `/api/v2/data/module/getRealTimeDataByPlatformId?platformId=${platformId}`,
      `/api/v2/data/module/getHistoricalData?deviceId=${deviceId}&quantity=rainfall&aggregation=hour&${range}`,
      `/api/v2/data/module/getHistoricalData?deviceId=${deviceId}&quantity=rainfall&${range}`,
      '/api/v2/data/alert/getCounts',
      '/api/v2/data/information/device/common/getListPage?pageNum=1&pageSize=50',
    ];
  };
  const loop = (async () => {
    while (running) {
      for (const url of calls()) {
        if (!running) break;
        const t0 = performance.now();
        try {
          const r = await fetch(base + url, { headers: { token, language: 'en' } });
          const env = (await r.json()) as { status: number };
          stats.latency.push(performance.now() - t0);
          stats.calls++;
          if (r.status >= 500 || (env.status >= 500 && env.status < 600)) stats.serverErrors++;
          else if (env.status !== 0) {
            const k = `${url.split('?')[0]} ${env.status}`;
            stats.failed[k] = (stats.failed[k] ?? 0) + 1;
          }
        } catch {
          stats.serverErrors++;
        }
        await sleep(200);
      }
    }
  })();
  return {
    stats,
    async stop() {
      running = false;
      await loop;
    },
  };
}

const readProbe = (file: string): Probe[] =>
  fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Probe)
    : [];

async function main(): Promise<void> {
  const db = await createDb('soak');
  const probeFile = path.join(tmp(), 'probe.jsonl');
  const mqttPort = await freePort();
  const server = await startServerProcess(
    {
      databaseUrl: db.url,
      dataDir: tmp(),
      httpPort: await freePort(),
      mqttPort,
      env: {
        DEMO: 'on',
        INGEST_DEVICE_RATE: '1000',
        LOG_LEVEL: 'error',
        SOAK_PROBE_FILE: probeFile,
      },
      nodeArgs: ['--import', path.join(ROOT, 'bench/soak.probe.mjs')],
    },
    300_000,
  );
  try {
    const api = new Api(server.url);
    const token = await api.login('admin', PROC_ADMIN_PASSWORD);
    const { platformId, terminals } = await provision(api, {
      prefix: 'SOAK',
      terminals: cfg.terminals,
      devicesPerTerminal: cfg.devicesPerTerminal,
    });
    const deviceIds = terminals.flatMap((t) => t.devices.map((d) => d.id));
    const sockets = await consoleSockets(server.url, token, cfg.sockets);
    await sleep(6000);
    const startProbe = readProbe(probeFile).at(-1);
    const t0 = Date.now();
    const pubs = publishers(`mqtt://127.0.0.1:${mqttPort}`, terminals, cfg.rate);
    const user = apiUser(server.url, token, platformId, deviceIds[0]!);
    const minute = setInterval(() => {
      const p = readProbe(probeFile).at(-1);
      const s = pubs.stats;
      console.log(
        `  ${fmt((Date.now() - t0) / 60_000, 1)} min: sent ${fmt(s.sent)}, acked ${fmt(s.acked)} (${fmt(s.acked / ((Date.now() - t0) / 1000))}/s), behind ${fmt(s.behind)}, socket readings ${fmt(sockets.received.readings)}, API calls ${fmt(user.stats.calls)} (5xx ${user.stats.serverErrors}), server rss ${p ? fmt(p.rss / MB) : '-'} MB, lag p99 ${p ? fmt(p.p99, 1) : '-'} ms`,
      );
    }, 60_000);
    await sleep(cfg.minutes * 60_000);
    clearInterval(minute);
    await pubs.stop();
    await user.stop();
    const elapsed = (Date.now() - t0) / 1000;
    await sleep(6000);
    const endProbe = readProbe(probeFile).at(-1);
    sockets.close();

    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const stored = Number(
      (await c.query<{ n: string }>('select count(*) as n from readings where device_id = any($1::int[])', [deviceIds]))
        .rows[0]!.n,
    );
    const all = Number((await c.query<{ n: string }>('select count(*) as n from readings')).rows[0]!.n);
    await c.end();

    const probes = readProbe(probeFile).filter((p) => p.at >= t0);
    const s = pubs.stats;
    const lost = s.acked - stored;
    const failed = Object.entries(user.stats.failed)
      .map(([k, v]) => `${k} x${v}`)
      .join(', ');
    printTable(`Soak (${machine()}; ${fmt(elapsed / 60, 1)} min, PostgreSQL, demo on)`, [
      ['readings sent over MQTT', fmt(s.sent), '', `target ${fmt(cfg.rate)}/s; ${fmt(s.sent / elapsed)}/s sent`],
      [
        'readings acked',
        fmt(s.acked),
        '',
        `${fmt(s.acked / elapsed)}/s; ${fmt(s.errors)} publish errors; ${fmt(s.behind)} not sent (window full)`,
      ],
      ['readings stored (bench devices)', fmt(stored), '', `all readings incl. the demo's: ${fmt(all)}`],
      [
        'lost (acked, not stored)',
        fmt(Math.max(0, lost)),
        '',
        lost < 0 ? `${fmt(-lost)} stored without an ack` : 'target 0',
      ],
      [
        'socket readings received',
        fmt(sockets.received.readings),
        '',
        `${cfg.sockets} sockets; ${sockets.received.closes} closed by the server during the run`,
      ],
      [
        'API calls / 5xx',
        `${fmt(user.stats.calls)} / ${fmt(user.stats.serverErrors)}`,
        '',
        `p50 ${fmt(pct(user.stats.latency, 0.5))} ms, p99 ${fmt(pct(user.stats.latency, 0.99))} ms${failed ? `; non-zero statuses: ${failed}` : ''}`,
      ],
      [
        'server memory start / end (rss)',
        `${startProbe ? fmt(startProbe.rss / MB) : '-'} / ${endProbe ? fmt(endProbe.rss / MB) : '-'} MB`,
        '',
        `heap ${startProbe ? fmt(startProbe.heapUsed / MB) : '-'} / ${endProbe ? fmt(endProbe.heapUsed / MB) : '-'} MB; max rss ${fmt(Math.max(...probes.map((p) => p.rss)) / MB)} MB`,
      ],
      (() => {
        // Growth after warm-up: from the first probe past a third of the run to the end (target under 10 %).
        const warm = probes.find((p) => p.at >= t0 + (elapsed * 1000) / 3);
        const growth = warm && endProbe ? (endProbe.rss / warm.rss - 1) * 100 : NaN;
        return [
          'server memory growth after warm-up (rss)',
          Number.isFinite(growth) ? `${fmt(growth, 1)} %` : '-',
          '',
          `${warm ? fmt(warm.rss / MB) : '-'} MB at a third of the run -> ${endProbe ? fmt(endProbe.rss / MB) : '-'} MB; target under 10 %`,
        ];
      })(),
      [
        'server event-loop lag',
        `p99 ${fmt(
          pct(
            probes.map((p) => p.p99),
            0.5,
          ),
          1,
        )} ms`,
        '',
        `median of 5 s windows' p99; worst window p99 ${fmt(Math.max(...probes.map((p) => p.p99)), 1)} ms, max ${fmt(Math.max(...probes.map((p) => p.max)), 1)} ms`,
      ],
    ]);
  } finally {
    await server.stop();
    await db.drop();
    cleanup();
  }
  process.exit(0);
}

await main();
