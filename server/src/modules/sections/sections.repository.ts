import { sql } from 'kysely';
import type {
  CapacityRow,
  HeartWallBinding,
  PlatformType,
  RiverWaterElevationRow,
  SectionRow,
  UpstreamPoint,
  WaterLevelSource,
} from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { likePattern as like, orderBy } from '../../platform/db/sql.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { devicesTablePresent } from '../platforms/index.ts';

const iso = (d: Date | string): string => new Date(d).toISOString();

function selectSections(db: Db) {
  return db.k
    .selectFrom('sections as s')
    .innerJoin('platforms as p', 'p.id', 's.platform_id')
    .select([
      's.id',
      's.platform_id',
      'p.name as platform_name',
      'p.type as platform_type',
      's.name',
      's.info',
      's.bottom_elevation',
      's.upstream_coords',
      's.water_level_source',
      's.manual_water_level',
      's.file_id',
      's.position',
      's.created_at',
      's.updated_at',
    ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectSections>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): SectionRow => ({
  segmentId: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  platformType: r.platform_type as PlatformType,
  name: r.name,
  info: r.info,
  bottomElevation: r.bottom_elevation,
  upstreamCoords: (r.upstream_coords ?? []) as UpstreamPoint[],
  waterLevelSource: r.water_level_source as WaterLevelSource,
  manualWaterLevel: r.manual_water_level,
  fileId: r.file_id,
  position: (r.position ?? null) as SectionRow['position'],
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/** One section, or undefined when missing or its site is outside the scope (the same answer). */
export async function findSection(db: Db, scope: DataScope, id: number): Promise<SectionRow | undefined> {
  const r = await whereInScope(selectSections(db).where('s.id', '=', id), scope, 's.platform_id').executeTakeFirst();
  return r ? present(r) : undefined;
}

/** The sections of one site (the caller has already been checked to see it). */
export async function sectionsOf(db: Db, platformId: number): Promise<SectionRow[]> {
  const rows = await selectSections(db)
    .where('s.platform_id', '=', platformId)
    .orderBy('s.name')
    .orderBy('s.id')
    .execute();
  return rows.map(present);
}

const SORTABLE: Record<string, string> = { name: 's.name', createdAt: 's.created_at', platformName: 'p.name' };

export interface SectionListFilter {
  pageNum: number;
  pageSize: number;
  platformId?: number | undefined;
  keyword?: string | undefined;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

export async function listSections(
  db: Db,
  scope: DataScope,
  f: SectionListFilter,
): Promise<{ list: SectionRow[]; total: number }> {
  let q = whereInScope(selectSections(db), scope, 's.platform_id');
  let c = whereInScope(
    db.k.selectFrom('sections as s').innerJoin('platforms as p', 'p.id', 's.platform_id'),
    scope,
    's.platform_id',
  );
  if (f.platformId !== undefined) {
    q = q.where('s.platform_id', '=', f.platformId);
    c = c.where('s.platform_id', '=', f.platformId);
  }
  if (f.keyword) {
    const k = like(f.keyword);
    const match = sql<boolean>`(lower(s.name) like ${k} or lower(coalesce(s.info, '')) like ${k} or lower(p.name) like ${k})`;
    q = q.where(match);
    c = c.where(match);
  }
  const col = SORTABLE[f.sortField ?? ''] ?? 's.id';
  const dir = f.sortOrder === 'descend' ? sql`desc` : sql`asc`;
  const [rows, total] = await Promise.all([
    q
      .orderBy(sql`${sql.raw(col)} ${dir} nulls last`)
      .orderBy('s.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

export interface SectionWrite {
  name: string;
  info?: string | undefined;
  bottomElevation?: number | undefined;
  fileId?: string | undefined;
}

export async function insertSection(db: Db, platformId: number, w: SectionWrite): Promise<number> {
  const r = await db.k
    .insertInto('sections')
    .values({
      platform_id: platformId,
      name: w.name,
      info: w.info ?? null,
      bottom_elevation: w.bottomElevation ?? null,
      file_id: w.fileId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateSection(db: Db, id: number, w: SectionWrite): Promise<void> {
  await db.k
    .updateTable('sections')
    .set({
      name: w.name,
      info: w.info ?? null,
      bottom_elevation: w.bottomElevation ?? null,
      file_id: w.fileId ?? null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes a section; its capacity rows, core-wall bindings and water elevations go with it. */
export async function deleteSection(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('sections').where('id', '=', id).execute();
}

export async function setPosition(db: Db, id: number, position: { x: number; y: number }): Promise<void> {
  await db.k
    .updateTable('sections')
    .set({ position: JSON.stringify(position), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function setUpstreamCoords(db: Db, id: number, coords: UpstreamPoint[]): Promise<void> {
  await db.k
    .updateTable('sections')
    .set({ upstream_coords: JSON.stringify(coords), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Sets the water level source; the manual level is kept as it was when `level` is undefined. */
export async function setWaterLevel(
  db: Db,
  id: number,
  source: WaterLevelSource,
  level: number | undefined,
): Promise<void> {
  await db.k
    .updateTable('sections')
    .set({
      water_level_source: source,
      ...(level !== undefined ? { manual_water_level: level } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

// Capacity tables.

export async function capacityRows(db: Db, platformId: number, sectionId: number | null): Promise<CapacityRow[]> {
  let q = db.k
    .selectFrom('capacity_rows')
    .select(['idx', 'water_level_elevation', 'water_volume'])
    .where('platform_id', '=', platformId);
  q = sectionId === null ? q.where('section_id', 'is', null) : q.where('section_id', '=', sectionId);
  const rows = await q.orderBy('idx').execute();
  return rows.map((r) => ({ index: r.idx, waterLevelElevation: r.water_level_elevation, waterVolume: r.water_volume }));
}

export async function replaceCapacityRows(
  db: Db,
  platformId: number,
  sectionId: number | null,
  rows: CapacityRow[],
): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    let del = trx.deleteFrom('capacity_rows').where('platform_id', '=', platformId);
    del = sectionId === null ? del.where('section_id', 'is', null) : del.where('section_id', '=', sectionId);
    await del.execute();
    if (rows.length === 0) return;
    await trx
      .insertInto('capacity_rows')
      .values(
        rows.map((r) => ({
          platform_id: platformId,
          section_id: sectionId,
          idx: r.index,
          water_level_elevation: r.waterLevelElevation,
          water_volume: r.waterVolume,
        })),
      )
      .execute();
  });
}

// Devices. The devices table arrives with the equipment migration: every query on it is guarded.

/** The ids among `ids` that are devices of the site (none while there is no devices table). */
export async function devicesOnSite(db: Db, platformId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0 || !(await devicesTablePresent(db))) return new Set();
  const r = await sql<{
    id: number;
  }>`select id from devices where platform_id = ${platformId} and id in (${sql.join(ids)})`.execute(db.k);
  return new Set(r.rows.map((x) => Number(x.id)));
}

/** How many devices of these monitor types the site has (0 while there is no devices table). */
export async function deviceCountOfModules(db: Db, platformId: number, moduleIds: readonly number[]): Promise<number> {
  if (!(await devicesTablePresent(db))) return 0;
  const r = await sql<{ n: number }>`select count(*)::int as n from devices
    where platform_id = ${platformId} and module_id in (${sql.join([...moduleIds])})`.execute(db.k);
  return Number(r.rows[0]?.n ?? 0);
}

// Core-wall ("heart wall") bindings.

export async function heartWallBindings(db: Db, sectionId: number): Promise<HeartWallBinding[]> {
  const rows = await db.k
    .selectFrom('section_devices')
    .select(['id', 'section_id', 'device_id', 'created_at'])
    .where('section_id', '=', sectionId)
    .where('kind', '=', 'heartWall')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, segmentId: r.section_id, deviceId: r.device_id, createdAt: iso(r.created_at) }));
}

/** Binds devices (already bound ones are left as they are). */
export async function bindHeartWall(db: Db, sectionId: number, deviceIds: number[]): Promise<void> {
  if (deviceIds.length === 0) return;
  await db.k
    .insertInto('section_devices')
    .values(deviceIds.map((d) => ({ section_id: sectionId, device_id: d, kind: 'heartWall' })))
    .onConflict((oc) => oc.columns(['section_id', 'device_id', 'kind']).doNothing())
    .execute();
}

/** A binding whose section's site is within the scope. */
export async function findHeartWallBinding(db: Db, scope: DataScope, id: number): Promise<{ id: number } | undefined> {
  return whereInScope(
    db.k
      .selectFrom('section_devices as sd')
      .innerJoin('sections as s', 's.id', 'sd.section_id')
      .select('sd.id')
      .where('sd.id', '=', id)
      .where('sd.kind', '=', 'heartWall'),
    scope,
    's.platform_id',
  ).executeTakeFirst();
}

export async function deleteHeartWallBinding(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('section_devices').where('id', '=', id).execute();
}

// Manual water elevations of a section: rivers' (information:riverWater) and reservoirs' (the reservoir module's
// manual water levels); one table, one list.

export interface RiverWaterFilter {
  pageNum: number;
  pageSize: number;
  platformId?: number | undefined;
  segmentId?: number | undefined;
  startTime?: Date | undefined;
  endTime?: Date | undefined;
  /** An exclusive end, for a period of local days [start, before). */
  before?: Date | undefined;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

const RIVER_WATER_SORTABLE: Record<string, string> = {
  time: 'w.measured_at',
  platformName: 'p.name',
  segmentName: 's.name',
  elevation: 'w.elevation',
  createdAt: 'w.created_at',
};

function selectRiverWater(db: Db, scope: DataScope, kind: 'river' | 'reservoir' = 'river') {
  return whereInScope(
    db.k
      .selectFrom('river_water_levels as w')
      .innerJoin('sections as s', 's.id', 'w.section_id')
      .innerJoin('platforms as p', 'p.id', 's.platform_id')
      .where('p.type', '=', kind),
    scope,
    's.platform_id',
  );
}

/** The sort field asked for (time when none or unknown); time sorts newest first unless ascend is asked. */
function riverWaterOrder(f: RiverWaterFilter) {
  const col = RIVER_WATER_SORTABLE[f.sortField ?? ''];
  if (!col || col === 'w.measured_at') return orderBy('w.measured_at', f.sortOrder === 'ascend' ? 'ascend' : 'descend');
  return orderBy(col, f.sortOrder);
}

/** The manual water elevations of the river sites (or of the reservoirs) in the caller's scope, paged. */
export async function listWaterLevels(
  db: Db,
  scope: DataScope,
  f: RiverWaterFilter,
  kind: 'river' | 'reservoir' = 'river',
): Promise<{ list: RiverWaterElevationRow[]; total: number }> {
  let q = selectRiverWater(db, scope, kind);
  if (f.platformId !== undefined) q = q.where('s.platform_id', '=', f.platformId);
  if (f.segmentId !== undefined) q = q.where('w.section_id', '=', f.segmentId);
  if (f.startTime) q = q.where('w.measured_at', '>=', f.startTime);
  if (f.endTime) q = q.where('w.measured_at', '<=', f.endTime);
  if (f.before) q = q.where('w.measured_at', '<', f.before);
  const [rows, total] = await Promise.all([
    q
      .select([
        'w.id',
        'w.section_id',
        's.name as section_name',
        's.platform_id',
        'p.name as platform_name',
        'w.measured_at',
        'w.elevation',
        'w.created_at',
      ])
      .orderBy(riverWaterOrder(f))
      .orderBy('w.measured_at', 'desc')
      .orderBy('w.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      segmentId: r.section_id,
      segmentName: r.section_name,
      platformId: r.platform_id,
      platformName: r.platform_name,
      time: iso(r.measured_at),
      elevation: r.elevation,
      createdAt: iso(r.created_at),
    })),
    total: Number(total.n),
  };
}

export async function insertRiverWater(
  db: Db,
  sectionId: number,
  time: Date,
  elevation: number,
  userId: number,
): Promise<number> {
  const r = await db.k
    .insertInto('river_water_levels')
    .values({ section_id: sectionId, measured_at: time, elevation, created_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export async function findRiverWater(db: Db, scope: DataScope, id: number): Promise<{ id: number } | undefined> {
  return selectRiverWater(db, scope).select('w.id').where('w.id', '=', id).executeTakeFirst();
}

export async function deleteRiverWater(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('river_water_levels').where('id', '=', id).execute();
}

// Devices of a section's site (getModuleAndDeviceBySegmentId) and water-level devices (getSegmentWaterDeviceListPage).

export interface SiteDeviceRow {
  id: number;
  deviceName: string;
  number: string;
  moduleId: number;
  state: string;
  heartWallBindingId: number | null;
}

/** Every device bound to the site, with its core-wall binding to the section (if any); by type, then name. */
export async function siteDevicesWithBinding(db: Db, platformId: number, sectionId: number): Promise<SiteDeviceRow[]> {
  const rows = await db.k
    .selectFrom('devices as d')
    .leftJoin('section_devices as sd', (j) =>
      j.onRef('sd.device_id', '=', 'd.id').on('sd.section_id', '=', sectionId).on('sd.kind', '=', 'heartWall'),
    )
    .select(['d.id', 'd.device_name', 'd.number', 'd.module_id', 'd.state', 'sd.id as binding_id'])
    .where('d.platform_id', '=', platformId)
    .orderBy('d.module_id')
    .orderBy('d.device_name')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    deviceName: r.device_name,
    number: r.number,
    moduleId: r.module_id,
    state: r.state,
    heartWallBindingId: r.binding_id ?? null,
  }));
}

export interface WaterDeviceFilter {
  pageNum: number;
  pageSize: number;
  platformId?: number | undefined;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

export interface WaterDeviceRaw {
  id: number;
  deviceName: string;
  number: string;
  moduleId: number;
  platformId: number;
  platformName: string;
  terminalId: number | null;
  terminalName: string | null;
  state: string;
  lastReadingAt: string | null;
  lastValues: Record<string, unknown>;
}

const WATER_SORTABLE: Record<string, string> = {
  deviceName: 'd.device_name',
  number: 'd.number',
  platformName: 'p.name',
  lastReadingAt: 'd.last_reading_at',
};

/** Devices of these monitor types bound to a site within the scope (and the given site), paged. */
export async function listWaterDevices(
  db: Db,
  scope: DataScope,
  moduleIds: readonly number[],
  f: WaterDeviceFilter,
): Promise<{ list: WaterDeviceRaw[]; total: number }> {
  let q = whereInScope(
    db.k
      .selectFrom('devices as d')
      .innerJoin('platforms as p', 'p.id', 'd.platform_id')
      .where('d.module_id', 'in', [...moduleIds]),
    scope,
    'd.platform_id',
  );
  if (f.platformId !== undefined) q = q.where('d.platform_id', '=', f.platformId);
  const col = WATER_SORTABLE[f.sortField ?? ''] ?? 'd.id';
  const dir = f.sortOrder === 'descend' ? sql`desc` : sql`asc`;
  const [rows, total] = await Promise.all([
    q
      .leftJoin('terminals as tm', 'tm.id', 'd.terminal_id')
      .select([
        'd.id',
        'd.device_name',
        'd.number',
        'd.module_id',
        'd.platform_id',
        'p.name as platform_name',
        'd.terminal_id',
        'tm.name as terminal_name',
        'd.state',
        'd.last_reading_at',
        'd.last_values',
      ])
      .orderBy(sql`${sql.raw(col)} ${dir} nulls last`)
      .orderBy('d.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      id: r.id,
      deviceName: r.device_name,
      number: r.number,
      moduleId: r.module_id,
      platformId: r.platform_id ?? 0,
      platformName: r.platform_name,
      terminalId: r.terminal_id,
      terminalName: r.terminal_name ?? null,
      state: r.state,
      lastReadingAt: r.last_reading_at ? iso(r.last_reading_at) : null,
      lastValues: (r.last_values ?? {}) as Record<string, unknown>,
    })),
    total: Number(total.n),
  };
}

/** The sections of these sites whose water level source is automatic. */
export async function autoSectionsOf(
  db: Db,
  platformIds: number[],
): Promise<{ platformId: number; segmentId: number; name: string }[]> {
  if (platformIds.length === 0) return [];
  const rows = await db.k
    .selectFrom('sections')
    .select(['id', 'platform_id', 'name'])
    .where('platform_id', 'in', platformIds)
    .where('water_level_source', '=', 'auto')
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ platformId: r.platform_id, segmentId: r.id, name: r.name }));
}

/** The core-wall bindings of these devices with their sections' names. */
export async function heartWallSectionsOf(
  db: Db,
  deviceIds: number[],
): Promise<{ deviceId: number; segmentId: number; name: string }[]> {
  if (deviceIds.length === 0) return [];
  const rows = await db.k
    .selectFrom('section_devices as sd')
    .innerJoin('sections as s', 's.id', 'sd.section_id')
    .select(['sd.device_id', 's.id', 's.name'])
    .where('sd.device_id', 'in', deviceIds)
    .where('sd.kind', '=', 'heartWall')
    .orderBy('s.name')
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({ deviceId: r.device_id, segmentId: r.id, name: r.name }));
}
