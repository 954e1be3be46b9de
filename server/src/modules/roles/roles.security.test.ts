import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status } from '@geosentry/contract';
import { buildUser, testApp, type TestApp } from '../../../test/harness.ts';

/**
 * Issue 15, finding 1 (role side): a role administrator cannot create or change a role with
 * permissions they do not hold, cannot widen the role they hold, cannot touch the super administrator
 * role, and cannot take permissions from a role that reaches further than their own.
 */
describe('security: role administration cannot escalate', () => {
  let t: TestApp;
  let admin: string;
  let superRoleId: number;
  /** system:role only. */
  let roleAdminRole: number;
  /** system:user and system:role. */
  let powerRole: number;
  /** system:user, system:role and system:permission: beyond both attackers. */
  let strongRole: number;
  let rolf: string;
  let pat: string;

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
    const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: admin,
      body: { roleId: add.data.id, permissionIds: await permIds(codes) },
    });
    expect(set.status).toBe(0);
    return add.data.id;
  };
  const snapshot = async () => ({
    roles: await t.db.k
      .selectFrom('roles')
      .select(['id', 'code', 'name', 'description', 'parent_id'])
      .orderBy('id')
      .execute(),
    grants: await t.db.k
      .selectFrom('role_permissions')
      .selectAll()
      .orderBy('role_id')
      .orderBy('permission_id')
      .execute(),
    users: await t.db.k.selectFrom('users').select(['id', 'account', 'role_id', 'key_enc']).orderBy('id').execute(),
  });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    superRoleId = (
      await t.db.k.selectFrom('roles').select('id').where('code', '=', 'superAdmin').executeTakeFirstOrThrow()
    ).id;
    roleAdminRole = await roleWith('roleAdmin', ['system:role']);
    powerRole = await roleWith('powerAdmin', ['system:user', 'system:role']);
    strongRole = await roleWith('strong', ['system:user', 'system:role', 'system:permission']);
    await buildUser(t, admin, { account: 'rolf', password: 'Rolf-pass-12345', roleCode: 'roleAdmin' });
    await buildUser(t, admin, { account: 'pat', password: 'Pat-pass-123456', roleCode: 'powerAdmin' });
    rolf = await t.token('rolf', 'Rolf-pass-12345');
    pat = await t.token('pat', 'Pat-pass-123456');
  });
  afterAll(() => t.close());

  it('a role administrator still grants what they hold', async () => {
    const add = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
      token: rolf,
      body: { name: 'Helpers', code: 'helpers' },
    });
    expect(add.status).toBe(0);
    const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: rolf,
      body: { roleId: add.data.id, permissionIds: await permIds(['system:role']) },
    });
    expect(set.status).toBe(0);
    const edit = await t.api('POST', '/api/v2/manage/role/edit', {
      token: rolf,
      body: { id: add.data.id, name: 'Helpers two', code: 'helpers' },
    });
    expect(edit.status).toBe(0);
  });

  it('cannot give a role permissions it does not hold (a new role, or an existing one)', async () => {
    const mine = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
      token: rolf,
      body: { name: 'Mine', code: 'mine' },
    });
    const before = await snapshot();
    const r = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: rolf,
      body: { roleId: mine.data.id, permissionIds: await permIds(['system:role', 'system:user']) },
    });
    expect(r.status).toBe(Status.forbidden);
    expect(r.info).toBe('You cannot grant permissions you do not hold yourself: system:user');
    const zh = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: rolf,
      lang: 'zh',
      body: { roleId: mine.data.id, permissionIds: await permIds(['system:permission']) },
    });
    expect(zh.info).toBe('不能授予您自己没有的权限：system:permission');
    // The built-in user role is not the attacker's: still nothing beyond its own.
    const userRole = (
      await t.db.k.selectFrom('roles').select('id').where('code', '=', 'user').executeTakeFirstOrThrow()
    ).id;
    const u = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: rolf,
      body: { roleId: userRole, permissionIds: await permIds(['system:user']) },
    });
    expect(u.status).toBe(Status.forbidden);
    expect(await snapshot()).toEqual(before);
  });

  it('cannot widen the role it holds', async () => {
    const before = await snapshot();
    const r = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: rolf,
      body: { roleId: roleAdminRole, permissionIds: await permIds(['system:role', 'system:user']) },
    });
    expect(r.status).toBe(Status.forbidden);
    expect(r.info).toBe('You cannot assign your own role');
    expect(await snapshot()).toEqual(before);
  });

  it('cannot touch the super administrator role, nor a role reaching further than its own', async () => {
    const before = await snapshot();
    const cases: [string, Record<string, unknown>, string][] = [
      [
        '/api/v2/manage/role/edit',
        { id: superRoleId, name: 'Pwned', code: 'superAdmin' },
        'Only a super administrator can give or change the super administrator role',
      ],
      [
        '/api/v2/manage/role/setPermissions',
        { roleId: superRoleId, permissionIds: [] },
        'The super administrator always holds every permission',
      ],
      [
        '/api/v2/manage/role/edit',
        { id: strongRole, name: 'Pwned', code: 'strong' },
        'You cannot change a role with permissions you do not hold yourself: system:permission, system:user',
      ],
      [
        '/api/v2/manage/role/setPermissions',
        { roleId: strongRole, permissionIds: [] },
        'You cannot change a role with permissions you do not hold yourself: system:permission, system:user',
      ],
      [
        '/api/v2/manage/role/delete',
        { id: strongRole },
        'You cannot change a role with permissions you do not hold yourself: system:permission, system:user',
      ],
    ];
    for (const [url, body, info] of cases) {
      const r = await t.api('POST', url, { token: rolf, body });
      expect({ url, status: r.status, info: r.info }).toEqual({ url, status: Status.forbidden, info });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('path 5: a user and role administrator cannot widen itself through a role of its own making', async () => {
    // Create a role, give it everything, bind a second account to it: the escalation, step by step.
    const all = (await t.db.k.selectFrom('permissions').select('id').execute()).map((p) => p.id);
    const made = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
      token: pat,
      body: { name: 'Everything', code: 'everything' },
    });
    expect(made.status).toBe(0);
    const before = await snapshot();
    const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: pat,
      body: { roleId: made.data.id, permissionIds: all },
    });
    expect(set.status).toBe(Status.forbidden);
    expect(set.info).toMatch(/^You cannot grant permissions you do not hold yourself: /);
    const own = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: pat,
      body: { roleId: powerRole, permissionIds: all },
    });
    expect(own.status).toBe(Status.forbidden);
    // Binding a wider role made by someone else is refused as well.
    const add = await t.api('POST', '/api/v2/manage/user/add', {
      token: pat,
      body: { account: 'pat2', password: 'Pat-two-pass-1', name: 'Pat 2', roleId: strongRole },
    });
    expect(add.status).toBe(Status.forbidden);
    expect(add.info).toBe('You cannot give a role with permissions you do not hold yourself: system:permission');
    expect(await snapshot()).toEqual(before);
  });

  it('50 concurrent grants beyond its own are all refused', async () => {
    const made = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
      token: pat,
      body: { name: 'Race', code: 'race' },
    });
    const ids = await permIds(['system:user', 'system:permission']);
    const before = await snapshot();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.api('POST', '/api/v2/manage/role/setPermissions', {
          token: pat,
          body: { roleId: made.data.id, permissionIds: ids },
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 50 }, () => Status.forbidden));
    expect(await snapshot()).toEqual(before);
  });
});
