import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

/**
 * The one region filter: `column` (a site's region code) is the region `code` or any region below it, so a
 * province selects the sites of all its cities and counties (a site's region is a leaf). Every region filter
 * uses it.
 */
export function inRegionSubtree(column: string, code: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} in (
    with recursive d(code) as (
      select code from regions where code = ${code}
      union all select r.code from regions r join d on r.parent_code = d.code
    ) select code from d)`;
}

export interface RegionRecord {
  code: string;
  parentCode: string | null;
  level: number;
  nameEn: string;
  nameZh: string;
  nameKo: string;
  sort: number;
}

function selectRegions(db: Db) {
  return db.k
    .selectFrom('regions')
    .select(['code', 'parent_code', 'level', 'name_en', 'name_zh', 'name_ko', 'sort'])
    .orderBy('level')
    .orderBy('sort')
    .orderBy('code');
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectRegions>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): RegionRecord => ({
  code: r.code,
  parentCode: r.parent_code,
  level: r.level,
  nameEn: r.name_en,
  nameZh: r.name_zh,
  nameKo: r.name_ko,
  sort: r.sort,
});

/** Every region, parents before children, siblings in order. */
export async function allRegions(db: Db): Promise<RegionRecord[]> {
  return (await selectRegions(db).execute()).map(present);
}

export async function getRegion(db: Db, code: string): Promise<RegionRecord | undefined> {
  const r = await selectRegions(db).where('code', '=', code).executeTakeFirst();
  return r ? present(r) : undefined;
}

export async function childCount(db: Db, code: string): Promise<number> {
  const r = await db.k
    .selectFrom('regions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_code', '=', code)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Sites that name this region (every site, whatever the caller's scope: the region is shared). */
export async function platformCount(db: Db, code: string): Promise<number> {
  const r = await db.k
    .selectFrom('platforms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('region_code', '=', code)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface RegionWrite {
  nameEn: string;
  nameZh: string;
  nameKo: string;
  sort: number;
}

export async function insertRegion(
  db: Db,
  r: RegionWrite & { code: string; parentCode: string | null; level: number },
): Promise<void> {
  await db.k
    .insertInto('regions')
    .values({
      code: r.code,
      parent_code: r.parentCode,
      level: r.level,
      name_en: r.nameEn,
      name_zh: r.nameZh,
      name_ko: r.nameKo,
      sort: r.sort,
    })
    .execute();
}

export async function updateRegion(db: Db, code: string, r: RegionWrite): Promise<void> {
  await db.k
    .updateTable('regions')
    .set({ name_en: r.nameEn, name_zh: r.nameZh, name_ko: r.nameKo, sort: r.sort, updated_at: new Date() })
    .where('code', '=', code)
    .execute();
}

export async function deleteRegion(db: Db, code: string): Promise<void> {
  await db.k.deleteFrom('regions').where('code', '=', code).execute();
}
