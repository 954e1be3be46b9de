import { CompiledQuery, sql } from 'kysely';
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

/** The devices of these numbers (one statement per 1,000 numbers); numbers not found are missing. */
export async function devicesByNumber(db: Db, numbers: readonly string[]): Promise<Map<string, DeviceRecord>> {
  const out = new Map<string, DeviceRecord>();
  for (let i = 0; i < numbers.length; i += 1000) {
    const rows = await db.k
      .selectFrom('devices')
      .select(['id', 'number', 'platform_id', 'terminal_id', 'module_id', 'offline_hours', 'state'])
      .where('number', 'in', numbers.slice(i, i + 1000))
      .execute();
    for (const r of rows)
      out.set(r.number, {
        id: r.id,
        number: r.number,
        platformId: r.platform_id,
        terminalId: r.terminal_id,
        moduleId: r.module_id,
        offlineHours: r.offline_hours,
        state: r.state,
      });
  }
  return out;
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

/**
 * Each device's newest values and last-seen time from the CTE `merged` (device_id, ts, vals); answers `upd`
 * (id, platform_id, old_state). Imported readings (`imported`) only move the newest values when newer: the
 * device was not heard from, so its last-seen time and state stay.
 */
const deviceUpdate = (imported: boolean): string => `
  -- no key update: the lock the update takes anyway; it does not block foreign-key checks (alerts, hits)
  old as (select id, state from devices where id in (select device_id from merged) order by id for no key update),
  upd as (
    update devices dv set
${
  imported
    ? ''
    : `      -- last_seen_at is indexed: moving it at most every 30 s keeps most of these updates HOT (no index writes).
      last_seen_at = case when dv.last_seen_at > now() - interval '30 seconds' then dv.last_seen_at else now() end,
      state = case when dv.state = 'offline' then 'normal' else dv.state end,
`
}      last_values = case when dv.last_reading_at is null or m.ts >= dv.last_reading_at
                         then dv.last_values || m.vals else dv.last_values end,
      last_reading_at = greatest(dv.last_reading_at, m.ts)
    from merged m, old o
    where dv.id = m.device_id and o.id = dv.id
    returning dv.id, dv.platform_id, ${imported ? `'imported'::text` : 'o.state'} as old_state)`;

/** Merges per-bucket aggregates (the `source` query, in column order) into a rollup table. */
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

/** Epoch milliseconds (float8) to timestamptz, without text parsing. */
const msToTs = (x: string): string => `to_timestamp(${x} / 1000.0)`;

/** The batch's own bucket aggregates, passed as column arrays ($4.. for hours, $15.. for days). */
const bucketsFrom = (first: number, when = '(select fresh from counted)'): string => `
  select d, q, ${msToTs('b')}, n, tot, mn, mx, ${msToTs('fts')}, fv, ${msToTs('lts')}, lv
  from unnest($${first}::int[], $${first + 1}::text[], $${first + 2}::float8[], $${first + 3}::int[],
              $${first + 4}::float8[], $${first + 5}::float8[], $${first + 6}::float8[], $${first + 7}::float8[],
              $${first + 8}::float8[], $${first + 9}::float8[], $${first + 10}::float8[])
         as x(d, q, b, n, tot, mn, mx, fts, fv, lts, lv)
  where ${when}`;

/**
 * The raw insert of a batch. Imported readings carry their import's id (parameter `$importParam`) and were
 * "received" at their own time (never later than now): the alert catch-up after a restart judges what was
 * received lately, and history is not news.
 */
const insertReadings = (imported: boolean, importParam: number): string =>
  imported
    ? `insert into readings (device_id, ts, vals, import_id, received_at)
    select d, ${msToTs('t')}, v, $${importParam}::bigint, least(now(), ${msToTs('t')})
    from unnest($1::int[], $2::float8[], $3::jsonb[]) as x(d, t, v)`
    : `insert into readings (device_id, ts, vals)
    select d, ${msToTs('t')}, v from unnest($1::int[], $2::float8[], $3::jsonb[]) as x(d, t, v)`;

/**
 * The whole batch as ONE statement (one round trip, committed on its own): the raw insert (a repeat of a
 * stored (device, ts) is skipped), the hour and day rollups, and each device's newest values and last-seen
 * time. It answers the inserted readings (device and time) and the devices that were offline.
 *
 * The rollups and newest values of a batch are computed in JS and passed as arrays: when every reading of the
 * batch was new (`fresh`, the usual case) they are merged as they are. When some were repeats of stored ones,
 * that path writes nothing and the same is computed in SQL from what was inserted. All data-modifying parts
 * see the same snapshot and commit together.
 *
 * $1..$3 readings (device, epoch ms, values), $4..$14 hour buckets, $15..$25 day buckets, $26..$28 newest
 * values per device (device, epoch ms, values), $29 the batch size.
 */
const batchSql = (imported: boolean): string => `
  with ins as (
    ${insertReadings(imported, 30)}
    on conflict (device_id, ts) do nothing
    returning device_id, ts, vals),
  counted as materialized (select count(*) = $29::int as fresh from ins),
  h as (${rollupMerge('readings_hourly', bucketsFrom(4))}),
  d as (${rollupMerge('readings_daily', bucketsFrom(15))}),
  -- some readings were repeats: the rollups of what was inserted, from SQL
  q as (
    select device_id, ts, e.key as quantity, (e.value #>> '{}')::float8 as v
    from ins, jsonb_each(ins.vals) e
    where not (select fresh from counted) and jsonb_typeof(e.value) = 'number'),
  hb as materialized (
    select device_id, quantity, date_trunc('hour', ts at time zone 'UTC') at time zone 'UTC' as bucket,
           count(*)::int as n, sum(v) as total, min(v) as min_v, max(v) as max_v,
           min(ts) as first_ts, (array_agg(v order by ts))[1] as first_v,
           max(ts) as last_ts, (array_agg(v order by ts desc))[1] as last_v
    from q group by 1, 2, 3),
  h2 as (${rollupMerge('readings_hourly', 'select * from hb')}),
  d2 as (${rollupMerge(
    'readings_daily',
    `select device_id, quantity, date_trunc('day', bucket at time zone 'UTC') at time zone 'UTC', sum(n)::int,
            sum(total), min(min_v), max(max_v), min(first_ts), (array_agg(first_v order by first_ts))[1],
            max(last_ts), (array_agg(last_v order by last_ts desc))[1]
     from hb group by 1, 2, 3`,
  )}),
  merged as (
    select d as device_id, ${msToTs('t')} as ts, v as vals
    from unnest($26::int[], $27::float8[], $28::jsonb[]) as x(d, t, v) where (select fresh from counted)
    union all
    select device_id, max(ts), jsonb_object_agg(e.key, e.value order by ts)
    from ins, jsonb_each(ins.vals) e where not (select fresh from counted) group by device_id),
${deviceUpdate(imported)}
  select 0 as k, device_id as id, round(date_part('epoch', ts) * 1000) as ms, null::int as platform_id from ins
  union all
  select 1, id, null, platform_id from upd where old_state = 'offline'
  union all
  select 2, (select count(*) from h) + (select count(*) from h2), null, null
  union all
  select 3, (select count(*) from d) + (select count(*) from d2), null, null`;

/**
 * The usual case as a leaner statement: a plain insert (no conflict handling, nothing answered per reading)
 * with the batch's rollups and newest values from JS. A batch holding a repeat of a stored reading fails
 * with a unique violation and changes nothing; writeBatch then writes it with BATCH_SQL. Parameters as
 * BATCH_SQL's without $29.
 */
const freshSql = (imported: boolean): string => `
  with ins as (
    ${insertReadings(imported, 29)}
    returning 1),
  -- The order matters with batches written at the same time: first the insert (which locks no shared row),
  -- then the rollups, then the devices, so the rows other batches wait for are held only at the end.
  h as (${rollupMerge('readings_hourly', bucketsFrom(4, '(select count(*) from ins) >= 0'))}),
  d as (${rollupMerge('readings_daily', bucketsFrom(15, '(select count(*) from ins) >= 0'))}),
  merged as (select d as device_id, ${msToTs('t')} as ts, v as vals
             from unnest($26::int[], $27::float8[], $28::jsonb[]) as x(d, t, v)
             where (select count(*) from h) + (select count(*) from d) >= 0),
  ${deviceUpdate(imported)}
  select id, platform_id from upd where old_state = 'offline'`;

const BATCH_SQL = batchSql(false);
const FRESH_SQL = freshSql(false);
const BATCH_SQL_IMPORT = batchSql(true);
const FRESH_SQL_IMPORT = freshSql(true);

const UNIQUE_VIOLATION = '23505';

/** Per-bucket aggregates of a batch, as the column arrays BATCH_SQL takes. */
class BatchBuckets {
  private at = new Map<number | string, number>();
  readonly cols: [
    number[],
    string[],
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
  ] = [[], [], [], [], [], [], [], [], [], [], []];

  /** `slot` numbers the bucket (hours or days since the epoch). */
  add(deviceId: number, quantity: string, bucket: number, slot: number, ts: number, v: number): void {
    const key = bucketKey(deviceId, quantity, slot);
    const [d, q, b, n, tot, mn, mx, fts, fv, lts, lv] = this.cols;
    const i = this.at.get(key);
    if (i === undefined) {
      this.at.set(key, d.length);
      d.push(deviceId);
      q.push(quantity);
      b.push(bucket);
      n.push(1);
      tot.push(v);
      mn.push(v);
      mx.push(v);
      fts.push(ts);
      fv.push(v);
      lts.push(ts);
      lv.push(v);
      return;
    }
    n[i]!++;
    tot[i]! += v;
    if (v < mn[i]!) mn[i] = v;
    if (v > mx[i]!) mx[i] = v;
    if (ts < fts[i]!) {
      fts[i] = ts;
      fv[i] = v;
    }
    if (ts >= lts[i]!) {
      lts[i] = ts;
      lv[i] = v;
    }
  }
}

/** Small numbers for quantity names, so a bucket's key is one number (no string built per reading). */
const quantityNo = new Map<string, number>();

function bucketKey(deviceId: number, quantity: string, slot: number): number | string {
  let q = quantityNo.get(quantity);
  if (q === undefined && quantityNo.size < 256) quantityNo.set(quantity, (q = quantityNo.size));
  // 24 bits of device, 20 of slot, 8 of quantity: exact in a double (2^52).
  if (q !== undefined && deviceId >= 0 && deviceId < 2 ** 24 && slot >= 0 && slot < 2 ** 20)
    return (deviceId * 2 ** 20 + slot) * 256 + q;
  return `${deviceId}\u0000${quantity}\u0000${slot}`;
}

/** A PostgreSQL array literal of numbers (finite), built at once instead of element by element by the driver. */
const numberArray = (xs: readonly number[]): string => `{${xs.join(',')}}`;

/** A PostgreSQL array literal of strings: each quoted, with `"` and `\` escaped. */
function textArray(xs: readonly string[]): string {
  if (xs.length === 0) return '{}';
  // \u0001 never occurs in the strings given here (JSON text and quantity names): it separates them.
  return `{"${xs.join('\u0001').replace(/["\\]/g, '\\$&').replaceAll('\u0001', '","')}"}`;
}

/** The bucket columns as array literals, in BATCH_SQL's parameter order. */
const bucketParams = (b: BatchBuckets): string[] =>
  b.cols.map((c, i) => (i === 1 ? textArray(c as string[]) : numberArray(c as number[])));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Stores a batch (readings with distinct (device, ts)): raw readings, hour and day rollups, and the
 * devices' newest values, in one statement. When this returns, the batch is committed. FRESH_SQL first;
 * when a reading repeats a stored one (or `expectRepeats`), BATCH_SQL, which skips the repeats.
 *
 * With `importId` (data import): the readings are marked with it, and the devices' last-seen time and state
 * are left alone (see deviceUpdate). `db` may be a transaction's (`{ ...db, k: tx }`): then the caller commits,
 * and `expectRepeats` should be set (a failed statement would end the transaction).
 */
export async function writeBatch(
  db: Db,
  rows: readonly ReadingRow[],
  opts: { expectRepeats?: boolean; importId?: number } = {},
): Promise<BatchResult> {
  const imported = opts.importId !== undefined;
  const query = batchStatement(rows, opts.importId);
  if (!opts.expectRepeats)
    try {
      const fresh = await db.k.executeQuery<{ id: number; platform_id: number | null }>(
        CompiledQuery.raw(imported ? FRESH_SQL_IMPORT : FRESH_SQL, [
          ...query.parameters.slice(0, 28),
          ...(imported ? [opts.importId] : []),
        ]),
      );
      return {
        inserted: [...rows],
        cameOnline: fresh.rows.map((r) => ({ deviceId: r.id, platformId: r.platform_id })),
      };
    } catch (e) {
      if ((e as { code?: unknown }).code !== UNIQUE_VIOLATION) throw e;
    }
  // Some readings repeat stored ones: skip those (and leave them out of the rollups).
  const res = await db.k.executeQuery<{ k: number; id: number; ms: number | null; platform_id: number | null }>(query);
  const byKey = new Map<string, ReadingRow>();
  for (const r of rows) byKey.set(`${r.deviceId}:${r.ts}`, r);
  const inserted: ReadingRow[] = [];
  const cameOnline: BatchResult['cameOnline'] = [];
  for (const r of res.rows) {
    if (r.k === 0) {
      const row = byKey.get(`${r.id}:${Number(r.ms)}`);
      if (row) inserted.push(row);
    } else if (r.k === 1) cameOnline.push({ deviceId: r.id, platformId: r.platform_id });
  }
  return { inserted, cameOnline };
}

/** BATCH_SQL with the parameters of `rows` (FRESH_SQL takes the first 28); with `importId`, its import variant. */
export function batchStatement(rows: readonly ReadingRow[], importId?: number): CompiledQuery {
  const ids: number[] = new Array(rows.length);
  const tss: number[] = new Array(rows.length);
  const vals: string[] = new Array(rows.length);
  const hours = new BatchBuckets();
  const days = new BatchBuckets();
  const newest = new Map<number, { ts: number; values: Record<string, number> }>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    ids[i] = r.deviceId;
    tss[i] = r.ts;
    vals[i] = JSON.stringify(r.values);
    const hourSlot = Math.floor(r.ts / HOUR);
    const daySlot = Math.floor(r.ts / DAY);
    for (const q in r.values) {
      const v = r.values[q]!;
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      hours.add(r.deviceId, q, hourSlot * HOUR, hourSlot, r.ts, v);
      days.add(r.deviceId, q, daySlot * DAY, daySlot, r.ts, v);
    }
    // Newest values per device: later readings' quantities over earlier ones (as jsonb_object_agg by time).
    const m = newest.get(r.deviceId);
    if (!m) newest.set(r.deviceId, { ts: r.ts, values: { ...r.values } });
    else if (r.ts >= m.ts) {
      m.ts = r.ts;
      Object.assign(m.values, r.values);
    } else for (const q in r.values) if (!(q in m.values)) m.values[q] = r.values[q]!;
  }
  const query = CompiledQuery.raw(importId === undefined ? BATCH_SQL : BATCH_SQL_IMPORT, [
    numberArray(ids),
    numberArray(tss),
    textArray(vals),
    ...bucketParams(hours),
    ...bucketParams(days),
    numberArray([...newest.keys()]),
    numberArray([...newest.values()].map((m) => m.ts)),
    textArray([...newest.values()].map((m) => JSON.stringify(m.values))),
    rows.length,
    ...(importId === undefined ? [] : [importId]),
  ]);
  return query;
}

/** Devices silent for longer than their offline hours (default when unset) become offline. */
export async function markOffline(
  db: Db,
  defaultHours: number,
): Promise<{ deviceId: number; platformId: number | null }[]> {
  // Rows locked in id order first (a locking CTE is materialized), the order ingest batches lock them in.
  const r = await sql<{ id: number; platform_id: number | null }>`
    with l as (
      select id from devices
      where state <> 'offline' and platform_id is not null
        and (last_seen_at is null or last_seen_at < now() - make_interval(secs => coalesce(offline_hours, ${defaultHours}) * 3600))
      order by id for no key update)
    update devices d set state = 'offline'
    from l
    where d.id = l.id
    returning d.id, d.platform_id`.execute(db.k);
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
