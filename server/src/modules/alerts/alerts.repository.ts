import { sql, type Kysely } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { json, scopeSql } from '../../platform/db/sql.ts';
import { isDbId, iso, isoOrNull, likePattern, orderBy } from '../../platform/db/sql.ts';
import { inRegionSubtree } from '../regions/index.ts';

/** SQL of the alerts themselves: lists, detail, the handling workflow, counts and the report. */

type Tx = Kysely<Database>;

// ------------------------------------------------------------------------------------------------------
// Alerts: reads
// ------------------------------------------------------------------------------------------------------

export interface AlertFilter {
  platformId?: number | undefined;
  regionCode?: string | undefined;
  deviceId?: number | undefined;
  level?: number | undefined;
  status?: string | undefined;
  kind?: string | undefined;
  valueType?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  keyword?: string | undefined;
}

function alertsBase(db: Db | Tx, scope: DataScope) {
  const k = 'k' in db ? db.k : db;
  return whereInScope(
    k
      .selectFrom('alerts as a')
      .leftJoin('devices as d', 'd.id', 'a.device_id')
      .leftJoin('platforms as p', 'p.id', 'a.platform_id'),
    scope,
    'a.platform_id',
  );
}

function filteredAlerts(db: Db, scope: DataScope, f: AlertFilter) {
  let q = alertsBase(db, scope);
  if (f.platformId !== undefined) q = q.where('a.platform_id', '=', isDbId(f.platformId) ? f.platformId : -1);
  if (f.deviceId !== undefined) q = q.where('a.device_id', '=', isDbId(f.deviceId) ? f.deviceId : -1);
  if (f.regionCode) q = q.where(inRegionSubtree('p.region_code', f.regionCode));
  if (f.level !== undefined) q = q.where('a.level', '=', f.level);
  // `open`: untreated or pre-process, exactly what the open counts (home, getCounts) count.
  if (f.status === 'open') q = q.where('a.status', '<>', 'processed');
  else if (f.status) q = q.where('a.status', '=', f.status);
  if (f.kind) q = q.where('a.kind', '=', f.kind);
  if (f.valueType) q = q.where('a.value_type', '=', f.valueType);
  if (f.from) q = q.where('a.last_at', '>=', f.from.toISOString());
  if (f.to) q = q.where('a.first_at', '<=', f.to.toISOString());
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<boolean>`(lower(coalesce(d.device_name, '')) like ${k} or lower(coalesce(d.number, '')) like ${k}
        or lower(coalesce(p.name, '')) like ${k} or lower(coalesce(a.quantity, '')) like ${k})`,
    );
  }
  return q;
}

const alertCols = [
  'a.id',
  'a.platform_id',
  'p.name as platform_name',
  'p.type as platform_type',
  'a.device_id',
  'd.device_name',
  'd.number',
  'd.module_id',
  'a.quantity',
  'a.kind',
  'a.rule_id',
  'a.relation_id',
  'a.value_type',
  'a.level',
  'a.first_level',
  'a.status',
  'a.threshold',
  'a.first_value',
  'a.last_value',
  'a.metric',
  'a.trigger_value',
  'a.trigger_at',
  'a.count',
  'a.first_at',
  'a.last_at',
  'a.escalated_at',
  'a.processed_at',
  'a.processed_by_name',
  'a.processing',
  'a.group_id',
  'a.channels',
  'a.push_interval_minutes',
] as const;

export interface AlertRecord {
  id: number;
  platformId: number;
  platformName: string;
  platformType: string;
  deviceId: number;
  deviceName: string;
  deviceNumber: string;
  moduleId: number;
  quantity: string | null;
  kind: string;
  ruleId: number | null;
  relationId: number | null;
  valueType: string;
  level: number;
  firstLevel: number;
  status: string;
  threshold: number | null;
  firstValue: number | null;
  lastValue: number | null;
  metric: number | null;
  triggerValue: number | null;
  triggerAt: string | null;
  count: number;
  firstAt: string;
  lastAt: string;
  escalatedAt: string | null;
  processedAt: string | null;
  processedBy: string | null;
  processing: Record<string, unknown> | null;
  groupId: number | null;
  channels: string[];
  pushIntervalMinutes: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const presentAlert = (r: any): AlertRecord => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name ?? '',
  platformType: r.platform_type ?? '',
  deviceId: r.device_id,
  deviceName: r.device_name ?? '',
  deviceNumber: r.number ?? '',
  moduleId: r.module_id ?? 0,
  quantity: r.quantity,
  kind: r.kind,
  ruleId: r.rule_id,
  relationId: r.relation_id,
  valueType: r.value_type,
  level: r.level,
  firstLevel: r.first_level,
  status: r.status,
  threshold: r.threshold,
  firstValue: r.first_value,
  lastValue: r.last_value,
  metric: r.metric,
  triggerValue: r.trigger_value ?? null,
  triggerAt: isoOrNull(r.trigger_at ?? null),
  count: r.count,
  firstAt: iso(r.first_at),
  lastAt: iso(r.last_at),
  escalatedAt: isoOrNull(r.escalated_at),
  processedAt: isoOrNull(r.processed_at),
  processedBy: r.processed_by_name,
  processing: r.processing ? json(r.processing) : null,
  groupId: r.group_id,
  channels: r.channels ?? [],
  pushIntervalMinutes: r.push_interval_minutes,
});

