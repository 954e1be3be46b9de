import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

/** A reading ready to store: the device id is resolved, values checked. */
export interface ReadingRow {
  deviceId: number;
  ts: number;
  values: Record<string, number>;
}

export interface DeviceRecord {
  id: number;
  number: string;
  platformId: number | null;
  terminalId: number | null;
  moduleId: number;
  offlineHours: number | null;
  state: string;
}

export async function deviceByNumber(db: Db, number: string): Promise<DeviceRecord | undefined> {
  const r = await db.k
    .selectFrom('devices')
    .select(['id', 'number', 'platform_id', 'terminal_id', 'module_id', 'offline_hours', 'state'])
    .where('number', '=', number)
    .executeTakeFirst();
  return r
    ? {
        id: r.id,
        number: r.number,
        platformId: r.platform_id,
        terminalId: r.terminal_id,
        moduleId: r.module_id,
        offlineHours: r.offline_hours,
        state: r.state,
      }
    : undefined;
}

/** Name of the monthly partition holding a timestamp. */
export function partitionOf(ts: number): { name: string; from: string; to: string } {
  const d = new Date(ts);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const from = new Date(Date.UTC(y, m, 1)).toISOString();
  const to = new Date(Date.UTC(y, m + 1, 1)).toISOString();
  return { name: `readings_y${y}m${String(m + 1).padStart(2, '0')}`, from, to };
}

/** Creates the monthly partition if it is missing (idempotent; safe with several writers). */
export async function ensurePartition(db: Db, ts: number): Promise<string> {
  const p = partitionOf(ts);
  await sql
    .raw(`create table if not exists ${p.name} partition of readings for values from ('${p.from}') to ('${p.to}')`)
    .execute(db.k);
  return p.name;
}

