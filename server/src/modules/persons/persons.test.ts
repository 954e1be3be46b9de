import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type PersonRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';

const R = '/api/v2/data/information/responsible';
type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number };
type Invalid = { errors: { field: string; rule: string }[] };

describe('responsible persons', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let adminRoleId: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'sideslope', name: 'Slope A' });
    siteB = await buildPlatform(t, { type: 'tailings', name: 'Tailings B' });
    adminRoleId = (await t.api<{ role: { id: number } }>('GET', '/api/v2/manage/user/getUserInfo', { token: admin }))
      .data.role.id;
  });
  afterAll(() => t.close());

  const add = (token: string, body: Record<string, unknown>) =>
    t.api<{ id: number }>('POST', `${R}/add`, { token, body });

  it('adds, lists, edits and deletes a person with every field', async () => {
    const r = await t.api<{ id: number }>('POST', `${R}/add`, {
      token: admin,
      form: true,
      body: {
        name: 'Li Wei',
        phone: '+86 138-0000-0000',
        title: 'Engineer',
        company: 'Survey Co',
        companyAddress: '1 Road',
        email: 'li@example.com',
        platformIds: [siteA, siteB],
      },
    });
    expect(r.status).toBe(0);
    const page = await t.api<Page<PersonRow>>('GET', `${R}/getListPage`, { token: admin });
    expect(page.data.pageSize).toBe(10000);
    expect(page.data.list.find((p) => p.id === r.data.id)).toMatchObject({
      name: 'Li Wei',
      phone: '+86 138-0000-0000',
      title: 'Engineer',
      company: 'Survey Co',
      companyAddress: '1 Road',
      email: 'li@example.com',
      roleId: adminRoleId,
      roleName: 'Super Administrator',
      platformIds: [siteA, siteB].sort((a, b) => a - b),
    });
    const edit = await t.api('POST', `${R}/edit`, {
      token: admin,
      body: { id: r.data.id, name: 'Li Wei', phone: '13900000000', platformIds: [siteB] },
    });
    expect(edit.status).toBe(0);
    const after = (
      await t.api<Page<PersonRow>>('GET', `${R}/getListPage`, { token: admin, query: { keyword: 'li wei' } })
    ).data.list[0]!;
    expect(after).toMatchObject({ phone: '13900000000', title: null, email: null, platformIds: [siteB] });
    expect(
      (await t.api<Page<PersonRow>>('GET', `${R}/getListPage`, { token: admin, query: { platformId: String(siteA) } }))
        .data.total,
    ).toBe(0);
    expect((await t.api('POST', `${R}/delete`, { token: admin, body: { id: r.data.id } })).status).toBe(0);
    expect((await t.api('POST', `${R}/delete`, { token: admin, body: { id: r.data.id } })).info).toBe(
      'The responsible person does not exist',
    );
  });

  it('validates name, phone and email', async () => {
    const missing = await t.api<Invalid>('POST', `${R}/add`, { token: admin, body: {} });
    expect(missing.data.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['name', 'phone']));
    for (const phone of ['abc', '12', '+', '1234567890123456789012345']) {
      const r = await t.api<Invalid>('POST', `${R}/add`, { token: admin, body: { name: 'P', phone } });
      expect(r.status, phone).toBe(Status.invalid);
      expect(r.data.errors[0]!.field).toBe('phone');
    }
    for (const email of ['x@', 'no-at.example.com', 'a@b@c.d']) {
      const r = await t.api<Invalid>('POST', `${R}/add`, {
        token: admin,
        body: { name: 'P', phone: '13800000000', email },
      });
      expect(r.status, email).toBe(Status.invalid);
      expect(r.data.errors[0]!.field).toBe('email');
    }
    expect((await add(admin, { name: 'P', phone: '13800000000', email: '' })).status).toBe(0);
    expect((await add(admin, { name: 'P', phone: '13800000000', roleId: 987654 })).info).toBe(
      'The role does not exist',
    );
    expect((await add(admin, { name: 'P', phone: '13800000000', platformIds: [987654] })).status).toBe(Status.notFound);
  });

  it("lists persons by role (default: the caller's)", async () => {
    const rc = await roleWith(t, admin, 'personEditor', ['information:responsible']);
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const editorRole = roles.data.find((r) => r.code === rc)!.id;
    const tok = await userToken(t, admin, { account: 'personA', roleCode: rc, platformIds: [siteA] });
    const mine = await add(tok, { name: 'Editor person', phone: '13811111111' });
    const adminOnes = await add(admin, { name: 'Admin person', phone: '13822222222' });
    const byMine = await t.api<PersonRow[]>('GET', `${R}/getListByRoleId`, { token: tok });
    expect(byMine.data.map((p) => p.id)).toEqual([mine.data.id]);
    expect(byMine.data[0]!.roleId).toBe(editorRole);
    const byAdmin = await t.api<PersonRow[]>('GET', `${R}/getListByRoleId`, {
      token: tok,
      query: { roleId: String(adminRoleId) },
    });
    expect(byAdmin.data.map((p) => p.id)).toContain(adminOnes.data.id);
    expect(byAdmin.data.every((p) => p.roleId === adminRoleId)).toBe(true);
  });

  it('limits persons bound to sites to the data scope and keeps foreign bindings on edit', async () => {
    await roleWith(t, admin, 'personScoped', ['information:responsible']);
    const tok = await userToken(t, admin, { account: 'personB', roleCode: 'personScoped', platformIds: [siteA] });
    const onlyB = (await add(admin, { name: 'Only B', phone: '13833333333', platformIds: [siteB] })).data.id;
    const both = (await add(admin, { name: 'Both', phone: '13844444444', platformIds: [siteA, siteB] })).data.id;
    const none = (await add(admin, { name: 'Nowhere', phone: '13855555555' })).data.id;

    const list = await t.api<Page<PersonRow>>('GET', `${R}/getListPage`, { token: tok });
    const ids = list.data.list.map((p) => p.id);
    expect(ids).toContain(both);
    expect(ids).toContain(none);
    expect(ids).not.toContain(onlyB);
    expect(list.data.list.find((p) => p.id === both)!.platformIds).toEqual([siteA]);

    const f = await t.api('POST', `${R}/delete`, { token: tok, body: { id: onlyB } });
    const m = await t.api('POST', `${R}/delete`, { token: tok, body: { id: 987654 } });
    expect(f).toEqual(m);
    expect(
      (await t.api('POST', `${R}/edit`, { token: tok, body: { id: onlyB, name: 'X', phone: '13800000000' } })).status,
    ).toBe(Status.notFound);
    expect((await add(tok, { name: 'Into B', phone: '13800000000', platformIds: [siteB] })).status).toBe(
      Status.notFound,
    );

    // Editing "Both" with no sites keeps the binding to B, which the caller cannot see.
    expect(
      (
        await t.api('POST', `${R}/edit`, {
          token: tok,
          body: { id: both, name: 'Both', phone: '13844444444', platformIds: [] },
        })
      ).status,
    ).toBe(0);
    const adminView = (
      await t.api<Page<PersonRow>>('GET', `${R}/getListPage`, { token: admin, query: { keyword: 'both' } })
    ).data.list[0]!;
    expect(adminView.platformIds).toEqual([siteB]);

    const plain = await userToken(t, admin, { account: 'personPlain', roleCode: 'user' });
    expect((await t.api('GET', `${R}/getListPage`, { token: plain })).status).toBe(Status.noPermission);
  });
});
