import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { readingTopic } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';
import { MAX_EVAL_BACKLOG, type AlertEngine } from '../alerts/alerts.engine.ts';
import type { CommittedReading } from './ingest.service.ts';

const INGEST = '/api/v2/ingest/readings';

/**
 * Ingest never lets alert evaluation fall behind without bound: while more than MAX_EVAL_BACKLOG committed
 * readings wait for evaluation, HTTP ingest answers 503 and an MQTT acknowledgement waits until evaluation has
 * worked the backlog down to half; then ingest takes readings again.
 */
describe('ingest back-pressure from alert evaluation', () => {
  let t: TestApp;
  let admin: string;
  let term: { terminalId: number; key: string };
  let rain: number;
  let engine: AlertEngine;

  beforeAll(async () => {
    t = await testApp({ mqttPort: 0 });
    admin = await t.token();
    const site = await buildPlatform(t, { type: 'disaster', name: 'Backlog site' });
    term = await addTerminal(t, admin, site, 'BP-1');
    rain = await addDevice(t, admin, deviceBody(site, term.terminalId, 'rainBP', { moduleId: 2 }));
    const group = await t.api<{ id: number }>('POST', '/api/v2/data/alert/group/add', {
      token: admin,
      body: { name: 'Backlog duty' },
    });
    expect(group.status, group.info).toBe(0);
    const rule = await t.api('POST', '/api/v2/data/alert/manage/value/add', {
      token: admin,
      body: {
        deviceId: rain,
        quantity: 'rainfall',
        valueType: 'threshold',
        level: 1,
        value: '1000',
        groupId: group.data.id,
        channels: ['mail'],
      },
    });
    expect(rule.status, rule.info).toBe(0);
    engine = t.built.alertEngine;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 and holds MQTT acks while evaluation is far behind, and takes readings again after', async () => {
    const post = () =>
      t.raw('POST', INGEST, {
        payload: JSON.stringify({ ts: Date.now() - 1000, values: { rainfall: 0.5 } }),
        headers: {
          'content-type': 'application/json',
          'x-terminal-id': String(term.terminalId),
          'x-terminal-key': term.key,
          'x-device-number': 'DEV-rainBP',
        },
      });
    expect((await post()).statusCode).toBe(200);
    await engine.idle();

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.built.mqtt!.port!}`, {
      username: String(term.terminalId),
      password: term.key,
      reconnectPeriod: 0,
    });
    // A backlog well over the limit (four times), old readings under the rule's value.
    const base = Date.UTC(2020, 0, 1);
    const backlog: CommittedReading[] = Array.from({ length: MAX_EVAL_BACKLOG * 4 }, (_, i) => ({
      deviceId: rain,
      platformId: null,
      ts: base + i * 1000,
      values: { rainfall: 0.1 },
    }));
    const evaluated = engine.onReadings(backlog);
    expect(engine.behind()).toBe(true);
    // At once, while evaluation is behind: a reading over MQTT and one over HTTP.
    const ts = Date.now() - 500;
    const acked = client.publishAsync(readingTopic('DEV-rainBP'), JSON.stringify({ ts, values: { rainfall: 0.25 } }), {
      qos: 1,
    });
    const refused = await post();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json().data).toEqual({ reason: 'overloaded' });

    await acked;
    // The ack came only once evaluation had worked the backlog down to half the limit (plus this reading).
    expect(engine.pending).toBeLessThanOrEqual(MAX_EVAL_BACKLOG / 2 + 1);
    const row = await t.db.k
      .selectFrom('readings')
      .select('device_id')
      .where('device_id', '=', rain)
      .where('ts', '=', new Date(ts))
      .execute();
    expect(row).toHaveLength(1);
    await client.endAsync();

    await evaluated;
    await engine.idle();
    expect(engine.behind()).toBe(false);
    expect((await post()).statusCode).toBe(200);
  });
});
