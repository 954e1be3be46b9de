import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { DataScope } from '../../platform/auth/access.ts';
import { isDbId, iso, isoOrNull, json, scopeSql } from '../../platform/db/sql.ts';
import { inRegionSubtree } from '../regions/index.ts';
import { onlineSql } from '../moduleData/index.ts';

/**
 * SQL of home and the big screen. Every statement is set-based over the caller's scope (a few statements per
 * call, never one per site); a region narrows the scope to the sites of its subtree first (`regionScope`), so
 * every count below takes the same sites.
 */

/** The scope narrowed to the sites of a region and every region below it. */
export async function regionScope(db: Db, scope: DataScope, regionCode: string): Promise<DataScope> {
  const r = await sql<{ id: number }>`
    select p.id from platforms p
    where ${scopeSql(scope, 'p.id')} and ${inRegionSubtree('p.region_code', regionCode)}`.execute(db.k);
  return { all: false, platformIds: r.rows.map((x) => x.id) };
}

export interface SiteRecord {
  id: number;
  name: string;
  type: string;
  regionCode: string | null;
  lon: number | null;
  lat: number | null;
  normal: number;
  alert: number;
  alarm: number;
  abnormal: number;
  offline: number;
  /** Devices seen within their offline hours. */
  online: number;
}

/**
 * The sites of the scope, by name, with their bound devices counted by state and online; and the same devices
 * by monitor type and state (classification status). The devices are read once (grouping sets).
 */
export async function sitesAndDevices(
  db: Db,
  scope: DataScope,
  defaultOfflineHours: number,
): Promise<{ sites: SiteRecord[]; byModule: { moduleId: number; state: string; n: number }[] }> {
  const [sites, groups] = await Promise.all([
    sql<{
      id: number;
      name: string;
      type: string;
      region_code: string | null;
      lon: number | null;
      lat: number | null;
    }>`select p.id, p.name, p.type, p.region_code, p.lon, p.lat from platforms p
       where ${scopeSql(scope, 'p.id')} order by p.name, p.id`.execute(db.k),
    sql<{ platform_id: number | null; module_id: number | null; state: string; n: number; online: number }>`
      select d.platform_id, d.module_id, d.state, count(*)::int as n,
        count(*) filter (where ${onlineSql('d', defaultOfflineHours)})::int as online
      from devices d where d.platform_id is not null and ${scopeSql(scope, 'd.platform_id')}
      group by grouping sets ((d.platform_id, d.state), (d.module_id, d.state))`.execute(db.k),
  ]);
  const bySite = new Map<number, SiteRecord>();
  const out: SiteRecord[] = sites.rows.map((x) => {
    const r: SiteRecord = {
      id: x.id,
      name: x.name,
      type: x.type,
      regionCode: x.region_code,
      lon: x.lon,
      lat: x.lat,
      normal: 0,
      alert: 0,
      alarm: 0,
      abnormal: 0,
      offline: 0,
      online: 0,
    };
    bySite.set(x.id, r);
    return r;
  });
  const byModule: { moduleId: number; state: string; n: number }[] = [];
  for (const g of groups.rows) {
    if (g.platform_id === null) {
      byModule.push({ moduleId: Number(g.module_id), state: g.state, n: Number(g.n) });
      continue;
    }
    const s = bySite.get(g.platform_id);
    if (!s || !(g.state in STATE_KEYS)) continue;
    s[g.state as keyof typeof STATE_KEYS] += Number(g.n);
    s.online += Number(g.online);
  }
  byModule.sort((a, b) => a.moduleId - b.moduleId);
  return { sites: out, byModule };
}
const STATE_KEYS = { normal: 0, alert: 0, alarm: 0, abnormal: 0, offline: 0 } as const;

/** Open (untreated or pre-process) alerts of the scope by site, level and status. */
export async function openAlerts(db: Db, scope: DataScope) {
  const r = await sql<{ platform_id: number; level: number; status: string; n: number }>`
    select a.platform_id, a.level, a.status, count(*)::int as n from alerts a
    where a.status <> 'processed' and ${scopeSql(scope, 'a.platform_id')}
    group by 1, 2, 3`.execute(db.k);
  return r.rows.map((x) => ({ platformId: x.platform_id, level: Number(x.level), status: x.status, n: Number(x.n) }));
}

/**
 * Alerts raised (first_at) since a time, by local day of `timeZone` (yyyy-MM-dd), level and monitor type of
 * their device (null for offline alerts and alerts of a deleted device).
 */
export async function raisedByDay(db: Db, scope: DataScope, since: Date, timeZone: string) {
  const r = await sql<{ day: string; level: number; module_id: number | null; n: number }>`
    select to_char(x.day, 'YYYY-MM-DD') as day, x.level, x.module_id, x.n from (
      select (a.first_at at time zone ${timeZone})::date as day, a.level,
        case when a.kind = 'offline' then null else d.module_id end as module_id, count(*)::int as n
      from alerts a left join devices d on d.id = a.device_id
      where a.first_at >= ${since.toISOString()}::timestamptz and ${scopeSql(scope, 'a.platform_id')}
      group by 1, 2, 3) x`.execute(db.k);
  return r.rows.map((x) => ({
    day: x.day,
    level: Number(x.level),
    moduleId: x.module_id === null ? null : Number(x.module_id),
    n: Number(x.n),
  }));
}

