import { sql } from 'kysely';
import { THREE_D_HIDDEN_TYPES, type DeviceState } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, isDbId, json } from '../../platform/db/sql.ts';

/** 3D models and placements: every read takes the caller's data scope through the site. */

const HIDDEN = [...THREE_D_HIDDEN_TYPES] as string[];

export interface ModelRow {
  id: number;
  platformId: number;
  name: string;
  fileKey: string;
  size: number;
  triangles: number;
  updatedAt: string;
}

/** Sites in scope that may have a 3D scene, by name, with whether they have a model. */
export async function scenesInScope(db: Db, scope: DataScope) {
  const rows = await whereInScope(
    db.k
      .selectFrom('platforms as p')
      .leftJoin('three_d_models as m', 'm.platform_id', 'p.id')
      .select(['p.id', 'p.name', 'p.type', 'm.id as modelId'])
      .where('p.type', 'not in', HIDDEN),
    scope,
    'p.id',
  )
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({ platformId: r.id, name: r.name, type: r.type, hasModel: r.modelId !== null }));
}

/** A site in scope that may have a 3D scene; undefined when missing, foreign or of a hidden type. */
export async function sceneSite(db: Db, scope: DataScope, platformId: number) {
  if (!isDbId(platformId)) return undefined;
  return whereInScope(
    db.k.selectFrom('platforms').select(['id', 'name', 'type']).where('id', '=', platformId),
    scope,
    'id',
  ).executeTakeFirst();
}

export const isHiddenType = (type: string): boolean => HIDDEN.includes(type);

export async function modelOf(db: Db, platformId: number): Promise<ModelRow | undefined> {
  const r = await db.k
    .selectFrom('three_d_models')
    .selectAll()
    .where('platform_id', '=', platformId)
    .executeTakeFirst();
  return r
    ? {
        id: r.id,
        platformId: r.platform_id,
        name: r.name,
        fileKey: r.file_key,
        size: Number(r.size),
        triangles: Number(r.triangles),
        updatedAt: iso(r.updated_at),
      }
    : undefined;
}

/**
 * Sets a site's model; answers the new row and the file key it replaced (to remove after the commit). Uploads of
 * one site are serialised by an advisory lock, so under any number of parallel uploads one model stays and every
 * replaced file is named exactly once.
 */