/** Partitions that exist now, oldest first. */
export async function listPartitions(db: Db): Promise<string[]> {
  const r = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname = 'readings' order by c.relname`.execute(db.k);
  return r.rows.map((x) => x.name);
}

export async function dropPartition(db: Db, name: string): Promise<void> {
  if (!/^readings_y\d{4}m\d{2}$/.test(name)) throw new Error(`not a readings partition: ${name}`);
  await sql.raw(`drop table if exists ${name}`).execute(db.k);
}

export interface BatchResult {
  /** The readings actually inserted (repeats of stored ones are left out). */
  inserted: ReadingRow[];
  /** Devices whose state changed from offline to normal with this batch. */
  cameOnline: { deviceId: number; platformId: number | null }[];
}

/** Merges per-bucket aggregates of a batch (the `source` query, in column order) into a rollup table. */
const rollupMerge = (table: 'readings_hourly' | 'readings_daily', source: string): string => `
  insert into ${table} as r (device_id, quantity, bucket, n, total, min_v, max_v, first_ts, first_v, last_ts, last_v)
  select * from (${source}) s order by 1, 2, 3
  on conflict (device_id, quantity, bucket) do update set
    n = r.n + excluded.n,
    total = r.total + excluded.total,
    min_v = least(r.min_v, excluded.min_v),
    max_v = greatest(r.max_v, excluded.max_v),
    first_v = case when excluded.first_ts < r.first_ts then excluded.first_v else r.first_v end,
    first_ts = least(r.first_ts, excluded.first_ts),
    last_v = case when excluded.last_ts >= r.last_ts then excluded.last_v else r.last_v end,
    last_ts = greatest(r.last_ts, excluded.last_ts)
  returning 1`;

/**
 * The whole batch as ONE statement (one round trip, committed on its own): the raw insert (a repeat of
 * a stored (device, ts) is skipped), the hour buckets of what was inserted, the hour and day rollups
 * merged from those buckets, and each device's newest values and last-seen time. It answers the
 * inserted readings (device and time) and the devices that were offline. All data-modifying parts see
 * the same snapshot and commit together.
 */
const BATCH_REST = `,
  q as (
    select device_id, ts, e.key as quantity, (e.value #>> '{}')::float8 as v
    from ins, jsonb_each(ins.vals) e where jsonb_typeof(e.value) = 'number'),
  hb as materialized (
    select device_id, quantity, date_trunc('hour', ts at time zone 'UTC') at time zone 'UTC' as bucket,
           count(*)::int as n, sum(v) as total, min(v) as min_v, max(v) as max_v,
           min(ts) as first_ts, (array_agg(v order by ts))[1] as first_v,
           max(ts) as last_ts, (array_agg(v order by ts desc))[1] as last_v
    from q group by 1, 2, 3),
  h as (${'${HOURLY}'}),
  d as (${'${DAILY}'}),
  merged as (
    select device_id, max(ts) as ts, jsonb_object_agg(e.key, e.value order by ts) as vals
    from ins, jsonb_each(ins.vals) e group by device_id),
  -- no key update: the lock the update takes anyway; it does not block foreign-key checks (alerts, hits)
  old as (select id, state from devices where id in (select device_id from merged) order by id for no key update),
  upd as (
    update devices dv set
      -- last_seen_at is indexed: moving it at most every 30 s keeps most of these updates HOT (no index writes).
      last_seen_at = case when dv.last_seen_at > now() - interval '30 seconds' then dv.last_seen_at else now() end,
      last_values = case when dv.last_reading_at is null or m.ts >= dv.last_reading_at
                         then dv.last_values || m.vals else dv.last_values end,
      last_reading_at = greatest(dv.last_reading_at, m.ts),
      state = case when dv.state = 'offline' then 'normal' else dv.state end
    from merged m, old o
    where dv.id = m.device_id and o.id = dv.id
    returning dv.id, dv.platform_id, o.state as old_state)
  select 0 as k, device_id as id, (extract(epoch from ts) * 1000)::float8 as ms, null::int as platform_id from ins
  union all
  select 1, id, null, platform_id from upd where old_state = 'offline'
  union all
  select 2, count(*)::int, null, null from h
  union all
  select 3, count(*)::int, null, null from d`
  .replace('${HOURLY}', rollupMerge('readings_hourly', 'select * from hb'))
  .replace(
    '${DAILY}',
    rollupMerge(
      'readings_daily',
      `select device_id, quantity, date_trunc('day', bucket at time zone 'UTC') at time zone 'UTC', sum(n)::int,
              sum(total), min(min_v), max(max_v), min(first_ts), (array_agg(first_v order by first_ts))[1],
              max(last_ts), (array_agg(last_v order by last_ts desc))[1]
       from hb group by 1, 2, 3`,
    ),
  );

/**
 * Stores a batch (readings with distinct (device, ts)): raw readings, hour and day rollups, and the
 * devices' newest values, in one statement. When this returns, the batch is committed.
 */
export async function writeBatch(db: Db, rows: readonly ReadingRow[]): Promise<BatchResult> {
  const ids: number[] = new Array(rows.length);
  const tss: string[] = new Array(rows.length);
  const vals: string[] = new Array(rows.length);
  const byKey = new Map<string, ReadingRow>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    ids[i] = r.deviceId;
    tss[i] = new Date(r.ts).toISOString();
    vals[i] = JSON.stringify(r.values);
    byKey.set(`${r.deviceId}:${r.ts}`, r);
  }
  const res = await sql<{ k: number; id: number; ms: number | null; platform_id: number | null }>`
    with ins as (
      insert into readings (device_id, ts, vals)
      select * from unnest(${ids}::int[], ${tss}::timestamptz[], ${vals}::jsonb[])
      on conflict (device_id, ts) do nothing
      returning device_id, ts, vals) ${sql.raw(BATCH_REST)}`.execute(db.k);
  const inserted: ReadingRow[] = [];
  const cameOnline: BatchResult['cameOnline'] = [];
  for (const r of res.rows) {
    if (r.k === 0) {
      const row = byKey.get(`${r.id}:${r.ms}`);
      if (row) inserted.push(row);
    } else if (r.k === 1) cameOnline.push({ deviceId: r.id, platformId: r.platform_id });
  }
  return { inserted, cameOnline };
}

/** Devices silent for longer than their offline hours (default when unset) become offline. */
export async function markOffline(
  db: Db,
  defaultHours: number,
): Promise<{ deviceId: number; platformId: number | null }[]> {
  const r = await sql<{ id: number; platform_id: number | null }>`
    update devices set state = 'offline'
    where state <> 'offline' and platform_id is not null
      and (last_seen_at is null or last_seen_at < now() - make_interval(secs => coalesce(offline_hours, ${defaultHours}) * 3600))
    returning id, platform_id`.execute(db.k);
  return r.rows.map((x) => ({ deviceId: x.id, platformId: x.platform_id }));
}

/** Adds to the per-day rejection counters. */
export async function countRejections(db: Db, counts: Map<string, number>): Promise<void> {
  if (counts.size === 0) return;
  const day = new Date().toISOString().slice(0, 10);
  // One statement: a failed flush adds nothing, so the caller may retry it whole.
  await sql`insert into ingest_rejections (day, reason, n)
    select ${day}::date, * from unnest(${[...counts.keys()]}::text[], ${[...counts.values()]}::int[])
    on conflict (day, reason) do update set n = ingest_rejections.n + excluded.n`.execute(db.k);
}