const ALERT_SORT: Record<string, string> = {
  lastAt: 'a.last_at',
  firstAt: 'a.first_at',
  level: 'a.level',
  status: 'a.status',
  platformName: 'p.name',
  deviceName: 'd.device_name',
  count: 'a.count',
};

export async function listAlerts(
  db: Db,
  scope: DataScope,
  f: AlertFilter & {
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: AlertRecord[]; total: number }> {
  const sortCol = ALERT_SORT[f.sortField ?? ''];
  const [rows, total] = await Promise.all([
    filteredAlerts(db, scope, f)
      .select(alertCols)
      .orderBy(orderBy(sortCol ?? 'a.last_at', sortCol ? f.sortOrder : 'descend'))
      .orderBy('a.id', 'desc')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    filteredAlerts(db, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentAlert), total: Number(total.n) };
}

/** Every alert of a filter (export), newest first, capped. */
export async function allAlerts(db: Db, scope: DataScope, f: AlertFilter, cap = 100_000): Promise<AlertRecord[]> {
  const rows = await filteredAlerts(db, scope, f).select(alertCols).orderBy('a.first_at', 'desc').limit(cap).execute();
  return rows.map(presentAlert);
}

export async function alertById(
  db: Db | Tx,
  scope: DataScope,
  id: number,
): Promise<(AlertRecord & { evidence: unknown }) | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await alertsBase(db, scope)
    .select([...alertCols, 'a.evidence'])
    .where('a.id', '=', id)
    .executeTakeFirst();
  return r ? { ...presentAlert(r), evidence: json(r.evidence) } : undefined;
}

/** Locks an alert in the scope for processing; answers its status and device. */
export async function lockAlert(
  tx: Tx,
  scope: DataScope,
  id: number,
): Promise<{ id: number; status: string; deviceId: number; platformId: number; level: number } | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await sql<{ id: number; status: string; device_id: number; platform_id: number; level: number }>`
    select id, status, device_id, platform_id, level from alerts
    where id = ${id} and ${scopeSql(scope, 'platform_id')} for update`.execute(tx);
  const row = r.rows[0];
  return row
    ? { id: row.id, status: row.status, deviceId: row.device_id, platformId: row.platform_id, level: row.level }
    : undefined;
}

export async function saveProcessing(
  tx: Tx,
  id: number,
  p: { status: string; processing: unknown; userId: number; userName: string; finish: boolean },
): Promise<void> {
  await sql`update alerts set status = ${p.status}, processing = ${JSON.stringify(p.processing)}::jsonb,
      updated_at = now()
      ${p.finish ? sql`, processed_at = now(), processed_by = ${p.userId}, processed_by_name = ${p.userName}` : sql``}
    where id = ${id}`.execute(tx);
}

export async function alertActions(db: Db, alertId: number) {
  const rows = await db.k
    .selectFrom('alert_actions')
    .selectAll()
    .where('alert_id', '=', alertId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    at: iso(r.at),
    action: r.action,
    userId: r.user_id,
    userName: r.user_name,
    level: r.level,
    detail: json<Record<string, unknown>>(r.detail) ?? {},
  }));
}

export async function alertHits(db: Db, alertId: number, limit = 100) {
  const rows = await db.k
    .selectFrom('alert_hits')
    .select(['reading_ts', 'level', 'value', 'metric'])
    .where('alert_id', '=', alertId)
    .orderBy('reading_ts', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ts: iso(r.reading_ts), level: r.level, value: r.value, metric: r.metric }));
}

/** Files by id with their type (attachment check). */
export async function filesByIds(db: Db, ids: readonly string[]) {
  if (!ids.length) return [];
  return db.k
    .selectFrom('files')
    .select(['id', 'ext', 'original_name', 'platform_id'])
    .where('id', 'in', [...ids])
    .execute();
}

// ------------------------------------------------------------------------------------------------------
// Counts and report
// ------------------------------------------------------------------------------------------------------

export async function openCountsByLevel(db: Db, scope: DataScope) {
  const r = await sql<{ level: number; status: string; n: number }>`
    select level, status, count(*)::int as n from alerts
    where status <> 'processed' and ${scopeSql(scope, 'platform_id')} group by level, status`.execute(db.k);
  return r.rows.map((x) => ({ level: x.level, status: x.status, n: Number(x.n) }));
}