export async function putModel(
  db: Db,
  m: { platformId: number; name: string; fileKey: string; size: number; triangles: number; userId: number },
): Promise<{ row: ModelRow; replaced: string | null }> {
  return db.k.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext('threeD.model'), ${m.platformId}::int)`.execute(tx);
    const old = await tx
      .selectFrom('three_d_models')
      .select('file_key')
      .where('platform_id', '=', m.platformId)
      .executeTakeFirst();
    const r = await tx
      .insertInto('three_d_models')
      .values({
        platform_id: m.platformId,
        name: m.name,
        file_key: m.fileKey,
        size: m.size,
        triangles: m.triangles,
        created_by: m.userId,
      })
      .onConflict((oc) =>
        oc.column('platform_id').doUpdateSet({
          name: m.name,
          file_key: m.fileKey,
          size: m.size,
          triangles: m.triangles,
          created_by: m.userId,
          updated_at: sql`now()`,
        }),
      )
      .returning(['id', 'updated_at'])
      .executeTakeFirstOrThrow();
    return {
      row: {
        id: r.id,
        platformId: m.platformId,
        name: m.name,
        fileKey: m.fileKey,
        size: m.size,
        triangles: m.triangles,
        updatedAt: iso(r.updated_at),
      },
      replaced: old?.file_key ?? null,
    };
  });
}

/** Deletes a site's model; answers its file key (null when there was none). */
export async function deleteModel(db: Db, platformId: number): Promise<string | null> {
  const r = await db.k
    .deleteFrom('three_d_models')
    .where('platform_id', '=', platformId)
    .returning('file_key')
    .executeTakeFirst();
  return r?.file_key ?? null;
}

export interface SceneDeviceRow {
  deviceId: number;
  deviceName: string;
  number: string;
  moduleId: number;
  state: DeviceState;
  alertLevel: number | null;
  values: Record<string, number>;
  lastReadingAt: string | null;
  placement: { x: number; y: number; z: number } | null;
}

/** The highest level of a device's alerts not yet processed. */
export const openAlertLevel = sql<
  number | null
>`(select max(a.level) from alerts a where a.device_id = d.id and a.status <> 'processed')`;

/** Numbers only: the newest values as the socket sends them. */
export function numericValues(v: unknown): Record<string, number> {
  const o = json<Record<string, unknown> | null>(v) ?? {};
  const out: Record<string, number> = {};
  for (const [k, x] of Object.entries(o)) if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
  return out;
}

/** The devices of a site (already checked in scope), with their place on the model. */
export async function sceneDevices(db: Db, platformId: number): Promise<SceneDeviceRow[]> {
  const rows = await db.k
    .selectFrom('devices as d')
    .leftJoin('three_d_placements as pl', (j) =>
      j.onRef('pl.device_id', '=', 'd.id').onRef('pl.platform_id', '=', 'd.platform_id'),
    )
    .select([
      'd.id',
      'd.device_name',
      'd.number',
      'd.module_id',
      'd.state',
      'd.last_values',
      'd.last_reading_at',
      'pl.x',
      'pl.y',
      'pl.z',
      openAlertLevel.as('alert_level'),
    ])
    .where('d.platform_id', '=', platformId)
    .orderBy('d.device_name')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({
    deviceId: r.id,
    deviceName: r.device_name,
    number: r.number,
    moduleId: r.module_id,
    state: r.state as DeviceState,
    alertLevel: r.alert_level === null ? null : Number(r.alert_level),
    values: numericValues(r.last_values),
    lastReadingAt: r.last_reading_at ? iso(r.last_reading_at) : null,
    placement: r.x !== null && r.y !== null && r.z !== null ? { x: r.x, y: r.y, z: r.z } : null,
  }));
}

/** Ids of the site's devices among the given ones. */
export async function devicesOfSite(db: Db, platformId: number, ids: readonly number[]): Promise<Set<number>> {
  const valid = [...new Set(ids.filter((x) => isDbId(x)))];
  if (!valid.length) return new Set();
  const rows = await db.k
    .selectFrom('devices')
    .select('id')
    .where('platform_id', '=', platformId)
    .where('id', 'in', valid)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Replaces a site's placements in one transaction. */
export async function replacePlacements(
  db: Db,
  platformId: number,
  placements: readonly { deviceId: number; x: number; y: number; z: number }[],
): Promise<void> {
  await db.k.transaction().execute(async (tx) => {
    await tx.deleteFrom('three_d_placements').where('platform_id', '=', platformId).execute();
    // A device moved here from another site loses its old place.
    if (placements.length) {
      await tx
        .deleteFrom('three_d_placements')
        .where(
          'device_id',
          'in',
          placements.map((p) => p.deviceId),
        )
        .execute();
      await tx
        .insertInto('three_d_placements')
        .values(placements.map((p) => ({ device_id: p.deviceId, platform_id: platformId, x: p.x, y: p.y, z: p.z })))
        .execute();
    }
  });
}

/** A device in scope (its site), or undefined (missing and foreign alike). */
export async function deviceInScope(db: Db, scope: DataScope, deviceId: number) {
  if (!isDbId(deviceId)) return undefined;
  return whereInScope(
    db.k
      .selectFrom('devices')
      .select(['id', 'platform_id'])
      .where('id', '=', deviceId)
      .where('platform_id', 'is not', null),
    scope,
    'platform_id',
  ).executeTakeFirst();
}

/** A device's readings of the last hours, oldest first (the newest `limit`). */
export async function recentReadings(db: Db, deviceId: number, hours: number, limit: number) {
  const rows = await db.k
    .selectFrom('readings')
    .select(['ts', 'vals'])
    .where('device_id', '=', deviceId)
    .where('ts', '>', sql<Date>`now() - make_interval(hours => ${hours})`)
    .orderBy('ts', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({ ts: iso(r.ts), values: numericValues(r.vals) }));
}

/** The map positions (WGS-84) of a site's devices that have one. */
export async function deviceCoords(
  db: Db,
  platformId: number,
): Promise<{ deviceId: number; lon: number; lat: number }[]> {
  const rows = await db.k
    .selectFrom('devices as d')
    .innerJoin('device_positions as p', 'p.device_id', 'd.id')
    .select(['d.id', 'p.lon', 'p.lat'])
    .where('d.platform_id', '=', platformId)
    .where('p.lon', 'is not', null)
    .where('p.lat', 'is not', null)
    .execute();
  return rows.map((r) => ({ deviceId: r.id, lon: Number(r.lon), lat: Number(r.lat) }));
}

/** The tileset a site shows, or undefined. */
export async function tilesetOf(db: Db, platformId: number): Promise<string | undefined> {
  const r = await db.k
    .selectFrom('three_d_tilesets')
    .select('name')
    .where('platform_id', '=', platformId)
    .executeTakeFirst();
  return r?.name;
}

/** Binds a tileset to a site (null: unbinds it). */
export async function setTileset(db: Db, platformId: number, name: string | null, userId: number): Promise<void> {
  if (name === null) {
    await db.k.deleteFrom('three_d_tilesets').where('platform_id', '=', platformId).execute();
    return;
  }
  await db.k
    .insertInto('three_d_tilesets')
    .values({ platform_id: platformId, name, created_by: userId })
    .onConflict((oc) => oc.column('platform_id').doUpdateSet({ name, created_by: userId, updated_at: sql`now()` }))
    .execute();
}

/** How many sites show each tileset. */
export async function tilesetUse(db: Db): Promise<Map<string, number>> {
  const rows = await db.k
    .selectFrom('three_d_tilesets')
    .select(['name', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy('name')
    .execute();
  return new Map(rows.map((r) => [r.name, Number(r.n)]));
}
