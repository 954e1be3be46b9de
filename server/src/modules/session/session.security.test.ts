import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { signLogin, Status, type Envelope } from '@geosentry/contract';
import { loadConfig, parseTrustProxy } from '../../config.ts';
import { sessionTestHooks } from './session.service.ts';
import {
  ADMIN_PASSWORD,
  buildUser,
  freshDb,
  tempDir,
  testApp,
  type FreshDb,
  type TestApp,
} from '../../../test/harness.ts';

// Issue 15 (security): lockout and session rules under parallel requests, the captcha image, the per-address
// login throttle, the absolute session lifetime and which client address is believed.

const LOGIN = '/api/v2/manage/user/login';
const INFO = '/api/v2/manage/user/getUserInfo';
const CAPTCHA = '/api/v2/manage/user/captcha';

type LoginAnswer = Envelope<{ token: string; ticket?: string; remaining?: number } | null>;

const usedTimes = new Set<number>();
/** A distinct login time (a signature is accepted once: parallel logins of one password need their own). */
function freshTime(): string {
  let t = Date.now();
  while (usedTimes.has(t)) t--;
  usedTimes.add(t);
  return String(t);
}

/** A login with a signature of its own. */
async function login(
  t: TestApp,
  account: string,
  password: string,
  extra: Record<string, unknown> = {},
  opts: { remoteAddress?: string; headers?: Record<string, string>; lang?: string } = {},
): Promise<LoginAnswer> {
  const res = await t.app.inject({
    method: 'POST',
    url: LOGIN,
    remoteAddress: opts.remoteAddress,
    headers: { 'content-type': 'application/json', language: opts.lang ?? 'en', ...(opts.headers ?? {}) },
    payload: JSON.stringify({ account, ...signLogin(password, freshTime()), flag: 0, ...extra }),
  });
  return res.json();
}

/** Right answers of issued captchas, read at the test-only hook (the database keeps only their hash). */
const answers = new Map<string, string>();
sessionTestHooks.captchaIssued = (id, answer) => answers.set(id, answer);
// Test files share their process (vitest.config.ts): the hook goes with this file.
afterAll(() => {
  sessionTestHooks.captchaIssued = undefined;
});

// One database for the file's apps, each a server started anew on it with the configuration its block tests
// (copying and opening a database per app took a third of the file's time). Accounts are distinct per test.
let on: { fresh: FreshDb; dataDir: string };
beforeAll(async () => {
  on = { fresh: await freshDb(undefined, { migrated: true }), dataDir: tempDir() };
});
afterAll(() => on.fresh.drop());

async function captcha(t: TestApp): Promise<{ captchaId: string; captcha: string }> {
  const c = await t.api<{ captchaId: string }>('GET', CAPTCHA);
  return { captchaId: c.data.captchaId, captcha: answers.get(c.data.captchaId)! };
}

async function validSessions(t: TestApp, tokens: string[]): Promise<number> {
  const r = await Promise.all(tokens.map((token) => t.api('GET', INFO, { token })));
  return r.filter((x) => x.status === 0).length;
}

