// All SQL of the areas module. Every read takes the caller's data scope (an area belongs to one site).
import { sql, type ColumnType, type Generated } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, json, likePattern } from '../../platform/db/sql.ts';
import type { AreaRule, DeviceState, Ring } from '@geosentry/contract';

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type AreaTables = {
  areas: {
    id: Generated<number>;
    platform_id: number;
    name: string;
    description: string | null;
    ring: ColumnType<unknown, string, string>;
    min_lon: number;
    min_lat: number;
    max_lon: number;
    max_lat: number;
    rule: ColumnType<unknown, string, string>;
    created_by: number | null;
    created_at: Stamp;
    updated_at: Stamp;
  };
};
const k = (db: Db) => db.k.withTables<AreaTables>();

export interface AreaRecord {
  id: number;
  platformId: number;
  platformName: string;
  name: string;
  description: string | null;
  ring: Ring;
  bbox: [number, number, number, number];
  rule: AreaRule;
  updatedAt: string;
}

const cols = [
  'a.id',
  'a.platform_id',
  'p.name as platform_name',
  'a.name',
  'a.description',
  'a.ring',
  'a.min_lon',
  'a.min_lat',
  'a.max_lon',
  'a.max_lat',
  'a.rule',
  'a.updated_at',
] as const;
const record = (r: {
  id: number;
  platform_id: number;
  platform_name: string;
  name: string;
  description: string | null;
  ring: unknown;
  min_lon: number;
  min_lat: number;
  max_lon: number;
  max_lat: number;
  rule: unknown;
  updated_at: Date;
}): AreaRecord => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  name: r.name,
  description: r.description,
  ring: json<Ring>(r.ring),
  bbox: [r.min_lon, r.min_lat, r.max_lon, r.max_lat],
  rule: json<AreaRule>(r.rule),
  updatedAt: iso(r.updated_at),
});

const base = (db: Db, scope: DataScope) =>
  whereInScope(
    k(db).selectFrom('areas as a').innerJoin('platforms as p', 'p.id', 'a.platform_id').select(cols),
    scope,
    'a.platform_id',
  );

export async function listAreas(
  db: Db,
  scope: DataScope,
  f: { platformId?: number | undefined; name?: string | undefined },
): Promise<AreaRecord[]> {
  let q = base(db, scope);
  if (f.platformId !== undefined) q = q.where('a.platform_id', '=', f.platformId);
  if (f.name) q = q.where(sql<boolean>`lower(a.name) like ${likePattern(f.name)}`);
  return (await q.orderBy('a.id').execute()).map(record);
}

export async function findArea(db: Db, scope: DataScope, id: number): Promise<AreaRecord | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return undefined;
  const r = await base(db, scope).where('a.id', '=', id).executeTakeFirst();
  return r ? record(r) : undefined;
}

export interface AreaWrite {
  platformId: number;
  name: string;
  description: string | null;
  ring: Ring;
  rule: AreaRule;
  userId: number;
}
const bboxOf = (ring: Ring) => ({
  min_lon: Math.min(...ring.map((p) => p[0])),
  min_lat: Math.min(...ring.map((p) => p[1])),
  max_lon: Math.max(...ring.map((p) => p[0])),
  max_lat: Math.max(...ring.map((p) => p[1])),
});

export async function insertArea(db: Db, v: AreaWrite): Promise<number> {
  const r = await k(db)
    .insertInto('areas')
    .values({
      platform_id: v.platformId,
      name: v.name,
      description: v.description,
      ring: JSON.stringify(v.ring),
      ...bboxOf(v.ring),
      rule: JSON.stringify(v.rule),
      created_by: v.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateArea(db: Db, id: number, v: AreaWrite): Promise<void> {
  await k(db)
    .updateTable('areas')
    .set({
      platform_id: v.platformId,
      name: v.name,
      description: v.description,
      ring: JSON.stringify(v.ring),
      ...bboxOf(v.ring),
      rule: JSON.stringify(v.rule),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteArea(db: Db, id: number): Promise<void> {
  await k(db).deleteFrom('areas').where('id', '=', id).execute();
}

export interface PlacedDevice {
  deviceId: number;
  platformId: number;
  deviceName: string;
  number: string;
  moduleId: number;
  lat: number | null;
  lon: number | null;
  state: DeviceState;
  level: number;
}

/** The devices of some sites with their map position and the highest level of their open alerts. */
export async function siteDevices(db: Db, platformIds: readonly number[]): Promise<PlacedDevice[]> {
  if (!platformIds.length) return [];
  const rows = await db.k
    .selectFrom('devices as d')
    .leftJoin('device_positions as pos', 'pos.device_id', 'd.id')
    .select([
      'd.id',
      'd.platform_id',
      'd.device_name',
      'd.number',
      'd.module_id',
      'd.state',
      'pos.lat',
      'pos.lon',
      sql<
        number | null
      >`(select max(al.level) from alerts al where al.device_id = d.id and al.status <> 'processed')`.as('level'),
    ])
    .where('d.platform_id', 'in', [...platformIds])
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({
    deviceId: r.id,
    platformId: r.platform_id!,
    deviceName: r.device_name,
    number: r.number,
    moduleId: r.module_id,
    lat: r.lat,
    lon: r.lon,
    state: r.state as DeviceState,
    level: Number(r.level ?? 0),
  }));
}

/** The open alerts of some devices, highest level and newest first. */
export async function openAlerts(db: Db, deviceIds: readonly number[]) {
  if (!deviceIds.length) return [];
  const rows = await db.k
    .selectFrom('alerts as al')
    .innerJoin('devices as d', 'd.id', 'al.device_id')
    .select([
      'al.id',
      'al.device_id',
      'd.device_name',
      'al.level',
      'al.status',
      'al.quantity',
      'al.last_value',
      'al.last_at',
    ])
    .where('al.device_id', 'in', [...deviceIds])
    .where('al.status', '<>', 'processed')
    .orderBy('al.level', 'desc')
    .orderBy('al.last_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    deviceId: r.device_id,
    deviceName: r.device_name,
    level: r.level,
    status: r.status,
    quantity: r.quantity,
    lastValue: r.last_value,
    lastAt: iso(r.last_at),
  }));
}
