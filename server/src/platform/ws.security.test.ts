import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sql } from 'kysely';
import { buildPlatform, buildUser, testApp, type TestApp } from '../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith } from '../modules/devices/testkit.ts';

/**
 * Issue 15, finding 4: an open browser socket gets only what the user's current session, permissions and
 * scope allow; a change applies within a second; an ended session closes it; a foreign Origin cannot open it.
 */

interface Sock {
  ws: WebSocket;
  messages: { type: string; platformId?: number; at: number }[];
  closed: Promise<{ code: number; reason: string }>;
}

describe('browser socket rights (security)', () => {
  let t: TestApp;
  let admin: string;
  let port: number;
  let siteA: number;
  let siteB: number;
  let termA: { terminalId: number; key: string };
  let termB: { terminalId: number; key: string };
  let ts = Date.UTC(2026, 10, 1, 0, 0, 0);

  const open = (token: string, headers: Record<string, string> = {}): Promise<Sock> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v2/ws?token=${token}`, { headers });
      const messages: Sock['messages'] = [];
      const closed = new Promise<{ code: number; reason: string }>((r) =>
        ws.on('close', (code, reason) => r({ code, reason: reason.toString() })),
      );
      ws.on('error', reject);
      ws.on('message', (m) => {
        const msg = JSON.parse(m.toString()) as { type: string; platformId?: number };
        messages.push({ ...msg, at: Date.now() });
        if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'subscribe', platformIds: 'all' }));
        if (msg.type === 'subscribed') resolve({ ws, messages, closed });
      });
    });

  /** Sends one reading to each site's device over HTTP ingest (answered after commit and socket push). */
  const readings = async (): Promise<void> => {
    ts += 1000;
    for (const [n, term] of [
      ['DEV-wsA', termA],
      ['DEV-wsB', termB],
    ] as const) {
      const r = await t.raw('POST', '/api/v2/ingest/readings', {
        payload: JSON.stringify({ ts, values: { rainfall: 1 } }),
        headers: {
          'content-type': 'application/json',
          'x-terminal-id': String(term.terminalId),
          'x-terminal-key': term.key,
          'x-device-number': n,
        },
      });
      expect(r.statusCode).toBe(200);
    }
  };
  const alert = (platformId: number): void =>
    t.ctx.hub.publish(platformId, { type: 'alert', platformId, level: 1 }, { everyone: true });
  const of = (s: Sock, type: string, platformId?: number, after = 0): number =>
    s.messages.filter(
      (m) => m.type === type && (platformId === undefined || m.platformId === platformId) && m.at >= after,
    ).length;
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
  const password = 'Socket-user-pass-1';
  const user = async (
    account: string,
    roleCode: string,
    platformIds: number[],
  ): Promise<{ id: number; token: string }> => {
    const id = await buildUser(t, admin, { account, password, roleCode, platformIds });
    return { id, token: await t.token(account, password) };
  };

  beforeAll(async () => {
    t = await testApp({ allowedOrigins: ['https://screen.example.com'] });
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'WS A' });
    siteB = await buildPlatform(t, { type: 'disaster', name: 'WS B' });
    termA = await addTerminal(t, admin, siteA, 'WS-TA');
    termB = await addTerminal(t, admin, siteB, 'WS-TB');
    await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'wsA'));
    await addDevice(t, admin, deviceBody(siteB, termB.terminalId, 'wsB'));
    await roleWith(t, admin, 'wsViewer', ['monitor', 'monitor:realtime', 'alert-predict', 'alert-predict:alert']);
    await roleWith(t, admin, 'wsNothing', ['information:terminal']);
    await roleWith(t, admin, 'wsHome', ['index']);
    await roleWith(t, admin, 'wsScreen', ['digitalGallery']);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stops a removed site within a second of the scope change', async () => {
    const u = await user('wsScope', 'wsViewer', [siteA, siteB]);
    const s = await open(u.token);
    await readings();
    await expect.poll(() => of(s, 'reading', siteB)).toBe(1);
    expect(of(s, 'reading', siteA)).toBe(1);
    const set = await t.api('POST', '/api/v2/manage/user/setDataScope', {
      token: admin,
      body: { userId: u.id, scopeAll: false, platformIds: [siteA] },
    });
    expect(set.status).toBe(0);
    const changed = Date.now();
    await sleep(1000);
    for (let i = 0; i < 5; i++) await readings();
    alert(siteB);
    alert(siteA);
    await sleep(100);
    expect(of(s, 'reading', siteB, changed + 1000)).toBe(0);
    expect(of(s, 'alert', siteB)).toBe(0);
    expect(of(s, 'reading', siteA, changed + 1000)).toBe(5);
    expect(of(s, 'alert', siteA)).toBe(1);
    s.ws.close();
  });

  it('sends nothing to a role without the monitor and alert permissions, and stops when they are taken away', async () => {
    const none = await user('wsNone', 'wsNothing', [siteA, siteB]);
    const s = await open(none.token);
    await readings();
    alert(siteA);
    await sleep(200);
    expect(s.messages.map((m) => m.type)).toEqual(['hello', 'subscribed']);
    s.ws.close();

    // A role that had them: its permissions narrowed to the monitor screens only (no alerts), then to nothing.
    await roleWith(t, admin, 'wsShrinking', ['monitor', 'monitor:realtime', 'alert-predict', 'alert-predict:alert']);
    const u = await user('wsShrink', 'wsShrinking', [siteA]);
    const s2 = await open(u.token);
    await readings();
    alert(siteA);
    await expect.poll(() => of(s2, 'reading', siteA) + of(s2, 'alert', siteA)).toBe(2);
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const roleId = roles.data.find((r) => r.code === 'wsShrinking')!.id;
    const tree = await t.api<{ id: number; code: string; children?: { id: number; code: string }[] }[]>(
      'GET',
      '/api/v2/manage/permission/getTree',
      { token: admin },
    );
    const flat = tree.data.flatMap((p) => [p, ...(p.children ?? [])]);
    const ids = (codes: string[]): number[] => codes.map((c) => flat.find((p) => p.code === c)!.id);
    const set = (codes: string[]): ReturnType<TestApp['api']> =>
      t.api('POST', '/api/v2/manage/role/setPermissions', {
        token: admin,
        body: { roleId, permissionIds: ids(codes) },
      });
    expect((await set(['monitor', 'monitor:realtime'])).status).toBe(0);
    let changed = Date.now();
    await sleep(1000);
    await readings();
    alert(siteA);
    await sleep(100);
    expect(of(s2, 'alert', siteA, changed + 1000)).toBe(0);
    expect(of(s2, 'reading', siteA, changed + 1000)).toBe(1);
    expect((await set(['information:terminal'])).status).toBe(0);
    changed = Date.now();
    await sleep(1000);
    await readings();
    alert(siteA);
    await sleep(100);
    expect(s2.messages.filter((m) => m.at >= changed + 1000)).toEqual([]);
    s2.ws.close();
  });

  it('gives home (index) device states and alerts but no readings, the big screen all three, in scope only', async () => {
    const state = (platformId: number): void =>
      t.ctx.hub.publish(platformId, { type: 'deviceState', platformId, deviceId: 1, state: 'offline' });
    const home = await open((await user('wsHomeUser', 'wsHome', [siteA])).token);
    const screen = await open((await user('wsScreenUser', 'wsScreen', [siteA])).token);
    await readings();
    state(siteA);
    state(siteB);
    alert(siteA);
    alert(siteB);
    await expect.poll(() => of(screen, 'alert', siteA)).toBe(1);
    await expect.poll(() => of(home, 'alert', siteA)).toBe(1);
    expect([of(home, 'deviceState', siteA), of(home, 'reading')]).toEqual([1, 0]);
    expect([of(screen, 'deviceState', siteA), of(screen, 'reading', siteA)]).toEqual([1, 1]);
    // Nothing of the site outside their scope.
    for (const s of [home, screen]) expect(s.messages.filter((m) => m.platformId === siteB)).toEqual([]);
    home.ws.close();

    // The big screen's role loses digitalGallery for index: readings stop within a second, states and alerts go on.
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const tree = await t.api<{ id: number; code: string; children?: { id: number; code: string }[] }[]>(
      'GET',
      '/api/v2/manage/permission/getTree',
      { token: admin },
    );
    const index = tree.data.flatMap((p) => [p, ...(p.children ?? [])]).find((p) => p.code === 'index')!.id;
    const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: admin,
      body: { roleId: roles.data.find((r) => r.code === 'wsScreen')!.id, permissionIds: [index] },
    });
    expect(set.status).toBe(0);
    const changed = Date.now();
    await sleep(1000);
    await readings();
    state(siteA);
    alert(siteA);
    await expect.poll(() => of(screen, 'alert', siteA, changed + 1000)).toBe(1);
    expect(of(screen, 'deviceState', siteA, changed + 1000)).toBe(1);
    expect(of(screen, 'reading', siteA, changed + 1000)).toBe(0);
    screen.ws.close();
  });

  it('closes the socket of a session that ended by idleness, lifetime or the user being deleted, without keeping it alive', async () => {
    const idle = await user('wsIdle', 'wsViewer', [siteA]);
    const s = await open(idle.token);
    // Idle past SESSION_IDLE_MINUTES (the last request long ago); the open socket must not count as activity.
    await sql`update sessions set last_seen_at = now() - interval '3 hours'
      where user_id = ${idle.id} and ended_at is null`.execute(t.db.k);
    const t0 = Date.now();
    const c = await s.closed;
    expect(c.code).toBe(4001);
    expect(Date.now() - t0).toBeLessThan(1500);
    const after = await t.api('GET', '/api/v2/manage/user/getUserInfo', { token: idle.token });
    expect(after.status).toBe(1001);

    // Past the absolute lifetime, however active.
    const old = await user('wsOld', 'wsViewer', [siteA]);
    const s2 = await open(old.token);
    const hasExpiry = await sql<{ n: number }>`select count(*)::int as n from information_schema.columns
      where table_name = 'sessions' and column_name = 'expires_at'`.execute(t.db.k);
    if (hasExpiry.rows[0]!.n > 0)
      await sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${old.id}`.execute(t.db.k);
    else
      await sql`update sessions set created_at = now() - interval '400 days' where user_id = ${old.id}`.execute(t.db.k);
    expect((await s2.closed).code).toBe(4001);

    // The session row gone (a deleted user's sessions go with it, by cascade).
    const gone = await user('wsGone', 'wsViewer', [siteA]);
    const s3 = await open(gone.token);
    await sql`delete from user_platforms where user_id = ${gone.id}`.execute(t.db.k);
    await sql`delete from sessions where user_id = ${gone.id}`.execute(t.db.k);
    expect((await s3.closed).code).toBe(4001);
  });

  it('refuses a foreign Origin; allows its own host, a configured origin and no Origin at all', async () => {
    const u = await user('wsOrigin', 'wsViewer', [siteA]);
    await expect(open(u.token, { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    await expect(open(u.token, { origin: 'null' })).rejects.toThrow(/403/);
    for (const origin of [`http://127.0.0.1:${port}`, 'https://screen.example.com']) {
      const s = await open(u.token, { origin });
      s.ws.close();
    }
    const s = await open(u.token);
    s.ws.close();
  });
});