/** Alerts raised per local day (yyyy-MM-dd in the IANA `timeZone`) since a time. */
export async function raisedPerDay(db: Db, scope: DataScope, since: Date, timeZone = 'UTC') {
  const r = await sql<{ day: string; n: number }>`
    select to_char(date_trunc('day', first_at at time zone ${timeZone}), 'YYYY-MM-DD') as day, count(*)::int as n
    from alerts where first_at >= ${since.toISOString()}::timestamptz and ${scopeSql(scope, 'platform_id')}
    group by 1 order by 1`.execute(db.k);
  return r.rows.map((x) => ({ day: x.day, n: Number(x.n) }));
}

export async function platformsWithAlerts(
  db: Db,
  scope: DataScope,
  f: { platformId?: number | undefined; regionCode?: string | undefined },
) {
  const r = await sql<{
    id: number;
    name: string;
    type: string;
    region_code: string | null;
    lon: number | null;
    lat: number | null;
    l1: number;
    l2: number;
    l3: number;
    l4: number;
    devices: number;
    d_normal: number;
    d_alert: number;
    d_alarm: number;
    d_abnormal: number;
    d_offline: number;
  }>`
    select p.id, p.name, p.type, p.region_code, p.lon, p.lat, ac.l1, ac.l2, ac.l3, ac.l4, ds.devices,
      ds.d_normal, ds.d_alert, ds.d_alarm, ds.d_abnormal, ds.d_offline
    from platforms p
    cross join lateral (
      select count(*) filter (where a.level = 1)::int as l1, count(*) filter (where a.level = 2)::int as l2,
        count(*) filter (where a.level = 3)::int as l3, count(*) filter (where a.level = 4)::int as l4
      from alerts a where a.platform_id = p.id and a.status <> 'processed') ac
    cross join lateral (
      select count(*)::int as devices, count(*) filter (where d.state = 'normal')::int as d_normal,
        count(*) filter (where d.state = 'alert')::int as d_alert, count(*) filter (where d.state = 'alarm')::int as d_alarm,
        count(*) filter (where d.state = 'abnormal')::int as d_abnormal,
        count(*) filter (where d.state = 'offline')::int as d_offline
      from devices d where d.platform_id = p.id) ds
    where ${scopeSql(scope, 'p.id')}
      ${f.platformId !== undefined ? sql`and p.id = ${isDbId(f.platformId) ? f.platformId : -1}` : sql``}
      ${f.regionCode ? sql`and ${inRegionSubtree('p.region_code', f.regionCode)}` : sql``}
    order by p.name, p.id`.execute(db.k);
  return r.rows;
}

export async function reportAggregates(
  db: Db,
  scope: DataScope,
  f: { platformId?: number | undefined; from: Date; to: Date; period: 'day' | 'week' | 'month'; timeZone?: string },
) {
  const where = sql`a.first_at >= ${f.from.toISOString()}::timestamptz and a.first_at <= ${f.to.toISOString()}::timestamptz
    and ${scopeSql(scope, 'a.platform_id')}
    ${f.platformId !== undefined ? sql`and a.platform_id = ${isDbId(f.platformId) ? f.platformId : -1}` : sql``}`;
  const unit = sql.raw(`'${f.period}'`);
  const [levels, sites, types, statuses, periods] = await Promise.all([
    sql<{
      level: number;
      n: number;
    }>`select level, count(*)::int as n from alerts a where ${where} group by level order by level`.execute(db.k),
    sql<{ id: number; name: string; level: number; n: number }>`
      select a.platform_id as id, coalesce(p.name, '') as name, a.level, count(*)::int as n
      from alerts a left join platforms p on p.id = a.platform_id where ${where}
      group by a.platform_id, p.name, a.level order by 2, 1`.execute(db.k),
    sql<{
      value_type: string;
      n: number;
    }>`select value_type, count(*)::int as n from alerts a where ${where} group by value_type order by 2 desc, 1`.execute(
      db.k,
    ),
    sql<{
      status: string;
      n: number;
    }>`select status, count(*)::int as n from alerts a where ${where} group by status`.execute(db.k),
    sql<{ period: string; level: number; n: number }>`
      select to_char(date_trunc(${unit}, a.first_at at time zone ${f.timeZone ?? 'UTC'}), 'YYYY-MM-DD') as period, a.level,
             count(*)::int as n
      from alerts a where ${where} group by 1, 2 order by 1, 2`.execute(db.k),
  ]);
  return {
    levels: levels.rows,
    sites: sites.rows,
    types: types.rows,
    statuses: statuses.rows,
    periods: periods.rows,
  };
}
