// All SQL of the reservoir module. Times in and out are epoch milliseconds (UTC).
import { sql } from 'kysely';
import type { RiverWaterElevationRow } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { listWaterLevels } from '../sections/index.ts';
import { json, type Exec } from '../../platform/db/sql.ts';

const at = (t: number) => sql`${new Date(t).toISOString()}::timestamptz`;

export interface ReservoirSite {
  id: number;
  name: string;
  type: string;
  details: Record<string, unknown>;
}

/** A site in the caller's scope (any type: the service refuses what is not a reservoir). */
export async function findSite(db: Db, scope: DataScope, id: number): Promise<ReservoirSite | undefined> {
  const r = await whereInScope(
    db.k.selectFrom('platforms').select(['id', 'name', 'type', 'details']).where('id', '=', id),
    scope,
    'id',
  ).executeTakeFirst();
  return r
    ? { id: r.id, name: r.name, type: r.type, details: json<Record<string, unknown>>(r.details) ?? {} }
    : undefined;
}

export interface SectionInfo {
  id: number;
  platformId: number;
  name: string;
  bottomElevation: number | null;
  source: 'auto' | 'manual';
}

const sectionCols = ['s.id', 's.platform_id', 's.name', 's.bottom_elevation', 's.water_level_source'] as const;
const present = (r: {
  id: number;
  platform_id: number;
  name: string;
  bottom_elevation: number | null;
  water_level_source: string;
}): SectionInfo => ({
  id: r.id,
  platformId: r.platform_id,
  name: r.name,
  bottomElevation: r.bottom_elevation,
  source: r.water_level_source === 'auto' ? 'auto' : 'manual',
});

/** A section in the caller's scope with its site's type. */
export async function findSection(
  db: Db,
  scope: DataScope,
  id: number,
): Promise<(SectionInfo & { platformType: string }) | undefined> {
  const r = await whereInScope(
    db.k
      .selectFrom('sections as s')
      .innerJoin('platforms as p', 'p.id', 's.platform_id')
      .select([...sectionCols, 'p.type'])
      .where('s.id', '=', id),
    scope,
    's.platform_id',
  ).executeTakeFirst();
  return r ? { ...present(r), platformType: r.type } : undefined;
}

/** The site's first section (lowest id), if any. */
export async function firstSection(db: Db, platformId: number): Promise<SectionInfo | undefined> {
  const r = await db.k
    .selectFrom('sections as s')
    .select([...sectionCols])
    .where('s.platform_id', '=', platformId)
    .orderBy('s.id')
    .limit(1)
    .executeTakeFirst();
  return r ? present(r) : undefined;
}

export interface DeviceInfo {
  id: number;
  name: string;
  moduleId: number;
}

