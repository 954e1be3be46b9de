import { sql, type Kysely } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';

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

const rollupUpsert = (table: 'readings_hourly' | 'readings_daily', unit: 'hour' | 'day'): string => `
  insert into ${table} as r (device_id, quantity, bucket, n, total, min_v, max_v, first_ts, first_v, last_ts, last_v)
  select device_id, quantity, date_trunc('${unit}', ts at time zone 'UTC') at time zone 'UTC', count(*), sum(v), min(v), max(v),
         min(ts), (array_agg(v order by ts))[1], max(ts), (array_agg(v order by ts desc))[1]
  from q group by 1, 2, 3 order by 1, 2, 3
  on conflict (device_id, quantity, bucket) do update set
    n = r.n + excluded.n,
    total = r.total + excluded.total,
    min_v = least(r.min_v, excluded.min_v),
    max_v = greatest(r.max_v, excluded.max_v),
    first_v = case when excluded.first_ts < r.first_ts then excluded.first_v else r.first_v end,
    first_ts = least(r.first_ts, excluded.first_ts),
    last_v = case when excluded.last_ts >= r.last_ts then excluded.last_v else r.last_v end,
    last_ts = greatest(r.last_ts, excluded.last_ts)`;

/**
 * Stores a batch in one transaction: the raw readings (a repeat of a stored (device, ts) is skipped),
 * the hour and day rollups of what was inserted, and each device's newest values and last-seen time.
 * When this returns, the batch is committed.
 */
export async function writeBatch(db: Db, rows: readonly ReadingRow[]): Promise<BatchResult> {
  const ids: number[] = [];
  const tss: string[] = [];
  const vals: string[] = [];
  for (const r of rows) {
    ids.push(r.deviceId);
    tss.push(new Date(r.ts).toISOString());
    vals.push(JSON.stringify(r.values));
  }
  return db.k.transaction().execute(async (tx: Kysely<Database>) => {
    const ins = await sql<{ device_id: number; ts: Date; vals: Record<string, number> }>`
      insert into readings (device_id, ts, vals)
      select * from unnest(${ids}::int[], ${tss}::timestamptz[], ${vals}::jsonb[])
      on conflict (device_id, ts) do nothing
      returning device_id, ts, vals`.execute(tx);
    const inserted: ReadingRow[] = ins.rows.map((r) => ({
      deviceId: r.device_id,
      ts: new Date(r.ts).getTime(),
      values: typeof r.vals === 'string' ? (JSON.parse(r.vals) as Record<string, number>) : r.vals,
    }));
    if (inserted.length === 0) return { inserted, cameOnline: [] };
    const iIds: number[] = [];
    const iTs: string[] = [];
    const iVals: string[] = [];
    for (const r of inserted) {
      iIds.push(r.deviceId);
      iTs.push(new Date(r.ts).toISOString());
      iVals.push(JSON.stringify(r.values));
    }
    const q = sql`with src as (select * from unnest(${iIds}::int[], ${iTs}::timestamptz[], ${iVals}::jsonb[]) as s(device_id, ts, vals)),
      q as (select device_id, ts, e.key as quantity, (e.value #>> '{}')::float8 as v
            from src, jsonb_each(src.vals) e where jsonb_typeof(e.value) = 'number')`;
    await sql`${q} ${sql.raw(rollupUpsert('readings_hourly', 'hour'))}`.execute(tx);
    await sql`${q} ${sql.raw(rollupUpsert('readings_daily', 'day'))}`.execute(tx);
    const online = await sql<{ id: number; platform_id: number | null; old_state: string }>`
      with src as (select * from unnest(${iIds}::int[], ${iTs}::timestamptz[], ${iVals}::jsonb[]) as s(device_id, ts, vals)),
      merged as (select device_id, max(ts) as ts, jsonb_object_agg(e.key, e.value order by ts) as vals
                 from src, jsonb_each(src.vals) e group by device_id),
      old as (select id, state from devices where id in (select device_id from merged) order by id for update)
      update devices d set
        last_seen_at = now(),
        last_values = case when d.last_reading_at is null or m.ts >= d.last_reading_at
                           then d.last_values || m.vals else d.last_values end,
        last_reading_at = greatest(d.last_reading_at, m.ts),
        state = case when d.state = 'offline' then 'normal' else d.state end
      from merged m, old o
      where d.id = m.device_id and o.id = d.id
      returning d.id, d.platform_id, o.state as old_state`.execute(tx);
    return {
      inserted,
      cameOnline: online.rows
        .filter((r) => r.old_state === 'offline')
        .map((r) => ({ deviceId: r.id, platformId: r.platform_id })),
    };
  });
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
  for (const [reason, n] of counts) {
    await sql`insert into ingest_rejections (day, reason, n) values (${day}, ${reason}, ${n})
      on conflict (day, reason) do update set n = ingest_rejections.n + excluded.n`.execute(db.k);
  }
}
