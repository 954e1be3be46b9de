import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import ExcelJS from 'exceljs';
import type {
  AlertCounts,
  AlertDetail,
  AlertEvent,
  AlertRelationRow,
  AlertReport,
  AlertRow,
  AlertRuleRow,
  AlertRuleTestResult,
  Page,
  PlatformAlertRow,
} from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';
import { gif, pdf, upload } from '../files/files.testkit.ts';
import { writeBatch } from '../ingest/ingest.repository.ts';

const INGEST = '/api/v2/ingest/readings';
const A = '/api/v2/data/alert';
const V = `${A}/manage/value`;
const MIN = 60_000;

describe('alerts: rules, evaluation on ingest, workflow, scoped queries', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let termA: { terminalId: number; key: string };
  let termB: { terminalId: number; key: string };
  const dev: Record<string, number> = {};
  const events: AlertEvent[] = [];
  const txEvents: AlertEvent[] = [];
  let failTx = false;
  /** Readings go back from here, one minute apart per call, so every reading is new. */
  let clock = Date.now() - 6 * 3600_000;

  const send = async (term: { terminalId: number; key: string }, number: string, values: Record<string, number>[]) => {
    const body = values.map((v) => ({ ts: (clock += MIN), values: v }));
    const r = await t.raw('POST', INGEST, {
      payload: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        'x-terminal-id': String(term.terminalId),
        'x-terminal-key': term.key,
        'x-device-number': number,
      },
    });
    expect(r.statusCode).toBe(200);
    await settle();
    return body;
  };
  const resend = async (term: { terminalId: number; key: string }, number: string, body: unknown) => {
    const r = await t.raw('POST', INGEST, {
      payload: JSON.stringify(body),
      headers: {
        'content-type': 'application/json',
        'x-terminal-id': String(term.terminalId),
        'x-terminal-key': term.key,
        'x-device-number': number,
      },
    });
    await settle();
    return r.json() as { data: { stored: number; duplicates: number } };
  };
  const settle = async () => {
    await new Promise((r) => setTimeout(r, 10));
    await t.built.alertEngine.idle();
  };
  const rule = (deviceId: number, extra: Record<string, unknown>) => ({
    deviceId,
    quantity: 'waterLevel',
    valueType: 'threshold',
    channels: ['mail', 'sms'],
    groupId: 7,
    pushIntervalMinutes: 30,
    ...extra,
  });
  const addRule = async (body: Record<string, unknown>, token = admin) => {
    const r = await t.api<{ id: number }>('POST', `${V}/add`, { token, body });
    expect(r.status, r.info).toBe(0);
    return r.data.id;
  };
  const alertsOf = async (deviceId: number, token = admin) => {
    const r = await t.api<Page<AlertRow>>('GET', `${A}/getByDeviceName`, {
      token,
      query: { deviceId: String(deviceId) },
    });
    expect(r.status, r.info).toBe(0);
    return r.data.list;
  };
  const state = async (deviceId: number) =>
    (await t.db.k.selectFrom('devices').select('state').where('id', '=', deviceId).executeTakeFirstOrThrow()).state;
  const count = async (table: 'alerts' | 'alert_rules' | 'alert_hits' | 'alert_actions') =>
    Number(
      (
        await t.db.k
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'Slope North' });
    siteB = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir South' });
    termA = await addTerminal(t, admin, siteA, 'AL-A');
    termB = await addTerminal(t, admin, siteB, 'AL-B');
    const add = async (site: number, term: number, n: string, moduleId: number, extra = {}) =>
      (dev[n] = await addDevice(t, admin, deviceBody(site, term, n, { moduleId, ...extra })));
    await add(siteA, termA.terminalId, 'wl', 3);
    await add(siteA, termA.terminalId, 'wl2', 3);
    await add(siteA, termA.terminalId, 'rain', 2);
    await add(siteA, termA.terminalId, 'd1', 30);
    await add(siteA, termA.terminalId, 'd2', 30, { initialValues: { displacement: 10 } });
    await add(siteA, termA.terminalId, 'm1', 30);
    await add(siteA, termA.terminalId, 'm2', 30);
    await add(siteB, termB.terminalId, 'wlB', 3);
    await add(siteA, termA.terminalId, 'prop', 3);
    await add(siteA, termA.terminalId, 'edited', 2);
    t.built.alertEvents.onEvent((e) => void events.push(e));
    t.built.alertEvents.onEventTx(async (tx, e) => {
      if (failTx) {
        // Work done before the failure must not survive (the listener runs under a savepoint).
        await tx
          .insertInto('alert_criteria')
          .values({ name: 'from a failing listener', type: 'x', description: null })
          .execute();
        throw new Error('listener down');
      }
      // A listener inside the alert's transaction sees the alert row already written.
      const row = await tx.selectFrom('alerts').select('id').where('id', '=', e.alertId).executeTakeFirst();
      expect(row?.id).toBe(e.alertId);
      txEvents.push(e);
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses bad alert values with the spec §5 messages and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ valueType: undefined, level: 1, value: 5 }, 'Please select the trigger condition'],
      [{ level: undefined, value: 5 }, 'Please select the alert level'],
      [{ level: 1, value: '12,5' }, 'The alert value format is incorrect'],
      [{ level: 1, value: '' }, 'The alert value format is incorrect'],
      [{ level: 1, value: 5, channels: [] }, 'Please select the alert tool type'],
      [{ level: 1, value: 5, groupId: undefined }, 'Please select the alert contact group'],
      [{ level: 1, value: 5, ratio: 2 }, 'The alert ratio must be between 0 and 1'],
      [
        { level: 1, value: 5, ratio: 0.5 },
        'An alert ratio needs a time window: set the window (number and unit) or clear the ratio',
      ],
      [
        { level: 1, value: 5, valueType: 'thresholdRate' },
        'The second value (rate, or exponent b) format is incorrect',
      ],
      [{ level: 1, value: 5, valueType: 'increment' }, 'Please set the time window (number and unit)'],
      [{ level: 1, value: 5, quantity: 'rainfall' }, 'The device does not measure rainfall'],
      [{ level: 1, value: 5, deviceId: 999999 }, 'The device does not exist'],
    ];
    for (const [extra, message] of cases) {
      const r = await t.api('POST', `${V}/add`, { token: admin, body: rule(dev.wl!, extra) });
      expect(r.status, JSON.stringify(extra)).toBe(r.info.includes('device does not exist') ? 404 : 422);
      expect(r.info).toBe(message);
    }
    const zh = await t.api('POST', `${V}/add`, { token: admin, lang: 'zh', body: rule(dev.wl!, { level: 1 }) });
    expect(zh.info).toBe('告警值格式不正确');
    const ko = await t.api('POST', `${V}/add`, {
      token: admin,
      lang: 'ko',
      body: rule(dev.wl!, { level: 1, value: 5, ratio: '0.5', windowN: 10 }),
    });
    expect(ko.info).toBe('경보 비율에는 시간 창이 필요합니다. 시간 창(값과 단위)을 설정하거나 비율을 지우세요');
    // Form-encoded, as the console sends it.
    const form = await t.api('POST', `${V}/add`, {
      token: admin,
      form: true,
      body: { ...rule(dev.wl!, { level: 1, value: 'abc' }), channels: 'mail' },
    });
    expect(form.status).toBe(422);
    expect(await count('alert_rules')).toBe(0);
  });

  it('raises, de-duplicates and escalates threshold alerts with evidence, events, socket and device state', async () => {
    for (const [level, value] of [
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ])
      await addRule(rule(dev.wl!, { level, value }));
    // A duplicate level of the same type is refused.
    const dup = await t.api('POST', `${V}/add`, { token: admin, body: rule(dev.wl!, { level: 2, value: 21 }) });
    expect(dup.status).toBe(409);
    const values = await t.api<AlertRuleRow[]>('GET', `${V}/getByDeviceName`, {
      token: admin,
      query: { deviceName: 'Device wl' },
    });
    expect(values.data.map((v) => [v.alertLevel, v.alertValue, v.alertValueType, v.showName])).toEqual([
      [1, 10, 'static plane', 'Water level (m)'],
      [2, 20, 'static plane', 'Water level (m)'],
      [3, 30, 'static plane', 'Water level (m)'],
      [4, 40, 'static plane', 'Water level (m)'],
    ]);

    await send(termA, 'DEV-wl', [{ waterLevel: 5 }]);
    expect(await alertsOf(dev.wl!)).toHaveLength(0);
    expect(await state(dev.wl!)).toBe('normal');
    await send(termA, 'DEV-wl', [{ waterLevel: 12 }, { waterLevel: 15 }]);
    let list = await alertsOf(dev.wl!);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ level: 1, count: 2, firstValue: 12, lastValue: 15, status: 'untreated' });
    expect(await state(dev.wl!)).toBe('alert');
    await send(termA, 'DEV-wl', [{ waterLevel: 25 }]);
    await send(termA, 'DEV-wl', [{ waterLevel: 45 }, { waterLevel: 35 }]);
    list = await alertsOf(dev.wl!);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ level: 4, firstLevel: 1, count: 5, lastValue: 35, colour: '#cc0033' });
    expect(await state(dev.wl!)).toBe('alarm');
    const mine = events.filter((e) => e.deviceId === dev.wl);
    expect(mine.map((e) => [e.kind, e.level, e.previousLevel])).toEqual([
      ['raised', 1, null],
      ['escalated', 2, 1],
      ['escalated', 4, 2],
    ]);
    expect(mine[0]).toMatchObject({ groupId: 7, channels: ['mail', 'sms'], pushIntervalMinutes: 30, value: 12 });
    expect(txEvents.filter((e) => e.deviceId === dev.wl)).toHaveLength(3);

    const d = await t.api<AlertDetail>('GET', `${A}/getDetail`, { token: admin, query: { id: String(list[0]!.id) } });
    expect(d.data.evidence).toMatchObject({ valueType: 'threshold', threshold: 40, value: 45, rate: 20 });
    expect(d.data.evidence.readings.map((r) => r.value)).toEqual([5, 12, 15, 25, 45]);
    expect(d.data.actions.map((a) => a.action)).toEqual(['raised', 'escalated', 'escalated']);
    expect(d.data.hits).toHaveLength(5);
  });

  it('evaluating the same readings twice raises nothing new (HTTP resend and direct re-evaluation)', async () => {
    await addRule(rule(dev.wl2!, { level: 2, value: 50 }));
    const body = await send(termA, 'DEV-wl2', [{ waterLevel: 55 }, { waterLevel: 60 }]);
    const before = { alerts: await count('alerts'), hits: await count('alert_hits'), events: events.length };
    const again = await resend(termA, 'DEV-wl2', body);
    expect(again.data).toMatchObject({ stored: 0, duplicates: 2 });
    // Even when the same committed readings reach the evaluator again, the (rule, reading) key holds.
    await t.built.alertEngine.evaluate(
      body.map((b) => ({ deviceId: dev.wl2!, platformId: siteA, ts: b.ts, values: b.values })),
    );
    expect({ alerts: await count('alerts'), hits: await count('alert_hits'), events: events.length }).toEqual(before);
    const list = await alertsOf(dev.wl2!);
    expect(list).toHaveLength(1);
    expect(list[0]!.count).toBe(2);
  });

  it('computes rate, acceleration, cumulative change, current change, increment and threshold+rate from ingest', async () => {
    // d1: displacement 0, 0.5, 1.2, 3.0, 3.2 -> rates 0.5, 0.7, 1.8, 0.2; accelerations 0.2, 1.1, -1.6
    await addRule(rule(dev.d1!, { quantity: 'displacement', valueType: 'rate', level: 2, value: 1.5 }));
    await addRule(
      rule(dev.d1!, { quantity: 'displacement', valueType: 'acceleration', level: 3, value: 1, direction: 'above' }),
    );
    await send(
      termA,
      'DEV-d1',
      [0, 0.5, 1.2, 3.0, 3.2].map((v) => ({ displacement: v })),
    );
    const d1 = await alertsOf(dev.d1!);
    const rate = d1.find((a) => a.valueType === 'rate')!;
    const acc = d1.find((a) => a.valueType === 'acceleration')!;
    expect(rate).toMatchObject({ level: 2, metric: 1.8, lastValue: 3.0, count: 1 });
    expect(acc).toMatchObject({ level: 3, metric: 1.1, lastValue: 3.0, count: 1 });
    const ev = await t.api<AlertDetail>('GET', `${A}/getDetail`, { token: admin, query: { id: String(acc.id) } });
    expect(ev.data.evidence).toMatchObject({ rate: 1.8, acceleration: 1.1 });

    // d2: initial value 10 -> cumulative change 14 -> 4 (no), 15.5 -> 5.5 (fires at 5)
    await addRule(rule(dev.d2!, { quantity: 'displacement', valueType: 'cumulativeChange', level: 1, value: 5 }));
    await send(termA, 'DEV-d2', [{ displacement: 14 }, { displacement: 15.5 }]);
    expect(await alertsOf(dev.d2!)).toMatchObject([{ level: 1, metric: 5.5, count: 1 }]);

    // rain: increment over 3 readings' window (3 minutes): 8, 7, 6 -> 21 >= 20 at the third
    await addRule(
      rule(dev.rain!, {
        quantity: 'rainfall',
        valueType: 'increment',
        level: 3,
        value: 20,
        windowN: 3,
        windowUnit: 'minute',
      }),
    );
    await send(termA, 'DEV-rain', [{ rainfall: 8 }, { rainfall: 7 }, { rainfall: 6 }]);
    expect(await alertsOf(dev.rain!)).toMatchObject([{ level: 3, metric: 21, valueType: 'increment' }]);

    // wl2: current change over 2 minutes (abs): 61 (alone in its window), then 57.5 one minute later: -3.5
    await addRule(
      rule(dev.wl2!, { valueType: 'currentChange', level: 1, value: 2.5, windowN: 2, windowUnit: 'minute' }),
    );
    // threshold + rate: value >= 58 and rate >= 0.8
    await addRule(rule(dev.wl2!, { valueType: 'thresholdRate', level: 2, value: 58, rateValue: 0.8 }));
    await send(termA, 'DEV-wl2', [{ waterLevel: 61 }, { waterLevel: 57.5 }]);
    const wl2 = await alertsOf(dev.wl2!);
    expect(wl2.find((a) => a.valueType === 'currentChange')).toMatchObject({ level: 1, metric: -3.5, count: 1 });
    // 61: rate 1 (from 60) and 61 >= 58 -> fires once
    expect(wl2.find((a) => a.valueType === 'thresholdRate')).toMatchObject({ level: 2, lastValue: 61, count: 1 });
  });

  it('evaluates against readings as an operator edited them (a deleted reading no longer counts)', async () => {
    const id = dev.edited!;
    // increment over 10 minutes >= 20
    await addRule(
      rule(id, {
        quantity: 'rainfall',
        valueType: 'increment',
        level: 2,
        value: 20,
        windowN: 10,
        windowUnit: 'minute',
      }),
    );
    const [spike] = await send(termA, 'DEV-edited', [{ rainfall: 15 }]);
    expect(await alertsOf(id)).toEqual([]);
    const del = await t.api<{ deleted: number }>('POST', '/api/v2/data/module/deleteData', {
      token: admin,
      body: { deviceId: id, ts: [new Date(spike!.ts).toISOString()] },
    });
    expect(del.data.deleted).toBe(1);
    // 8 alone in the window: no alert (with the deleted 15 still counted it would be 23)
    await send(termA, 'DEV-edited', [{ rainfall: 8 }]);
    expect(await alertsOf(id)).toEqual([]);
    await send(termA, 'DEV-edited', [{ rainfall: 13 }]);
    expect(await alertsOf(id)).toMatchObject([{ level: 2, metric: 21, valueType: 'increment' }]);
  });

  it('after a stop between commit and evaluation, the catch-up at start evaluates the readings once', async () => {
    const before = await count('alerts');
    const threshold = async () => (await alertsOf(dev.wl2!)).find((a) => a.valueType === 'threshold')!;
    // Stored without the listener (as if the process stopped right after the commit).
    const ts = (clock += MIN);
    await writeBatch(t.db, [{ deviceId: dev.wl2!, ts, values: { waterLevel: 70 } }]);
    expect((await threshold()).count).toBe(4);
    const engine = t.built.alertEngine;
    expect(await engine.catchUp()).toBeGreaterThanOrEqual(1);
    await engine.idle();
    expect(await threshold()).toMatchObject({ count: 5, lastValue: 70 });
    await engine.catchUp();
    await engine.idle();
    expect((await threshold()).count).toBe(5);
    expect(await count('alerts')).toBe(before);
  });

  it('a failing in-transaction listener (e.g. the notification outbox) never costs the alert', async () => {
    await addRule(rule(dev.rain!, { quantity: 'rainfall', level: 1, value: 30 }));
    failTx = true;
    try {
      await send(termA, 'DEV-rain', [{ rainfall: 31 }]);
    } finally {
      failTx = false;
    }
    const raised = (await alertsOf(dev.rain!)).find((a) => a.valueType === 'threshold');
    expect(raised).toMatchObject({ level: 1, lastValue: 31 });
    expect(txEvents.some((e) => e.alertId === raised!.id)).toBe(false);
    expect(events.some((e) => e.alertId === raised!.id && e.kind === 'raised')).toBe(true);
    const leaked = await t.db.k
      .selectFrom('alert_criteria')
      .select('id')
      .where('name', '=', 'from a failing listener')
      .execute();
    expect(leaked).toHaveLength(0);
  });

  it('multi-device rule: orange and red need two sensors to agree', async () => {
    const r = await t.api<{ id: number }>('POST', `${A}/manage/relation/add`, {
      token: admin,
      body: {
        name: 'Crest pair',
        members: [
          { deviceId: dev.m1, quantity: 'displacement' },
          { deviceId: dev.m2, quantity: 'displacement' },
        ],
        valueType: 'threshold',
        levels: [
          { level: 3, value: 10 },
          { level: 4, value: 20 },
        ],
        mode: 'twoAgree',
        groupId: 3,
        channels: ['voice'],
      },
    });
    expect(r.status, r.info).toBe(0);
    const one = await t.api('POST', `${A}/manage/relation/add`, {
      token: admin,
      body: {
        name: 'Alone',
        members: [{ deviceId: dev.m1, quantity: 'displacement' }],
        valueType: 'threshold',
        levels: [{ level: 3, value: 1 }],
        groupId: 3,
        channels: ['voice'],
      },
    });
    expect(one.info).toBe('A multi-device rule needs at least two devices of one site');
    // The list answers the rule as the contract describes it (checked against its schema under CHECK_RESPONSES).
    const rules = await t.api<Page<AlertRelationRow>>('GET', `${A}/manage/relation/getListPage`, {
      token: admin,
      query: { platformId: String(siteA) },
    });
    expect(rules.status, rules.info).toBe(0);
    expect(rules.data.list).toMatchObject([
      {
        id: r.data.id,
        name: 'Crest pair',
        mode: 'twoAgree',
        levels: [
          { level: 3, value: 10 },
          { level: 4, value: 20 },
        ],
      },
    ]);
    expect(rules.data.list[0]!.members.map((m) => m.deviceId).sort()).toEqual([dev.m1, dev.m2].sort());
    await send(termA, 'DEV-m1', [{ displacement: 25 }]);
    let multi = (await alertsOf(dev.m1!)).filter((a) => a.kind === 'multi');
    expect(multi).toMatchObject([{ level: 2, relationId: r.data.id }]);
    await send(termA, 'DEV-m2', [{ displacement: 12 }]);
    await send(termA, 'DEV-m2', [{ displacement: 22 }]);
    const all = await t.api<Page<AlertRow>>('GET', `${A}/getByPlatformId`, {
      token: admin,
      query: { platformId: String(siteA), kind: 'multi' },
    });
    expect(all.data.list).toHaveLength(1);
    expect(all.data.list[0]).toMatchObject({ level: 4, firstLevel: 2, count: 3 });
    multi = all.data.list;
    const d = await t.api<AlertDetail>('GET', `${A}/getDetail`, { token: admin, query: { id: String(multi[0]!.id) } });
    expect(d.data.evidence.members?.map((m) => m.level).sort()).toEqual([4, 4]);
  });

  it('property: through ingest, a random series never lowers the open alert level (the level is the highest crossed)', async () => {
    for (const [level, value] of [
      [1, 10],
      [2, 20],
      [3, 30],
      [4, 40],
    ])
      await addRule(rule(dev.prop!, { level, value }));
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const levelOf = (v: number) => (v >= 40 ? 4 : v >= 30 ? 3 : v >= 20 ? 2 : v >= 10 ? 1 : 0);
    let highest = 0;
    let previous = 0;
    for (let i = 0; i < 12; i++) {
      const v = Math.round(rnd() * 450) / 10;
      highest = Math.max(highest, levelOf(v));
      await send(termA, 'DEV-prop', [{ waterLevel: v }]);
      const open = await alertsOf(dev.prop!);
      const level = open[0]?.level ?? 0;
      expect(open.length).toBeLessThanOrEqual(1);
      expect(level).toBeGreaterThanOrEqual(previous);
      expect(level).toBe(highest);
      previous = level;
    }
    expect(highest).toBeGreaterThan(1);
  });

  it('tests a rule against the last 30 days without storing anything', async () => {
    const before = await count('alerts');
    const r = await t.api<AlertRuleTestResult>('POST', `${V}/test`, {
      token: admin,
      body: { deviceId: dev.wl, quantity: 'waterLevel', valueType: 'threshold', level: 2, value: 20 },
    });
    expect(r.status, r.info).toBe(0);
    // wl readings: 5, 12, 15, 25, 45, 35 -> 25, 45, 35 fire, one run
    expect(r.data).toMatchObject({ readings: 6, firings: 3, alerts: 1 });
    expect(r.data.hits.map((h) => h.value)).toEqual([25, 45, 35]);
    const bad = await t.api('POST', `${V}/test`, {
      token: admin,
      body: { deviceId: dev.wl, quantity: 'waterLevel', valueType: 'threshold', level: 2, value: 'x' },
    });
    expect(bad.status).toBe(422);
    expect(await count('alerts')).toBe(before);
  });

  it('takes an alert through pre-process to processed (locked), keeping who did what', async () => {
    const [alert] = await alertsOf(dev.wl!);
    const id = alert!.id;
    const doc = await upload(t, admin, { kind: 'attachment' }, [{ filename: 'check.pdf', data: pdf() }]);
    expect(doc.status, doc.info).toBe(0);
    const pic = await upload(t, admin, { kind: 'picture' }, [{ filename: 'p.gif', data: gif() }]);
    expect(pic.status, pic.info).toBe(0);
    const proc = (body: Record<string, unknown>) =>
      t.api('POST', `${A}/processAlert`, { token: admin, body: { id, ...body } });

    expect((await proc({ processed: 0, attachments: [pic.data.fileId] })).info).toBe(
      'Attachments must be uploaded Word, PDF, jpg or png files',
    );
    expect((await proc({ processed: 0, attachments: ['a', 'b', 'c', 'd'] })).info).toBe(
      'At most 3 attachments can be added',
    );
    expect((await proc({ processed: 0, falseAlarm: true })).info).toBe('Please select the false-alarm type');
    expect((await proc({ processed: 1 })).info).toBe('Please enter the handling suggestion');
    expect((await alertsOf(dev.wl!))[0]!.status).toBe('untreated');

    const s1 = await proc({ processed: 0, suggestion: 'Inspect the gauge', attachments: [doc.data.fileId] });
    expect(s1).toMatchObject({ status: 0, data: { status: 'preProcess' } });
    const s2 = await t.api('POST', `${A}/processAlert`, {
      token: admin,
      form: true,
      body: {
        id,
        processed: 0,
        suggestion: 'Gauge fine, real rise',
        onSiteCheck: 'Walked the crest',
        deformation: 'none',
      },
    });
    expect(s2.status, s2.info).toBe(0);
    let d = await t.api<AlertDetail>('GET', `${A}/getDetail`, { token: admin, query: { id: String(id) } });
    expect(d.data).toMatchObject({ status: 'preProcess', processed: 1, suggestion: 'Gauge fine, real rise' });
    expect(d.data.processing).toMatchObject({ onSiteCheck: 'Walked the crest', attachments: [] });
    expect(await state(dev.wl!)).toBe('alarm');

    const done = await proc({ processed: 1, suggestion: 'Evacuation drill done', attachments: [doc.data.fileId] });
    expect(done).toMatchObject({ status: 0, info: 'Processed; the record is now locked' });
    d = await t.api<AlertDetail>('GET', `${A}/getDetail`, { token: admin, query: { id: String(id) } });
    expect(d.data).toMatchObject({ status: 'processed', processed: 2, processedBy: expect.any(String) });
    expect(d.data.processing?.attachments).toMatchObject([{ fileId: doc.data.fileId, ext: 'pdf' }]);
    expect(await state(dev.wl!)).toBe('normal');

    const again = await proc({ processed: 0, suggestion: 'changed later' });
    expect(again).toMatchObject({ status: 409, info: 'This alert has been processed and can no longer be changed' });
    const after = await t.api<AlertDetail>('GET', `${A}/getDetail`, { token: admin, query: { id: String(id) } });
    expect(after.data.processing).toEqual(d.data.processing);
    expect(after.data.actions.map((a) => a.action)).toEqual([
      'raised',
      'escalated',
      'escalated',
      'saved',
      'saved',
      'processed',
    ]);
    expect(after.data.actions.at(-1)).toMatchObject({ userName: expect.any(String), userId: expect.any(Number) });

    // A new crossing after the record is locked raises a new alert.
    await send(termA, 'DEV-wl', [{ waterLevel: 33 }]);
    const list = await alertsOf(dev.wl!);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ level: 3, status: 'untreated' });
  });

  it('raises an offline alert when the sweep marks a silent device offline', async () => {
    await t.db.k
      .updateTable('devices')
      .set({ last_seen_at: new Date(Date.now() - 30 * 86_400_000), offline_hours: 2 })
      .where('id', '=', dev.d2!)
      .execute();
    const n = await t.built.ingest.sweepOffline();
    expect(n).toBeGreaterThanOrEqual(1);
    await settle();
    const off = (await alertsOf(dev.d2!)).filter((a) => a.kind === 'offline');
    expect(off).toMatchObject([{ level: 2, valueType: 'offline', threshold: 2, groupId: 7 }]);
    expect(events.filter((e) => e.deviceId === dev.d2 && e.kind === 'offline')).toHaveLength(1);
    expect(await state(dev.d2!)).toBe('offline');
    // Back online: the device shows its open alert again.
    await send(termA, 'DEV-d2', [{ displacement: 15.6 }]);
    expect(await state(dev.d2!)).toBe('alert');
  });

  it('enables, disables, edits and deletes alert values', async () => {
    const id = await addRule(rule(dev.wlB!, { level: 1, value: 1 }));
    const off = await t.api('POST', `${V}/enable`, { token: admin, body: { id, enabled: 0 } });
    expect(off.status).toBe(0);
    await send(termB, 'DEV-wlB', [{ waterLevel: 3 }]);
    expect(await alertsOf(dev.wlB!)).toHaveLength(0);
    const edit = await t.api('POST', `${V}/edit`, {
      token: admin,
      body: { id, ...rule(dev.wlB!, { level: 2, value: 2, enabled: 1 }) },
    });
    expect(edit.status, edit.info).toBe(0);
    const bad = await t.api('POST', `${V}/edit`, {
      token: admin,
      body: { id, ...rule(dev.wlB!, { level: 2, value: '2..0' }) },
    });
    expect(bad.status).toBe(422);
    await send(termB, 'DEV-wlB', [{ waterLevel: 4 }]);
    expect(await alertsOf(dev.wlB!)).toMatchObject([{ level: 2, threshold: 2 }]);
    const tmp = await addRule(rule(dev.wlB!, { level: 3, value: 100 }));
    expect((await t.api('POST', `${V}/delete`, { token: admin, body: { id: tmp } })).status).toBe(0);
    expect((await t.api('POST', `${V}/delete`, { token: admin, body: { id: tmp } })).status).toBe(404);
  });

  it('keeps criteria (name, type, description)', async () => {
    const add = await t.api<{ id: number }>('POST', `${A}/manage/criteria/add`, {
      token: admin,
      body: { name: 'Landslide grade', type: 'national', description: 'DZ/T 0221' },
    });
    expect(add.status).toBe(0);
    const edit = await t.api('POST', `${A}/manage/criteria/edit`, {
      token: admin,
      body: { id: add.data.id, name: 'Landslide grade II', type: 'national' },
    });
    expect(edit.status).toBe(0);
    const list = await t.api<{ name: string }[]>('GET', `${A}/manage/criteria/getList`, { token: admin });
    expect(list.data.map((c) => c.name)).toEqual(['Landslide grade II']);
    expect((await t.api('POST', `${A}/manage/criteria/delete`, { token: admin, body: { id: 999 } })).status).toBe(404);
  });

  it('shows a user only the alerts of sites in their scope: lists, detail, counts, big screen, report, export, socket', async () => {
    const role = await roleWith(t, admin, 'dutyB', [
      'alert-predict:alert',
      'alert-predict:report',
      'alert-predict:alert-value',
    ]);
    const userB = await userToken(t, admin, { account: 'dutyB', roleCode: role, platformIds: [siteB] });

    const listB = await t.api<Page<AlertRow>>('GET', `${A}/getByPlatformId`, { token: userB });
    expect(listB.data.list.length).toBeGreaterThan(0);
    expect(listB.data.list.every((a) => a.platformId === siteB)).toBe(true);
    const foreignList = await t.api<Page<AlertRow>>('GET', `${A}/getByPlatformId`, {
      token: userB,
      query: { platformId: String(siteA) },
    });
    expect(foreignList.data).toMatchObject({ list: [], total: 0 });
    const foreignAlert = (await alertsOf(dev.wl!))[0]!.id;
    const missing = await t.api('GET', `${A}/getDetail`, { token: userB, query: { id: '99999' } });
    const foreign = await t.api('GET', `${A}/getDetail`, { token: userB, query: { id: String(foreignAlert) } });
    expect(foreign).toEqual(missing);
    const foreignProc = await t.api('POST', `${A}/processAlert`, {
      token: userB,
      body: { id: foreignAlert, processed: 1, suggestion: 'x' },
    });
    expect(foreignProc.status).toBe(404);
    expect(
      (await t.api('GET', `${A}/getByDeviceName`, { token: userB, query: { deviceName: 'Device wl' } })).status,
    ).toBe(404);
    expect(
      (await t.api('GET', `${V}/getByDeviceName`, { token: userB, query: { deviceId: String(dev.wl) } })).status,
    ).toBe(404);

    const cB = await t.api<AlertCounts>('GET', `${A}/getCounts`, { token: userB });
    const cAll = await t.api<AlertCounts>('GET', `${A}/getCounts`, { token: admin });
    expect(cB.data.openTotal).toBe(listB.data.total);
    expect(cAll.data.openTotal).toBeGreaterThan(cB.data.openTotal);
    expect(cAll.data.today).toBeGreaterThan(0);

    const bigB = await t.api<PlatformAlertRow[]>('GET', '/api/v2/data/bigData/getPlatformAndAlert', { token: userB });
    expect(bigB.data.map((p) => p.platformId)).toEqual([siteB]);
    expect(bigB.data[0]).toMatchObject({ state: 'alert', maxLevel: 2, open: { 2: 1 } });
    const bigAll = await t.api<PlatformAlertRow[]>('GET', '/api/v2/data/bigData/getPlatformAndAlert', { token: admin });
    expect(bigAll.data.find((p) => p.platformId === siteA)).toMatchObject({ state: 'alarm' });

    const repB = await t.api<AlertReport>('GET', `${A}/report/get`, { token: userB });
    expect(repB.data.byPlatform.map((p) => p.platformId)).toEqual([siteB]);
    const repAll = await t.api<AlertReport>('GET', `${A}/report/get`, { token: admin, query: { period: 'month' } });
    expect(repAll.data.total).toBe(await count('alerts'));
    expect(repAll.data.byLevel.reduce((s, l) => s + l.count, 0)).toBe(repAll.data.total);

    const xl = await t.raw('GET', `${A}/report/export?token=${userB}`);
    expect(xl.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xl.rawPayload as unknown as ArrayBuffer);
    const text = wb.worksheets.flatMap((ws) => ws.getSheetValues().flat().map(String)).join('|');
    expect(text).toContain('Reservoir South');
    expect(text).not.toContain('Slope North');

    // Sockets: both subscribe to everything; only the administrator hears about site A.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    const open = async (token: string) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v2/ws?token=${token}`);
      const messages: { type: string; platformId?: number; level?: number }[] = [];
      await new Promise<void>((resolve) =>
        ws.on('message', (m) => {
          const msg = JSON.parse(m.toString()) as { type: string };
          messages.push(msg);
          if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'subscribe', platformIds: 'all' }));
          if (msg.type === 'subscribed') resolve();
        }),
      );
      return { ws, messages };
    };
    const sa = await open(admin);
    const sb = await open(userB);
    await send(termA, 'DEV-wl', [{ waterLevel: 41 }]); // escalates the open wl alert to red
    await send(termB, 'DEV-wlB', [{ waterLevel: 1000 }]); // no higher rule: folds, no event
    await t.api('POST', `${V}/add`, { token: userB, body: rule(dev.wlB!, { level: 3, value: 500 }) });
    await send(termB, 'DEV-wlB', [{ waterLevel: 900 }]); // escalates site B's alert
    await expect.poll(() => sa.messages.filter((m) => m.type === 'alert').length).toBe(2);
    await expect.poll(() => sb.messages.filter((m) => m.type === 'alert').length).toBe(1);
    expect(sb.messages.filter((m) => m.type === 'alert')).toMatchObject([{ platformId: siteB, level: 3 }]);
    expect(sb.messages.some((m) => m.platformId === siteA)).toBe(false);
    expect(sa.messages.filter((m) => m.type === 'alert').map((m) => m.level)).toEqual([4, 3]);
    sa.ws.close();
    sb.ws.close();
  });
});
