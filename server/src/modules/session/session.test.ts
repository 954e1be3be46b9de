import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sql } from 'kysely';
import { signLogin, Status } from '@geosentry/contract';
import { CAPTCHA_ALPHABET } from './session.service.ts';
import { ADMIN_PASSWORD, buildUser, testApp, type TestApp } from '../../../test/harness.ts';

const LOGIN = '/api/v2/manage/user/login';
const INFO = '/api/v2/manage/user/getUserInfo';

describe('sessions', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  it('logs in the first super administrator and returns user info with every permission', async () => {
    const info = await t.api<{
      permissions: string[];
      role: { code: string };
      user: { account: string; scopeAll: boolean };
    }>('GET', INFO, { token: admin });
    expect(info.status).toBe(0);
    expect(info.data.role.code).toBe('superAdmin');
    expect(info.data.user.scopeAll).toBe(true);
    expect(info.data.permissions).toEqual(
      expect.arrayContaining(['system:user', 'digitalGallery:common', 'threeDimensional:show', 'monitor:history']),
    );
    expect(info.data).toHaveProperty('platformType');
    expect(info.data).toHaveProperty('systemTitle');
    expect(info.data).toHaveProperty('roleFileId');
  });

  it('issues opaque random tokens and stores only their hash', async () => {
    const r = await t.login('admin', ADMIN_PASSWORD, { flag: 1 });
    expect(r.status).toBe(0);
    expect(Buffer.from(r.data.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.db.k.selectFrom('sessions').select('token_hash').execute();
    expect(stored.some((s) => s.token_hash === r.data.token)).toBe(false);
    admin = r.data.token;
  });

  it('accepts a form-encoded login and trims the account', async () => {
    await buildUser(t, admin, { account: 'formuser', password: 'Form-user-pass-77' });
    const r = await t.api<{ token: string }>('POST', LOGIN, {
      form: true,
      body: { account: '  formuser ', ...signLogin('Form-user-pass-77'), flag: '0' },
    });
    expect(r.status).toBe(0);
    expect(r.data.token).toBeTruthy();
  });

  it('answers "please enter account and password" when they are missing, in the language asked', async () => {
    const r = await t.api('POST', LOGIN, {
      body: { account: '', signature: '', time: String(Date.now()) },
      lang: 'zh',
    });
    expect(r.status).toBe(Status.invalid);
    expect(r.info).toBe('请输入账号和密码');
  });

  it('refuses a stale time and a replayed signature', async () => {
    const old = signLogin(ADMIN_PASSWORD, String(Date.now() - 10 * 60_000));
    const stale = await t.api('POST', LOGIN, { body: { account: 'admin', ...old, flag: 1 } });
    expect(stale.status).toBe(Status.badRequest);
    expect(stale.info).toMatch(/timeout/i);
    const future = signLogin(ADMIN_PASSWORD, String(Date.now() + 10 * 60_000));
    expect((await t.api('POST', LOGIN, { body: { account: 'admin', ...future, flag: 1 } })).status).toBe(
      Status.badRequest,
    );

    const sig = signLogin(ADMIN_PASSWORD);
    const first = await t.api<{ token: string }>('POST', LOGIN, { body: { account: 'admin', ...sig, flag: 1 } });
    expect(first.status).toBe(0);
    admin = first.data.token;
    const replay = await t.api('POST', LOGIN, { body: { account: 'admin', ...sig, flag: 1 } });
    expect(replay.status).toBe(Status.badRequest);
  });

  it('answers an unknown account exactly like a wrong password', async () => {
    await buildUser(t, admin, { account: 'known1', password: 'Known-user-pass-1' });
    const wrong = await t.login('known1', 'not-the-password');
    const unknown = await t.login('nobody-here', 'not-the-password');
    expect(unknown).toEqual(wrong);
    expect(wrong.status).toBe(Status.unauthorized);
    expect(wrong.info).toMatch(/4 attempts remaining/);
  });

  it('locks after 5 wrong attempts for 10 minutes, then one more wrong locks a day, then try tomorrow', async () => {
    await buildUser(t, admin, { account: 'locky', password: 'Locky-user-pass-1' });
    const remaining: unknown[] = [];
    for (let i = 0; i < 4; i++) remaining.push((await t.login('locky', 'bad-pass-' + i)).data);
    expect(remaining).toEqual([{ remaining: 4 }, { remaining: 3 }, { remaining: 2 }, { remaining: 1 }]);
    const fifth = await t.login('locky', 'bad-pass-5');
    expect(fifth.status).toBe(Status.forbidden);
    expect(fifth.info).toMatch(/locked for 10 minutes/);
    // Locked: even the right password is refused without being checked.
    const during = await t.login('locky', 'Locky-user-pass-1');
    expect(during.status).toBe(Status.forbidden);
    expect(during.info).toMatch(/try again in 10 minutes/);
    // The 10 minutes pass.
    await sql`update login_attempts set locked_until = now() - interval '1 second' where account = 'locky'`.execute(
      t.db.k,
    );
    const again = await t.login('locky', 'still-wrong');
    expect(again.status).toBe(Status.forbidden);
    expect(again.info).toMatch(/locked for one day/);
    const tomorrow = await t.login('locky', 'Locky-user-pass-1');
    expect(tomorrow.info).toMatch(/try again tomorrow/);
    const audit = await t.db.k.selectFrom('audit_log').select(['action']).where('account', '=', 'locky').execute();
    expect(audit.filter((a) => a.action === 'login.locked').length).toBe(2);
  });

  it('a right password resets the failure count', async () => {
    await buildUser(t, admin, { account: 'resetty', password: 'Resetty-user-pass-1' });
    await t.login('resetty', 'bad');
    await t.login('resetty', 'bad');
    expect((await t.login('resetty', 'Resetty-user-pass-1')).status).toBe(0);
    expect((await t.login('resetty', 'bad')).data).toEqual({ remaining: 4 });
  });

  it('refuses a disabled user only after the right password, and ends their sessions', async () => {
    const id = await buildUser(t, admin, { account: 'disabled1', password: 'Disabled-user-pass-1' });
    const tok = await t.token('disabled1', 'Disabled-user-pass-1');
    expect(
      (await t.api('POST', '/api/v2/manage/user/enable', { token: admin, body: { id, enabled: false } })).status,
    ).toBe(0);
    expect((await t.api('GET', INFO, { token: tok })).status).toBe(Status.loginExpired);
    const r = await t.login('disabled1', 'Disabled-user-pass-1');
    expect(r.status).toBe(Status.forbidden);
    expect(r.info).toMatch(/deleted or disabled/);
    expect((await t.login('disabled1', 'wrong-one')).status).toBe(Status.unauthorized);
  });

  it('answers the session-ending statuses: none, unknown, idle-expired, logged out', async () => {
    expect((await t.api('GET', INFO)).status).toBe(Status.notLoggedIn);
    expect((await t.api('GET', INFO, { token: 'forged-token-value' })).status).toBe(Status.tokenExpired);
    await buildUser(t, admin, { account: 'idle1', password: 'Idle-user-pass-1' });
    const tok = await t.token('idle1', 'Idle-user-pass-1');
    expect((await t.api('GET', INFO, { token: tok })).status).toBe(0);
    await sql`update sessions set last_seen_at = now() - interval '2 hours 1 minute' where ended_at is null and user_id = (select id from users where account = 'idle1')`.execute(
      t.db.k,
    );
    expect((await t.api('GET', INFO, { token: tok })).status).toBe(Status.loginExpired);
    const tok2 = await t.token('idle1', 'Idle-user-pass-1');
    expect((await t.api('GET', '/api/v2/manage/user/logout', { token: tok2 })).status).toBe(0);
    expect((await t.api('GET', INFO, { token: tok2 })).status).toBe(Status.loginExpired);
  });

  it('allows one session per account: a second login is told "elsewhere"; flag=1 ends the other at once', async () => {
    await buildUser(t, admin, { account: 'single1', password: 'Single-user-pass-1' });
    const first = await t.token('single1', 'Single-user-pass-1');
    const second = await t.login('single1', 'Single-user-pass-1');
    expect(second.status).toBe(Status.warnOther);
    expect(second.info).toMatch(/already logged in/);
    expect(second.data).toMatchObject({ elsewhere: true });
    expect((await t.api('GET', INFO, { token: first })).status).toBe(0);
    const third = await t.login('single1', 'Single-user-pass-1', { flag: 1 });
    expect(third.status).toBe(0);
    const kicked = await t.api('GET', INFO, { token: first });
    expect(kicked.status).toBe(Status.loggedOutElsewhere);
    expect((await t.api('GET', INFO, { token: third.data.token })).status).toBe(0);
  });

  it('closes the socket of a session that another login ends', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as { port: number }).port;
    await buildUser(t, admin, { account: 'sock1', password: 'Socket-user-pass-1' });
    const tok = await t.token('sock1', 'Socket-user-pass-1');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v2/ws?token=${encodeURIComponent(tok)}`);
    const hello = await new Promise<string>((res, rej) => {
      ws.onmessage = (m) => res(String(m.data));
      ws.onerror = () => rej(new Error('socket error'));
    });
    expect(JSON.parse(hello).type).toBe('hello');
    const closed = new Promise<number>((res) => (ws.onclose = (e) => res(e.code)));
    expect((await t.login('sock1', 'Socket-user-pass-1', { flag: 1 })).status).toBe(0);
    expect(await closed).toBe(4001);
    // A socket with an ended token is refused.
    const ws2 = new WebSocket(`ws://127.0.0.1:${port}/api/v2/ws?token=${encodeURIComponent(tok)}`);
    expect(await new Promise<number>((res) => (ws2.onclose = (e) => res(e.code)))).toBe(4001);
  });

  it('changes a password: proves the old one, refuses the same or a weak one, ends every session', async () => {
    await buildUser(t, admin, { account: 'pw1', password: 'Password-one-pass-1' });
    const tok = await t.token('pw1', 'Password-one-pass-1');
    const change = (oldPw: string, newPassword: string) =>
      t.api('POST', '/api/v2/manage/user/updatePassword', { token: tok, body: { ...signLogin(oldPw), newPassword } });
    expect((await change('Password-one-pass-1', 'Password-one-pass-1')).info).toMatch(/same as the old/);
    expect((await change('wrong-old-password', 'Another-pass-word-2')).status).toBe(Status.unauthorized);
    expect((await change('Password-one-pass-1', 'short')).info).toMatch(/at least 8/);
    expect((await change('Password-one-pass-1', 'password123')).info).toMatch(/too common/);
    const ok = await change('Password-one-pass-1', 'a long passphrase with spaces 山 🌧');
    expect(ok.status).toBe(0);
    expect((await t.api('GET', INFO, { token: tok })).status).toBe(Status.loginExpired);
    expect((await t.login('pw1', 'Password-one-pass-1')).status).toBe(Status.unauthorized);
    expect((await t.login('pw1', 'a long passphrase with spaces 山 🌧')).status).toBe(0);
  });

  it('keeps no secret in the audit log', async () => {
    const rows = await t.db.k.selectFrom('audit_log').selectAll().execute();
    expect(rows.length).toBeGreaterThan(10);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(ADMIN_PASSWORD);
    expect(text).not.toMatch(/[0-9a-f]{64}/); // no signature, key or token hash
    expect(text).not.toContain('Password-one-pass-1');
  });

  it('lists the audit log through the API in the shape of the contract (checked by CHECK_RESPONSES)', async () => {
    const r = await t.api<{ list: { action: string; detail: unknown }[]; total: number }>(
      'GET',
      '/api/v2/manage/audit/getListPage',
      { token: admin, query: { pageSize: '500' } },
    );
    expect(r.status).toBe(0);
    expect(r.data.total).toBeGreaterThan(10);
    const actions = new Set(r.data.list.map((a) => a.action));
    expect([...actions]).toEqual(expect.arrayContaining(['login.success', 'password.change']));
    expect(r.data.list.some((a) => a.detail !== null)).toBe(true);
  });
});

