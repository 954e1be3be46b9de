import { sql } from 'kysely';
import type {
  DevicePosition,
  DeviceState,
  PlatformType,
  ViewDevice,
  ViewSite,
  ViewTerminal,
} from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** Numbers only: a reading's values are numbers, but the column is free JSON. */
function numbers(v: unknown): Record<string, number> {
  const o = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  const out: Record<string, number> = {};
  if (o && typeof o === 'object')
    for (const [k, x] of Object.entries(o as Record<string, unknown>)) if (typeof x === 'number') out[k] = x;
  return out;
}

/** Sites in the scope, optionally of one kind, by name. */
export async function sitesInScope(db: Db, scope: DataScope, type: PlatformType | undefined): Promise<ViewSite[]> {
  let q = whereInScope(db.k.selectFrom('platforms').select(['id', 'type', 'name']), scope, 'id');
  if (type) q = q.where('type', '=', type);
  const rows = await q.orderBy('name').orderBy('id').execute();
  return rows.map((r) => ({ platformId: r.id, type: r.type as PlatformType, name: r.name }));
}

/** A site's header fields, or undefined when missing or outside the scope (the same answer). */
export async function siteHeader(db: Db, scope: DataScope, id: number) {
  return whereInScope(
    db.k
      .selectFrom('platforms')
      .select(['id', 'type', 'name', 'description', 'manager', 'region_code', 'lon', 'lat', 'pictures'])
      .where('id', '=', id),
    scope,
    'id',
  ).executeTakeFirst();
}

function selectDevices(db: Db) {
  return db.k
    .selectFrom('devices as d')
    .leftJoin('terminals as t', 't.id', 'd.terminal_id')
    .leftJoin('device_positions as pos', 'pos.device_id', 'd.id')
    .select([
      'd.id',
      'd.device_name',
      'd.number',
      'd.module_id',
      'd.platform_id',
      'd.terminal_id',
      't.name as terminal_name',
      'd.state',
      'd.last_seen_at',
      'd.last_reading_at',
      'd.last_values',
      'd.initial_level',
      'pos.sketch_x',
      'pos.sketch_y',
      'pos.lon',
      'pos.lat',
    ]);
}
type DeviceRaw = Awaited<ReturnType<ReturnType<typeof selectDevices>['executeTakeFirstOrThrow']>>;

export interface DeviceWithLevel extends ViewDevice {
  initialLevel: number | null;
}

const presentDevice = (r: DeviceRaw): DeviceWithLevel => ({
  deviceId: r.id,
  deviceName: r.device_name,
  number: r.number,
  moduleId: r.module_id,
  terminalId: r.terminal_id,
  terminalName: r.terminal_name,
  state: r.state as DeviceState,
  lastSeenAt: iso(r.last_seen_at),
  lastReadingAt: iso(r.last_reading_at),
  lastValues: numbers(r.last_values),
  sketchX: num(r.sketch_x),
  sketchY: num(r.sketch_y),
  lon: num(r.lon),
  lat: num(r.lat),
  initialLevel: num(r.initial_level),
});

/** The devices of a site (the caller has been checked to see it), by monitor type and name. */
export async function devicesOfSite(db: Db, platformId: number): Promise<DeviceWithLevel[]> {
  const rows = await selectDevices(db)
    .where('d.platform_id', '=', platformId)
    .orderBy('d.module_id')
    .orderBy('d.device_name')
    .orderBy('d.id')
    .execute();
  return rows.map(presentDevice);
}

/** The core-wall devices of a section, in binding order. */
export async function heartWallDevices(db: Db, sectionId: number): Promise<DeviceWithLevel[]> {
  const rows = await selectDevices(db)
    .innerJoin('section_devices as sd', 'sd.device_id', 'd.id')
    .where('sd.section_id', '=', sectionId)
    .where('sd.kind', '=', 'heartWall')
    .orderBy('sd.id')
    .execute();
  return rows.map(presentDevice);
}

