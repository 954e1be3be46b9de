import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import WebSocket from 'ws';
import { readingTopic } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';

const INGEST = '/api/v2/ingest/readings';

describe('device ingest', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let termA: { terminalId: number; key: string };
  let termB: { terminalId: number; key: string };
  let rainA: number;

  const post = (
    body: unknown,
    opts: { term?: { terminalId: number; key: string }; device?: string; raw?: string } = {},
  ): ReturnType<TestApp['raw']> => {
    const term = opts.term ?? termA;
    return t.raw('POST', INGEST, {
      payload: opts.raw ?? JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        'x-terminal-id': String(term.terminalId),
        'x-terminal-key': term.key,
        ...(opts.device ? { 'x-device-number': opts.device } : {}),
      },
    });
  };
  const stored = async (deviceId: number): Promise<{ ts: Date; vals: unknown }[]> =>
    t.db.k.selectFrom('readings').select(['ts', 'vals']).where('device_id', '=', deviceId).orderBy('ts').execute();

  beforeAll(async () => {
    t = await testApp({ mqttPort: 0 });
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'Ingest A' });
    siteB = await buildPlatform(t, { type: 'disaster', name: 'Ingest B' });
    termA = await addTerminal(t, admin, siteA, 'ING-A');
    termB = await addTerminal(t, admin, siteB, 'ING-B');
    rainA = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'rainA', { moduleId: 2 }));
    await addDevice(t, admin, deviceBody(siteB, termB.terminalId, 'rainB', { moduleId: 2 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a reading once, accepts late and out-of-order ones, and keeps the rollups exact', async () => {
    const base = Date.UTC(2026, 10, 20, 10, 0, 0);
    const batch = [0, 1, 2, 3].map((i) => ({ ts: base + i * 60_000, values: { rainfall: i + 0.5, battery: 90 } }));
    const r1 = await post(batch, { device: 'DEV-rainA' });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().data).toMatchObject({ stored: 4, duplicates: 0 });
    // The same readings again (a logger resending after a lost ack): stored once.
    const r2 = await post(batch, { device: 'DEV-rainA' });
    expect(r2.json().data).toMatchObject({ stored: 0, duplicates: 4 });
    // A repeat and a new reading together: only the new one reaches the rollups.
    const r3 = await post([batch[0], { ts: base + 4 * 60_000, values: { rainfall: 4.5 } }], { device: 'DEV-rainA' });
    expect(r3.json().data).toMatchObject({ stored: 1, duplicates: 1 });
    // A late reading, earlier than all others, in ISO form; and one in the next hour.
    const late = await post(
      { ts: new Date(base - 30 * 60_000).toISOString(), values: { rainfall: 7 } },
      { device: 'DEV-rainA' },
    );
    expect(late.statusCode).toBe(200);
    await post({ ts: base + 3600_000, values: { rainfall: 1 } }, { device: 'DEV-rainA' });
    const rows = await stored(rainA);
    expect(rows).toHaveLength(7);
    const hourly = await t.db.k
      .selectFrom('readings_hourly')
      .selectAll()
      .where('device_id', '=', rainA)
      .where('quantity', '=', 'rainfall')
      .orderBy('bucket')
      .execute();
    expect(hourly.map((h) => [new Date(h.bucket).toISOString(), h.n, h.total, h.min_v, h.max_v])).toEqual([
      [new Date(base - 3600_000).toISOString(), 1, 7, 7, 7],
      [new Date(base).toISOString(), 5, 0.5 + 1.5 + 2.5 + 3.5 + 4.5, 0.5, 4.5],
      [new Date(base + 3600_000).toISOString(), 1, 1, 1, 1],
    ]);
    expect(hourly[1]!.first_v).toBe(0.5);
    expect(hourly[1]!.last_v).toBe(4.5);
    const daily = await t.db.k
      .selectFrom('readings_daily')
      .selectAll()
      .where('device_id', '=', rainA)
      .where('quantity', '=', 'rainfall')
      .execute();
    expect(daily).toHaveLength(1);
    expect(daily[0]!.n).toBe(7);
    expect(daily[0]!.first_v).toBe(7);
    expect(daily[0]!.last_v).toBe(1);
    const dev = await t.db.k
      .selectFrom('devices')
      .select(['state', 'last_values', 'last_reading_at'])
      .where('id', '=', rainA)
      .executeTakeFirstOrThrow();
    expect(dev.state).toBe('normal');
    expect(dev.last_values).toMatchObject({ rainfall: 1, battery: 90 });
    expect(new Date(dev.last_reading_at!).getTime()).toBe(base + 3600_000);
  });

  it('refuses bad payloads with a reason, counts them, and stores nothing', async () => {
    const before = (await stored(rainA)).length;
    const now = Date.now();
    const cases: [string, unknown, number, string][] = [
      ['not json', null, 400, 'badJson'],
      ['number', 42, 400, 'badShape'],
      ['no values', { ts: now }, 400, 'badShape'],
      ['empty values', { ts: now, values: {} }, 400, 'noValues'],
      ['text value', { ts: now, values: { rainfall: '3' } }, 400, 'badValue'],
      ['huge value', { ts: now, values: { rainfall: 1e300 } }, 400, 'badValue'],
      ['bad time', { ts: 'yesterday', values: { rainfall: 1 } }, 400, 'badTimestamp'],
      ['far future', { ts: now + 86400_000 * 365, values: { rainfall: 1 } }, 400, 'futureTimestamp'],
      ['unknown quantity', { ts: now, values: { waterLevel: 3 } }, 400, 'unknownQuantity'],
      [
        'too many',
        Array.from({ length: 1001 }, (_, i) => ({ ts: now - i * 1000, values: { rainfall: 1 } })),
        400,
        'tooMany',
      ],
    ];
    for (const [name, body, code, reason] of cases) {
      const r = await post(body, { device: 'DEV-rainA', raw: name === 'not json' ? '{"ts": 1, values' : undefined });
      expect(r.statusCode, name).toBe(code);
      expect(r.json().data.reason, name).toBe(reason);
    }
    // A mixed array is refused whole.
    const mixed = await post(
      [
        { ts: now, values: { rainfall: 1 } },
        { ts: now + 1, values: { rainfall: 'x' } },
      ],
      { device: 'DEV-rainA' },
    );
    expect(mixed.statusCode).toBe(400);
    expect((await stored(rainA)).length).toBe(before);
    const stats = await t.api<{ rejected: Record<string, number> }>('GET', '/api/v2/ingest/stats', { token: admin });
    expect(stats.data.rejected.badValue).toBeGreaterThanOrEqual(3);
    expect(stats.data.rejected.badJson).toBeGreaterThanOrEqual(1);
  });

  it('looks up the devices of readings arriving together in one go, each reading on its own device', async () => {
    const term = await addTerminal(t, admin, siteA, 'ING-MANY');
    const ids: number[] = [];
    for (let i = 0; i < 12; i++)
      ids.push(await addDevice(t, admin, deviceBody(siteA, term.terminalId, `many${i}`, { moduleId: 2 })));
    const ts = Date.UTC(2026, 10, 21, 8, 0, 0);
    // One request naming all twelve (their lookups share one statement, whose answer must reach each reading's
    // own device), and a request per device at the same time.
    const one = await post(
      ids.map((_, i) => ({ device: `DEV-many${i}`, ts, values: { rainfall: i + 0.25 } })),
      { term },
    );
    expect(one.json().data).toMatchObject({ stored: 12, duplicates: 0 });
    const answers = await Promise.all(
      ids.map((_, i) => post({ ts: ts + 60_000, values: { rainfall: i + 0.5 } }, { term, device: `DEV-many${i}` })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    for (const [i, id] of ids.entries())
      expect((await stored(id)).map((r) => r.vals)).toEqual([{ rainfall: i + 0.25 }, { rainfall: i + 0.5 }]);
  });

  it('authenticates the terminal and lets it send only for its own devices', async () => {
    const wrongKey = await post(
      { ts: Date.now(), values: { rainfall: 1 } },
      { term: { terminalId: termA.terminalId, key: 'nope' }, device: 'DEV-rainA' },
    );
    expect(wrongKey.statusCode).toBe(401);
    const foreign = await post({ ts: Date.now(), values: { rainfall: 1 } }, { device: 'DEV-rainB' });
    expect(foreign.statusCode).toBe(403);
    const missing = await post({ ts: Date.now(), values: { rainfall: 1 } }, { device: 'DEV-nothing' });
    expect(missing.statusCode).toBe(403);
    const zh = await t.raw('POST', INGEST, {
      payload: '{}',
      headers: { 'content-type': 'application/json', language: 'zh', 'x-terminal-id': '999', 'x-terminal-key': 'x' },
    });
    expect(zh.statusCode).toBe(401);
    expect(zh.json().info).toBe('终端不存在或密钥错误');
  });

  it('takes MQTT QoS 1 from a terminal, acks after commit, and pushes to sockets only within scope', async () => {
    const port = t.built.mqtt!.port!;
    // A user who may see site A only, and the administrator, each with a socket subscribed to everything.
    const role = await roleWith(t, admin, 'ingestViewer', ['monitor', 'monitor:realtime']);
    const viewer = await userToken(t, admin, { account: 'viewerA', roleCode: role, platformIds: [siteA] });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const httpPort = (t.app.server.address() as { port: number }).port;
    const openSocket = async (token: string): Promise<{ messages: unknown[]; ws: WebSocket }> => {
      const ws = new WebSocket(`ws://127.0.0.1:${httpPort}/api/v2/ws?token=${token}`);
      const messages: unknown[] = [];
      await new Promise<void>((resolve) => {
        ws.on('message', (m) => {
          const msg = JSON.parse(m.toString()) as { type: string };
          messages.push(msg);
          if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'subscribe', platformIds: 'all' }));
          if (msg.type === 'subscribed') resolve();
        });
      });
      return { messages, ws };
    };
    const adminSock = await openSocket(admin);
    const viewerSock = await openSocket(viewer);

    const clientA = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: String(termA.terminalId),
      password: termA.key,
      reconnectPeriod: 0,
    });
    const clientB = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      username: String(termB.terminalId),
      password: termB.key,
      reconnectPeriod: 0,
    });
    const tsA = Date.now() - 5000;
    await clientA.publishAsync(readingTopic('DEV-rainA'), JSON.stringify({ ts: tsA, values: { rainfall: 4.25 } }), {
      qos: 1,
    });
    // The PUBACK came: the reading is already committed.
    const rows = await t.db.k
      .selectFrom('readings')
      .select('vals')
      .where('device_id', '=', rainA)
      .where('ts', '=', new Date(tsA))
      .execute();
    expect(rows).toHaveLength(1);
    await clientB.publishAsync(readingTopic('DEV-rainB'), JSON.stringify([{ ts: tsA, values: { rainfall: 9.75 } }]), {
      qos: 1,
    });
    await expect
      .poll(() => adminSock.messages.filter((m) => (m as { type: string }).type === 'reading').length)
      .toBeGreaterThanOrEqual(2);
    const viewerReadings = viewerSock.messages.filter((m) => (m as { type: string }).type === 'reading') as {
      platformId: number;
      values: Record<string, number>;
    }[];
    expect(viewerReadings.some((m) => m.values.rainfall === 4.25)).toBe(true);
    expect(viewerReadings.every((m) => m.platformId === siteA)).toBe(true);

    // Wrong key: the connection is refused.
    await expect(
      mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        username: String(termA.terminalId),
        password: 'bad',
        reconnectPeriod: 0,
      }),
    ).rejects.toThrow();
    // Another terminal's device: the connection is closed and nothing is stored.
    const before = (await stored(rainA)).length;
    const closed = new Promise<void>((r) => clientB.once('close', () => r()));
    clientB.publish(readingTopic('DEV-rainA'), JSON.stringify({ ts: Date.now(), values: { rainfall: 1 } }), { qos: 1 });
    await closed;
    expect((await stored(rainA)).length).toBe(before);
    await clientA.endAsync();
    await clientB.endAsync(true);
    adminSock.ws.close();
    viewerSock.ws.close();
  });
});
