import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { png, upload } from '../../modules/files/files.testkit.ts';

// Issue 15 (hygiene): caching and framing headers, and where a session token is accepted.
describe('HTTP hardening (security)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
  });
  afterAll(() => t.close());

  it('marks every API answer no-store, errors included', async () => {
    for (const url of ['/api/v2/manage/user/getUserInfo', '/api/v2/no/such/route', '/api/docs/json']) {
      const r = await t.raw('GET', url, { token: admin });
      expect(r.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('lets nobody frame the API document', async () => {
    for (const url of ['/api/docs', '/api/docs/json', '/api/docs/static/index.html']) {
      const r = await t.raw('GET', url);
      if (r.statusCode >= 400) continue;
      expect(r.headers['x-frame-options'], url).toBe('DENY');
      expect(String(r.headers['content-security-policy']), url).toMatch(/frame-ancestors 'none'/);
      expect(String(r.headers['content-security-policy']), url).not.toMatch(/frame-ancestors 'self'/);
    }
  });

  it('takes ?token= only on downloads and images', async () => {
    const q = `token=${encodeURIComponent(admin)}`;
    const info = await t.raw('GET', `/api/v2/manage/user/getUserInfo?${q}`);
    expect(info.json().status).toBe(Status.notLoggedIn);
    const roles = await t.raw('GET', `/api/v2/manage/role/getAll?${q}`);
    expect(roles.json().status).toBe(Status.notLoggedIn);
    // The header still works, and a file can be fetched with the token in its address.
    expect((await t.api('GET', '/api/v2/manage/user/getUserInfo', { token: admin })).status).toBe(0);
    const up = await upload(t, admin, { kind: 'attachment' }, [{ filename: 'a.png', data: png() }]);
    expect(up.status).toBe(0);
    const img = await t.raw('GET', `/api/v2/file/getOriginalImage?file_id=${up.data.fileId}&${q}`);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
  });
});
