// {time} in an alert message is in the recipient's zone: the time zone of the user the contact is (same
// e-mail or phone), else TIME_ZONE; NOTIFY_TIME_ZONE, when set, still overrides both (deprecated).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { raiseAlert, siteWithGauge, startSmtp, until, type Site } from './testkit.ts';

const A = '/api/v2/data/alert';

describe('notification {time} in the recipient’s time zone', () => {
  let t: TestApp;
  let admin: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let site: Site;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await testApp({ smtpUrl: smtp.url, timeZone: 'UTC', notifyTimeZone: null, notifyRetryMs: 150 });
    admin = await t.token();
    site = await siteWithGauge(t, admin, 'Zone slope', 'Z1');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('renders {time} in Asia/Shanghai for a user with that zone and in TIME_ZONE for anyone else', async () => {
    // The administrator (a user) has an e-mail and sets their own zone.
    await t.db.k.updateTable('users').set({ email: 'Chen@Example.cn' }).where('account', '=', 'admin').execute();
    const set = await t.api('POST', '/api/v2/manage/user/updateUserInfo', {
      token: admin,
      body: { timeZone: 'Asia/Shanghai' },
      form: true,
    });
    expect(set.status).toBe(0);
    const contact = async (name: string, email: string) =>
      (
        await t.api<{ id: number }>('POST', `${A}/contract/add`, {
          token: admin,
          body: { name, email, language: 'en' },
        })
      ).data.id;
    const user = await contact('Chen', 'chen@example.cn');
    const other = await contact('Guest', 'guest@example.com');
    const g = await t.api<{ id: number }>('POST', `${A}/group/add`, {
      token: admin,
      body: { name: 'Zone group', contactIds: [user, other], platformIds: [site.platformId] },
    });
    expect(g.status).toBe(0);
    await raiseAlert(t.built, t.db, site, {
      level: 2,
      groupId: g.data.id,
      channels: ['mail'],
      at: '2026-07-01T20:03:04.000Z',
    });
    await until(() => smtp.mails.length >= 2, 10_000, 'two mails');
    const byTo = Object.fromEntries(smtp.mails.map((m) => [m.to[0], m.body]));
    expect(byTo['chen@example.cn']).toContain('at 2026-07-02 04:03:04 Asia/Shanghai.');
    expect(byTo['guest@example.com']).toContain('at 2026-07-01 20:03:04 UTC.');
  });
});
