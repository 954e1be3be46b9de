import { sql } from 'kysely';
import type { PlatformOption, PlatformRow, PlatformType, RoadSegmentRow } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { likePattern as like } from '../../platform/db/sql.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { inRegionSubtree } from '../regions/index.ts';

/** A site as stored: PlatformRow without the region path (the service names it). */
export type PlatformRecord = Omit<PlatformRow, 'regionPath' | 'regionNames'>;

const SORTABLE: Record<string, string> = { name: 'p.name', createdAt: 'p.created_at', regionCode: 'p.region_code' };

export interface PlatformListFilter {
  pageNum: number;
  pageSize: number;
  keyword?: string | undefined;
  regionCode?: string | undefined;
  enterpriseId?: number | undefined;
  sortField?: string | undefined;
  sortOrder?: string | undefined;
}

function selectPlatforms(db: Db) {
  return db.k
    .selectFrom('platforms as p')
    .leftJoin('enterprises as e', 'e.id', 'p.enterprise_id')
    .select([
      'p.id',
      'p.type',
      'p.sub_type',
      'p.name',
      'p.description',
      'p.manager',
      'p.region_code',
      'p.lon',
      'p.lat',
      'p.alt',
      'p.enterprise_id',
      'e.name as enterprise_name',
      'p.organization',
      'p.pictures',
      'p.files',
      'p.details',
      'p.created_at',
      'p.updated_at',
    ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectPlatforms>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): PlatformRecord => ({
  platformId: r.id,
  type: r.type as PlatformType,
  subType: r.sub_type,
  name: r.name,
  description: r.description,
  manager: r.manager,
  regionCode: r.region_code,
  lon: r.lon,
  lat: r.lat,
  alt: r.alt,
  enterpriseId: r.enterprise_id,
  enterpriseName: r.enterprise_name,
  organization: r.organization,
  pictures: r.pictures ?? [],
  files: r.files ?? [],
  details: (r.details ?? {}) as Record<string, unknown>,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** The region and every region below it. */
const regionAndBelow = (code: string) => inRegionSubtree('p.region_code', code);

/** Sites of one kind, limited to the caller's data scope. */
export async function listPlatforms(
  db: Db,
  scope: DataScope,
  type: PlatformType,
  f: PlatformListFilter,
): Promise<{ list: PlatformRecord[]; total: number }> {
  let q = whereInScope(selectPlatforms(db).where('p.type', '=', type), scope, 'p.id');
  let c = whereInScope(db.k.selectFrom('platforms as p').where('p.type', '=', type), scope, 'p.id');
  if (f.keyword) {
    const k = like(f.keyword);
    const match = sql<boolean>`(lower(p.name) like ${k} or lower(coalesce(p.sub_type, '')) like ${k} or lower(coalesce(p.manager, '')) like ${k})`;
    q = q.where(match);
    c = c.where(match);
  }
  if (f.regionCode) {
    q = q.where(regionAndBelow(f.regionCode));
    c = c.where(regionAndBelow(f.regionCode));
  }
  if (f.enterpriseId !== undefined) {
    q = q.where('p.enterprise_id', '=', f.enterpriseId);
    c = c.where('p.enterprise_id', '=', f.enterpriseId);
  }
  const col = SORTABLE[f.sortField ?? ''] ?? 'p.id';
  const dir = f.sortOrder === 'descend' ? sql`desc` : sql`asc`;
  const [rows, total] = await Promise.all([
    q
      .orderBy(sql`${sql.raw(col)} ${dir} nulls last`)
      .orderBy('p.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

/** One site with every field, or undefined when missing or outside the scope (the same answer). */
export async function getPlatform(db: Db, scope: DataScope, id: number): Promise<PlatformRecord | undefined> {
  const r = await whereInScope(selectPlatforms(db).where('p.id', '=', id), scope, 'p.id').executeTakeFirst();
  return r ? present(r) : undefined;
}

/** One site's identity, or undefined when missing or outside the scope (the same answer). */
export async function findPlatform(
  db: Db,
  scope: DataScope,
  id: number,
): Promise<{ id: number; type: PlatformType; name: string; enterpriseId: number | null } | undefined> {
  const r = await whereInScope(
    db.k.selectFrom('platforms').select(['id', 'type', 'name', 'enterprise_id']).where('id', '=', id),
    scope,
    'id',
  ).executeTakeFirst();
  return r ? { id: r.id, type: r.type as PlatformType, name: r.name, enterpriseId: r.enterprise_id } : undefined;
}

/** Every site of the scope, by name: what a site picker offers. */
export async function selectablePlatforms(
  db: Db,
  scope: DataScope,
): Promise<{ platformId: number; name: string; type: PlatformType; regionCode: string | null }[]> {
  const rows = await whereInScope(
    db.k.selectFrom('platforms').select(['id', 'name', 'type', 'region_code']),
    scope,
    'id',
  )
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    platformId: r.id,
    name: r.name,
    type: r.type as PlatformType,
    regionCode: r.region_code ?? null,
  }));
}

export async function platformOptions(db: Db): Promise<PlatformOption[]> {
  return (
    await db.k.selectFrom('platforms').select(['id', 'type', 'name']).orderBy('type').orderBy('name').execute()
  ).map((r) => ({ platformId: r.id, type: r.type as PlatformType, name: r.name }));
}

/** The stored form of a site's fields (details already validated). */
export interface PlatformWrite {
  name: string;
  subType?: string | undefined;
  description?: string | undefined;
  manager?: string | undefined;
  regionCode?: string | undefined;
  lon?: number | undefined;
  lat?: number | undefined;
  alt?: number | undefined;
  enterpriseId?: number | undefined;
  organization?: string | undefined;
  pictures?: string[] | undefined;
  files?: string[] | undefined;
  details?: Record<string, unknown> | undefined;
}

const common = (w: PlatformWrite) => ({
  name: w.name,
  sub_type: w.subType ?? null,
  description: w.description ?? null,
  manager: w.manager ?? null,
  region_code: w.regionCode ?? null,
  lon: w.lon ?? null,
  lat: w.lat ?? null,
  alt: w.alt ?? null,
  enterprise_id: w.enterpriseId ?? null,
  organization: w.organization ?? null,
});

/** Inserts a site; `grantTo` (a user who does not see every site) is given the new site in their scope. */
export async function insertPlatform(
  db: Db,
  type: PlatformType,
  w: PlatformWrite,
  createdBy: number,
  grantTo: number | null,
): Promise<number> {
  return db.k.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto('platforms')
      .values({
        type,
        ...common(w),
        pictures: w.pictures ?? [],
        files: w.files ?? [],
        details: JSON.stringify(w.details ?? {}),
        created_by: createdBy,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (grantTo !== null)
      await trx.insertInto('user_platforms').values({ user_id: grantTo, platform_id: r.id }).execute();
    return r.id;
  });
}

/** Replaces a site's fields; details, pictures and files are left alone when undefined. */
export async function updatePlatform(db: Db, id: number, w: PlatformWrite): Promise<void> {
  await db.k
    .updateTable('platforms')
    .set({
      ...common(w),
      ...(w.pictures !== undefined ? { pictures: w.pictures } : {}),
      ...(w.files !== undefined ? { files: w.files } : {}),
      ...(w.details !== undefined ? { details: JSON.stringify(w.details) } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deletePlatform(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('platforms').where('id', '=', id).execute();
}

/**
 * Whether the devices table exists yet (it arrives with the equipment migration): queries on it are
 * guarded so this module works before and after it lands. A missing table means "no device".
 */
export async function devicesTablePresent(db: Db): Promise<boolean> {
  const r = await sql<{ present: boolean }>`select to_regclass('public.devices') is not null as present`.execute(db.k);
  return r.rows[0]?.present === true;
}

export async function deviceCount(db: Db, platformId: number): Promise<number> {
  if (!(await devicesTablePresent(db))) return 0;
  const r = await sql<{ n: number }>`select count(*)::int as n from devices where platform_id = ${platformId}`.execute(
    db.k,
  );
  return Number(r.rows[0]?.n ?? 0);
}

export async function sectionCount(db: Db, platformId: number): Promise<number> {
  const r = await db.k
    .selectFrom('sections')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('platform_id', '=', platformId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Road segments of the slopes in the scope (from their details). */
export async function roadSegments(db: Db, scope: DataScope): Promise<RoadSegmentRow[]> {
  const rows = await whereInScope(db.k.selectFrom('platforms').where('type', '=', 'sideslope'), scope, 'id')
    .select([
      'id',
      'name',
      'region_code',
      sql<string | null>`details->>'roadName'`.as('road_name'),
      sql<string | null>`details->>'roadCode'`.as('road_code'),
      sql<string | null>`details->>'segment'`.as('segment'),
      sql<string | null>`details->>'roadDescription'`.as('road_description'),
    ])
    .orderBy(sql`details->>'roadName' asc nulls last`)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    platformId: r.id,
    platformName: r.name,
    name: r.road_name,
    code: r.road_code,
    segment: r.segment,
    description: r.road_description,
    regionCode: r.region_code,
  }));
}
