import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status } from '@geosentry/contract';
import { sql } from 'kysely';
import { testApp, type TestApp } from '../../../test/harness.ts';

describe('API conventions', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  it('answers an unknown API path with a translated envelope', async () => {
    const r = await t.raw('GET', '/api/v2/no/such/thing', { headers: { language: 'ko' } });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: Status.notFound, info: '주소를 찾을 수 없습니다', data: null });
  });

  it('answers a malformed JSON body with 400 and no stack trace', async () => {
    const r = await t.raw('POST', '/api/v2/manage/user/login', {
      payload: '{"account": "admin", ',
      headers: { 'content-type': 'application/json' },
    });
    const body = r.json();
    expect(body.status).toBe(Status.badRequest);
    expect(r.body).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(r.body).not.toMatch(/SyntaxError|stack/);
  });

  it('refuses an oversized body', async () => {
    const big = JSON.stringify({ account: 'x'.repeat(2 * 1024 * 1024) });
    const r = await t.raw('POST', '/api/v2/manage/user/login', {
      payload: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.json().status).toBe(Status.tooLarge);
  });

  it('refuses an unsupported content type', async () => {
    const r = await t.raw('POST', '/api/v2/manage/user/login', {
      payload: '<xml/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(r.json().status).toBe(Status.notAcceptable);
  });

  it('names the field and the rule of a validation error, translated', async () => {
    const r = await t.api<{ errors: { field: string; rule: string }[] }>('POST', '/api/v2/manage/user/add', {
      token: admin,
      lang: 'zh',
      body: { account: 'ok_user', password: 'Valid-pass-word-1', name: 'N', roleId: 1, email: 'not-an-email' },
    });
    expect(r.status).toBe(Status.invalid);
    expect(r.data.errors).toEqual([expect.objectContaining({ field: 'email', rule: 'invalid_format' })]);
    expect(r.info).toContain('email 格式不正确');
    const missing = await t.api<{ errors: { field: string; rule: string }[] }>('POST', '/api/v2/manage/user/add', {
      token: admin,
      body: { account: 'ok_user' },
    });
    expect(missing.data.errors.map((e) => `${e.field}:${e.rule}`)).toEqual(
      expect.arrayContaining(['password:required', 'name:required', 'roleId:required']),
    );
  });

  it('answers a value the database refuses by a check constraint as a translated validation error', async () => {
    // The contract checks the database's rules first; should the two disagree, the caller still gets a validation
    // message, not a crash. A rule only the database has stands for that disagreement here.
    await sql`alter table users add constraint users_test_name check (name <> 'Refused By Check')`.execute(t.db.k);
    try {
      const r = await t.api('POST', '/api/v2/manage/user/add', {
        token: admin,
        lang: 'ko',
        body: { account: 'check_user', password: 'Valid-pass-word-1', name: 'Refused By Check', roleId: 1 },
      });
      expect(r.status).toBe(Status.invalid);
      expect(r.info).toBe('값의 형식이 잘못되었거나 범위를 벗어났습니다');
      const row = await t.db.k.selectFrom('users').select('id').where('account', '=', 'check_user').executeTakeFirst();
      expect(row).toBeUndefined();
    } finally {
      await sql`alter table users drop constraint users_test_name`.execute(t.db.k);
    }
  });

  it('pages lists with pageNum, pageSize and a total', async () => {
    for (let i = 0; i < 5; i++) {
      const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
      const roleId = roles.data.find((r) => r.code === 'user')!.id;
      await t.api('POST', '/api/v2/manage/user/add', {
        token: admin,
        body: { account: `pager${i}`, password: 'Pager-user-pass-1', name: `Pager ${i}`, roleId },
      });
    }
    const page = await t.api<{ list: { account: string }[]; total: number; pageNum: number; pageSize: number }>(
      'GET',
      '/api/v2/manage/user/getListPage',
      {
        token: admin,
        query: { pageNum: '2', pageSize: '2', keyword: 'pager', sortField: 'account', sortOrder: 'descend' },
      },
    );
    expect(page.data.total).toBe(5);
    expect(page.data.pageNum).toBe(2);
    expect(page.data.list.map((u) => u.account)).toEqual(['pager2', 'pager1']);
    const dflt = await t.api<{ pageSize: number }>('GET', '/api/v2/manage/user/getListPage', { token: admin });
    expect(dflt.data.pageSize).toBe(1000);
  });

  it('publishes an OpenAPI document of every API route and a browsable page', async () => {
    const doc = (await t.raw('GET', '/api/docs/json')).json() as { paths: Record<string, unknown> };
    const apiRoutes = t.routes.filter(
      (r) => r.url.startsWith('/api/v2/') && r.method !== 'HEAD' && !r.url.endsWith('/ws'),
    );
    // OpenAPI's form of a path: ':name' is '{name}', a trailing wildcard '*' is '{*}' (@fastify/swagger).
    const openApiPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');
    for (const r of apiRoutes) expect(Object.keys(doc.paths), r.url).toContain(openApiPath(r.url));
    const page = await t.raw('GET', '/api/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('sets safe headers', async () => {
    const r = await t.raw('GET', '/api/v2/manage/system/getPublicConfig');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
