import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type ExternalFileRow } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';

const E = '/api/v2/data/information/externalFile';
type Page<T> = { list: T[]; total: number };
type Invalid = { errors: { field: string; rule: string }[] };

describe('external file links', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  it('adds, lists, edits and deletes a link', async () => {
    const r = await t.api<{ id: number }>('POST', `${E}/add`, {
      token: admin,
      form: true,
      body: { name: 'Survey drive', url: 'https://files.example.com/s/abc', description: 'Reports' },
    });
    expect(r.status).toBe(0);
    const page = await t.api<Page<ExternalFileRow>>('GET', `${E}/getListPage`, { token: admin });
    expect(page.data.list.find((f) => f.id === r.data.id)).toMatchObject({
      name: 'Survey drive',
      url: 'https://files.example.com/s/abc',
      description: 'Reports',
      roleName: 'Super Administrator',
    });
    expect(
      (
        await t.api('POST', `${E}/edit`, {
          token: admin,
          body: { id: r.data.id, name: 'Drive', url: 'http://10.0.0.5:8080/share' },
        })
      ).status,
    ).toBe(0);
    const kw = await t.api<Page<ExternalFileRow>>('GET', `${E}/getListPage`, {
      token: admin,
      query: { keyword: '10.0.0.5' },
    });
    expect(kw.data.list[0]).toMatchObject({ id: r.data.id, name: 'Drive', description: null });
    expect((await t.api('POST', `${E}/delete`, { token: admin, body: { id: r.data.id } })).status).toBe(0);
    expect((await t.api('POST', `${E}/delete`, { token: admin, body: { id: r.data.id } })).info).toBe(
      'The external file link does not exist',
    );
    expect(
      (await t.api('POST', `${E}/edit`, { token: admin, body: { id: 987654, name: 'X', url: 'https://x.example' } }))
        .status,
    ).toBe(Status.notFound);
  });

  it('accepts only http and https URLs, and requires a name', async () => {
    for (const url of [
      'javascript:alert(1)',
      'ftp://files.example.com/a',
      'file:///etc/passwd',
      'not a url',
      'https://',
      'data:text/html,hi',
    ]) {
      const r = await t.api<Invalid>('POST', `${E}/add`, { token: admin, body: { name: 'Bad', url } });
      expect(r.status, url).toBe(Status.invalid);
      expect(r.data.errors.map((e) => e.field)).toEqual(['url']);
    }
    const missing = await t.api<Invalid>('POST', `${E}/add`, { token: admin, body: {} });
    expect(missing.data.errors.map((e) => e.field).sort()).toEqual(['name', 'url']);
  });

  it('lists links by role and needs the permission', async () => {
    const rc = await roleWith(t, admin, 'linkEditor', ['information:external-file']);
    const tok = await userToken(t, admin, { account: 'linkA', roleCode: rc });
    const mine = await t.api<{ id: number }>('POST', `${E}/add`, {
      token: tok,
      body: { name: 'Mine', url: 'https://mine.example' },
    });
    await t.api('POST', `${E}/add`, { token: admin, body: { name: 'Admin link', url: 'https://admin.example' } });
    const byRole = await t.api<ExternalFileRow[]>('GET', `${E}/getListByRoleId`, { token: tok });
    expect(byRole.data.map((f) => f.id)).toEqual([mine.data.id]);
    const all = await t.api<Page<ExternalFileRow>>('GET', `${E}/getListPage`, { token: tok });
    expect(all.data.total).toBe(2);
    const plain = await userToken(t, admin, { account: 'linkPlain', roleCode: 'user' });
    expect((await t.api('GET', `${E}/getListPage`, { token: plain })).status).toBe(Status.noPermission);
    expect(
      (await t.api('POST', `${E}/add`, { token: plain, body: { name: 'X', url: 'https://x.example' } })).status,
    ).toBe(Status.noPermission);
  });
});
