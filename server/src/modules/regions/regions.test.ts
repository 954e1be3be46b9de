import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type RegionNode } from '@geosentry/contract';
import { buildUser, testApp, type TestApp } from '../../../test/harness.ts';
import { REGION, addSite, snapshot } from '../platforms/platforms.testkit.ts';

const find = (nodes: RegionNode[], code: string): RegionNode | undefined => {
  for (const n of nodes) {
    if (n.code === code) return n;
    const c = find(n.children ?? [], code);
    if (c) return c;
  }
  return undefined;
};

describe('administrative regions', () => {
  let t: TestApp;
  let admin: string;
  let plain: string;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    await buildUser(t, admin, { account: 'regionreader', password: 'Region-reader-pass-1' });
    plain = await t.token('regionreader', 'Region-reader-pass-1');
  });
  afterAll(() => t.close());

  const tree = async (token: string, lang = 'en') =>
    (await t.api<RegionNode[]>('GET', `${REGION}/getTree`, { token, lang })).data;

  it('serves the seeded tree to any signed-in user, named in their language', async () => {
    const en = await tree(plain);
    expect(en.map((r) => r.code)).toEqual(['CN', 'KR']);
    const chengdu = find(en, '510100')!;
    expect(chengdu).toMatchObject({
      level: 3,
      parentCode: '510000',
      name: 'Chengdu',
      nameZh: '成都市',
      nameKo: '청두시',
    });
    expect(chengdu.children!.map((c) => c.code)).toContain('510107');
    expect(find(en, '510107')!.children).toBeUndefined();
    expect(find(en, 'KR51')!.children!.map((c) => c.name)).toContain('Chuncheon');
    for (const code of ['500000', '420500', '530100', '450000', '330100', 'KR11'])
      expect(find(en, code), code).toBeDefined();
    expect(find(await tree(plain, 'zh'), '420500')!.name).toBe('宜昌市');
    expect(find(await tree(plain, 'ko'), 'KR51110')!.name).toBe('춘천시');
    const anon = await t.api('GET', `${REGION}/getTree`);
    expect(anon.status).toBe(Status.notLoggedIn);
  });

  it('adds regions up to 4 levels, with unique codes, under existing parents', async () => {
    const add = await t.api('POST', `${REGION}/add`, {
      token: admin,
      body: { code: 'KR51110-1', parentCode: 'KR51110', nameEn: 'Soyang-dong', nameKo: '소양동' },
    });
    expect(add).toMatchObject({ status: 0, info: 'Added successfully' });
    const node = find(await tree(admin), 'KR51110-1')!;
    expect(node).toMatchObject({ level: 4, nameEn: 'Soyang-dong', nameZh: 'Soyang-dong', nameKo: '소양동' });

    const before = await snapshot(t, 'regions');
    const deep = await t.api('POST', `${REGION}/add`, {
      token: admin,
      body: { code: 'TOO-DEEP', parentCode: 'KR51110-1', nameEn: 'Deep' },
    });
    expect(deep.info).toBe('Regions have at most 4 levels (country, province, city, county or district)');
    const dupe = await t.api('POST', `${REGION}/add`, {
      token: admin,
      body: { code: '510107', parentCode: '510100', nameEn: 'Again' },
    });
    expect(dupe).toEqual({ status: Status.conflict, info: 'The region code already exists', data: null });
    const orphan = await t.api('POST', `${REGION}/add`, {
      token: admin,
      body: { code: 'ORPHAN', parentCode: 'NOPE', nameEn: 'Orphan' },
    });
    expect(orphan.status).toBe(Status.notFound);
    const bad = await t.api('POST', `${REGION}/add`, { token: admin, body: { code: 'has space', nameEn: 'Bad' } });
    expect(bad.status).toBe(Status.invalid);
    const denied = await t.api('POST', `${REGION}/add`, { token: plain, body: { code: 'JP', nameEn: 'Japan' } });
    expect(denied.status).toBe(Status.noPermission);
    expect(await snapshot(t, 'regions')).toEqual(before);

    const country = await t.api('POST', `${REGION}/add`, {
      token: admin,
      body: { code: 'JP', nameEn: 'Japan', nameZh: '日本', nameKo: '일본' },
    });
    expect(country.status).toBe(0);
    expect(find(await tree(admin), 'JP')).toMatchObject({ level: 1, parentCode: null });
  });

  it('keeps sites fully selected: no child under a region that sites use', async () => {
    await addSite(t, admin, 'river', { name: 'Hyeongsan river', regionCode: 'KR47130' });
    const r = await t.api('POST', `${REGION}/add`, {
      token: admin,
      body: { code: 'KR47130-1', parentCode: 'KR47130', nameEn: 'Hwangnam-dong' },
    });
    expect(r).toEqual({
      status: Status.conflict,
      info: 'The region is used by 1 sites: move them to another region first',
      data: null,
    });
  });

  it('renames regions', async () => {
    const r = await t.api('POST', `${REGION}/edit`, {
      token: admin,
      body: { code: 'JP', nameEn: 'Japan (Nippon)', nameZh: '日本国', sort: 5 },
    });
    expect(r.status).toBe(0);
    expect(find(await tree(admin), 'JP')).toMatchObject({
      nameEn: 'Japan (Nippon)',
      nameZh: '日本国',
      nameKo: 'Japan (Nippon)',
      sort: 5,
    });
    const missing = await t.api('POST', `${REGION}/edit`, { token: admin, body: { code: 'NOPE', nameEn: 'x' } });
    expect(missing).toEqual({ status: Status.notFound, info: 'The administrative region does not exist', data: null });
  });

  it('refuses to delete a region with subordinate regions or sites', async () => {
    const withChildren = await t.api('POST', `${REGION}/delete`, { token: admin, body: { code: 'KR51' } });
    expect(withChildren.info).toBe('The region has 4 subordinate regions: delete them first');
    const withSites = await t.api('POST', `${REGION}/delete`, { token: admin, body: { code: 'KR47130' }, lang: 'zh' });
    expect(withSites.info).toBe('该区域仍被 1 个平台使用，请先将其移至其他区域');
    expect(find(await tree(admin), 'KR47130')).toBeDefined();
    expect((await t.api('POST', `${REGION}/delete`, { token: admin, body: { code: 'KR51110-1' } })).status).toBe(0);
    expect((await t.api('POST', `${REGION}/delete`, { token: admin, body: { code: 'JP' } })).status).toBe(0);
    const t2 = await tree(admin);
    expect(find(t2, 'JP')).toBeUndefined();
    expect(find(t2, 'KR51110')!.children).toBeUndefined();
    expect((await t.api('POST', `${REGION}/delete`, { token: admin, body: { code: 'JP' } })).status).toBe(
      Status.notFound,
    );
  });
});