describe('captcha', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ captcha: true });
  });
  afterAll(() => t.close());

  const answerOf = async (id: string): Promise<string> => {
    // The answer is stored hashed; recover it by trying the captcha alphabet (tests only).
    const row = await t.db.k
      .selectFrom('captchas')
      .select('answer_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const { createHash } = await import('node:crypto');
    const alphabet = CAPTCHA_ALPHABET.toLowerCase();
    for (const a of alphabet)
      for (const b of alphabet)
        for (const c of alphabet)
          for (const d of alphabet) {
            const s = a + b + c + d;
            if (createHash('sha256').update(s).digest('hex') === row.answer_hash) return s;
          }
    throw new Error('captcha answer not found');
  };

  it('issues an image and refuses missing, wrong, expired and replayed codes', async () => {
    const c = await t.api<{ captchaId: string; image: string }>('GET', '/api/v2/manage/user/captcha');
    expect(c.data.image).toMatch(/^data:image\/png;base64,/);
    const missing = await t.login('admin', ADMIN_PASSWORD);
    expect(missing.info).toMatch(/enter the identifying code/);
    const wrong = await t.login('admin', ADMIN_PASSWORD, { captchaId: c.data.captchaId, captcha: 'zzzz' });
    expect(wrong.info).toMatch(/incorrect/);
    // Single use: the same id after a wrong try is gone.
    const again = await t.login('admin', ADMIN_PASSWORD, { captchaId: c.data.captchaId, captcha: 'zzzz' });
    expect(again.info).toMatch(/expired/);

    const c2 = await t.api<{ captchaId: string }>('GET', '/api/v2/manage/user/captcha');
    await sql`update captchas set expires_at = now() - interval '1 second' where id = ${c2.data.captchaId}`.execute(
      t.db.k,
    );
    expect((await t.login('admin', ADMIN_PASSWORD, { captchaId: c2.data.captchaId, captcha: 'abcd' })).info).toMatch(
      /expired/,
    );
  }, 120_000);

  it('accepts the right code once, and a ticket stands in for it after "logged in elsewhere"', async () => {
    const c = await t.api<{ captchaId: string }>('GET', '/api/v2/manage/user/captcha');
    const answer = await answerOf(c.data.captchaId);
    const ok = await t.login('admin', ADMIN_PASSWORD, { captchaId: c.data.captchaId, captcha: answer.toUpperCase() });
    expect(ok.status).toBe(0);
    const replay = await t.login('admin', ADMIN_PASSWORD, { captchaId: c.data.captchaId, captcha: answer });
    expect(replay.info).toMatch(/expired/);

    const c3 = await t.api<{ captchaId: string }>('GET', '/api/v2/manage/user/captcha');
    const elsewhere = await t.login('admin', ADMIN_PASSWORD, {
      captchaId: c3.data.captchaId,
      captcha: await answerOf(c3.data.captchaId),
    });
    expect(elsewhere.status).toBe(Status.warnOther);
    const ticket = elsewhere.data.ticket!;
    const retry = await t.login('admin', ADMIN_PASSWORD, { flag: 1, ticket });
    expect(retry.status).toBe(0);
    expect((await t.login('admin', ADMIN_PASSWORD, { flag: 1, ticket })).status).toBe(Status.badRequest);
  }, 120_000);
});