export interface DashboardAlertRecord {
  id: number;
  platformId: number | null;
  platformName: string | null;
  deviceId: number | null;
  deviceName: string | null;
  moduleId: number | null;
  quantity: string | null;
  kind: string;
  level: number;
  status: string;
  value: number | null;
  threshold: number | null;
  firstAt: string;
  lastAt: string;
}

/** The newest alerts of the scope by last time (open or not). */
export async function latestAlerts(db: Db, scope: DataScope, limit: number): Promise<DashboardAlertRecord[]> {
  const r = await sql<{
    id: number;
    platform_id: number | null;
    platform_name: string | null;
    device_id: number | null;
    device_name: string | null;
    module_id: number | null;
    quantity: string | null;
    kind: string;
    level: number;
    status: string;
    trigger_value: number | null;
    last_value: number | null;
    threshold: number | null;
    first_at: Date | string;
    last_at: Date | string;
  }>`
    select a.id, a.platform_id, p.name as platform_name, a.device_id, d.device_name, d.module_id, a.quantity, a.kind,
      a.level, a.status, a.trigger_value, a.last_value, a.threshold, a.first_at, a.last_at
    from (select * from alerts a where ${scopeSql(scope, 'a.platform_id')}
          order by a.last_at desc, a.id desc limit ${limit}) a
    left join devices d on d.id = a.device_id
    left join platforms p on p.id = a.platform_id
    order by a.last_at desc, a.id desc`.execute(db.k);
  return r.rows.map((x) => ({
    id: x.id,
    platformId: x.platform_id,
    platformName: x.platform_name,
    deviceId: x.device_id,
    deviceName: x.device_name,
    moduleId: x.module_id,
    quantity: x.quantity,
    kind: x.kind,
    level: Number(x.level),
    status: x.status,
    value: x.kind === 'offline' ? null : (x.trigger_value ?? x.last_value),
    threshold: x.threshold,
    firstAt: iso(x.first_at),
    lastAt: iso(x.last_at),
  }));
}

// ------------------------------------------------------------------------------------------- big screen

/** Bound rain gauges (monitor type 2) of the scope. */
export async function rainGauges(db: Db, scope: DataScope) {
  const r = await sql<{ id: number; device_name: string; platform_name: string }>`
    select d.id, d.device_name, p.name as platform_name
    from devices d join platforms p on p.id = d.platform_id
    where d.module_id = 2 and ${scopeSql(scope, 'd.platform_id')}`.execute(db.k);
  return r.rows.map((x) => ({ id: x.id, deviceName: x.device_name, platformName: x.platform_name }));
}

/** Water-level types, in the order a reservoir's level is taken from: reservoir, plain, groundwater. */
export const WATER_LEVEL_MODULES = [11, 3, 16] as const;

/**
 * Reservoirs of the scope with their flood limits (details) and the newest water level of their water-level
 * devices (types 11, then 3, then 16; the newest reading among devices of the first type that has one).
 */
export async function reservoirs(db: Db, scope: DataScope) {
  const r = await sql<{
    id: number;
    name: string;
    flood: number | null;
    limited: number | null;
    level: number | null;
    at: Date | string | null;
  }>`
    select p.id, p.name,
      case when jsonb_typeof(p.details -> 'floodLevel') = 'number' then (p.details ->> 'floodLevel')::float8 end as flood,
      case when jsonb_typeof(p.details -> 'limitedFloodLevel') = 'number'
        then (p.details ->> 'limitedFloodLevel')::float8 end as limited,
      w.level, w.at
    from platforms p
    left join lateral (
      select (d.last_values ->> 'waterLevel')::float8 as level, d.last_reading_at as at from devices d
      where d.platform_id = p.id and d.module_id = any(${[...WATER_LEVEL_MODULES]}::int[])
        and jsonb_typeof(d.last_values -> 'waterLevel') = 'number'
      order by array_position(${[...WATER_LEVEL_MODULES]}::int[], d.module_id::int), d.last_reading_at desc nulls last, d.id
      limit 1) w on true
    where p.type = 'reservoir' and ${scopeSql(scope, 'p.id')}
    order by p.name, p.id`.execute(db.k);
  return r.rows.map((x) => ({
    id: x.id,
    name: x.name,
    floodLevel: x.flood === null ? null : Number(x.flood),
    limitedFloodLevel: x.limited === null ? null : Number(x.limited),
    level: x.level === null ? null : Number(x.level),
    at: isoOrNull(x.at),
  }));
}

/**
 * Devices in alarm of the scope (at most `limit`), with the quantity of their highest open alert (the newest of
 * that level), highest level and newest alert first.
 */