export async function terminalsOfSite(
  db: Db,
  platformId: number,
): Promise<Omit<ViewTerminal, 'online' | 'lastSeenAt' | 'deviceIds'>[]> {
  const rows = await db.k
    .selectFrom('terminals')
    .select(['id', 'name', 'serial', 'manufacturer', 'model', 'protocol_type'])
    .where('platform_id', '=', platformId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    terminalId: r.id,
    name: r.name,
    serial: r.serial,
    manufacturer: r.manufacturer,
    model: r.model,
    protocolType: r.protocol_type,
  }));
}

export async function boundModuleIds(db: Db, platformId: number): Promise<number[]> {
  const rows = await db.k
    .selectFrom('platform_modules')
    .select('module_id')
    .where('platform_id', '=', platformId)
    .execute();
  return rows.map((r) => r.module_id);
}

export async function sectionsWithDevices(
  db: Db,
  platformId: number,
): Promise<{ segmentId: number; name: string; deviceIds: number[] }[]> {
  const rows = await db.k
    .selectFrom('sections as s')
    .leftJoin('section_devices as sd', (j) => j.onRef('sd.section_id', '=', 's.id').on('sd.kind', '=', 'heartWall'))
    .select(['s.id', 's.name', 'sd.device_id'])
    .where('s.platform_id', '=', platformId)
    .orderBy('s.name')
    .orderBy('s.id')
    .orderBy('sd.id')
    .execute();
  const out = new Map<number, { segmentId: number; name: string; deviceIds: number[] }>();
  for (const r of rows) {
    const s = out.get(r.id) ?? { segmentId: r.id, name: r.name, deviceIds: [] };
    if (r.device_id !== null) s.deviceIds.push(r.device_id);
    out.set(r.id, s);
  }
  return [...out.values()];
}

/** A bound device's site, or undefined when missing, unbound or outside the scope (the same answer). */
export async function findDeviceSite(db: Db, scope: DataScope, deviceId: number): Promise<number | undefined> {
  const r = await whereInScope(
    db.k.selectFrom('devices').select('platform_id').where('id', '=', deviceId).where('platform_id', 'is not', null),
    scope,
    'platform_id',
  ).executeTakeFirst();
  return r?.platform_id ?? undefined;
}

export async function positionsOfSite(db: Db, platformId: number): Promise<DevicePosition[]> {
  const rows = await db.k
    .selectFrom('device_positions as pos')
    .innerJoin('devices as d', 'd.id', 'pos.device_id')
    .select(['pos.device_id', 'pos.sketch_x', 'pos.sketch_y', 'pos.lon', 'pos.lat', 'pos.updated_at'])
    .where('d.platform_id', '=', platformId)
    .orderBy('pos.device_id')
    .execute();
  return rows.map((r) => ({
    deviceId: r.device_id,
    sketchX: num(r.sketch_x),
    sketchY: num(r.sketch_y),
    lon: num(r.lon),
    lat: num(r.lat),
    updatedAt: iso(r.updated_at)!,
  }));
}

export interface PositionPatch {
  sketch?: { x: number; y: number } | null;
  map?: { lon: number; lat: number } | null;
}

/** Sets or clears one or both placements of a device (a row with neither is removed). */
export async function savePosition(db: Db, deviceId: number, p: PositionPatch): Promise<void> {
  const set: Record<string, number | null> = {};
  if (p.sketch !== undefined) {
    set.sketch_x = p.sketch?.x ?? null;
    set.sketch_y = p.sketch?.y ?? null;
  }
  if (p.map !== undefined) {
    set.lon = p.map?.lon ?? null;
    set.lat = p.map?.lat ?? null;
  }
  await db.k.transaction().execute(async (tx) => {
    await tx
      .insertInto('device_positions')
      .values({ device_id: deviceId, ...set })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ ...set, updated_at: sql`now()` }))
      .execute();
    await tx
      .deleteFrom('device_positions')
      .where('device_id', '=', deviceId)
      .where('sketch_x', 'is', null)
      .where('lon', 'is', null)
      .execute();
  });
}
