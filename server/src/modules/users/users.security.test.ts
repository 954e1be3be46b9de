import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Status } from '@geosentry/contract';
import { ADMIN_PASSWORD, buildPlatform, buildUser, testApp, type TestApp } from '../../../test/harness.ts';

/**
 * Issue 15, finding 1 (user administration led to super administrator) and finding 7 (an administrator
 * unlocks a locked account). Every attack goes through the real API as a caller holding only
 * `system:user`, and checks both the refusal (status and translated message) and that the database
 * did not change.
 */
describe('security: user administration cannot escalate', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let superRoleId: number;
  let siteA: number;
  let siteB: number;
  /** A role holding only system:user (and its menu group). */
  let userAdminRole: number;
  /** A role holding system:user and system:role. */
  let powerRole: number;
  /** A role with no permission. */
  let guestRole: number;
  let attacker: string;
  let attackerId: number;
  let victimId: number;

  const permIds = async (codes: string[]): Promise<number[]> => {
    const rows = await t.db.k.selectFrom('permissions').select(['id', 'code']).where('code', 'in', codes).execute();
    expect(rows.length).toBe(codes.length);
    return rows.map((r) => r.id);
  };
  const roleWith = async (code: string, codes: string[]): Promise<number> => {
    const add = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
      token: admin,
      body: { name: code, code },
    });
    expect(add.status).toBe(0);
    if (codes.length) {
      const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
        token: admin,
        body: { roleId: add.data.id, permissionIds: await permIds(codes) },
      });
      expect(set.status).toBe(0);
    }
    return add.data.id;
  };

  /** Everything an escalation could change: accounts, keys, roles, scopes, grants, live sessions, lockouts. */
  const snapshot = async () => ({
    users: await t.db.k
      .selectFrom('users')
      .select(['id', 'account', 'name', 'role_id', 'scope_all', 'enabled', 'key_enc', 'phone', 'email', 'area'])
      .orderBy('id')
      .execute(),
    scopes: await t.db.k.selectFrom('user_platforms').selectAll().orderBy('user_id').orderBy('platform_id').execute(),
    grants: await t.db.k
      .selectFrom('role_permissions')
      .selectAll()
      .orderBy('role_id')
      .orderBy('permission_id')
      .execute(),
    roles: await t.db.k.selectFrom('roles').select(['id', 'code', 'name', 'parent_id']).orderBy('id').execute(),
    sessions: await t.db.k.selectFrom('sessions').select(['id', 'user_id', 'ended_at']).orderBy('id').execute(),
    attempts: await t.db.k
      .selectFrom('login_attempts')
      .select(['account', 'fails', 'stage'])
      .orderBy('account')
      .execute(),
  });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    const me = await t.api<{ user: { id: number } }>('GET', '/api/v2/manage/user/getUserInfo', { token: admin });
    adminId = me.data.user.id;
    superRoleId = (
      await t.db.k.selectFrom('roles').select('id').where('code', '=', 'superAdmin').executeTakeFirstOrThrow()
    ).id;
    siteA = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir A' });
    siteB = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir B' });
    userAdminRole = await roleWith('userAdmin', ['system:user']);
    powerRole = await roleWith('powerAdmin', ['system:user', 'system:role']);
    guestRole = await roleWith('guest', []);
    attackerId = await buildUser(t, admin, {
      account: 'mallory',
      password: 'Mallory-pass-123',
      roleCode: 'userAdmin',
      platformIds: [siteA],
    });
    attacker = await t.token('mallory', 'Mallory-pass-123');
    victimId = await buildUser(t, admin, { account: 'victim1', password: 'Victim-pass-123', roleCode: 'guest' });
  });
  afterAll(() => t.close());

  it('the attacker can still do what they hold: add and edit a user with a role within their own', async () => {
    const add = await t.api<{ id: number }>('POST', '/api/v2/manage/user/add', {
      token: attacker,
      body: { account: 'helper1', password: 'Helper-pass-123', name: 'Helper', roleId: guestRole },
    });
    expect(add.status).toBe(0);
    const bind = await t.api('POST', '/api/v2/manage/user/bindRole', {
      token: attacker,
      body: { userId: add.data.id, roleId: userAdminRole },
    });
    expect(bind.status).toBe(0);
    const edit = await t.api('POST', '/api/v2/manage/user/edit', {
      token: attacker,
      body: { id: add.data.id, name: 'Helper two', roleId: guestRole, phone: '+86 138 0000 0000' },
    });
    expect(edit.status).toBe(0);
    const row = await t.db.k
      .selectFrom('users')
      .select(['name', 'role_id'])
      .where('id', '=', add.data.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Helper two', role_id: guestRole });
  });

  it('path 1: cannot create an account with the super administrator role (or any role beyond its own)', async () => {
    const before = await snapshot();
    const r = await t.api('POST', '/api/v2/manage/user/add', {
      token: attacker,
      body: { account: 'evil-root', password: 'Evil-root-pass-1', name: 'Evil', roleId: superRoleId, scopeAll: true },
    });
    expect(r.status).toBe(Status.forbidden);
    expect(r.info).toBe('Only a super administrator can give or change the super administrator role');
    const zh = await t.api('POST', '/api/v2/manage/user/add', {
      token: attacker,
      lang: 'zh',
      body: { account: 'evil-root', password: 'Evil-root-pass-1', name: 'Evil', roleId: superRoleId },
    });
    expect(zh.info).toBe('只有超级管理员可以授予或修改超级管理员角色');
    const wider = await t.api('POST', '/api/v2/manage/user/add', {
      token: attacker,
      lang: 'ko',
      body: { account: 'evil-power', password: 'Evil-root-pass-1', name: 'Evil', roleId: powerRole },
    });
    expect(wider.status).toBe(Status.forbidden);
    expect(wider.info).toBe('본인에게 없는 권한을 가진 역할은 부여할 수 없습니다: system:role');
    // A data scope beyond the attacker's own (and without system:data) is refused too.
    const scoped = await t.api('POST', '/api/v2/manage/user/add', {
      token: attacker,
      body: { account: 'evil-scope', password: 'Evil-root-pass-1', name: 'Evil', roleId: guestRole, scopeAll: true },
    });
    expect(scoped.status).toBe(Status.forbidden);
    expect(scoped.info).toMatch(/needs the data permission/);
    expect(await snapshot()).toEqual(before);
  });

  it('path 2: cannot reset the super administrator password, nor otherwise manage a super administrator', async () => {
    const before = await snapshot();
    const reset = await t.api('POST', '/api/v2/manage/user/resetPassword', {
      token: attacker,
      body: { id: adminId, password: 'Taken-over-pass-1' },
    });
    expect(reset.status).toBe(Status.forbidden);
    expect(reset.info).toBe('Only a super administrator can manage a super administrator account');
    for (const [url, body] of [
      ['/api/v2/manage/user/edit', { id: adminId, name: 'Pwned' }],
      ['/api/v2/manage/user/enable', { id: adminId, enabled: false }],
      ['/api/v2/manage/user/delete', { id: adminId }],
      ['/api/v2/manage/user/bindRole', { userId: adminId, roleId: guestRole }],
      ['/api/v2/manage/user/unlock', { id: adminId }],
    ] as const) {
      const r = await t.api('POST', url, { token: attacker, body, lang: 'zh' });
      expect({ url, status: r.status, info: r.info }).toEqual({
        url,
        status: Status.forbidden,
        info: '只有超级管理员可以管理超级管理员账号',
      });
    }
    expect(await snapshot()).toEqual(before);
    // The administrator's password still works; the attacker's one does not.
    expect((await t.login('admin', 'Taken-over-pass-1')).status).not.toBe(0);
    admin = await t.token('admin', ADMIN_PASSWORD);
  });

  it('cannot take over an account whose role reaches further than its own', async () => {
    const strong = await buildUser(t, admin, {
      account: 'strong1',
      password: 'Strong-pass-123',
      roleCode: 'powerAdmin',
    });
    const before = await snapshot();
    const reset = await t.api('POST', '/api/v2/manage/user/resetPassword', {
      token: attacker,
      body: { id: strong, password: 'Taken-over-pass-1' },
    });
    expect(reset.status).toBe(Status.forbidden);
    expect(reset.info).toBe(
      'You cannot manage a user whose role has permissions you do not hold yourself: system:role',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('path 3: cannot bind any user to the super administrator role, by bindRole or by edit', async () => {
    const before = await snapshot();
    const bind = await t.api('POST', '/api/v2/manage/user/bindRole', {
      token: attacker,
      body: { userId: victimId, roleId: superRoleId },
    });
    expect(bind.status).toBe(Status.forbidden);
    expect(bind.info).toBe('Only a super administrator can give or change the super administrator role');
    const edit = await t.api('POST', '/api/v2/manage/user/edit', {
      token: attacker,
      body: { id: victimId, name: 'victim1', roleId: superRoleId },
    });
    expect(edit.status).toBe(Status.forbidden);
    expect(edit.info).toBe('Only a super administrator can give or change the super administrator role');
    const wider = await t.api('POST', '/api/v2/manage/user/bindRole', {
      token: attacker,
      body: { userId: victimId, roleId: powerRole },
    });
    expect(wider.status).toBe(Status.forbidden);
    expect(wider.info).toMatch(/role with permissions you do not hold yourself: system:role/);
    expect(await snapshot()).toEqual(before);
  });

  it('path 4: cannot widen its own (or anyone else’s) data scope through user/edit', async () => {
    // The route guarding data scopes refuses it outright.
    const direct = await t.api('POST', '/api/v2/manage/user/setDataScope', {
      token: attacker,
      body: { userId: attackerId, scopeAll: true },
    });
    expect(direct.status).toBe(Status.noPermission);
    const before = await snapshot();
    for (const scope of [{ scopeAll: true }, { scopeAll: false, platformIds: [siteA, siteB] }]) {
      const r = await t.api('POST', '/api/v2/manage/user/edit', {
        token: attacker,
        body: { id: attackerId, name: 'mallory', roleId: userAdminRole, ...scope },
      });
      expect(r.status).toBe(Status.forbidden);
      expect(r.info).toBe('Setting the data scope needs the data permission (system:data)');
      const other = await t.api('POST', '/api/v2/manage/user/edit', {
        token: attacker,
        lang: 'ko',
        body: { id: victimId, name: 'victim1', ...scope },
      });
      expect(other.status).toBe(Status.forbidden);
      expect(other.info).toBe('데이터 범위를 설정하려면 데이터 권한(system:data)이 필요합니다');
    }
    expect(await snapshot()).toEqual(before);
    // Sending the scope it already has is no change: the edit goes through.
    const same = await t.api('POST', '/api/v2/manage/user/edit', {
      token: attacker,
      body: { id: attackerId, name: 'Mallory', roleId: userAdminRole, scopeAll: false, platformIds: [siteA] },
    });
    expect(same.status).toBe(0);
    const scope = await t.db.k
      .selectFrom('user_platforms')
      .select('platform_id')
      .where('user_id', '=', attackerId)
      .execute();
    expect(scope.map((s) => s.platform_id)).toEqual([siteA]);
  });

  it('a data administrator cannot give sites beyond their own scope, even to themselves', async () => {
    const dataRole = await roleWith('dataAdmin', ['system:user', 'system:data']);
    const id = await buildUser(t, admin, {
      account: 'dana',
      password: 'Dana-pass-12345',
      roleCode: 'dataAdmin',
      platformIds: [siteA],
    });
    const dana = await t.token('dana', 'Dana-pass-12345');
    const before = await snapshot();
    for (const [url, body] of [
      ['/api/v2/manage/user/setDataScope', { userId: id, scopeAll: true }],
      ['/api/v2/manage/user/setDataScope', { userId: victimId, scopeAll: false, platformIds: [siteB] }],
      ['/api/v2/manage/user/edit', { id, name: 'dana', roleId: dataRole, platformIds: [siteA, siteB] }],
      ['/api/v2/manage/user/edit', { id: victimId, name: 'victim1', scopeAll: true }],
    ] as const) {
      const r = await t.api('POST', url, { token: dana, body });
      expect({ url, status: r.status, info: r.info }).toEqual({
        url,
        status: Status.forbidden,
        info: 'You cannot give a data scope beyond your own',
      });
    }
    expect(await snapshot()).toEqual(before);
    const ok = await t.api('POST', '/api/v2/manage/user/setDataScope', {
      token: dana,
      body: { userId: victimId, scopeAll: false, platformIds: [siteA] },
    });
    expect(ok.status).toBe(0);
  });

  it('50 concurrent binds and creates with the super administrator role are all refused', async () => {
    const before = await snapshot();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? t.api('POST', '/api/v2/manage/user/bindRole', {
              token: attacker,
              body: { userId: victimId, roleId: superRoleId },
            })
          : t.api('POST', '/api/v2/manage/user/add', {
              token: attacker,
              body: { account: `evil-${i}`, password: 'Evil-root-pass-1', name: 'Evil', roleId: superRoleId },
            }),
      ),
    );
    expect(answers.filter((a) => a.status === Status.forbidden).length).toBe(50);
    expect(new Set(answers.map((a) => a.info))).toEqual(
      new Set(['Only a super administrator can give or change the super administrator role']),
    );
    expect(await snapshot()).toEqual(before);
  });

  it('the super administrator still manages everyone', async () => {
    const root2 = await buildUser(t, admin, { account: 'root2', password: 'Root-two-pass-1', roleCode: 'superAdmin' });
    expect(
      (
        await t.api('POST', '/api/v2/manage/user/resetPassword', {
          token: admin,
          body: { id: root2, password: 'Root-two-pass-2' },
        })
      ).status,
    ).toBe(0);
    expect(
      (
        await t.api('POST', '/api/v2/manage/user/bindRole', {
          token: admin,
          body: { userId: victimId, roleId: powerRole },
        })
      ).status,
    ).toBe(0);
    expect(
      (
        await t.api('POST', '/api/v2/manage/user/bindRole', {
          token: admin,
          body: { userId: victimId, roleId: guestRole },
        })
      ).status,
    ).toBe(0);
  });
});

