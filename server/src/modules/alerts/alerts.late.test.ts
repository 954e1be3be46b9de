import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertDetail, AlertRow, Page } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';

const INGEST = '/api/v2/ingest/readings';
const A = '/api/v2/data/alert';
const V = `${A}/manage/value`;
const MIN = 60_000;
/** 09:00 UTC yesterday: readings of the reproduction. */
const D0 = (() => {
  const d = new Date(Date.now() - 86_400_000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 9, 0);
})();
const at = (minutes: number) => D0 + minutes * MIN;

describe('alerts: late readings, the value that raised the level', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let term: { terminalId: number; key: string };
  const dev: Record<string, number> = {};

  /** Sends readings of one device over HTTP ingest (each call its own commit), then waits for evaluation. */
  const send = async (number: string, readings: { ts: number; values: Record<string, number> }[]) => {
    const r = await t.raw('POST', INGEST, {
      payload: JSON.stringify(readings),
      headers: {
        'content-type': 'application/json',
        'x-terminal-id': String(term.terminalId),
        'x-terminal-key': term.key,
        'x-device-number': number,
      },
    });
    expect(r.statusCode, r.body).toBe(200);
    await new Promise((res) => setTimeout(res, 10));
    await t.built.alertEngine.idle();
  };
  const addRule = async (body: Record<string, unknown>) => {
    const r = await t.api<{ id: number }>('POST', `${V}/add`, {
      token: admin,
      body: { channels: ['mail'], groupId: 7, pushIntervalMinutes: 0, ...body },
    });
    expect(r.status, r.info).toBe(0);
    return r.data.id;
  };
  const alertsOf = async (deviceId: number) => {
    const r = await t.api<Page<AlertRow>>('GET', `${A}/getByDeviceName`, {
      token: admin,
      query: { deviceId: String(deviceId) },
    });
    expect(r.status, r.info).toBe(0);
    return r.data.list;
  };
  const detail = async (id: number) =>
    (await t.api<AlertDetail>('GET', `${A}/getDetail`, { token: admin, query: { id: String(id) } })).data;
  const hits = async (deviceId: number) =>
    (await t.db.k.selectFrom('alert_hits').select('reading_ts').where('device_id', '=', deviceId).execute()).length;

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await buildPlatform(t, { type: 'disaster', name: 'Slope Late' });
    term = await addTerminal(t, admin, site, 'LATE-T');
    for (const [n, moduleId] of [
      ['rate', 3],
      ['rain', 2],
      ['red', 3],
      ['stay', 3],
    ] as const)
      dev[n] = await addDevice(t, admin, deviceBody(site, term.terminalId, n, { moduleId }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a late reading raises the rate alert of the reading after it, once, with the late reading in its evidence', async () => {
    await addRule({
      deviceId: dev.rate,
      quantity: 'waterLevel',
      valueType: 'rate',
      level: 1,
      value: 1,
      direction: 'above',
    });
    await send('DEV-rate', [{ ts: at(0), values: { waterLevel: 5.0 } }]);
    await send('DEV-rate', [{ ts: at(20), values: { waterLevel: 5.5 } }]);
    expect(await alertsOf(dev.rate!)).toEqual([]); // +0.5
    // The logger resends its buffered 09:10 reading: 09:20 is now 5.5 - 4.0 = +1.5.
    await send('DEV-rate', [{ ts: at(10), values: { waterLevel: 4.0 } }]);
    const list = await alertsOf(dev.rate!);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ valueType: 'rate', level: 1, metric: 1.5, lastValue: 5.5, triggerValue: 1.5 });
    expect(list[0]!.lastAt).toBe(new Date(at(20)).toISOString());
    const d = await detail(list[0]!.id);
    expect(d.evidence).toMatchObject({
      ts: new Date(at(20)).toISOString(),
      rate: 1.5,
      late: true,
      lateReadingAt: new Date(at(10)).toISOString(),
    });
    expect(d.evidence.readings.map((r) => r.value)).toEqual([5, 4, 5.5]);
    // Judging again (the same late reading resent, another late one) raises nothing twice.
    const before = await hits(dev.rate!);
    await send('DEV-rate', [{ ts: at(10), values: { waterLevel: 4.0 } }]);
    await send('DEV-rate', [{ ts: at(5), values: { waterLevel: 4.5 } }]);
    expect(await hits(dev.rate!)).toBe(before);
    expect(await alertsOf(dev.rate!)).toMatchObject([{ count: 1 }]);
  });

  it('an alert raised before a late reading stays raised, and its evidence records the late reading', async () => {
    await addRule({
      deviceId: dev.stay,
      quantity: 'waterLevel',
      valueType: 'rate',
      level: 1,
      value: 1,
      direction: 'above',
    });
    await send('DEV-stay', [{ ts: at(0), values: { waterLevel: 5.0 } }]);
    await send('DEV-stay', [{ ts: at(20), values: { waterLevel: 6.5 } }]); // +1.5: raised
    const [raised] = await alertsOf(dev.stay!);
    expect(raised).toMatchObject({ level: 1, metric: 1.5, count: 1 });
    expect((await detail(raised!.id)).evidence.late).toBeUndefined();
    // 09:10 arrives late: 09:10 is +0.8 and 09:20 +0.7, neither fires now; the alert stays, marked.
    await send('DEV-stay', [{ ts: at(10), values: { waterLevel: 5.8 } }]);
    expect(await alertsOf(dev.stay!)).toMatchObject([{ id: raised!.id, level: 1, count: 1, status: 'untreated' }]);
    expect((await detail(raised!.id)).evidence).toMatchObject({
      ts: new Date(at(20)).toISOString(),
      rate: 1.5,
      late: true,
      lateReadingAt: new Date(at(10)).toISOString(),
    });
  });

  it('a late reading completes a 10 mm / 1 h rainfall sum of a later reading', async () => {
    await addRule({
      deviceId: dev.rain,
      quantity: 'rainfall',
      valueType: 'increment',
      level: 2,
      value: 10,
      windowN: 1,
      windowUnit: 'hour',
    });
    await send('DEV-rain', [{ ts: at(0), values: { rainfall: 4 } }]);
    await send('DEV-rain', [{ ts: at(40), values: { rainfall: 4 } }]);
    expect(await alertsOf(dev.rain!)).toEqual([]); // 8 mm
    await send('DEV-rain', [{ ts: at(20), values: { rainfall: 4 } }]);
    const list = await alertsOf(dev.rain!);
    expect(list).toMatchObject([{ valueType: 'increment', level: 2, metric: 12, triggerValue: 12 }]);
    expect((await detail(list[0]!.id)).evidence).toMatchObject({
      ts: new Date(at(40)).toISOString(),
      late: true,
      lateReadingAt: new Date(at(20)).toISOString(),
    });
  });

  it('refuses a ratio without a window on edit, with a translated message, and changes nothing', async () => {
    const body = { deviceId: dev.rate, quantity: 'waterLevel', valueType: 'threshold', level: 2, value: 102 };
    const id = await addRule(body);
    for (const [lang, info] of [
      ['en', 'An alert ratio needs a time window: set the window (number and unit) or clear the ratio'],
      ['zh', '告警比例需要时间窗口：请设置时间窗口（数值和单位）或清除比例'],
    ] as const) {
      const r = await t.api('POST', `${V}/edit`, {
        token: admin,
        lang,
        body: { id, channels: ['mail'], groupId: 7, ...body, ratio: '0.5', windowUnit: 'hour' },
      });
      expect(r.status).toBe(422);
      expect(r.info).toBe(info);
    }
    const row = await t.db.k
      .selectFrom('alert_rules')
      .select(['ratio', 'window_n'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ ratio: null, window_n: null });
    // With its window the same ratio is taken.
    const ok = await t.api('POST', `${V}/edit`, {
      token: admin,
      body: { id, channels: ['mail'], groupId: 7, ...body, ratio: '0.5', windowN: 1, windowUnit: 'hour' },
    });
    expect(ok.status, ok.info).toBe(0);
  });

  it('answers the value that raised the current level beside the limit, and the latest value apart', async () => {
    await addRule({ deviceId: dev.red, quantity: 'waterLevel', valueType: 'threshold', level: 1, value: 100 });
    await addRule({ deviceId: dev.red, quantity: 'waterLevel', valueType: 'threshold', level: 4, value: 110.62 });
    await send('DEV-red', [{ ts: at(0), values: { waterLevel: 105 } }]);
    expect(await alertsOf(dev.red!)).toMatchObject([{ level: 1, threshold: 100, triggerValue: 105, lastValue: 105 }]);
    await send('DEV-red', [
      { ts: at(1), values: { waterLevel: 110.65 } },
      { ts: at(2), values: { waterLevel: 110.4 } },
      { ts: at(3), values: { waterLevel: 110.31 } },
    ]);
    const [row] = await alertsOf(dev.red!);
    expect(row).toMatchObject({
      level: 4,
      threshold: 110.62,
      triggerValue: 110.65,
      triggerAt: new Date(at(1)).toISOString(),
      lastValue: 110.31,
      lastAt: new Date(at(3)).toISOString(),
    });
    const d = await detail(row!.id);
    expect(d).toMatchObject({ triggerValue: 110.65, lastValue: 110.31, threshold: 110.62 });
  });
});
