import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
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
 * Issue 15, finding 3: the embedded broker's limits, against the real server process (its memory is measured
 * from /proc, apart from the test's own). The limits are set low so each case is quick: packets of at most
 * 64 KiB, CONNECT within 1 s, 6 connections per address.
 */

const MAX_PACKET = 64 * 1024;
const PER_IP = 6;
const MB = 1024 * 1024;

function varint(n: number): Buffer {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

/** The server process's resident memory, in bytes. */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

/** Resolves when the socket closes; the time it took. */
function closed(s: net.Socket | MqttClient): Promise<void> {
  return new Promise((r) => s.once('close', () => r()));
}

function rawSocket(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

/**
 * Streams `bytes` bytes after `head` as fast as the socket takes them; stops when the server closes it.
 * Answers how many bytes were written.
 */
async function stream(s: net.Socket, head: Buffer, bytes: number): Promise<number> {
  s.on('error', () => undefined);
  let sent = 0;
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  let open = true;
  s.once('close', () => (open = false));
  if (!s.write(head)) await new Promise((r) => s.once('drain', r));
  while (open && sent < bytes) {
    sent += chunk.length;
    if (!s.write(chunk))
      await new Promise<void>((r) => {
        const done = (): void => {
          s.off('drain', done);
          s.off('close', done);
          r();
        };
        s.once('drain', done);
        s.once('close', done);
      });
  }
  return sent;
}

describe('embedded MQTT broker limits (security)', () => {
  let server: ServerProcess;
  let api: Api;
  let port: number;
  let terms: ProvisionedTerminal[];
  let drop: () => Promise<void> = async () => undefined;

  const accepted = async (): Promise<number> =>
    (await api.call<{ accepted: number }>('GET', '/api/v2/ingest/stats')).accepted;
  const connect = (t: ProvisionedTerminal, clientId?: string): Promise<MqttClient> =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: String(t.terminalId),
      password: t.key,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...(clientId ? { clientId } : {}),
    });

  beforeAll(async () => {
    let databaseUrl = '';
    if (process.env.TEST_DB === 'postgres') {
      const fresh = await freshDb('postgres');
      await fresh.db.close();
      databaseUrl = fresh.url!;
      drop = fresh.drop;
    }
    port = await freePort();
    server = await startServerProcess({
      databaseUrl,
      dataDir: tempDir(),
      httpPort: await freePort(),
      mqttPort: port,
      env: {
        MQTT_MAX_PACKET_BYTES: String(MAX_PACKET),
        MQTT_CONNECT_TIMEOUT_SECONDS: '1',
        MQTT_MAX_CONNECTIONS_PER_IP: String(PER_IP),
        LOG_LEVEL: 'error',
      },
    });
    api = new Api(server.url);
    await api.login();
    terms = (await provision(api, { prefix: 'SEC', terminals: 2, devicesPerTerminal: 1 })).terminals;
  });
  afterAll(async () => {
    await server?.stop();
    await drop();
  });

  it('closes a connection whose packet is over the limit, and stores nothing of it', async () => {
    const client = await connect(terms[0]!);
    const dev = terms[0]!.devices[0]!.number;
    await client.publishAsync(readingTopic(dev), JSON.stringify({ ts: Date.now() - 60_000, values: { rainfall: 1 } }), {
      qos: 1,
    });
    const before = await accepted();
    // A valid reading padded to 1 MB, after a valid CONNECT: the connection is closed without an ack.
    const payload = JSON.stringify({ ts: Date.now() - 30_000, values: { rainfall: 9 } }).padEnd(MB, ' ');
    const gone = closed(client);
    let acked = false;
    client.publish(readingTopic(dev), payload, { qos: 1 }, (err) => (acked = !err));
    const outcome = await Promise.race([
      gone.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('still open'), 5000)),
    ]);
    expect(outcome).toBe('closed');
    expect(acked).toBe(false);
    expect(await accepted()).toBe(before);
    await client.endAsync(true);
    // Just under the limit passes (the limit counts the whole packet).
    const ok = await connect(terms[0]!);
    await ok.publishAsync(
      readingTopic(dev),
      JSON.stringify({ ts: Date.now() - 1000, values: { rainfall: 2 } }).padEnd(MAX_PACKET - 200, ' '),
      {
        qos: 1,
      },
    );
    expect(await accepted()).toBe(before + 1);
    await ok.endAsync();
  });

  it('closes a connection that sends no CONNECT within the deadline', async () => {
    const s = await rawSocket(port);
    const t0 = Date.now();
    await closed(s);
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3000);
    // A CONNECT sent slowly, byte by byte, does not stretch the deadline either.
    const slow = await rawSocket(port);
    slow.on('error', () => undefined);
    const head = Buffer.concat([Buffer.from([0x10]), varint(1000)]);
    const timer = setInterval(() => slow.write(head.subarray(0, 1)), 100);
    const t1 = Date.now();
    await closed(slow);
    clearInterval(timer);
    expect(Date.now() - t1).toBeLessThan(3000);
  });

  it('holds at most the configured connections per address', async () => {
    const clients: MqttClient[] = [];
    for (let i = 0; i < PER_IP; i++) clients.push(await connect(terms[i % 2]!));
    // One more from the same address is closed at once (long before the CONNECT deadline of 1 s).
    const extra = await rawSocket(port);
    const t0 = Date.now();
    await closed(extra);
    expect(Date.now() - t0).toBeLessThan(500);
    // The admitted ones still work.
    await clients[0]!.publishAsync(
      readingTopic(terms[0]!.devices[0]!.number),
      JSON.stringify({ ts: Date.now() - 3000, values: { rainfall: 3 } }),
      { qos: 1 },
    );
    // One leaves: a new one may come.
    await clients.pop()!.endAsync();
    await new Promise((r) => setTimeout(r, 100));
    clients.push(await connect(terms[0]!));
    await Promise.all(clients.map((c) => c.endAsync()));
  });

  it("refuses a CONNECT that takes another terminal's client id; the same terminal may take its own back", async () => {
    const [a, b] = [terms[0]!, terms[1]!];
    const legit = await connect(a, 'logger-7');
    let legitClosed = false;
    legit.on('close', () => (legitClosed = true));
    await expect(connect(b, 'logger-7')).rejects.toThrow(/identifier rejected/i);
    // Many at once (they race in authentication): none gets through.
    const tries = await Promise.allSettled(Array.from({ length: 4 }, () => connect(b, 'logger-7')));
    expect(tries.every((r) => r.status === 'rejected')).toBe(true);
    await legit.publishAsync(
      readingTopic(a.devices[0]!.number),
      JSON.stringify({ ts: Date.now() - 4000, values: { rainfall: 4 } }),
      {
        qos: 1,
      },
    );
    expect(legitClosed).toBe(false);
    // The same terminal reconnecting (after a network change) takes its id over: the old connection goes.
    const again = await connect(a, 'logger-7');
    await expect.poll(() => legitClosed).toBe(true);
    await again.publishAsync(
      readingTopic(a.devices[0]!.number),
      JSON.stringify({ ts: Date.now() - 5000, values: { rainfall: 5 } }),
      {
        qos: 1,
      },
    );
    await again.endAsync();
    legit.end(true);
  });

  it('keeps memory flat under a flood: 4 sockets x 50 MB before CONNECT, and oversized PUBLISHes', async () => {
    const pid = server.proc.pid!;
    await new Promise((r) => setTimeout(r, 500));
    const start = rssOf(pid);
    let peak = start;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 25);
    try {
      // Four connections each declaring a CONNECT of 250 MB and streaming 50 MB of it.
      const floods = await Promise.all(Array.from({ length: 4 }, () => rawSocket(port)));
      const head = Buffer.concat([Buffer.from([0x10]), varint(250 * MB)]);
      await Promise.all(floods.map((s) => stream(s, head, 50 * MB)));
      // And a valid CONNECT followed by a PUBLISH declaring 50 MB.
      const connected = await connect(terms[0]!);
      connected.on('error', () => undefined);
      const sock = (connected as unknown as { stream: net.Socket }).stream;
      const topic = Buffer.from(readingTopic(terms[0]!.devices[0]!.number));
      const publishHead = Buffer.concat([
        Buffer.from([0x30]),
        varint(2 + topic.length + 50 * MB),
        Buffer.from([topic.length >> 8, topic.length & 0xff]),
        topic,
      ]);
      await stream(sock, publishHead, 50 * MB);
      connected.end(true);
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      clearInterval(sampler);
    }
    const end = rssOf(pid);
    // eslint-disable-next-line no-console
    console.log(
      `broker flood: server rss start ${(start / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB, end ${(end / MB).toFixed(1)} MB`,
    );
    expect(peak - start).toBeLessThan(50 * MB);
    expect(end - start).toBeLessThan(50 * MB);
    // The server still serves.
    const c = await connect(terms[1]!);
    await c.publishAsync(
      readingTopic(terms[1]!.devices[0]!.number),
      JSON.stringify({ ts: Date.now() - 6000, values: { rainfall: 6 } }),
      {
        qos: 1,
      },
    );
    await c.endAsync();
  });
});
