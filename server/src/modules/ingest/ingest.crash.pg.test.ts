import { afterEach, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { sql } from 'kysely';
import { readingTopic } from '@geosentry/contract';
import { freshDb } from '../../../test/harness.ts';
import {
  Api,
  freePort,
  provision,
  startServerProcess,
  tempDir,
  type ProvisionedTerminal,
  type ServerProcess,
} from './testkit.ts';

/**
 * Crash safety of MQTT ingest (PostgreSQL only: it runs the real server process and SIGKILLs it).
 * 10,000 QoS 1 readings, each with a unique timestamp and its sequence number as the value, are
 * published by 4 terminals for 20 devices; the server is killed three times mid-run and restarted;
 * publishers reconnect and resend whatever was not acknowledged. Afterwards every acknowledged
 * reading must be stored, and none twice. The second case turns on the test-only fault
 * INGEST_UNSAFE_ACK_FIRST (ack before commit) and shows this test catches the loss.
 */

const TOTAL = 10_000;
const KILL_AT = [2_000, 4_500, 7_000];
const WINDOW = 50;

interface Item {
  seq: number;
  device: string;
  ts: number;
}

/** One terminal's connection: keeps up to WINDOW readings in flight, resends the unacknowledged after a reconnect. */
class Publisher {
  private todo: Item[];
  private inflight = new Set<number>();
  connections = 0;
  done = false;

  constructor(
    private readonly port: () => number,
    private readonly term: ProvisionedTerminal,
    items: Item[],
    private readonly acked: Set<number>,
  ) {
    this.todo = items;
  }

  async run(): Promise<void> {
    while (this.todo.some((i) => !this.acked.has(i.seq))) {
      const client = await this.connect();
      this.connections++;
      await new Promise<void>((resolve) => {
        let closed = false;
        const pump = (): void => {
          if (closed) return;
          for (const it of this.todo) {
            if (this.inflight.size >= WINDOW) break;
            if (this.acked.has(it.seq) || this.inflight.has(it.seq)) continue;
            this.inflight.add(it.seq);
            client.publish(
              readingTopic(it.device),
              JSON.stringify({ ts: it.ts, values: { rainfall: it.seq } }),
              { qos: 1 },
              (err) => {
                // A PUBACK, on this connection or (late) on an earlier one, means the server has it.
                if (!err) this.acked.add(it.seq);
                if (!closed) {
                  this.inflight.delete(it.seq);
                  pump();
                }
              },
            );
          }
          if (this.todo.every((i) => this.acked.has(i.seq))) finish();
        };
        const finish = (): void => {
          if (closed) return;
          closed = true;
          // Whatever was in flight and not acknowledged is sent again on the next connection.
          this.inflight.clear();
          resolve();
        };
        client.once('close', finish);
        if (!client.connected) finish();
        else pump();
      });
      this.todo = this.todo.filter((i) => !this.acked.has(i.seq));
      client.end(true);
    }
    this.done = true;
  }

  /** Connects, retrying until the server is back (a connection that closes before CONNACK counts as a failure). */
  private async connect(): Promise<MqttClient> {
    for (;;) {
      const c = mqtt.connect(`mqtt://127.0.0.1:${this.port()}`, {
        username: String(this.term.terminalId),
        password: this.term.key,
        reconnectPeriod: 0,
        connectTimeout: 3000,
        clean: true,
      });
      c.on('error', () => undefined);
      const ok = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 4000);
        c.once('connect', () => {
          clearTimeout(timer);
          resolve(true);
        });
        c.once('close', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      if (ok && c.connected) return c;
      c.end(true);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function scenario(env: Record<string, string>): Promise<{
  acked: number;
  stored: number;
  ackedNotStored: number;
  duplicates: number;
  kills: number;
}> {
  const fresh = await freshDb('postgres');
  const settings = {
    databaseUrl: fresh.url!,
    dataDir: tempDir(),
    httpPort: await freePort(),
    mqttPort: await freePort(),
    env,
  };
  let server: ServerProcess = await startServerProcess(settings);
  cleanups.push(async () => {
    await server.kill();
    await fresh.drop();
  });
  const api = new Api(server.url);
  await api.login();
  const { terminals } = await provision(api, { prefix: 'CR', terminals: 4, devicesPerTerminal: 5 });

  const base = Date.now() - 4 * 3600_000;
  const acked = new Set<number>();
  const publishers = terminals.map((term, ti) => {
    const items: Item[] = [];
    for (let seq = ti; seq < TOTAL; seq += terminals.length)
      items.push({ seq, device: term.devices[seq % term.devices.length]!.number, ts: base + seq * 1000 });
    return new Publisher(() => settings.mqttPort, term, items, acked);
  });
  const running = Promise.all(publishers.map((p) => p.run()));

  let kills = 0;
  for (const at of KILL_AT) {
    while (acked.size < at && !publishers.every((p) => p.done)) await new Promise((r) => setTimeout(r, 2));
    if (publishers.every((p) => p.done)) break;
    await server.kill();
    kills++;
    server = await startServerProcess(settings);
  }
  let stuck: NodeJS.Timeout | undefined;
  await Promise.race([
    running,
    new Promise((_, reject) => {
      stuck = setTimeout(
        () => reject(new Error(`publishers stuck at ${acked.size} acked; server: ${server.output().slice(-2000)}`)),
        75_000,
      );
    }),
  ]).finally(() => clearTimeout(stuck));
  // A graceful stop lets the last server finish what it queued, so only real losses remain.
  await server.stop();

  const rows = await sql<{ seq: number; n: number }>`
    select (r.vals->>'rainfall')::int as seq, count(*)::int as n
    from readings r join devices d on d.id = r.device_id
    where d.number like 'CR-%' group by 1`.execute(fresh.db.k);
  const storedSeqs = new Set(rows.rows.map((r) => r.seq));
  let ackedNotStored = 0;
  for (const s of acked) if (!storedSeqs.has(s)) ackedNotStored++;
  const duplicates = rows.rows.reduce((a, r) => a + (r.n - 1), 0);
  return { acked: acked.size, stored: storedSeqs.size, ackedNotStored, duplicates, kills };
}

const cleanups: (() => Promise<void>)[] = [];

describe('MQTT ingest survives SIGKILL (real server process)', () => {
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c().catch(() => undefined);
  });

  it('stores every acknowledged reading exactly once across three kills', { timeout: 90_000 }, async () => {
    const r = await scenario({});
    const what = JSON.stringify(r);
    expect(r.kills, what).toBe(3);
    expect(r.acked, what).toBe(TOTAL);
    expect(r.ackedNotStored, what).toBe(0);
    expect(r.duplicates, what).toBe(0);
    expect(r.stored, what).toBe(TOTAL);
  });

  it(
    'detects the loss when the broker acknowledges before the commit (fault injection)',
    { timeout: 90_000 },
    async () => {
      const r = await scenario({ INGEST_UNSAFE_ACK_FIRST: '1' });
      expect(r.kills).toBeGreaterThanOrEqual(1);
      expect(r.acked).toBe(TOTAL);
      expect(r.ackedNotStored).toBeGreaterThan(0);
      expect(r.duplicates).toBe(0);
    },
  );
});
