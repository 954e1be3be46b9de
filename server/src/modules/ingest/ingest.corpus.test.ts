import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { readingTopic } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';

/**
 * A corpus of malformed MQTT payloads: each is acknowledged (resending would not help), refused with
 * its reason, counted in /api/v2/ingest/stats and in ingest_rejections, and never stored; the broker
 * and the connection survive them all, and a good reading published afterwards is stored.
 */
describe('MQTT ingest: malformed corpus', () => {
  let t: TestApp;
  let admin: string;
  let client: MqttClient;
  let deviceId: number;
  const topic = readingTopic('DEV-corpus');

  beforeAll(async () => {
    // Packets up to 2 MB: this corpus is about what the parser makes of a payload (the 1 MB ones included);
    // the broker's packet-size limit has its own test (ingest.mqtt.security.test.ts).
    t = await testApp({ mqttPort: 0, mqttMaxPacketBytes: 2 * 1024 * 1024 });
    admin = await t.token();
    const site = await buildPlatform(t, { type: 'disaster', name: 'Corpus' });
    const term = await addTerminal(t, admin, site, 'CORPUS-1');
    deviceId = await addDevice(t, admin, deviceBody(site, term.terminalId, 'corpus', { moduleId: 2 }));
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.built.mqtt!.port!}`, {
      username: String(term.terminalId),
      password: term.key,
      reconnectPeriod: 0,
    });
  });
  afterAll(async () => {
    await client?.endAsync(true);
    await t?.close();
  });

  const count = async (): Promise<number> =>
    Number(
      (
        await t.db.k
          .selectFrom('readings')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('device_id', '=', deviceId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses and counts every malformed payload, survives them, and still stores a good reading', async () => {
    const now = Date.now();
    const reading = (values: unknown, ts: unknown = now): string => JSON.stringify({ ts, values });
    const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    const deepValue = (n: number): string =>
      `{"ts":${now},"values":{"rainfall":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`;
    const garbage = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256));
    const corpus: [name: string, payload: string | Buffer, reason: string][] = [
      ['bad JSON', '{"ts": 1, "values"', 'badJson'],
      ['empty payload', '', 'badJson'],
      ['binary garbage', garbage, 'badJson'],
      ['NaN text', `{"ts":${now},"values":{"rainfall":NaN}}`, 'badJson'],
      ['Infinity text', `{"ts":${now},"values":{"rainfall":Infinity}}`, 'badJson'],
      ['1 MB of unterminated text', `{"ts":${now},"values":{"rainfall":"${'x'.repeat(1024 * 1024)}`, 'badJson'],
      ['JSON null', 'null', 'badShape'],
      ['a bare number', '42', 'badShape'],
      ['a string', '"rainfall=3"', 'badShape'],
      ['empty array', '[]', 'badShape'],
      ['values as an array', reading([1, 2, 3]), 'badShape'],
      ['values missing', JSON.stringify({ ts: now }), 'badShape'],
      ['deeply nested arrays', deep(50_000), 'badShape'],
      ['deeply nested value', deepValue(10_000), 'badValue'],
      ['text value', reading({ rainfall: '3.5' }), 'badValue'],
      ['boolean value', reading({ rainfall: true }), 'badValue'],
      ['null value', reading({ rainfall: null }), 'badValue'],
      ['overflowing number (1e999)', `{"ts":${now},"values":{"rainfall":1e999}}`, 'badValue'],
      ['absurd magnitude', reading({ rainfall: 1e300 }), 'badValue'],
      ['no values', reading({}), 'noValues'],
      ['timestamp of wrong type', reading({ rainfall: 1 }, true), 'badTimestamp'],
      ['timestamp as words', reading({ rainfall: 1 }, 'yesterday'), 'badTimestamp'],
      ['pre-2000 timestamp', reading({ rainfall: 1 }, Date.UTC(1999, 11, 31, 23, 59)), 'badTimestamp'],
      ['epoch zero', reading({ rainfall: 1 }, 0), 'badTimestamp'],
      ['far-future timestamp', reading({ rainfall: 1 }, now + 365 * 86400_000), 'futureTimestamp'],
      ['year 9999', reading({ rainfall: 1 }, '9999-12-31T00:00:00Z'), 'futureTimestamp'],
      ['unknown quantity', reading({ waterLevel: 3 }), 'unknownQuantity'],
      ['prototype key', `{"ts":${now},"values":{"__proto__":1}}`, 'unknownQuantity'],
      ['quantity name with symbols', reading({ 'rain;drop table': 1 }), 'unknownQuantity'],
      [
        'huge array (1001 readings)',
        JSON.stringify(Array.from({ length: 1001 }, (_, i) => ({ ts: now - i * 1000, values: { rainfall: 1 } }))),
        'tooMany',
      ],
      [
        '1 MB array',
        JSON.stringify(Array.from({ length: 60_000 }, (_, i) => ({ ts: now - i, values: { rainfall: 1 } }))).slice(
          0,
          1024 * 1024 - 1,
        ) + ']',
        'badJson',
      ],
      [
        'too many quantities',
        reading(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`q${i}`, i]))),
        'tooMany',
      ],
      [
        'a good reading mixed with a bad one',
        JSON.stringify([
          { ts: now - 1000, values: { rainfall: 1 } },
          { ts: now, values: { rainfall: 'x' } },
        ]),
        'badValue',
      ],
    ];
    const expected = new Map<string, number>();
    for (const [, , reason] of corpus) expected.set(reason, (expected.get(reason) ?? 0) + 1);
    const before = await count();
    const statsBefore = (
      await t.api<{ rejected: Record<string, number> }>('GET', '/api/v2/ingest/stats', { token: admin })
    ).data.rejected;

    for (const [name, payload] of corpus) {
      // QoS 1: the PUBACK comes once the payload was judged; the connection stays open.
      await expect(client.publishAsync(topic, payload, { qos: 1 }), name).resolves.toBeDefined();
      expect(client.connected, name).toBe(true);
    }

    const stats = await t.api<{ rejected: Record<string, number> }>('GET', '/api/v2/ingest/stats', { token: admin });
    for (const [reason, n] of expected)
      expect(stats.data.rejected[reason] ?? 0, reason).toBe((statsBefore[reason] ?? 0) + n);
    expect(await count()).toBe(before);

    // The counters reach the table (the service flushes every 10 s; flush now instead of waiting).
    await t.built.ingest.flushRejections();
    const saved = await t.db.k.selectFrom('ingest_rejections').select(['reason', 'n']).execute();
    const table = new Map<string, number>();
    for (const r of saved) table.set(r.reason, (table.get(r.reason) ?? 0) + r.n);
    for (const [reason, n] of expected) expect(table.get(reason) ?? 0, reason).toBeGreaterThanOrEqual(n);
    expect(Object.fromEntries(table)).toEqual(stats.data.rejected);

    // Still alive: a good reading on the same connection is stored before its ack.
    const ts = now - 60_000;
    await client.publishAsync(topic, JSON.stringify({ ts, values: { rainfall: 2.5 } }), { qos: 1 });
    const row = await t.db.k
      .selectFrom('readings')
      .select('vals')
      .where('device_id', '=', deviceId)
      .where('ts', '=', new Date(ts))
      .executeTakeFirst();
    expect(row?.vals).toEqual({ rainfall: 2.5 });
    expect(await count()).toBe(before + 1);
    const health = await t.raw('GET', '/api/health');
    expect(health.json().status).toBe(0);
  });
});
