// Alert benchmarks (early warning core), on PostgreSQL (127.0.0.1:5432, a database of its own, created and
// dropped here), through the real server process and real MQTT QoS 1 ingest to its embedded broker.
// 1. Ingest throughput with BENCH_ALERT_RULES (10) enabled alert values on every sensor against the same
//    workload on sensors whose alert values are switched off (the peer). Two numbers per side: readings/s
//    acknowledged (the ack follows the commit), and readings/s until alert evaluation has caught up (a
//    sentinel reading published after the last ack fires a threshold on a sensor of its own; the engine
//    evaluates in arrival order, so its alert on the socket means every earlier reading was evaluated).
//    Rounds alternate the sides (the machine is shared); the best round of each counts. Target: ≤ 10 % drop.
//    Every round and latency run starts after a CHECKPOINT, so a checkpoint forced by the WAL of the phases
//    before it does not land in one side only.
//    1b. The same with BENCH_ALERT_LATE_PCT (5) % of the readings late by up to BENCH_ALERT_LATE_MINUTES (60) of
//    sensor time (a logger resending its buffer): each late reading makes the engine judge again the later
//    readings within its rules' windows. Same target: ≤ 10 % drop.
// 2. Reading-to-alert latency: readings published at half the best acknowledged rate of part 1 (or
//    BENCH_ALERT_LATENCY_RATE), on the sensors with rules; each sensor crosses its threshold levels 1..4 once
//    each, staggered over the run; a browser-like socket (/api/v2/ws?token=, hello, no subscription: alerts
//    reach every socket allowed to see the site) stamps each {type:'alert'}; latency = arrival - publish time of
//    the reading that fired it. Target p99 < 250 ms.
// Sensors report every BENCH_ALERT_INTERVAL_S (60) seconds of sensor time: a rule's window (1 h, 24 h, the
// 48 h of the rainfall intensity rule) covers as many stored readings as it would in the field.
import WebSocket from 'ws';
import type { MqttClient } from 'mqtt';
import { readingTopic, type AlertSocketMessage } from '@geosentry/contract';
import { Api, provision, type ProvisionedTerminal } from '../server/src/modules/ingest/testkit.ts';
import {
  checkpoint,
  cleanup,
  connectTerminals,
  createDb,
  fmt,
  machine,
  num,
  pct,
  printTable,
  publishLoad,
  sleep,
  startBenchServer,
  type BenchDevice,
} from './lib.ts';

const cfg = {
  terminals: num('BENCH_ALERT_TERMINALS', 20),
  devicesPerTerminal: num('BENCH_ALERT_DEVICES_PER_TERMINAL', 10),
  rules: num('BENCH_ALERT_RULES', 10),
  seconds: num('BENCH_ALERT_SECONDS', 15),
  rounds: num('BENCH_ALERT_ROUNDS', 3),
  inflight: num('BENCH_ALERT_INFLIGHT', 100),
  intervalS: num('BENCH_ALERT_INTERVAL_S', 60),
  latencySeconds: num('BENCH_ALERT_LATENCY_SECONDS', 15),
  latencyRate: num('BENCH_ALERT_LATENCY_RATE', 0),
  /** Phase 1b: share of readings that arrive late (%, 0 skips the phase), and by how much sensor time at most. */
  latePct: num('BENCH_ALERT_LATE_PCT', 5),
  lateMinutes: num('BENCH_ALERT_LATE_MINUTES', 60),
  /** Concurrent API calls while adding alert values. */
  apiConcurrency: num('BENCH_ALERT_API_CONCURRENCY', 4),
};
const rows: string[][] = [];

/**
 * The alert values of a rain gauge reporting rainfall (mm per reading) every minute. The workload's readings
 * (0..0.4 mm) fire none of them; the latency part's crossings (25, 35, 45, 55 mm) fire the thresholds level
 * by level, and with them rate, acceleration, the 30 min change and, later, the 1 h sum and the intensity.
 */
const RULES: Record<string, unknown>[] = [
  { valueType: 'threshold', level: 1, value: '20' },
  { valueType: 'threshold', level: 2, value: '30' },
  { valueType: 'threshold', level: 3, value: '40' },
  { valueType: 'threshold', level: 4, value: '50' },
  { valueType: 'rate', level: 1, value: '15' },
  { valueType: 'acceleration', level: 2, value: '25' },
  { valueType: 'increment', level: 2, value: '150', windowN: 1, windowUnit: 'hour' },
  { valueType: 'increment', level: 3, value: '2000', windowN: 24, windowUnit: 'hour' },
  { valueType: 'currentChange', level: 1, value: '20', windowN: 30, windowUnit: 'minute' },
  { valueType: 'rainfallIntensity', level: 3, value: '150', rateValue: '0.3' },
];
const CROSSINGS = [25, 35, 45, 55];

