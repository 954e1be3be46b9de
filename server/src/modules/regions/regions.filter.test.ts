import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/harness.ts';

/** A region code selects its whole subtree in every region filter (a site's region is a county, a leaf). */
describe('region filters', () => {
  let t: TestApp;
  let admin: string;

  const add = async (name: string, regionCode: string): Promise<void> => {
    const r = await t.api('POST', '/api/v2/data/information/platform/disaster/add', {
      token: admin,
      body: { name, regionCode, lon: 104, lat: 30 },
    });
    expect(r.status, r.info).toBe(0);
  };
  const bigData = async (regionCode: string): Promise<string[]> => {
    const r = await t.api<{ name: string }[]>('GET', '/api/v2/data/bigData/getPlatformAndAlert', {
      token: admin,
      query: { regionCode },
    });
    expect(r.status, r.info).toBe(0);
    return r.data.map((s) => s.name).sort();
  };
  const list = async (regionCode: string): Promise<string[]> => {
    const r = await t.api<{ list: { name: string }[] }>(
      'GET',
      '/api/v2/data/information/platform/disaster/getListPage',
      { token: admin, query: { regionCode } },
    );
    expect(r.status, r.info).toBe(0);
    return r.data.list.map((s) => s.name).sort();
  };

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    await add('Chengdu Jinjiang site', '510104'); // Sichuan > Chengdu > Jinjiang
    await add('Aba Maoxian site', '513223'); // Sichuan > Aba > Mao County
    await add('Guilin Xing’an site', '450328'); // Guangxi > Guilin > Xing'an
  });
  afterAll(() => t.close());

  it('bigData/getPlatformAndAlert: a province finds the sites of all its cities and counties', async () => {
    expect(await bigData('510000')).toEqual(['Aba Maoxian site', 'Chengdu Jinjiang site']);
    expect(await bigData('510100')).toEqual(['Chengdu Jinjiang site']);
    expect(await bigData('510104')).toEqual(['Chengdu Jinjiang site']);
    expect(await bigData('450000')).toEqual(['Guilin Xing’an site']);
    expect(await bigData('CN')).toHaveLength(3);
    // A code that is no region (nor a prefix of one) finds nothing.
    expect(await bigData('51')).toEqual([]);
  });

  it('the site lists filter the same way', async () => {
    expect(await list('510000')).toEqual(['Aba Maoxian site', 'Chengdu Jinjiang site']);
    expect(await list('450000')).toEqual(['Guilin Xing’an site']);
  });
});
