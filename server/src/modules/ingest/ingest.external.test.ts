import net from 'node:net';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { readingTopic } from '@geosentry/contract';
import { buildApp } from '../../app.ts';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';

/**
 * Ingest through an external broker (Mosquitto on 127.0.0.1:1883, anonymous; MQTT_URL): readings
 * published there are stored, and a reading published while the server is away is stored when it
 * comes back with the same client ids (persistent MQTT 5 session with an expiry interval). Every run
 * uses its own client id prefix and device numbers, so parallel runs never take each other's messages.
 */
const BROKER = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

async function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || 1883), u.hostname);
    s.setTimeout(1000);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

const haveBroker = await reachable(BROKER);

describe.skipIf(!haveBroker)('MQTT ingest through an external broker (Mosquitto)', () => {
  const run = `${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const prefix = `gs-test-${run}`;
  const numbers = [`EXT-${run}-1`, `EXT-${run}-2`];
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let publisher: MqttClient;
  const ids: number[] = [];
  const start = async (): Promise<Awaited<ReturnType<typeof buildApp>>> =>
    buildApp({ ...t.config, mqttUrl: BROKER, mqttPort: -1, mqttClientId: prefix }, { db: t.db, logger: false });

  beforeAll(async () => {
    // The console API runs without MQTT; the ingesting app is started (and stopped) on the same database.
    t = await testApp();
    const admin = await t.token();
    const site = await buildPlatform(t, { type: 'disaster', name: 'External broker' });
    const term = await addTerminal(t, admin, site, `EXT-${run}`);
    for (const n of numbers)
      ids.push(await addDevice(t, admin, deviceBody(site, term.terminalId, n.slice(4), { number: n, moduleId: 2 })));
    // On Mosquitto the broker authenticates terminals; this one allows anonymous clients.
    publisher = await mqtt.connectAsync(BROKER, { clientId: `${prefix}-logger`, reconnectPeriod: 0 });
  });
  afterAll(async () => {
    await publisher?.endAsync(true).catch(() => undefined);
    await app?.close().catch(() => undefined);
    // Remove the server's persistent sessions from the broker (clean start, no expiry).
    for (let i = 0; i < 4; i++) {
      const c = await mqtt
        .connectAsync(BROKER, {
          clientId: `${prefix}-${i}`,
          clean: true,
          protocolVersion: 5,
          properties: { sessionExpiryInterval: 0 },
          reconnectPeriod: 0,
        })
        .catch(() => null);
      await c?.endAsync(true).catch(() => undefined);
    }
    await t?.close();
  });

  const storedAt = async (deviceId: number, ts: number): Promise<unknown> =>
    (
      await t.db.k
        .selectFrom('readings')
        .select('vals')
        .where('device_id', '=', deviceId)
        .where('ts', '=', new Date(ts))
        .executeTakeFirst()
    )?.vals;

  it('stores readings published on the broker, and one sent while the server was away', async () => {
    app = await start();
    const now = Date.now() - 10 * 60_000;
    await publisher.publishAsync(readingTopic(numbers[0]!), JSON.stringify({ ts: now, values: { rainfall: 1.5 } }), {
      qos: 1,
    });
    await publisher.publishAsync(
      readingTopic(numbers[1]!),
      JSON.stringify([
        { ts: now, values: { rainfall: 2.5 } },
        { ts: now + 60_000, values: { rainfall: 3.5 } },
      ]),
      { qos: 1 },
    );
    await expect.poll(() => storedAt(ids[0]!, now), { timeout: 10_000 }).toEqual({ rainfall: 1.5 });
    await expect.poll(() => storedAt(ids[1]!, now + 60_000), { timeout: 10_000 }).toEqual({ rainfall: 3.5 });
    expect(await storedAt(ids[1]!, now)).toEqual({ rainfall: 2.5 });

    // The server goes away; the broker keeps its session and queues what arrives meanwhile.
    await app.close();
    app = null;
    const away = now + 120_000;
    await publisher.publishAsync(readingTopic(numbers[0]!), JSON.stringify({ ts: away, values: { rainfall: 7.25 } }), {
      qos: 1,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(await storedAt(ids[0]!, away)).toBeUndefined();

    // A new server with the same client ids picks the queued reading up.
    app = await start();
    await expect.poll(() => storedAt(ids[0]!, away), { timeout: 15_000 }).toEqual({ rainfall: 7.25 });
    const n = await t.db.k
      .selectFrom('readings')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('device_id', 'in', ids)
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(4);
  });
});
