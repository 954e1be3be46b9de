import { sql, type Kysely } from 'kysely';
import {
  monitorTypeLabel,
  type DeviceInput,
  type DeviceKind,
  type DeviceOption,
  type DeviceParams,
  type DeviceRow,
  type DeviceState,
  type Language,
  type StationType,
} from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { inRegionSubtree } from '../regions/index.ts';
import { iso, isDbId, isoOrNull, likePattern, orderBy } from '../../platform/db/sql.ts';

type K = Kysely<Database>;

const SORTABLE: Record<string, string> = {
  deviceName: 'd.device_name',
  number: 'd.number',
  moduleId: 'd.module_id',
  platformName: 'p.name',
  terminalName: 't.name',
  state: 'd.state',
  lastSeenAt: 'd.last_seen_at',
  createdAt: 'd.created_at',
};

export interface DeviceFilter {
  keyword?: string | undefined;
  platformId?: number | undefined;
  moduleId?: number | undefined;
  terminalId?: number | undefined;
  state?: string | undefined;
  bound?: boolean | undefined;
  regionCode?: string | undefined;
  sortField?: string | undefined;
  sortOrder?: string | undefined;
}

function base(db: Db, scope: DataScope, f: DeviceFilter = {}) {
  let q = whereInScope(
    db.k
      .selectFrom('devices as d')
      .leftJoin('platforms as p', 'p.id', 'd.platform_id')
      .leftJoin('terminals as t', 't.id', 'd.terminal_id'),
    scope,
    'd.platform_id',
  );
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<boolean>`(lower(d.device_name) like ${k} or lower(d.number) like ${k} or lower(coalesce(d.group_name, '')) like ${k})`,
    );
  }
  const id = (v: number): number => (isDbId(v) ? v : 0);
  if (f.platformId !== undefined) q = q.where('d.platform_id', '=', id(f.platformId));
  if (f.moduleId !== undefined) q = q.where('d.module_id', '=', f.moduleId);
  if (f.terminalId !== undefined) q = q.where('d.terminal_id', '=', id(f.terminalId));
  if (f.state) q = q.where('d.state', '=', f.state);
  if (f.bound !== undefined) q = q.where('d.bound', '=', f.bound);
  if (f.regionCode) q = q.where(inRegionSubtree('p.region_code', f.regionCode));
  return q;
}

