import { afterAll, expect, it } from 'vitest';
import { freshDb, tempDir } from '../../../test/harness.ts';
import { openDb } from '../../platform/db/db.ts';
import type { Config } from '../../config.ts';
import { raiseAlert, serverOn, siteWithGauge, startGateway, until } from './testkit.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

it('two server nodes on one PostgreSQL database send each notification once (FOR UPDATE SKIP LOCKED)', async () => {
  const gw = await startGateway();
  cleanups.push(() => gw.close());
  const first = await freshDb('postgres');
  cleanups.push(() => first.drop());
  const settings: Partial<Config> = { smsGatewayUrl: gw.url, notifyRetryMs: 100 };
  const one = await serverOn(first, settings);
  cleanups.push(() => one.built.close());
  const secondDb = await openDb({ databaseUrl: first.url, dataDir: tempDir(), poolSize: 5 });
  cleanups.push(() => secondDb.close());
  const two = await serverOn({ db: secondDb, url: first.url }, settings, false);
  cleanups.push(() => two.built.close());

  const site = await siteWithGauge(one.t, one.token, 'Two nodes', 'N1');
  const ids: number[] = [];
  for (let i = 0; i < 30; i++) {
    const r = await one.api<{ id: number }>('POST', '/api/v2/data/alert/contract/add', {
      token: one.token,
      body: { name: `Member ${i}`, phone: `1360000${String(i).padStart(4, '0')}` },
    });
    ids.push(r.data.id);
  }
  const g = await one.api<{ id: number }>('POST', '/api/v2/data/alert/group/add', {
    token: one.token,
    body: { name: 'Thirty', contactIds: ids },
  });
  // Both nodes hear about the alert (node two through its after-commit path, as if it had evaluated it).
  const ev = await raiseAlert(one.built, first.db, site, {
    level: 2,
    groupId: g.data.id,
    channels: ['sms', 'localSms'],
  });
  await two.built.notifier.onEventAfterCommit(ev);
  one.built.notifier.kick();
  two.built.notifier.kick();

  await until(() => gw.requests.length >= 60, 20_000, '60 messages');
  await new Promise((r) => setTimeout(r, 1000));
  expect(gw.requests).toHaveLength(60);
  const keys = new Set(gw.requests.map((r) => `${r.body.channel}:${r.body.to}`));
  expect(keys.size).toBe(60);
  const sent = await first.db.k
    .selectFrom('notification_outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('alert_id', '=', ev.alertId)
    .where('state', '=', 'sent')
    .where('attempts', '=', 1)
    .executeTakeFirstOrThrow();
  expect(Number(sent.n)).toBe(60);
});