async function openSessions(t: TestApp, account: string): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from sessions s join users u on u.id = s.user_id
    where u.account = ${account} and s.ended_at is null`.execute(t.db.k);
  return r.rows[0]!.n;
}

/** Tallies login answers: password evaluations (wrong password, or the attempt that locked) and refusals. */
function tally(rs: LoginAnswer[]): { wrong: number; locking: number; locked: number; other: number } {
  const out = { wrong: 0, locking: 0, locked: 0, other: 0 };
  for (const r of rs) {
    if (r.status === Status.unauthorized) out.wrong++;
    else if (r.status === Status.forbidden && /locked for 10 minutes/.test(r.info)) out.locking++;
    else if (r.status === Status.forbidden && /try again in \d+ minutes/.test(r.info)) out.locked++;
    else out.other++;
  }
  return out;
}

describe('security: lockout and one session per account under parallel requests', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp({ loginRatePerMinute: 0 }, on);
    admin = await t.token();
  });
  afterAll(() => t.close());

  it('evaluates at most 5 wrong passwords of 200 sent in parallel, then the account is locked', async () => {
    await buildUser(t, admin, { account: 'para1', password: 'Parallel-user-pass-1' });
    const rs = await Promise.all(Array.from({ length: 200 }, (_, i) => login(t, 'para1', `wrong-password-${i}`)));
    const n = tally(rs);
    expect(n.other).toBe(0);
    expect(n.wrong + n.locking).toBeLessThanOrEqual(5);
    expect(n).toEqual({ wrong: 4, locking: 1, locked: 195, other: 0 });
    // What the audit log saw: five evaluations.
    const audit = await t.db.k
      .selectFrom('audit_log')
      .select('action')
      .where('account', '=', 'para1')
      .where('action', 'in', ['login.failure', 'login.locked'])
      .execute();
    expect(audit.length).toBe(5);
    // Locked: the right password is not even checked.
    expect((await login(t, 'para1', 'Parallel-user-pass-1')).status).toBe(Status.forbidden);
  }, 120_000);

  it('counts an unknown account the same way', async () => {
    const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => login(t, 'no-such-user', `guess-${i}`)));
    const n = tally(rs);
    expect(n.wrong + n.locking).toBeLessThanOrEqual(5);
  }, 120_000);

  it('keeps one session after 20 parallel takeovers (flag=1)', async () => {
    await buildUser(t, admin, { account: 'take1', password: 'Takeover-user-pass-1' });
    const first = (await login(t, 'take1', 'Takeover-user-pass-1')).data!.token;
    const rs = await Promise.all(
      Array.from({ length: 20 }, () => login(t, 'take1', 'Takeover-user-pass-1', { flag: 1 })),
    );
    expect(rs.map((r) => `${r.status} ${r.info}`)).toEqual(Array(20).fill('0 Success'));
    expect(await validSessions(t, [first, ...rs.map((r) => r.data!.token)])).toBe(1);
    expect(await openSessions(t, 'take1')).toBe(1);
  }, 120_000);

  it('keeps one session after 20 parallel plain logins: one gets in, the others are told "elsewhere"', async () => {
    await buildUser(t, admin, { account: 'plain1', password: 'Plain-user-pass-1' });
    const rs = await Promise.all(Array.from({ length: 20 }, () => login(t, 'plain1', 'Plain-user-pass-1')));
    expect(rs.filter((r) => r.status === 0).length).toBe(1);
    expect(rs.filter((r) => r.status === Status.warnOther).length).toBe(19);
    expect(
      await validSessions(
        t,
        rs.filter((r) => r.status === 0).map((r) => r.data!.token),
      ),
    ).toBe(1);
    expect(await openSessions(t, 'plain1')).toBe(1);
  }, 120_000);

  it('holds one open session per account in the database itself', async () => {
    const u = await t.db.k.selectFrom('users').select('id').where('account', '=', 'plain1').executeTakeFirstOrThrow();
    await expect(
      sql`insert into sessions (token_hash, user_id) values ('x-dup', ${u.id})`.execute(t.db.k),
    ).rejects.toThrow();
  });
});

describe('security: with the captcha on', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp({ captcha: true, loginRatePerMinute: 0 }, on);
    admin = (await login(t, 'admin', ADMIN_PASSWORD, { flag: 1, ...(await captcha(t)) })).data!.token;
  });
  afterAll(() => t.close());

  it('evaluates at most 5 of 200 parallel wrong passwords, each with a right captcha', async () => {
    await buildUser(t, admin, { account: 'capa1', password: 'Captcha-user-pass-1' });
    const codes = await Promise.all(Array.from({ length: 200 }, () => captcha(t)));
    const rs = await Promise.all(codes.map((c, i) => login(t, 'capa1', `wrong-${i}`, c)));
    const n = tally(rs);
    expect(n.other).toBe(0);
    expect(n.wrong + n.locking).toBeLessThanOrEqual(5);
  }, 120_000);

  it('does not count a wrong captcha as an evaluated password', async () => {
    await buildUser(t, admin, { account: 'capa2', password: 'Captcha-user-pass-2' });
    const codes = await Promise.all(Array.from({ length: 50 }, () => captcha(t)));
    const rs = await Promise.all(
      codes.map((c, i) => login(t, 'capa2', `wrong-${i}`, { captchaId: c.captchaId, captcha: 'zzzz' })),
    );
    expect(rs.every((r) => /incorrect/.test(r.info))).toBe(true);
    expect(await t.db.k.selectFrom('login_attempts').where('account', '=', 'capa2').selectAll().execute()).toEqual([]);
    expect((await login(t, 'capa2', 'Captcha-user-pass-2', await captcha(t))).status).toBe(0);
  }, 120_000);

  it('keeps one session after 20 parallel "log in here" retries with their tickets', async () => {
    await buildUser(t, admin, { account: 'tick1', password: 'Ticket-user-pass-1' });
    const first = await login(t, 'tick1', 'Ticket-user-pass-1', await captcha(t));
    expect(first.status).toBe(0);
    const tickets: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await login(t, 'tick1', 'Ticket-user-pass-1', await captcha(t));
      expect(r.status).toBe(Status.warnOther);
      tickets.push(r.data!.ticket!);
    }
    const rs = await Promise.all(tickets.map((ticket) => login(t, 'tick1', 'Ticket-user-pass-1', { flag: 1, ticket })));
    expect(rs.map((r) => `${r.status} ${r.info}`)).toEqual(Array(20).fill('0 Success'));
    expect(await validSessions(t, [first.data!.token, ...rs.map((r) => r.data!.token)])).toBe(1);
    expect(await openSessions(t, 'tick1')).toBe(1);
  }, 120_000);

  it('draws the code as a PNG raster: no SVG, no text, the answer only in the pixels', async () => {
    const res = await t.app.inject({ method: 'GET', url: CAPTCHA });
    const body = res.json() as Envelope<{ captchaId: string; image: string; expiresInSeconds: number }>;
    const answer = answers.get(body.data.captchaId)!;
    expect(answer).toMatch(/^[A-Z2-9]{4}$/);
    const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(body.data.image);
    expect(m).not.toBeNull();
    const png = Buffer.from(m![1]!, 'base64');
    // The other fields and the bytes of the image do not carry the answer; there is no SVG (no paths to read).
    expect(JSON.stringify({ ...body.data, image: '' }).toUpperCase()).not.toContain(answer);
    expect(png.toString('latin1')).not.toMatch(/<svg|<path|\sd="/i);
    // A valid PNG: signature, chunks with right CRCs (IHDR, IDAT, IEND only: no text chunks), pixel data of the right size.
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 8; at < png.length;) {
      const len = png.readUInt32BE(at);
      const type = png.toString('ascii', at + 4, at + 8);
      const data = png.subarray(at + 8, at + 8 + len);
      expect(png.readUInt32BE(at + 8 + len)).toBe(zlib.crc32(data, zlib.crc32(type)));
      chunks.push({ type, data });
      at += 12 + len;
    }
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    // Outside the compressed pixels, no byte spells the answer. (Not inside them: deflate output is noise in which
    // any four letters turn up now and then; a CI run once found 'GAJG' there.)
    const idat = chunks[1]!.data;
    const at = png.indexOf(idat);
    const outside = Buffer.concat([png.subarray(0, at), png.subarray(at + idat.length)]);
    expect(outside.toString('latin1').toUpperCase()).not.toContain(answer);
    const ihdr = chunks[0]!.data;
    const [w, h] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)];
    expect([w, h, ihdr[8], ihdr[9]]).toEqual([180, 60, 8, 2]);
    const raw = zlib.inflateSync(chunks[1]!.data);
    expect(raw.length).toBe(h * (1 + w * 3));
    // Not a blank picture: many distinct colours.
    const colours = new Set<number>();
    for (let i = 1; i < raw.length; i += 3) colours.add(raw[i]!);
    expect(colours.size).toBeGreaterThan(20);
    // The same code is drawn differently each time (random placement, distortion and noise).
    const again = (await import('./captcha.ts')).renderCaptcha(answer);
    expect(again.equals(png)).toBe(false);
  });
});

describe('security: login throttle per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ loginRatePerMinute: 20 }, on);
  });
  afterAll(() => t.close());

  it('stops a password spray of 300 accounts from one address after about 20 attempts', async () => {
    const started = Date.now();
    const rs = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        login(t, `spray-${i}`, 'Summer-2026!', {}, { remoteAddress: '198.51.100.7', lang: i % 2 ? 'zh' : 'en' }),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const evaluated = rs.filter((r) => r.status === Status.unauthorized).length;
    const throttled = rs.filter((r) => r.status === Status.tooMany);
    expect(evaluated + throttled.length).toBe(300);
    // 20 at once, then one every 3 s.
    expect(evaluated).toBeGreaterThanOrEqual(20);
    expect(evaluated).toBeLessThanOrEqual(20 + Math.ceil(seconds / 3));
    // The refusal is translated.
    expect(new Set(throttled.map((r) => r.info))).toEqual(
      new Set([
        'Too many login attempts from your address, please try again later',
        '该地址登录尝试过于频繁，请稍后再试',
      ]),
    );
    // Another address is not held back.
    expect((await login(t, 'spray-1', 'Summer-2026!', {}, { remoteAddress: '198.51.100.8' })).status).toBe(
      Status.unauthorized,
    );
  }, 120_000);

  it('does not use up the budget with right passwords', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await login(t, 'admin', ADMIN_PASSWORD, { flag: 1 }, { remoteAddress: '198.51.100.20' });
      expect(r.status).toBe(0);
    }
  }, 120_000);
});

describe('security: absolute session lifetime', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ sessionMaxMs: 2500 }, on);
  });
  afterAll(() => t.close());

  it('ends an active session at SESSION_MAX_HOURS with the session-ending status, however busy it is', async () => {
    const token = await t.token();
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      expect((await t.api('GET', INFO, { token })).status).toBe(0);
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1200));
    const r = await t.api('GET', INFO, { token });
    expect(r.status).toBe(Status.loginExpired);
    expect(r.info).toBe('Login expired, please log in again');
    const row = await t.db.k
      .selectFrom('sessions')
      .select(['end_reason'])
      .where('ended_at', 'is not', null)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.end_reason).toBe('expired');
    // The expired session does not count as "logged in elsewhere".
    expect((await t.login('admin', ADMIN_PASSWORD)).status).toBe(0);
  }, 60_000);
});

describe('security: client address behind a proxy', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    while (apps.length) await apps.pop()!.close();
  });

  async function loggedIp(overrides: Parameters<typeof testApp>[0]): Promise<string | null> {
    const t = await testApp(overrides, on);
    apps.push(t);
    const r = await login(t, 'admin', ADMIN_PASSWORD, { flag: 1 }, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(r.status).toBe(0);
    const row = await t.db.k
      .selectFrom('audit_log')
      .select('ip')
      .where('action', '=', 'login.success')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.ip;
  }

  it('does not record a forged X-Forwarded-For by default', async () => {
    expect(await loggedIp({})).toBe('127.0.0.1');
    expect(await loggedIp({ trustProxy: ['10.0.0.0/8'] })).toBe('127.0.0.1');
  }, 60_000);

  it('records the forwarded address when the proxy is trusted (TRUST_PROXY)', async () => {
    expect(await loggedIp({ trustProxy: parseTrustProxy('true') })).toBe('203.0.113.9');
    expect(await loggedIp({ trustProxy: parseTrustProxy('127.0.0.1, 10.0.0.0/8') })).toBe('203.0.113.9');
  }, 60_000);

  it('reads TRUST_PROXY: unset or off trusts nothing; a hop count is refused', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('off')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy(' 10.0.0.1 , 192.168.0.0/16 ')).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(() => parseTrustProxy('2')).toThrow(/hop count/);
  });

  it('refuses a session lifetime or login rate that is not a number', () => {
    expect(loadConfig({ SESSION_MAX_HOURS: '8', LOGIN_RATE_PER_MINUTE: '0' })).toMatchObject({
      sessionMaxMs: 8 * 3600_000,
      loginRatePerMinute: 0,
      trustProxy: false,
    });
    expect(() => loadConfig({ SESSION_MAX_HOURS: 'twelve' })).toThrow(/SESSION_MAX_HOURS/);
    expect(() => loadConfig({ LOGIN_RATE_PER_MINUTE: '-1' })).toThrow(/LOGIN_RATE_PER_MINUTE/);
  });
});
