import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status } from '@geosentry/contract';
import { buildUser, testApp, type TestApp } from '../../../test/harness.ts';

/**
 * Issue 15, finding 1 (permission side): a permission's code is what routes check, so a permission
 * administrator cannot rename a permission they hold into one they lack (self-widening), and cannot
 * delete permissions they do not hold.
 */
describe('security: permission administration cannot escalate', () => {
  let t: TestApp;
  let admin: string;
  let percy: string;

  const perm = async (code: string) =>
    t.db.k
      .selectFrom('permissions')
      .select(['id', 'code', 'name', 'type', 'path', 'parent_id', 'sort'])
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
  const snapshot = async () => ({
    permissions: await t.db.k.selectFrom('permissions').select(['id', 'code', 'parent_id']).orderBy('id').execute(),
    grants: await t.db.k
      .selectFrom('role_permissions')
      .selectAll()
      .orderBy('role_id')
      .orderBy('permission_id')
      .execute(),
  });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    const role = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
      token: admin,
      body: { name: 'Permission admin', code: 'permAdmin' },
    });
    const ids = [(await perm('system:permission')).id, (await perm('appDownload')).id];
    await t.api('POST', '/api/v2/manage/role/setPermissions', {
      token: admin,
      body: { roleId: role.data.id, permissionIds: ids },
    });
    await buildUser(t, admin, { account: 'percy', password: 'Percy-pass-1234', roleCode: 'permAdmin' });
    percy = await t.token('percy', 'Percy-pass-1234');
  });
  afterAll(() => t.close());

  it('cannot turn a permission it holds into one it lacks', async () => {
    // Free the code, then rename a held permission to it: the holder would gain system:user.
    const held = await perm('appDownload');
    const before = await snapshot();
    const r = await t.api('POST', '/api/v2/manage/permission/edit', {
      token: percy,
      body: { id: held.id, name: held.name, code: 'system:user:x', type: held.type },
    });
    expect(r.status).toBe(Status.forbidden);
    expect(r.info).toBe(
      "Only a super administrator can change a permission's code: it changes what every role holding it may do",
    );
    expect(await snapshot()).toEqual(before);
    // Editing the rest of it is fine.
    const ok = await t.api('POST', '/api/v2/manage/permission/edit', {
      token: percy,
      body: { id: held.id, name: 'App download (QR)', code: 'appDownload', type: held.type },
    });
    expect(ok.status).toBe(0);
  });

  it('cannot delete permissions it does not hold', async () => {
    const before = await snapshot();
    const sys = await perm('system:user');
    const r = await t.api('POST', '/api/v2/manage/permission/delete', {
      token: percy,
      body: { id: sys.id },
      lang: 'ko',
    });
    expect(r.status).toBe(Status.forbidden);
    expect(r.info).toBe('본인에게 없는 권한은 삭제할 수 없습니다: system:user');
    expect(await snapshot()).toEqual(before);
  });

  it('the super administrator still edits the catalogue', async () => {
    const p = await t.api<{ id: number }>('POST', '/api/v2/manage/permission/add', {
      token: admin,
      body: { name: 'Reports', code: 'reports' },
    });
    const r = await t.api('POST', '/api/v2/manage/permission/edit', {
      token: admin,
      body: { id: p.data.id, name: 'Reports', code: 'reports2' },
    });
    expect(r.status).toBe(0);
    expect(
      (await t.api('POST', '/api/v2/manage/permission/delete', { token: admin, body: { id: p.data.id } })).status,
    ).toBe(0);
  });
});