/** Devices of a site of these monitor types, by type order then name. */
export async function devicesOf(db: Db, platformId: number, moduleIds: readonly number[]): Promise<DeviceInfo[]> {
  if (!moduleIds.length) return [];
  const rows = await db.k
    .selectFrom('devices')
    .select(['id', 'device_name', 'module_id'])
    .where('platform_id', '=', platformId)
    .where('module_id', 'in', [...moduleIds])
    .orderBy('device_name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.device_name, moduleId: r.module_id }));
}

/** Raw values of a quantity in [from, to), by time, at most `limit`. */
export async function rawValues(
  db: Db,
  deviceId: number,
  quantity: string,
  from: number,
  to: number,
  limit: number,
): Promise<{ t: number; v: number }[]> {
  const r = await sql<{ t: number; v: number }>`
    select (extract(epoch from ts) * 1000)::float8 as t, (vals ->> ${quantity})::float8 as v from readings
    where device_id = ${deviceId} and ts >= ${at(from)} and ts < ${at(to)}
      and jsonb_typeof(vals -> ${quantity}) = 'number'
    order by ts limit ${limit}`.execute(db.k);
  return r.rows.map((x) => ({ t: Math.round(Number(x.t)), v: Number(x.v) }));
}

/** The newest value of a quantity before `to` (else null). */
export async function latestValue(
  db: Db,
  deviceId: number,
  quantity: string,
): Promise<{ t: number; v: number } | null> {
  const r = await sql<{ t: number; v: number }>`
    select (extract(epoch from ts) * 1000)::float8 as t, (vals ->> ${quantity})::float8 as v from readings
    where device_id = ${deviceId} and jsonb_typeof(vals -> ${quantity}) = 'number'
    order by ts desc limit 1`.execute(db.k);
  const x = r.rows[0];
  return x ? { t: Math.round(Number(x.t)), v: Number(x.v) } : null;
}

export interface HourRow {
  t: number;
  n: number;
  total: number;
  min: number;
  max: number;
  firstT: number;
  first: number;
  lastT: number;
  last: number;
}

/** Hourly rollups of a quantity whose hour starts in [from, to), by time. */
export async function hourRows(
  db: Db,
  deviceId: number,
  quantity: string,
  from: number,
  to: number,
): Promise<HourRow[]> {
  const r = await sql<Record<string, number>>`
    select (extract(epoch from bucket) * 1000)::float8 as t, n, total, min_v, max_v,
      (extract(epoch from first_ts) * 1000)::float8 as ft, first_v,
      (extract(epoch from last_ts) * 1000)::float8 as lt, last_v
    from readings_hourly
    where device_id = ${deviceId} and quantity = ${quantity} and bucket >= ${at(from)} and bucket < ${at(to)}
    order by bucket`.execute(db.k);
  return r.rows.map((x) => ({
    t: Number(x.t),
    n: Number(x.n),
    total: Number(x.total),
    min: Number(x.min_v),
    max: Number(x.max_v),
    firstT: Number(x.ft),
    first: Number(x.first_v),
    lastT: Number(x.lt),
    last: Number(x.last_v),
  }));
}

// ------------------------------------------------------------------------------------------- manual levels

/** Manual water levels of a section in [from, to), by time. */
export async function manualLevels(
  db: Db,
  sectionId: number,
  from: number,
  to: number,
): Promise<{ t: number; v: number }[]> {
  const rows = await db.k
    .selectFrom('river_water_levels')
    .select(['measured_at', 'elevation'])
    .where('section_id', '=', sectionId)
    .where('measured_at', '>=', new Date(from))
    .where('measured_at', '<', new Date(to))
    .orderBy('measured_at')
    .execute();
  return rows.map((r) => ({ t: new Date(r.measured_at).getTime(), v: r.elevation }));
}

export async function latestManual(db: Db, sectionId: number): Promise<{ t: number; v: number } | null> {
  const r = await db.k
    .selectFrom('river_water_levels')
    .select(['measured_at', 'elevation'])
    .where('section_id', '=', sectionId)
    .orderBy('measured_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ? { t: new Date(r.measured_at).getTime(), v: r.elevation } : null;
}

function selectManual(db: Db, scope: DataScope) {
  return whereInScope(
    db.k
      .selectFrom('river_water_levels as w')
      .innerJoin('sections as s', 's.id', 'w.section_id')
      .innerJoin('platforms as p', 'p.id', 's.platform_id')
      .where('p.type', '=', 'reservoir'),
    scope,
    's.platform_id',
  );
}

export interface ManualFilter {
  pageNum: number;
  pageSize: number;
  platformId?: number | undefined;
  segmentId?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

export type ManualRow = RiverWaterElevationRow;

/** The manual water levels of the reservoirs in the caller's scope: the sections module's list of the one table. */
export function listManual(db: Db, scope: DataScope, f: ManualFilter): Promise<{ list: ManualRow[]; total: number }> {
  const { from, to, ...rest } = f;
  return listWaterLevels(
    db,
    scope,
    {
      ...rest,
      startTime: from === undefined ? undefined : new Date(from),
      before: to === undefined ? undefined : new Date(to),
    },
    'reservoir',
  );
}

/** A manual water level of a reservoir in the caller's scope, with its section. */
export async function findManual(
  db: Db,
  scope: DataScope,
  id: number,
): Promise<{ id: number; sectionId: number; platformId: number; time: number } | undefined> {
  const r = await selectManual(db, scope)
    .select(['w.id', 'w.section_id', 's.platform_id', 'w.measured_at'])
    .where('w.id', '=', id)
    .executeTakeFirst();
  return r
    ? { id: Number(r.id), sectionId: r.section_id, platformId: r.platform_id, time: new Date(r.measured_at).getTime() }
    : undefined;
}

export async function insertManual(
  k: Exec,
  sectionId: number,
  rows: readonly { t: number; elevation: number }[],
  userId: number,
): Promise<number[]> {
  const r = await k
    .insertInto('river_water_levels')
    .values(
      rows.map((x) => ({
        section_id: sectionId,
        measured_at: new Date(x.t),
        elevation: x.elevation,
        created_by: userId,
      })),
    )
    .returning('id')
    .execute();
  return r.map((x) => Number(x.id));
}

export async function updateManual(db: Db, id: number, t: number, elevation: number): Promise<void> {
  await db.k
    .updateTable('river_water_levels')
    .set({ measured_at: new Date(t), elevation })
    .where('id', '=', id)
    .execute();
}

export async function deleteManual(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('river_water_levels').where('id', '=', id).execute();
}
