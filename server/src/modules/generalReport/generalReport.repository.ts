// All SQL of the general report. Times in and out are epoch milliseconds or ISO strings (UTC).
import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { json } from '../../platform/db/sql.ts';

export interface SiteDevice {
  id: number;
  name: string;
  moduleId: number;
  state: string;
  params: Record<string, unknown>;
}

const ts = (t: number) => new Date(t).toISOString();

/** The devices of a site in the caller's scope, by name. */
export async function siteDevices(db: Db, scope: DataScope, platformId: number): Promise<SiteDevice[]> {
  const rows = await whereInScope(
    db.k
      .selectFrom('devices as d')
      .select(['d.id', 'd.device_name', 'd.module_id', 'd.state', 'd.params'])
      .where('d.platform_id', '=', platformId),
    scope,
    'd.platform_id',
  )
    .orderBy('d.device_name')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.device_name,
    moduleId: r.module_id,
    state: r.state,
    params: json<Record<string, unknown>>(r.params) ?? {},
  }));
}

/** Readings per device in [from, to). */
export async function readingCounts(db: Db, ids: number[], from: number, to: number): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const r = await sql<{ device_id: number; n: number }>`
    select device_id, count(*)::int as n from readings
    where device_id in (${sql.join(ids)}) and ts >= ${ts(from)}::timestamptz and ts < ${ts(to)}::timestamptz
    group by device_id`.execute(db.k);
  return new Map(r.rows.map((x) => [Number(x.device_id), Number(x.n)]));
}

/** The first and the last reading of each device in [from, to). */
export async function firstAndLast(
  db: Db,
  ids: number[],
  from: number,
  to: number,
): Promise<{ deviceId: number; first: Record<string, unknown>; last: Record<string, unknown> }[]> {
  if (!ids.length) return [];
  const r = await sql<{ device_id: number; first: unknown; last: unknown }>`
    select d.id as device_id,
      (select vals from readings where device_id = d.id and ts >= ${ts(from)}::timestamptz and ts < ${ts(to)}::timestamptz order by ts asc limit 1) as first,
      (select vals from readings where device_id = d.id and ts >= ${ts(from)}::timestamptz and ts < ${ts(to)}::timestamptz order by ts desc limit 1) as last
    from devices d where d.id in (${sql.join(ids)})`.execute(db.k);
  return r.rows
    .filter((x) => x.first !== null && x.last !== null)
    .map((x) => ({
      deviceId: Number(x.device_id),
      first: json<Record<string, unknown>>(x.first),
      last: json<Record<string, unknown>>(x.last),
    }));
}

export interface PeriodAlert {
  id: number;
  deviceId: number;
  quantity: string | null;
  level: number;
  status: string;
  firstAt: string;
  lastValue: number | null;
  actions: { at: string; action: string; userName: string | null }[];
}

/** Alerts of a site that were open during [from, to) (first before the end, last after the start), oldest first. */
export async function periodAlerts(
  db: Db,
  platformId: number,
  from: number,
  to: number,
  limit: number,
): Promise<PeriodAlert[]> {
  const r = await sql<{
    id: number;
    device_id: number;
    quantity: string | null;
    level: number;
    status: string;
    first_at: Date | string;
    last_value: number | null;
  }>`
    select id, device_id, quantity, level, status, first_at, last_value from alerts
    where platform_id = ${platformId} and first_at < ${ts(to)}::timestamptz and last_at >= ${ts(from)}::timestamptz
    order by first_at, id limit ${limit}`.execute(db.k);
  const ids = r.rows.map((x) => x.id);
  const acts = ids.length
    ? (
        await sql<{ alert_id: number; at: Date | string; action: string; user_name: string | null }>`
        select alert_id, at, action, user_name from alert_actions where alert_id in (${sql.join(ids)}) order by at, id`.execute(
          db.k,
        )
      ).rows
    : [];
  const iso = (v: Date | string) => new Date(v).toISOString();
  return r.rows.map((x) => ({
    id: x.id,
    deviceId: Number(x.device_id),
    quantity: x.quantity,
    level: Number(x.level),
    status: x.status,
    firstAt: iso(x.first_at),
    lastValue: x.last_value === null ? null : Number(x.last_value),
    actions: acts
      .filter((a) => a.alert_id === x.id)
      .map((a) => ({ at: iso(a.at), action: a.action, userName: a.user_name })),
  }));
}

/**
 * Each device's quantity per local hour or day of `timeZone` in [from, to), from the hourly rollups: the mean
 * (total / readings) and the total (accumulated quantities such as rainfall chart their totals).
 */
export async function bucketMeans(
  db: Db,
  ids: number[],
  from: number,
  to: number,
  unit: 'hour' | 'day',
  timeZone: string,
): Promise<{ deviceId: number; quantity: string; t: number; avg: number; sum: number }[]> {
  if (!ids.length) return [];
  const r = await sql<{ device_id: number; quantity: string; t: number; avg: number; sum: number }>`
    select device_id, quantity,
      (extract(epoch from (date_trunc(${unit}, bucket at time zone ${timeZone}) at time zone ${timeZone})) * 1000)::float8 as t,
      sum(total) / sum(n) as avg, sum(total) as sum
    from readings_hourly
    where device_id in (${sql.join(ids)}) and bucket >= ${ts(from)}::timestamptz and bucket < ${ts(to)}::timestamptz
    group by 1, 2, 3 order by 1, 2, 3`.execute(db.k);
  return r.rows.map((x) => ({
    deviceId: Number(x.device_id),
    quantity: x.quantity,
    t: Number(x.t),
    avg: Number(x.avg),
    sum: Number(x.sum),
  }));
}