function selectRows(db: Db, scope: DataScope, f: DeviceFilter = {}) {
  return base(db, scope, f).select([
    'd.id',
    'd.device_name',
    'd.number',
    'd.description',
    'd.group_name',
    'd.module_id',
    'd.platform_id',
    'p.name as platform_name',
    'd.terminal_id',
    't.name as terminal_name',
    'd.type',
    'd.protocol_type',
    'd.ip',
    'd.port',
    'd.installed_depth',
    'd.offset_value',
    'd.offline_hours',
    'd.station_type',
    'd.initial_x',
    'd.initial_y',
    'd.initial_z',
    'd.initial_values',
    'd.filter_threshold',
    'd.communication_type',
    'd.serial_port',
    'd.baud_rate',
    'd.initial_level',
    'd.sensitivity_coefficient',
    'd.temperature_coefficient',
    'd.initial_frequency',
    'd.initial_temperature',
    'd.params',
    'd.state',
    'd.bound',
    'd.last_seen_at',
    'd.created_at',
    'd.updated_at',
  ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): DeviceRow => ({
  deviceId: r.id,
  deviceName: r.device_name,
  number: r.number,
  description: r.description,
  group: r.group_name,
  moduleId: r.module_id,
  platformId: r.platform_id,
  platformName: r.platform_name ?? null,
  terminalId: r.terminal_id,
  terminalName: r.terminal_name ?? null,
  type: r.type as DeviceKind | null,
  protocolType: r.protocol_type,
  ip: r.ip,
  port: r.port,
  installedDepth: r.installed_depth,
  offset: r.offset_value,
  offlineHours: r.offline_hours,
  stationType: r.station_type as StationType | null,
  initialX: r.initial_x,
  initialY: r.initial_y,
  initialZ: r.initial_z,
  initialValues: (r.initial_values ?? {}) as Record<string, number>,
  filterThreshold: r.filter_threshold,
  communicationType: r.communication_type,
  serialPort: r.serial_port,
  baudRate: r.baud_rate,
  initialLevel: r.initial_level,
  sensitivityCoefficient: r.sensitivity_coefficient,
  temperatureCoefficient: r.temperature_coefficient,
  initialFrequency: r.initial_frequency,
  initialTemperature: r.initial_temperature,
  params: (r.params ?? {}) as DeviceParams,
  state: r.state as DeviceState,
  bound: r.bound,
  lastSeenAt: isoOrNull(r.last_seen_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export async function listDevices(
  db: Db,
  scope: DataScope,
  f: DeviceFilter & { pageNum: number; pageSize: number },
): Promise<{ list: DeviceRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    selectRows(db, scope, f)
      .orderBy(orderBy(SORTABLE[f.sortField ?? ''] ?? 'd.id', f.sortOrder))
      .orderBy('d.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    base(db, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

/** Every device matching the filter (export, lists by role), capped. */
export async function allDevices(db: Db, scope: DataScope, f: DeviceFilter, cap = 200_000): Promise<DeviceRow[]> {
  const rows = await selectRows(db, scope, f)
    .orderBy(orderBy(SORTABLE[f.sortField ?? ''] ?? 'd.id', f.sortOrder))
    .orderBy('d.id')
    .limit(cap)
    .execute();
  return rows.map(present);
}

export async function deviceOptions(
  db: Db,
  scope: DataScope,
  lang: Language,
  f: { platformId?: number | undefined; moduleId?: number | undefined },
): Promise<DeviceOption[]> {
  const rows = await base(db, scope, { ...f, bound: true })
    .select([
      'd.id',
      'd.device_name',
      'd.number',
      'd.module_id',
      'd.platform_id',
      'p.name as platform_name',
      'd.terminal_id',
      'd.state',
    ])
    .orderBy('p.name')
    .orderBy('d.module_id')
    .orderBy('d.device_name')
    .execute();
  return rows.map((r) => ({
    deviceId: r.id,
    deviceName: r.device_name,
    number: r.number,
    moduleId: r.module_id,
    moduleName: monitorTypeLabel(r.module_id, lang),
    platformId: r.platform_id ?? 0,
    platformName: r.platform_name ?? '',
    terminalId: r.terminal_id,
    state: r.state as DeviceState,
  }));
}

export async function getDevice(db: Db, scope: DataScope, id: number): Promise<DeviceRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await selectRows(db, scope).where('d.id', '=', id).executeTakeFirst();
  return r ? present(r) : undefined;
}

export interface DeviceIdentity {
  id: number;
  number: string;
  device_name: string;
  platform_id: number | null;
  module_id: number;
  station_type: string | null;
}

/** Devices holding any of these numbers or names (case-insensitive), whatever their site: uniqueness checks. */
export async function devicesByNumberOrName(
  db: K,
  numbers: readonly string[],
  names: readonly string[],
): Promise<DeviceIdentity[]> {
  if (!numbers.length && !names.length) return [];
  const lower = names.map((n) => n.toLowerCase());
  return db
    .selectFrom('devices')
    .select(['id', 'number', 'device_name', 'platform_id', 'module_id', 'station_type'])
    .where((eb) => {
      const ors = [];
      if (numbers.length) ors.push(eb('number', 'in', [...numbers]));
      if (lower.length) ors.push(eb(sql`lower(device_name)`, 'in', lower));
      return eb.or(ors);
    })
    .execute();
}

/** A GNSS base station of a site, by number. */
export async function findGnssBase(db: Db, platformId: number, number: string): Promise<{ id: number } | undefined> {
  return db.k
    .selectFrom('devices')
    .select('id')
    .where('number', '=', number)
    .where('platform_id', '=', platformId)
    .where('module_id', '=', 1)
    .where('station_type', '=', 'base')
    .executeTakeFirst();
}

const columns = (d: DeviceInput) => ({
  device_name: d.deviceName,
  number: d.number,
  description: d.description ?? null,
  group_name: d.group ?? null,
  module_id: d.moduleId,
  platform_id: d.platformId,
  terminal_id: d.terminalId,
  type: d.type ?? null,
  protocol_type: d.protocolType ?? null,
  ip: d.ip,
  port: d.port,
  installed_depth: d.installedDepth ?? null,
  offset_value: d.offset ?? null,
  offline_hours: d.offlineHours ?? null,
  station_type: d.stationType ?? null,
  initial_x: d.initialX ?? null,
  initial_y: d.initialY ?? null,
  initial_z: d.initialZ ?? null,
  initial_values: JSON.stringify(d.initialValues ?? {}),
  filter_threshold: d.filterThreshold ?? null,
  communication_type: d.communicationType ?? null,
  serial_port: d.serialPort ?? null,
  baud_rate: d.baudRate ?? null,
  initial_level: d.initialLevel ?? null,
  sensitivity_coefficient: d.sensitivityCoefficient ?? null,
  temperature_coefficient: d.temperatureCoefficient ?? null,
  initial_frequency: d.initialFrequency ?? null,
  initial_temperature: d.initialTemperature ?? null,
  params: JSON.stringify(d.params ?? {}),
});

/** Records that a site uses a monitor type (idempotent). */
export async function bindModule(db: K, platformId: number, moduleId: number): Promise<void> {
  await db
    .insertInto('platform_modules')
    .values({ platform_id: platformId, module_id: moduleId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function insertDevice(db: K, d: DeviceInput): Promise<number> {
  const r = await db.insertInto('devices').values(columns(d)).returning('id').executeTakeFirstOrThrow();
  await bindModule(db, d.platformId, d.moduleId);
  return r.id;
}

/**
 * Writes every field of a device (edit, or taking back an unbound device). A device that changes site leaves
 * the multi-module statistics of its former site; one taken back starts offline with no readings seen.
 */
export async function updateDevice(
  db: K,
  id: number,
  d: DeviceInput,
  opts: { fromPlatformId: number | null; reclaim?: boolean },
): Promise<void> {
  await db
    .updateTable('devices')
    .set({ ...columns(d), updated_at: new Date(), ...(opts.reclaim ? { state: 'offline', last_seen_at: null } : {}) })
    .where('id', '=', id)
    .execute();
  if (opts.fromPlatformId !== d.platformId)
    await db.deleteFrom('multi_statistic_devices').where('device_id', '=', id).execute();
  await bindModule(db, d.platformId, d.moduleId);
}

/** Unbinds a device: it leaves its site, terminal and multi-module statistics; it keeps its history. */
export async function unbindDevice(db: Db, id: number): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    await trx
      .updateTable('devices')
      .set({ platform_id: null, terminal_id: null, state: 'offline', updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('multi_statistic_devices').where('device_id', '=', id).execute();
  });
}

export async function deleteDevice(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('devices').where('id', '=', id).execute();
}
