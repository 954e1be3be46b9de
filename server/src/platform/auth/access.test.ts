import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status } from '@geosentry/contract';
import { ADMIN_PASSWORD, buildPlatform, buildUser, testApp, type TestApp } from '../../../test/harness.ts';

describe('access control', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  it('every route declares its permission or says it is public', () => {
    const undeclared = t.routes.filter((r) => r.method !== 'HEAD' && !r.permission);
    expect(undeclared.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(t.routes.length).toBeGreaterThan(25);
  });

  it('answers 1003 to a call without the route permission, and allows it once the role holds it', async () => {
    await buildUser(t, admin, { account: 'plain1', password: 'Plain-user-pass-1', roleCode: 'user' });
    const tok = await t.token('plain1', 'Plain-user-pass-1');
    const denied = await t.api('GET', '/api/v2/manage/user/getListPage', { token: tok, lang: 'zh' });
    expect(denied).toEqual({ status: Status.noPermission, info: '没有权限', data: null });

    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const userRole = roles.data.find((r) => r.code === 'user')!;
    const current = await t.api<number[]>('GET', '/api/v2/manage/role/getPermissions', {
      token: admin,
      query: { roleId: String(userRole.id) },
    });
    const tree = await t.api<{ id: number; code: string; children?: { id: number; code: string }[] }[]>(
      'GET',
      '/api/v2/manage/permission/getTree',
      { token: admin },
    );
    const sysUser = tree.data.flatMap((p) => [p, ...(p.children ?? [])]).find((p) => p.code === 'system:user')!;
    const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: admin,
      body: { roleId: userRole.id, permissionIds: [...current.data, sysUser.id] },
    });
    expect(set.status).toBe(0);
    const tok2 = await t.token('plain1', 'Plain-user-pass-1');
    expect((await t.api('GET', '/api/v2/manage/user/getListPage', { token: tok2 })).status).toBe(0);
    // The parent menu group came along with the child.
    const info = await t.api<{ permissions: string[] }>('GET', '/api/v2/manage/user/getUserInfo', { token: tok2 });
    expect(info.data.permissions).toEqual(expect.arrayContaining(['system', 'system:user']));
    const audit = await t.db.k
      .selectFrom('audit_log')
      .select(['action', 'detail'])
      .where('action', '=', 'role.permissions')
      .execute();
    expect(audit.length).toBe(1);
  });

  it('limits site reads to the data scope; a foreign id answers like a missing one', async () => {
    const a = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir A' });
    const b = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir B' });
    const viewer = await t.api<{ id: number }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const rid = (
      await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
        token: admin,
        body: { name: 'Viewer', code: 'viewer' },
      })
    ).data.id;
    const tree = await t.api<{ id: number; code: string; children?: { id: number; code: string }[] }[]>(
      'GET',
      '/api/v2/manage/permission/getTree',
      { token: admin },
    );
    const p = tree.data
      .flatMap((x) => [x, ...(x.children ?? [])])
      .find((x) => x.code === 'information:platform:reservoir')!;
    await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: admin,
      body: { roleId: rid, permissionIds: [p.id] },
    });
    expect(viewer.status).toBe(0);
    await buildUser(t, admin, {
      account: 'scoped1',
      password: 'Scoped-user-pass-1',
      roleCode: 'viewer',
      platformIds: [a],
    });
    const tok = await t.token('scoped1', 'Scoped-user-pass-1');

    const list = await t.api<{ list: { name: string }[]; total: number }>(
      'GET',
      '/api/v2/data/information/platform/reservoir/getListPage',
      { token: tok },
    );
    expect(list.data.list.map((x) => x.name)).toEqual(['Reservoir A']);
    expect(list.data.total).toBe(1);
    const adminList = await t.api<{ total: number }>('GET', '/api/v2/data/information/platform/reservoir/getListPage', {
      token: admin,
    });
    expect(adminList.data.total).toBe(2);

    const own = await t.api('GET', '/api/v2/data/information/platform/getById', {
      token: tok,
      query: { platformId: String(a) },
    });
    expect(own.status).toBe(0);
    const foreign = await t.api('GET', '/api/v2/data/information/platform/getById', {
      token: tok,
      query: { platformId: String(b) },
    });
    const missing = await t.api('GET', '/api/v2/data/information/platform/getById', {
      token: tok,
      query: { platformId: '999999' },
    });
    expect(foreign).toEqual(missing);
    expect(foreign.status).toBe(Status.notFound);
    // Another kind's list needs its own permission.
    expect((await t.api('GET', '/api/v2/data/information/platform/river/getListPage', { token: tok })).status).toBe(
      Status.noPermission,
    );
  });

  it('users cannot delete themselves, bind their own role, or end up with no role', async () => {
    const me = await t.api<{ user: { id: number }; role: { id: number } }>('GET', '/api/v2/manage/user/getUserInfo', {
      token: admin,
    });
    const del = await t.api('POST', '/api/v2/manage/user/delete', { token: admin, body: { id: me.data.user.id } });
    expect(del.info).toMatch(/cannot delete yourself/);
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const userRole = roles.data.find((r) => r.code === 'user')!;
    const bind = await t.api('POST', '/api/v2/manage/user/bindRole', {
      token: admin,
      body: { userId: me.data.user.id, roleId: userRole.id },
    });
    expect(bind.info).toMatch(/cannot assign your own role/);
    const other = await buildUser(t, admin, { account: 'norole1' });
    const none = await t.api('POST', '/api/v2/manage/user/bindRole', {
      token: admin,
      body: { userId: other, roleId: 987654 },
    });
    expect(none.info).toMatch(/At least one role/);
    const empty = await t.api('POST', '/api/v2/manage/user/bindRole', { token: admin, body: { userId: other } });
    expect(empty.status).toBe(Status.invalid);
    const dis = await t.api('POST', '/api/v2/manage/user/enable', {
      token: admin,
      body: { id: me.data.user.id, enabled: false },
    });
    expect(dis.info).toMatch(/cannot disable yourself/);
    // Still admin, still enabled.
    expect((await t.api('GET', '/api/v2/manage/user/getUserInfo', { token: admin })).status).toBe(0);
  });

  it('keeps accounts and role codes unique', async () => {
    await buildUser(t, admin, { account: 'dupe1' });
    await expect(buildUser(t, admin, { account: 'DUPE1' })).rejects.toThrow(/account already exists/);
    expect(
      (await t.api('POST', '/api/v2/manage/role/add', { token: admin, body: { name: 'X', code: 'superAdmin' } })).info,
    ).toMatch(/role code already exists/);
  });

  it('refuses weak passwords for new users', async () => {
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const roleId = roles.data.find((r) => r.code === 'user')!.id;
    const r = await t.api('POST', '/api/v2/manage/user/add', {
      token: admin,
      body: { account: 'weak1', password: 'qwerty123', name: 'W', roleId },
    });
    expect(r.info).toMatch(/too common/);
    expect(
      (
        await t.api<{ total: number }>('GET', '/api/v2/manage/user/getListPage', {
          token: admin,
          query: { keyword: 'weak1' },
        })
      ).data.total,
    ).toBe(0);
  });

  it('refuses to delete a role that users hold, and built-in roles', async () => {
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const builtin = roles.data.find((r) => r.code === 'user')!;
    expect(
      (await t.api('POST', '/api/v2/manage/role/delete', { token: admin, body: { id: builtin.id } })).info,
    ).toMatch(/built-in/);
    const rid = (
      await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
        token: admin,
        body: { name: 'Held', code: 'held' },
      })
    ).data.id;
    await buildUser(t, admin, { account: 'holder1', roleCode: 'held' });
    expect((await t.api('POST', '/api/v2/manage/role/delete', { token: admin, body: { id: rid } })).info).toMatch(
      /held by 1 users/,
    );
    const free = (
      await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
        token: admin,
        body: { name: 'Free', code: 'free' },
      })
    ).data.id;
    expect((await t.api('POST', '/api/v2/manage/role/delete', { token: admin, body: { id: free } })).status).toBe(0);
  });

  it('keeps permissions at two levels and deletes children with their parent', async () => {
    const parent = await t.api<{ id: number }>('POST', '/api/v2/manage/permission/add', {
      token: admin,
      body: { name: 'Reports', code: 'reports' },
    });
    const child = await t.api<{ id: number }>('POST', '/api/v2/manage/permission/add', {
      token: admin,
      body: { name: 'Monthly', code: 'reports:monthly', parentId: parent.data.id },
    });
    expect(child.status).toBe(0);
    const grandchild = await t.api('POST', '/api/v2/manage/permission/add', {
      token: admin,
      body: { name: 'Deep', code: 'reports:monthly:deep', parentId: child.data.id },
    });
    expect(grandchild.info).toMatch(/level 1/);
    expect(
      (await t.api('POST', '/api/v2/manage/permission/delete', { token: admin, body: { id: parent.data.id } })).status,
    ).toBe(0);
    const tree = await t.api<{ code: string; children?: { code: string }[] }[]>(
      'GET',
      '/api/v2/manage/permission/getTree',
      { token: admin },
    );
    const codes = tree.data.flatMap((x) => [x.code, ...(x.children ?? []).map((c) => c.code)]);
    expect(codes).not.toContain('reports');
    expect(codes).not.toContain('reports:monthly');
    expect(codes).toContain('system:user');
  });

  it('the super administrator keeps every permission', async () => {
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const sa = roles.data.find((r) => r.code === 'superAdmin')!;
    const r = await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: admin,
      body: { roleId: sa.id, permissionIds: [] },
    });
    expect(r.status).toBe(Status.forbidden);
    expect((await t.login('admin', ADMIN_PASSWORD, { flag: 1 })).status).toBe(0);
  });
});