/** Runs `fn` over `items`, `n` at a time. */
async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<unknown>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) await fn(items[i++]!);
    }),
  );
}

/** Each sensor's readings, one interval apart, continued across the runs (never the same timestamp twice). */
class Series {
  private next = new Map<number, number>();
  constructor(private readonly start: number) {}
  ts(deviceId: number): number {
    const n = this.next.get(deviceId) ?? 0;
    this.next.set(deviceId, n + 1);
    return this.start + n * cfg.intervalS * 1000;
  }
  /**
   * A late reading: a time between the sensor's newest reading and `maxMs` before it, off the interval grid so
   * it is a new reading (not a repeat of a stored one), and not before the series' start.
   */
  late(deviceId: number, maxMs: number, rnd: number): number {
    const n = this.next.get(deviceId) ?? 0;
    const newest = this.start + Math.max(0, n - 1) * cfg.intervalS * 1000;
    const back = Math.min(maxMs, newest - this.start);
    return Math.max(this.start + 1, newest - 1 - Math.floor(rnd * back));
  }
}

/** The browser-like socket: waits for hello; every alert message goes to the current listener. */
async function alertSocket(
  url: string,
  token: string,
): Promise<{ ws: WebSocket; on: (fn: (m: AlertSocketMessage, at: number) => void) => void }> {
  let listener: (m: AlertSocketMessage, at: number) => void = () => undefined;
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/v2/ws?token=${token}`);
  await new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const at = Date.now();
      const m = JSON.parse(raw.toString()) as { type: string };
      if (m.type === 'hello') resolve();
      else if (m.type === 'alert') listener(m as AlertSocketMessage, at);
    });
  });
  return { ws, on: (fn) => (listener = fn) };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const db = await createDb('alerts');
  const { server, settings } = await startBenchServer(db.url);
  const mqttUrl = `mqtt://127.0.0.1:${settings.mqttPort}`;
  let sentinelClient: MqttClient | null = null;
  try {
    const api = new Api(server.url);
    const token = await api.login();
    const { id: groupId } = await api.call<{ id: number }>('POST', '/api/v2/data/alert/group/add', {
      name: 'Bench duty group',
    });
    const size = { terminals: cfg.terminals, devicesPerTerminal: cfg.devicesPerTerminal };
    const on = await provision(api, { prefix: 'AR', ...size });
    const off = await provision(api, { prefix: 'AP', ...size });
    // Sentinels: one fresh sensor per drain check (phases 1 and 1b, two latency runs), each with one level-4
    // threshold at 50 mm.
    const sentinels = await provision(api, {
      prefix: 'AS',
      terminals: 1,
      devicesPerTerminal: cfg.rounds * 4 + 2,
    });
    const sentinelTerm = sentinels.terminals[0]!;
    const devicesOf = (ts: ProvisionedTerminal[]): BenchDevice[] => ts.flatMap((t) => t.devices);
    const rule = (deviceId: number, r: Record<string, unknown>, enabled: boolean) =>
      api.call('POST', '/api/v2/data/alert/manage/value/add', {
        deviceId,
        quantity: 'rainfall',
        groupId,
        channels: ['mail'],
        pushIntervalMinutes: 0,
        enabled,
        ...r,
      });
    const ruleSet = RULES.length >= cfg.rules ? RULES.slice(0, cfg.rules) : RULES;
    const tRules = performance.now();
    const adds: (() => Promise<unknown>)[] = [];
    for (const [set, enabled] of [
      [on, true],
      [off, false],
    ] as const)
      for (const d of devicesOf(set.terminals))
        for (let k = 0; k < cfg.rules; k++) adds.push(() => rule(d.id, ruleSet[k % ruleSet.length]!, enabled));
    for (const d of sentinelTerm.devices)
      adds.push(() => rule(d.id, { valueType: 'threshold', level: 4, value: '50' }, true));
    await pool(adds, cfg.apiConcurrency, (f) => f());
    const rulesMs = performance.now() - tRules;
    const nDevices = cfg.terminals * cfg.devicesPerTerminal;
    console.log(
      `  provisioned ${nDevices} sensors with ${cfg.rules} rules each (on) + ${nDevices} with them off; ${adds.length} alert values added in ${fmt(rulesMs / 1000, 1)} s`,
    );

    const sock = await alertSocket(server.url, token);
    sentinelClient = (await connectTerminals(mqttUrl, [sentinelTerm], true))[0]!;
    let nextSentinel = 0;
    /** Publishes a sentinel reading over 50 mm and answers when its alert is on the socket (epoch ms). */
    const drained = async (also: (m: AlertSocketMessage, at: number) => void = () => undefined): Promise<number> => {
      const dev = sentinelTerm.devices[nextSentinel++]!;
      const arrived = new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('sentinel alert did not arrive in 180 s')), 180_000);
        sock.on((m, at) => {
          if (m.deviceId === dev.id) {
            clearTimeout(timer);
            resolve(at);
          } else also(m, at);
        });
      });
      await sentinelClient!.publishAsync(
        readingTopic(dev.number),
        JSON.stringify({ ts: Date.now(), values: { rainfall: 99 } }),
        {
          qos: 1,
        },
      );
      return arrived;
    };

    // ------------------------------------------------------------------------------ 1. throughput
    // Sensor time starts 30 days back, so hours of minute readings fit before now.
    const series = new Series(Math.floor((Date.now() - 30 * 86400_000) / 60_000) * 60_000);
    type Side = { acked: number; ackRate: number; evalRate: number; lagMs: number; errors: number };
    let seed = 14;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    /** Rounds of both sides; `latePct` % of the readings are late by up to cfg.lateMinutes of sensor time. */
    const throughput = async (latePct: number, label: string): Promise<{ on: Side[]; off: Side[] }> => {
      const results: { on: Side[]; off: Side[] } = { on: [], off: [] };
      for (let round = 0; round < cfg.rounds; round++) {
        const order = round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
        for (const side of order) {
          const set = side === 'on' ? on : off;
          let strays = 0;
          sock.on(() => strays++);
          await checkpoint();
          const r = await publishLoad({
            url: mqttUrl,
            terminals: set.terminals,
            auth: true,
            topic: readingTopic,
            seconds: cfg.seconds,
            inflight: cfg.inflight,
            reading: (dev, n) => ({
              ts:
                latePct > 0 && rnd() * 100 < latePct
                  ? series.late(dev.id, cfg.lateMinutes * 60_000, rnd())
                  : series.ts(dev.id),
              values: { rainfall: (n % 5) / 10 },
            }),
          });
          const done = await drained(() => strays++);
          const s: Side = {
            acked: r.acked,
            ackRate: r.acked / ((r.lastAck - r.firstSent) / 1000),
            evalRate: r.acked / ((done - r.firstSent) / 1000),
            lagMs: done - r.lastAck,
            errors: r.errors + (r.sent - r.acked),
          };
          results[side].push(s);
          console.log(
            `  round ${round + 1}${label} rules ${side}: ${fmt(s.ackRate)} acked/s, ${fmt(s.evalRate)}/s evaluated, evaluation done ${fmt(s.lagMs)} ms after the last ack${strays ? `, ${strays} unexpected alerts` : ''}`,
          );
        }
      }
      return results;
    };
    const results = await throughput(0, '');
    const best = (xs: Side[], k: 'ackRate' | 'evalRate'): Side => [...xs].sort((a, b) => b[k] - a[k])[0]!;
    const oa = best(results.on, 'ackRate');
    const pa = best(results.off, 'ackRate');
    const oe = best(results.on, 'evalRate');
    const pe = best(results.off, 'evalRate');
    const drop = (o: number, p: number): string => `${fmt((1 - o / p) * 100, 1)} % drop`;
    const errors = [...results.on, ...results.off].reduce((a, s) => a + s.errors, 0);
    rows.push([
      `1. MQTT QoS 1 ingest, ${cfg.terminals} terminals × ${cfg.devicesPerTerminal} sensors, ${cfg.inflight} in flight each, ${cfg.seconds} s; ours: ${cfg.rules} alert values per sensor on, peer: off (acked readings/s, best of ${cfg.rounds} alternating rounds)`,
      fmt(oa.ackRate),
      fmt(pa.ackRate),
      `${fmt((oa.ackRate / pa.ackRate) * 100)} %, ${drop(oa.ackRate, pa.ackRate)} (target ≤ 10 %); unacked/errors ${errors}`,
    ]);
    rows.push([
      '   same, readings/s until alert evaluation has caught up (first publish → sentinel alert on the socket)',
      fmt(oe.evalRate),
      fmt(pe.evalRate),
      `${fmt((oe.evalRate / pe.evalRate) * 100)} %, ${drop(oe.evalRate, pe.evalRate)} (target ≤ 10 %); evaluation finished ${fmt(oe.lagMs)} / ${fmt(pe.lagMs)} ms after the last ack`,
    ]);
    if (cfg.latePct > 0) {
      // 1b. The same with late readings (a logger resending its buffer after an outage).
      const late = await throughput(cfg.latePct, ` (${cfg.latePct} % late)`);
      const la = best(late.on, 'ackRate');
      const lp = best(late.off, 'ackRate');
      const le = best(late.on, 'evalRate');
      const lpe = best(late.off, 'evalRate');
      const lateErrors = [...late.on, ...late.off].reduce((a, s) => a + s.errors, 0);
      rows.push([
        `1b. same, ${cfg.latePct} % of the readings late by up to ${cfg.lateMinutes} min of sensor time (judged again: the later readings in their rules' windows)`,
        fmt(la.ackRate),
        fmt(lp.ackRate),
        `${fmt((la.ackRate / lp.ackRate) * 100)} %, ${drop(la.ackRate, lp.ackRate)} (target ≤ 10 %); unacked/errors ${lateErrors}`,
      ]);
      rows.push([
        '   same, readings/s until alert evaluation has caught up',
        fmt(le.evalRate),
        fmt(lpe.evalRate),
        `${fmt((le.evalRate / lpe.evalRate) * 100)} %, ${drop(le.evalRate, lpe.evalRate)}; evaluation finished ${fmt(le.lagMs)} / ${fmt(lpe.lagMs)} ms after the last ack`,
      ]);
    }

    // ------------------------------------------------------------------------------ 2. latency
    const devs = devicesOf(on.terminals);
    const index = new Map(devs.map((d, i) => [d.id, i]));
    /** One latency run at `rate` readings/s; every sensor of `on` crosses levels 1..4 once (no open alerts before). */
    const latency = async (rate: number, label: string): Promise<void> => {
      // Sensor d crosses level j at ((j + (d + 0.5) / D) / 4) of 90 % of the run: an even stream of crossings.
      const span = cfg.latencySeconds * 1000 * 0.9;
      const crossAt = (gi: number, j: number): number => ((j + (gi + 0.5) / devs.length) / CROSSINGS.length) * span;
      const nextCross = new Map<number, number>();
      const sentAt = new Map<string, number>();
      const crossings = new Map<string, boolean>();
      const lat: number[] = [];
      /** Alerts slower than the target: when their reading was sent (s into the run) and how slow (ms). */
      const slow: string[] = [];
      /** Publish → PUBACK (the commit) of every reading, and those slower than 250 ms. */
      const ackLat: number[] = [];
      const slowAcks: string[] = [];
      let start = Date.now();
      const kinds: Record<string, number> = {};
      let unmatched = 0;
      const onAlert = (m: AlertSocketMessage, at: number): void => {
        const k = `${m.deviceId}:${Date.parse(m.at)}`;
        const s = sentAt.get(k);
        if (s === undefined) {
          unmatched++;
          return;
        }
        lat.push(at - s);
        if (at - s > 250) slow.push(`${fmt((s - start) / 1000, 1)}s:${at - s}`);
        kinds[`${m.kind} ${m.valueType}`] = (kinds[`${m.kind} ${m.valueType}`] ?? 0) + 1;
        if (crossings.has(k)) crossings.set(k, true);
      };
      sock.on(onAlert);
      await checkpoint();
      const clients = await connectTerminals(mqttUrl, on.terminals, true);
      const per = rate / clients.length;
      const sentBy = clients.map(() => 0);
      const rr = clients.map(() => 0);
      let sent = 0;
      let acked = 0;
      let failed = 0;
      start = Date.now();
      const end = start + cfg.latencySeconds * 1000;
      // The load generator's own event-loop stalls (they would show as latency of ours).
      let lastTick = Date.now();
      const stalls: string[] = [];
      const lagTimer = setInterval(() => {
        const now = Date.now();
        if (now - lastTick > 100) stalls.push(`${fmt((lastTick - start) / 1000, 1)}s:${now - lastTick}`);
        lastTick = now;
      }, 10);
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          const now = Date.now();
          const due = Math.floor((per * (Math.min(now, end) - start)) / 1000);
          clients.forEach((c, i) => {
            const term = on.terminals[i]!;
            while (sentBy[i]! < due) {
              sentBy[i]!++;
              const dev = term.devices[rr[i]!++ % term.devices.length]!;
              const gi = index.get(dev.id)!;
              const j = nextCross.get(dev.id) ?? 0;
              const ts = series.ts(dev.id);
              const at = Date.now();
              let v = (rr[i]! % 5) / 10;
              const k = `${dev.id}:${ts}`;
              if (j < CROSSINGS.length && at - start >= crossAt(gi, j)) {
                v = CROSSINGS[j]!;
                nextCross.set(dev.id, j + 1);
                crossings.set(k, false);
              }
              sentAt.set(k, at);
              sent++;
              c.publish(
                readingTopic(dev.number),
                JSON.stringify({ ts, values: { rainfall: v } }),
                { qos: 1 },
                (err) => {
                  if (err) failed++;
                  else {
                    acked++;
                    const ms = Date.now() - at;
                    ackLat.push(ms);
                    if (ms > 250) slowAcks.push(`${fmt((at - start) / 1000, 1)}s:${ms}`);
                  }
                },
              );
            }
          });
          if (now >= end) {
            clearInterval(timer);
            resolve();
          }
        }, 5);
      });
      const sentSecs = (Date.now() - start) / 1000;
      console.log(`  latency run (${label}): ${fmt(sent)} published in ${fmt(sentSecs, 1)} s`);
      for (let i = 0; i < 600 && acked + failed < sent; i++) await sleep(100);
      console.log(`  latency run: ${fmt(acked)} acked, ${fmt(failed)} failed; waiting for the sentinel alert`);
      await drained(onAlert);
      clearInterval(lagTimer);
      console.log(`  load generator stalls over 100 ms: ${stalls.join(' ') || 'none'}`);
      if (slow.length) console.log(`  alerts over 250 ms (sent at, ms): ${slow.slice(0, 12).join(' ')}`);
      console.log(
        `  publish → ack p99 / p50 / max: ${fmt(pct(ackLat, 0.99))} / ${fmt(pct(ackLat, 0.5))} / ${fmt(ackLat.reduce((a, b) => Math.max(a, b), 0))} ms; acks over 250 ms: ${slowAcks.length}${slowAcks.length ? ` (${slowAcks.filter((_, i) => i % Math.ceil(slowAcks.length / 20) === 0).join(' ')})` : ''}`,
      );
      await Promise.all(clients.map((c) => c.endAsync()));
      const crossed = [...crossings.values()];
      rows.push([
        `2. reading → alert on a browser socket, ${fmt(sent / sentSecs)} readings/s (${label}) for ${cfg.latencySeconds} s, ${devs.length} sensors × ${CROSSINGS.length} threshold crossings: p99 / p50 / max ms (${lat.length} alerts)`,
        `${fmt(pct(lat, 0.99))} / ${fmt(pct(lat, 0.5))} / ${fmt(Math.max(...lat))}`,
        '',
        `target p99 < 250; crossings alerted ${crossed.filter(Boolean).length} / ${crossed.length}; acked ${acked} / ${sent}; unmatched alerts ${unmatched}; publish → ack p99 / max ${fmt(pct(ackLat, 0.99))} / ${fmt(ackLat.reduce((a, b) => Math.max(a, b), 0))} ms`,
      ]);
      rows.push([
        '   alerts on the socket by kind and value type',
        Object.entries(kinds)
          .sort()
          .map(([k, n]) => `${k} ${n}`)
          .join(', '),
        '',
        '',
      ]);
    };
    const maxRate = Math.max(...[...results.on, ...results.off].map((s) => s.ackRate));
    if (cfg.latencyRate) await latency(cfg.latencyRate, 'BENCH_ALERT_LATENCY_RATE');
    else {
      await latency(maxRate / 2, `half the best acked rate, ${fmt(maxRate)}/s, rules off`);
      // The operators process every open alert, so the next run raises new ones.
      const open = await api.call<{ list: { id: number }[] }>(
        'GET',
        `/api/v2/data/alert/getByPlatformId?platformId=${on.platformId}&status=untreated&pageSize=10000`,
      );
      await pool(open.list, cfg.apiConcurrency, (x) =>
        api.call('POST', '/api/v2/data/alert/processAlert', { id: x.id, processed: 1, suggestion: 'Checked on site' }),
      );
      await latency(oa.ackRate / 2, `half the best acked rate with rules on, ${fmt(oa.ackRate)}/s`);
    }
    sock.ws.close();
  } catch (e) {
    console.error(`alerts bench failed: ${String(e)}\nserver output (tail):\n${server.output().slice(-6000)}`);
    throw e;
  } finally {
    await sentinelClient?.endAsync();
    await server.stop();
    await db.drop();
  }
  printTable(`Alert benchmarks (${machine()}, shared; total ${fmt((performance.now() - t0) / 1000)} s)`, rows);
  cleanup();
  process.exit(0);
}

await main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