export async function alarmDevices(db: Db, scope: DataScope, limit: number) {
  const r = await sql<{
    id: number;
    device_name: string;
    module_id: number;
    platform_name: string;
    quantity: string;
    last_reading_at: Date | string | null;
  }>`
    select d.id, d.device_name, d.module_id, p.name as platform_name, a.quantity, d.last_reading_at
    from devices d join platforms p on p.id = d.platform_id
    join lateral (
      select a.quantity, a.level, a.last_at from alerts a
      where a.device_id = d.id and a.status <> 'processed' and a.kind <> 'offline' and a.quantity is not null
      order by a.level desc, a.last_at desc limit 1) a on true
    where d.state = 'alarm' and ${scopeSql(scope, 'd.platform_id')}
    order by a.level desc, a.last_at desc, d.id
    limit ${limit}`.execute(db.k);
  return r.rows.map((x) => ({
    id: x.id,
    deviceName: x.device_name,
    moduleId: Number(x.module_id),
    platformName: x.platform_name,
    quantity: x.quantity,
    lastReadingAt: x.last_reading_at ? new Date(x.last_reading_at).getTime() : null,
  }));
}

/** Each device's numeric values of one quantity in (its `to` - minutes, its `to`], oldest first. */
export async function recentSeries(
  db: Db,
  series: readonly { deviceId: number; quantity: string; to: number }[],
  minutes: number,
): Promise<Map<number, [string, number][]>> {
  const out = new Map<number, [string, number][]>();
  if (series.length === 0) return out;
  const r = await sql<{ device_id: number; ts: Date | string; v: number }>`
    select r.device_id, r.ts, (r.vals ->> u.q)::float8 as v
    from unnest(${series.map((s) => s.deviceId)}::int[], ${series.map((s) => s.quantity)}::text[],
                ${series.map((s) => iso(new Date(s.to)))}::timestamptz[]) as u(id, q, hi)
    join readings r on r.device_id = u.id and r.ts > u.hi - make_interval(mins => ${minutes}) and r.ts <= u.hi
    where jsonb_typeof(r.vals -> u.q) = 'number'
    order by r.device_id, r.ts`.execute(db.k);
  for (const x of r.rows) {
    let list = out.get(x.device_id);
    if (!list) out.set(x.device_id, (list = []));
    list.push([iso(x.ts), Number(x.v)]);
  }
  return out;
}

// --------------------------------------------------------------------------------------------- devices

export interface DeviceDataRecord {
  id: number;
  name: string;
  number: string;
  platformId: number;
  platformName: string;
  moduleId: number;
  state: string;
  online: boolean;
  lastReadingAt: string | null;
  lastValues: Record<string, unknown>;
}

/** Bound devices of the scope (optionally of one site and of some types) with their newest values. */
export async function devicesWithData(
  db: Db,
  scope: DataScope,
  defaultOfflineHours: number,
  f: { platformId?: number | undefined; moduleIds?: readonly number[] } = {},
): Promise<DeviceDataRecord[]> {
  const r = await sql<{
    id: number;
    device_name: string;
    number: string;
    platform_id: number;
    platform_name: string;
    module_id: number;
    state: string;
    online: boolean;
    last_reading_at: Date | string | null;
    last_values: unknown;
  }>`
    select d.id, d.device_name, d.number, d.platform_id, p.name as platform_name, d.module_id, d.state,
      ${onlineSql('d', defaultOfflineHours)} as online, d.last_reading_at, d.last_values
    from devices d join platforms p on p.id = d.platform_id
    where ${scopeSql(scope, 'd.platform_id')}
      ${f.platformId !== undefined ? sql`and d.platform_id = ${isDbId(f.platformId) ? f.platformId : -1}` : sql``}
      ${f.moduleIds ? sql`and d.module_id = any(${[...f.moduleIds]}::int[])` : sql``}
    order by p.name, d.platform_id, d.module_id, d.device_name, d.id`.execute(db.k);
  return r.rows.map((x) => ({
    id: x.id,
    name: x.device_name,
    number: x.number,
    platformId: x.platform_id,
    platformName: x.platform_name,
    moduleId: Number(x.module_id),
    state: x.state,
    online: !!x.online,
    lastReadingAt: isoOrNull(x.last_reading_at),
    lastValues: json<Record<string, unknown>>(x.last_values) ?? {},
  }));
}

/** A site of the scope (by id, or the first by name when none is given) with its coordinates. */
export async function siteOf(db: Db, scope: DataScope, platformId: number | undefined) {
  if (platformId !== undefined && !isDbId(platformId)) return undefined;
  const r = await sql<{ id: number; name: string; lon: number | null; lat: number | null }>`
    select p.id, p.name, p.lon, p.lat from platforms p
    where ${scopeSql(scope, 'p.id')} ${platformId !== undefined ? sql`and p.id = ${platformId}` : sql``}
    order by p.name, p.id limit 1`.execute(db.k);
  return r.rows[0];
}