describe('security: an administrator unlocks a locked account', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  const lockedFlag = async (account: string): Promise<boolean | undefined> => {
    const r = await t.api<{ list: { account: string; locked: boolean }[] }>('GET', '/api/v2/manage/user/getListPage', {
      token: admin,
      query: { keyword: account },
    });
    return r.data.list.find((u) => u.account === account)?.locked;
  };

  it('after 6 wrong passwords the account is locked; unlock clears it and the right password works', async () => {
    const id = await buildUser(t, admin, { account: 'Locked1', password: 'Locked-pass-123' });
    expect(await lockedFlag('Locked1')).toBe(false);
    for (let i = 0; i < 6; i++) await t.login('Locked1', `wrong-pass-${i}`);
    const during = await t.login('Locked1', 'Locked-pass-123', { flag: 1 });
    expect(during.status).toBe(Status.forbidden);
    expect(during.info).toMatch(/try again in \d+ minutes/);
    expect(await lockedFlag('Locked1')).toBe(true);

    const r = await t.api('POST', '/api/v2/manage/user/unlock', { token: admin, body: { id }, lang: 'zh' });
    expect(r).toEqual({ status: 0, info: '账号已解锁', data: null });
    expect(await lockedFlag('Locked1')).toBe(false);
    const rows = await sql`select 1 from login_attempts where lower(account) = 'locked1'`.execute(t.db.k);
    expect(rows.rows.length).toBe(0);
    expect((await t.login('Locked1', 'Locked-pass-123', { flag: 1 })).status).toBe(0);
    const audit = await t.db.k
      .selectFrom('audit_log')
      .select(['action', 'target'])
      .where('action', '=', 'user.unlock')
      .execute();
    expect(audit).toEqual([{ action: 'user.unlock', target: 'Locked1' }]);
  });

  it('a day lock on the super administrator is lifted by another super administrator, not by a user admin', async () => {
    await buildUser(t, admin, { account: 'root2', password: 'Root-two-pass-1', roleCode: 'superAdmin' });
    const root2 = await t.token('root2', 'Root-two-pass-1');
    const userAdmin = (
      await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
        token: admin,
        body: { name: 'User admin', code: 'userAdmin' },
      })
    ).data.id;
    const sysUser = await t.db.k.selectFrom('permissions').select('id').where('code', '=', 'system:user').execute();
    await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: admin,
      body: { roleId: userAdmin, permissionIds: sysUser.map((p) => p.id) },
    });
    await buildUser(t, admin, { account: 'ua1', password: 'User-admin-pass-1', roleCode: 'userAdmin' });
    const ua = await t.token('ua1', 'User-admin-pass-1');
    const adminId = (
      await t.db.k.selectFrom('users').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow()
    ).id;

    // Five failures lock 10 minutes; once those pass, one more failure locks a day.
    for (let i = 0; i < 5; i++) await t.login('admin', `wrong-pass-${i}`);
    await sql`update login_attempts set locked_until = now() - interval '1 second' where lower(account) = 'admin'`.execute(
      t.db.k,
    );
    expect((await t.login('admin', 'still-wrong')).info).toMatch(/locked for one day/);
    expect((await t.login('admin', ADMIN_PASSWORD, { flag: 1 })).info).toMatch(/try again tomorrow/);

    const refused = await t.api('POST', '/api/v2/manage/user/unlock', { token: ua, body: { id: adminId } });
    expect(refused.status).toBe(Status.forbidden);
    expect(refused.info).toBe('Only a super administrator can manage a super administrator account');
    expect((await t.login('admin', ADMIN_PASSWORD, { flag: 1 })).info).toMatch(/try again tomorrow/);

    expect((await t.api('POST', '/api/v2/manage/user/unlock', { token: root2, body: { id: adminId } })).status).toBe(0);
    expect((await t.login('admin', ADMIN_PASSWORD, { flag: 1 })).status).toBe(0);
    // Unlocking an account that is not locked is harmless; an unknown id answers "no such user".
    expect((await t.api('POST', '/api/v2/manage/user/unlock', { token: root2, body: { id: adminId } })).status).toBe(0);
    expect((await t.api('POST', '/api/v2/manage/user/unlock', { token: root2, body: { id: 987654 } })).status).toBe(
      Status.notFound,
    );
  });
});
