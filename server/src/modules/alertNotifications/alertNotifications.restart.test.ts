import { afterAll, expect, it } from 'vitest';
import { freshDb } from '../../../test/harness.ts';
import type { Config } from '../../config.ts';
import { raiseAlert, serverOn, siteWithGauge, startGateway, until } from './testkit.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

it('sends a notification pending at shutdown exactly once after a restart on the same database', async () => {
  const gw = await startGateway();
  cleanups.push(() => gw.close());
  const db = await freshDb();
  cleanups.push(() => db.drop());
  const settings: Partial<Config> = {
    smsGatewayUrl: gw.url,
    gatewayToken: 'restart-token',
    notifyRetryMs: 400,
    notifyMaxAttempts: 5,
  };

  // First life: the gateway is down (500), so the message is still pending when the server stops.
  gw.fallback.status = 500;
  const one = await serverOn(db, settings);
  const site = await siteWithGauge(one.t, one.token, 'Restart site', 'R1');
  const c = await one.api<{ id: number }>('POST', '/api/v2/data/alert/contract/add', {
    token: one.token,
    body: { name: 'On call', phone: '13700000001', language: 'zh' },
  });
  const g = await one.api<{ id: number }>('POST', '/api/v2/data/alert/group/add', {
    token: one.token,
    body: { name: 'Restart group', contactIds: [c.data.id] },
  });
  const ev = await raiseAlert(one.built, db.db, site, { level: 3, groupId: g.data.id, channels: ['sms'] });
  await until(() => gw.requests.length >= 1, 10_000, 'first attempt');
  await one.built.close();
  const left = await db.db.k.selectFrom('notification_outbox').selectAll().where('alert_id', '=', ev.alertId).execute();
  expect(left).toHaveLength(1);
  expect(left[0]).toMatchObject({ state: 'pending', last_error: 'SMS gateway answered HTTP 500' });
  const attemptsBefore = gw.requests.length;

  // Second life: the gateway is back; the new server sends the pending message, once.
  gw.fallback.status = 200;
  const two = await serverOn(db, settings, false);
  await until(() => gw.requests.some((r) => r.answered === 200), 10_000, 'sent after restart');
  await two.built.notifier.idle();
  // Give the sender a few more rounds: nothing else goes out.
  await new Promise((r) => setTimeout(r, 1500));
  const ok = gw.requests.filter((r) => r.answered === 200);
  expect(ok).toHaveLength(1);
  expect(ok[0]!.body).toMatchObject({ to: '13700000001', language: 'zh', channel: 'sms' });
  expect(ok[0]!.body.text).toContain('橙色预警');
  expect(gw.requests.length).toBe(attemptsBefore + 1);
  const row = await db.db.k
    .selectFrom('notification_outbox')
    .selectAll()
    .where('alert_id', '=', ev.alertId)
    .executeTakeFirstOrThrow();
  expect(row).toMatchObject({ state: 'sent', attempts: attemptsBefore + 1 });
  await two.built.close();
});
