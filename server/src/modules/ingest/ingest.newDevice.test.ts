import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { readingTopic } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { DEVICE, addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';

const INGEST = '/api/v2/ingest/readings';

/**
 * Ingest's device cache follows the registry at once: a device added a moment ago is accepted (it used to be
 * refused for ~5 s over HTTP, 403, and until reconnecting over MQTT, where the refusal also disconnects), and
 * an unbound one is refused at once.
 */
describe('ingest and registry changes', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let term: { terminalId: number; key: string };

  const post = (device: string, ts: number, rainfall: number) =>
    t.raw('POST', INGEST, {
      payload: JSON.stringify({ ts, values: { rainfall } }),
      headers: {
        'content-type': 'application/json',
        'x-terminal-id': String(term.terminalId),
        'x-terminal-key': term.key,
        'x-device-number': device,
      },
    });
  const stored = async (deviceId: number) =>
    (await t.db.k.selectFrom('readings').select('vals').where('device_id', '=', deviceId).orderBy('ts').execute()).map(
      (r) => r.vals,
    );

  beforeAll(async () => {
    t = await testApp({ mqttPort: 0 });
    admin = await t.token();
    site = await buildPlatform(t, { type: 'disaster', name: 'Late devices' });
    term = await addTerminal(t, admin, site, 'LATE-RTU');
    await addDevice(t, admin, deviceBody(site, term.terminalId, 'first', { moduleId: 2 }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('accepts a device over HTTP right after it is added, and refuses it right after it is unbound', async () => {
    const ts = Date.now() - 60_000;
    // The terminal is known (and cached) and its logger already sends for the device not yet added.
    expect((await post('DEV-first', ts, 1)).statusCode).toBe(200);
    expect((await post('DEV-late', ts, 2)).statusCode).toBe(403);
    const id = await addDevice(t, admin, deviceBody(site, term.terminalId, 'late', { moduleId: 2 }));
    const at = await post('DEV-late', ts, 3);
    expect(at.statusCode, at.body).toBe(200);
    expect(await stored(id)).toEqual([{ rainfall: 3 }]);
    // Unbound: refused at once (not served from the cache).
    const un = await t.api('POST', `${DEVICE}/module/device/deleteDeviceData`, {
      token: admin,
      body: { deviceId: id },
    });
    expect(un.status, un.info).toBe(0);
    expect((await post('DEV-late', ts + 1000, 4)).statusCode).toBe(403);
    expect(await stored(id)).toEqual([{ rainfall: 3 }]);
  });

  it('accepts a device over MQTT right after it is added, on a connection opened before', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.built.mqtt!.port!}`, {
      username: String(term.terminalId),
      password: term.key,
      reconnectPeriod: 0,
    });
    try {
      const id = await addDevice(t, admin, deviceBody(site, term.terminalId, 'mqttLate', { moduleId: 2 }));
      const ts = Date.now() - 30_000;
      await client.publishAsync(readingTopic('DEV-mqttLate'), JSON.stringify({ ts, values: { rainfall: 7.5 } }), {
        qos: 1,
      });
      // The PUBACK came after the commit, and the connection is still open.
      expect(await stored(id)).toEqual([{ rainfall: 7.5 }]);
      expect(client.connected).toBe(true);
    } finally {
      await client.endAsync();
    }
  });
});
