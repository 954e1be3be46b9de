// All SQL of the monitoring query API. Times in and out are epoch milliseconds (UTC).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { bucketBounds, isUtcZone } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';

type Q = Kysely<Database>;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export type BucketUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

const iso = (ms: number): string => new Date(ms).toISOString();
const ms = (v: unknown): number => (v instanceof Date ? v.getTime() : new Date(String(v)).getTime());
const tsParam = (t: number): RawBuilder<unknown> => sql`${iso(t)}::timestamptz`;
// date_part answers float8 (extract answers numeric, several times slower over thousands of rows).
const epochMs = (col: string): RawBuilder<number> => sql<number>`round(date_part('epoch', ${sql.ref(col)}) * 1000)`;

/** Start of the UTC bucket holding t (week: Monday). */
export function truncUtc(t: number, unit: BucketUnit): number {
  const d = new Date(t);
  switch (unit) {
    case 'hour':
      return Math.floor(t / HOUR_MS) * HOUR_MS;
    case 'day':
      return Math.floor(t / DAY_MS) * DAY_MS;
    case 'week': {
      const day = Math.floor(t / DAY_MS) * DAY_MS;
      const dow = (new Date(day).getUTCDay() + 6) % 7; // Monday 0
      return day - dow * DAY_MS;
    }
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}
export const ceilUtc = (t: number, unit: 'hour' | 'day'): number => {
  const f = truncUtc(t, unit);
  return f === t ? t : f + (unit === 'hour' ? HOUR_MS : DAY_MS);
};

// ------------------------------------------------------------------------------------------ devices

export interface DeviceRow {
  id: number;
  name: string;
  number: string;
  moduleId: number;
  platformId: number;
  platformName: string;
  state: string;
  lastSeenAt: number | null;
  lastReadingAt: number | null;
  lastValues: Record<string, unknown>;
  offlineHours: number | null;
}

/** Devices bound to a site in the scope, optionally filtered, ordered by site, type and name. */
export async function findDevices(
  db: Db,
  scope: DataScope,
  f: { platformId?: number | undefined; moduleIds?: readonly number[]; deviceIds?: readonly number[] },
): Promise<DeviceRow[]> {
  let q = db.k
    .selectFrom('devices as d')
    .innerJoin('platforms as p', 'p.id', 'd.platform_id')
    .select([
      'd.id',
      'd.device_name',
      'd.number',
      'd.module_id',
      'd.platform_id',
      'p.name as platform_name',
      'd.state',
      'd.last_seen_at',
      'd.last_reading_at',
      'd.last_values',
      'd.offline_hours',
    ]);
  q = whereInScope(q, scope, 'd.platform_id');
  if (f.platformId !== undefined) q = q.where('d.platform_id', '=', f.platformId);
  if (f.moduleIds) q = f.moduleIds.length ? q.where('d.module_id', 'in', [...f.moduleIds]) : q.where(sql.lit(false));
  if (f.deviceIds) q = f.deviceIds.length ? q.where('d.id', 'in', [...f.deviceIds]) : q.where(sql.lit(false));
  const rows = await q
    .orderBy('d.platform_id')
    .orderBy('d.module_id')
    .orderBy('d.device_name')
    .orderBy('d.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.device_name,
    number: r.number,
    moduleId: r.module_id,
    platformId: r.platform_id!,
    platformName: r.platform_name,
    state: r.state,
    lastSeenAt: r.last_seen_at ? ms(r.last_seen_at) : null,
    lastReadingAt: r.last_reading_at ? ms(r.last_reading_at) : null,
    lastValues: (typeof r.last_values === 'string' ? JSON.parse(r.last_values) : (r.last_values ?? {})) as Record<
      string,
      unknown
    >,
    offlineHours: r.offline_hours,
  }));
}

export async function findPlatform(
  db: Db,
  scope: DataScope,
  platformId: number,
): Promise<{ id: number; name: string } | undefined> {
  const q = whereInScope(db.k.selectFrom('platforms').select(['id', 'name']).where('id', '=', platformId), scope, 'id');
  return q.executeTakeFirst();
}

// ---------------------------------------------------------------------------------------- raw series

/** Upper bound of the raw readings of a quantity in [from, to) (hourly rollups of the touched hours). */
export async function countRaw(db: Db, deviceId: number, quantity: string, from: number, to: number): Promise<number> {
  const r = await sql<{ n: number }>`
    select coalesce(sum(n), 0)::float8 as n from readings_hourly
    where device_id = ${deviceId} and quantity = ${quantity}
      and bucket >= ${tsParam(truncUtc(from, 'hour'))} and bucket < ${tsParam(to)}`.execute(db.k);
  return Number(r.rows[0]?.n ?? 0);
}

/** The numeric values of a quantity in [from, to), by time (PK index, partitions pruned by the range). */
export async function rawSeries(
  db: Db | Q,
  deviceId: number,
  quantity: string,
  from: number,
  to: number,
): Promise<{ t: number[]; v: number[] }> {
  const k = 'k' in db ? db.k : db;
  const r = await sql<{ t: number; v: number }>`
    select ${epochMs('ts')} as t, (vals ->> ${quantity})::float8 as v from readings
    where device_id = ${deviceId} and ts >= ${tsParam(from)} and ts < ${tsParam(to)}
      and jsonb_typeof(vals -> ${quantity}) = 'number'
    order by ts`.execute(k);
  const t = new Array<number>(r.rows.length);
  const v = new Array<number>(r.rows.length);
  for (let i = 0; i < r.rows.length; i++) {
    t[i] = Number(r.rows[i]!.t);
    v[i] = Number(r.rows[i]!.v);
  }
  return { t, v };
}

// ------------------------------------------------------------------------------------ rollup series

/** Buckets of one quantity, oldest first, as columns (index i is one bucket). */
export interface BucketColumns {
  length: number;
  /** Bucket start, epoch ms. */
  t: Float64Array;
  n: Float64Array;
  total: Float64Array;
  /** total / n */
  avg: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

/** Columns packed per bucket by `packBuckets`, in this order. */
const PACKED_COLUMNS = 5;

/**
 * A year by hour is 8,760 buckets: as rows, the driver's per-row decoding costs ten times the index-only
 * scan. So the rollup queries answer ONE value: every bucket's t, n, total, min and max as big-endian
 * float8 (float8send), concatenated in bucket order, decoded here with a DataView.
 */
const packBuckets = (t: RawBuilder<unknown>, order: RawBuilder<unknown>): RawBuilder<unknown> =>
  sql`string_agg(float8send(${t}) || float8send(n::float8) || float8send(total) || float8send(min) || float8send(max),
                 ''::bytea order by ${order})`;

function unpackBuckets(packed: unknown): BucketColumns {
  const bytes = packed instanceof Uint8Array ? packed : new Uint8Array(0);
  const length = bytes.byteLength / (8 * PACKED_COLUMNS);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const cols: BucketColumns = {
    length,
    t: new Float64Array(length),
    n: new Float64Array(length),
    total: new Float64Array(length),
    avg: new Float64Array(length),
    min: new Float64Array(length),
    max: new Float64Array(length),
  };
  for (let i = 0, o = 0; i < length; i++, o += 8 * PACKED_COLUMNS) {
    cols.t[i] = view.getFloat64(o);
    cols.n[i] = view.getFloat64(o + 8);
    cols.total[i] = view.getFloat64(o + 16);
    cols.min[i] = view.getFloat64(o + 24);
    cols.max[i] = view.getFloat64(o + 32);
    cols.avg[i] = cols.total[i]! / cols.n[i]!;
  }
  return cols;
}

/**
 * Where the local buckets given by their bounds can be read from: the daily rollups when every bound is a
 * UTC midnight, the hourly rollups when every bound is a whole UTC hour (a whole-hour zone, daylight saving
 * included), else the raw readings (a zone whose offset is not whole hours).
 */
export function sourceOf(bounds: readonly number[]): 'day' | 'hour' | 'raw' {
  if (bounds.every((b) => b % DAY_MS === 0)) return 'day';
  return bounds.every((b) => b % HOUR_MS === 0) ? 'hour' : 'raw';
}

/** The bucket (its start, epoch ms) of `col` among bounds (width_bucket: bounds[i - 1] <= col < bounds[i]). */
const boundOf = (col: RawBuilder<unknown>, bounds: readonly number[]): RawBuilder<number> =>
  sql<number>`(${[...bounds]}::float8[])[width_bucket(${col}, ${bounds.map(iso)}::timestamptz[])]`;

/** Whether hour buckets of the zone are UTC hours over [from, to) (the offset is whole hours throughout). */
function wholeHourZone(timeZone: string, from: number, to: number): boolean {
  if (isUtcZone(timeZone)) return true;
  return sourceOf(bucketBounds(from, to, 'day', timeZone)) !== 'raw';
}

/**
 * Buckets of a quantity overlapping [from, to) on the local calendar of `timeZone`. UTC: hour and day
 * straight from the rollups (an index-only scan of their covering primary keys), week, month and year
 * grouped from the daily rollups in SQL. Another zone: its bucket bounds (computed here) group the hourly
 * rollups (a whole-hour zone: hour buckets are the hourly rows themselves) or, for a zone whose offset is
 * not whole hours, the raw readings.
 */
export async function bucketSeries(
  db: Db,
  unit: BucketUnit,
  deviceId: number,
  quantity: string,
  from: number,
  to: number,
  timeZone = 'UTC',
): Promise<BucketColumns> {
  if (!isUtcZone(timeZone) && !(unit === 'hour' && wholeHourZone(timeZone, from, to))) {
    const bounds = bucketBounds(from, to, unit, timeZone);
    const source = sourceOf(bounds);
    const lo = tsParam(bounds[0]!);
    const hi = tsParam(bounds[bounds.length - 1]!);
    const r =
      source === 'raw'
        ? await sql<{ packed: unknown }>`
          select ${packBuckets(sql.ref('t'), sql.ref('t'))} as packed from (
            select ${boundOf(sql.ref('ts'), bounds)} as t, count(*) as n, sum(v) as total, min(v) as min, max(v) as max
            from (select ts, (vals ->> ${quantity})::float8 as v from readings
                  where device_id = ${deviceId} and ts >= ${lo} and ts < ${hi}
                    and jsonb_typeof(vals -> ${quantity}) = 'number') r
            group by 1) x`.execute(db.k)
        : await sql<{ packed: unknown }>`
          select ${packBuckets(sql.ref('t'), sql.ref('t'))} as packed from (
            select ${boundOf(sql.ref('bucket'), bounds)} as t, sum(n) as n, sum(total) as total,
                   min(min_v) as min, max(max_v) as max
            from ${sql.table(source === 'day' ? 'readings_daily' : 'readings_hourly')}
            where device_id = ${deviceId} and quantity = ${quantity} and bucket >= ${lo} and bucket < ${hi}
            group by 1) x`.execute(db.k);
    return unpackBuckets(r.rows[0]?.packed);
  }
  const start = tsParam(truncUtc(from, unit));
  const end = tsParam(to);
  const r =
    unit === 'hour' || unit === 'day'
      ? await sql<{ packed: unknown }>`
          select ${packBuckets(epochMs('bucket'), sql.ref('bucket'))} as packed from (
            select bucket, n, total, min_v as min, max_v as max
            from ${sql.table(unit === 'hour' ? 'readings_hourly' : 'readings_daily')}
            where device_id = ${deviceId} and quantity = ${quantity} and bucket >= ${start} and bucket < ${end}) x`.execute(
          db.k,
        )
      : await sql<{ packed: unknown }>`
          select ${packBuckets(epochMs('b'), sql.ref('b'))} as packed from (
            select date_trunc(${unit}, bucket at time zone 'UTC') at time zone 'UTC' as b, sum(n) as n,
                   sum(total) as total, min(min_v) as min, max(max_v) as max
            from readings_daily
            where device_id = ${deviceId} and quantity = ${quantity} and bucket >= ${start} and bucket < ${end}
            group by 1) x`.execute(db.k);
  return unpackBuckets(r.rows[0]?.packed);
}

// ------------------------------------------------------------------------------------------- statistics

/** Aggregate of one quantity over a window. */
export interface Agg {
  n: number;
  total: number;
  min: number;
  minTs: number;
  max: number;
  maxTs: number;
  first: number;
  firstTs: number;
  last: number;
  lastTs: number;
}

type AggRow = {
  device_id: number;
  quantity: string;
  n: number;
  total: number;
  min_v: number;
  max_v: number;
  min_t: number;
  max_t: number;
  first_v: number;
  first_t: number;
  last_v: number;
  last_t: number;
};

const quantityFilter = (col: string, quantities: readonly string[] | null): RawBuilder<unknown> =>
  quantities ? sql`and ${sql.ref(col)} = any(${[...quantities]}::text[])` : sql``;

function toAgg(r: AggRow): Agg {
  return {
    n: Number(r.n),
    total: Number(r.total),
    min: Number(r.min_v),
    minTs: Number(r.min_t),
    max: Number(r.max_v),
    maxTs: Number(r.max_t),
    first: Number(r.first_v),
    firstTs: Number(r.first_t),
    last: Number(r.last_v),
    lastTs: Number(r.last_t),
  };
}

/** Aggregates per device and quantity of raw readings in [from, to). */
async function rawAgg(
  db: Db,
  deviceIds: readonly number[],
  quantities: readonly string[] | null,
  from: number,
  to: number,
): Promise<AggRow[]> {
  const r = await sql<AggRow>`
    select device_id, quantity, count(*)::int as n, sum(v) as total, min(v) as min_v, max(v) as max_v,
      (extract(epoch from (array_agg(ts order by v, ts))[1]) * 1000)::float8 as min_t,
      (extract(epoch from (array_agg(ts order by v desc, ts))[1]) * 1000)::float8 as max_t,
      (array_agg(v order by ts))[1] as first_v, (extract(epoch from min(ts)) * 1000)::float8 as first_t,
      (array_agg(v order by ts desc))[1] as last_v, (extract(epoch from max(ts)) * 1000)::float8 as last_t
    from (
      select r.device_id, r.ts, e.key as quantity, (e.value #>> '{}')::float8 as v
      from readings r, jsonb_each(r.vals) e
      where r.device_id = any(${[...deviceIds]}::int[]) and r.ts >= ${tsParam(from)} and r.ts < ${tsParam(to)}
        and jsonb_typeof(e.value) = 'number' ${quantityFilter('e.key', quantities)}
    ) x group by device_id, quantity`.execute(db.k);
  return r.rows;
}

/** Aggregates per device and quantity of rollup buckets starting in [from, to). */
async function rollupAgg(
  db: Db,
  table: 'readings_hourly' | 'readings_daily',
  deviceIds: readonly number[],
  quantities: readonly string[] | null,
  from: number,
  to: number,
): Promise<AggRow[]> {
  const r = await sql<AggRow>`
    select device_id, quantity, sum(n)::int as n, sum(total) as total, min(min_v) as min_v, max(max_v) as max_v,
      (extract(epoch from (array_agg(bucket order by min_v, bucket))[1]) * 1000)::float8 as min_t,
      (extract(epoch from (array_agg(bucket order by max_v desc, bucket))[1]) * 1000)::float8 as max_t,
      (array_agg(first_v order by first_ts))[1] as first_v, (extract(epoch from min(first_ts)) * 1000)::float8 as first_t,
      (array_agg(last_v order by last_ts desc))[1] as last_v, (extract(epoch from max(last_ts)) * 1000)::float8 as last_t
    from ${sql.table(table)}
    where device_id = any(${[...deviceIds]}::int[]) and bucket >= ${tsParam(from)} and bucket < ${tsParam(to)}
      ${quantityFilter('quantity', quantities)}
    group by device_id, quantity`.execute(db.k);
  return r.rows;
}

/**
 * Splits [from, to) into segments answered by the rollups where they cover whole hours / days, and by
 * raw readings at the edges.
 */
export function segments(from: number, to: number): { kind: 'raw' | 'hour' | 'day'; from: number; to: number }[] {
  const hA = ceilUtc(from, 'hour');
  const hB = truncUtc(to, 'hour');
  if (hA >= hB) return [{ kind: 'raw', from, to }];
  const out: { kind: 'raw' | 'hour' | 'day'; from: number; to: number }[] = [];
  const push = (kind: 'raw' | 'hour' | 'day', a: number, b: number) => {
    if (b > a) out.push({ kind, from: a, to: b });
  };
  push('raw', from, hA);
  const dA = ceilUtc(hA, 'day');
  const dB = truncUtc(hB, 'day');
  if (dA < dB) {
    push('hour', hA, dA);
    push('day', dA, dB);
    push('hour', dB, hB);
  } else push('hour', hA, hB);
  push('raw', hB, to);
  return out;
}

/**
 * Statistics per device and quantity over [from, to): rollups for whole hours and days, raw readings
 * at the edges. Min/max times are exact (resolved from the raw readings of the extreme's bucket).
 */
export async function statsOver(
  db: Db,
  deviceIds: readonly number[],
  quantities: readonly string[] | null,
  from: number,
  to: number,
): Promise<Map<number, Map<string, Agg>>> {
  const acc = new Map<number, Map<string, Agg & { minUnit: Unit; maxUnit: Unit }>>();
  if (deviceIds.length === 0) return acc;
  for (const s of segments(from, to)) {
    const unit: Unit = s.kind === 'raw' ? null : s.kind;
    const rows =
      s.kind === 'raw'
        ? await rawAgg(db, deviceIds, quantities, s.from, s.to)
        : await rollupAgg(
            db,
            s.kind === 'hour' ? 'readings_hourly' : 'readings_daily',
            deviceIds,
            quantities,
            s.from,
            s.to,
          );
    for (const r of rows) {
      const a = toAgg(r);
      let per = acc.get(r.device_id);
      if (!per) acc.set(r.device_id, (per = new Map()));
      const cur = per.get(r.quantity);
      if (!cur) {
        per.set(r.quantity, { ...a, minUnit: unit, maxUnit: unit });
        continue;
      }
      // Segments come in time order: strict comparisons keep the earliest extreme.
      cur.n += a.n;
      cur.total += a.total;
      if (a.min < cur.min) Object.assign(cur, { min: a.min, minTs: a.minTs, minUnit: unit });
      if (a.max > cur.max) Object.assign(cur, { max: a.max, maxTs: a.maxTs, maxUnit: unit });
      cur.last = a.last;
      cur.lastTs = a.lastTs;
    }
  }
  // Rollup extremes carry their bucket start: resolve them to the reading's time.
  for (const [deviceId, per] of acc) {
    for (const [quantity, a] of per) {
      if (a.minUnit) a.minTs = await extremeTs(db, deviceId, quantity, a.minTs, a.minUnit, a.min);
      if (a.maxUnit) a.maxTs = await extremeTs(db, deviceId, quantity, a.maxTs, a.maxUnit, a.max);
    }
  }
  return acc;
}

type Unit = 'hour' | 'day' | null;

/** The earliest time in a bucket at which a quantity had a value (for max/min times from the rollups). */
async function extremeTs(
  db: Db,
  deviceId: number,
  quantity: string,
  bucket: number,
  unit: 'hour' | 'day',
  value: number,
): Promise<number> {
  const r = await sql<{ t: number }>`
    select ${epochMs('ts')} as t from readings
    where device_id = ${deviceId} and ts >= ${tsParam(bucket)} and ts < ${tsParam(bucket + (unit === 'hour' ? HOUR_MS : DAY_MS))}
      and jsonb_typeof(vals -> ${quantity}) = 'number' and (vals ->> ${quantity})::float8 = ${value}::float8
    order by ts limit 1`.execute(db.k);
  return r.rows[0] ? Number(r.rows[0].t) : bucket;
}

/**
 * Sum of a quantity per device over (from, to] (the alert engine's window convention: a reading exactly
 * `w` old is out, one at `to` is in): hourly rollups for the whole hours inside, raw readings at the edges.
 */
export async function sumOver(
  db: Db,
  deviceIds: readonly number[],
  quantity: string,
  from: number,
  to: number,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (deviceIds.length === 0) return out;
  // Whole hours [hA, hB) lie inside (from, to]: hA is the first hour start after `from`.
  const hA = truncUtc(from, 'hour') + HOUR_MS;
  const hB = truncUtc(to, 'hour');
  const add = (rows: { device_id: number; s: number }[]) => {
    for (const r of rows) out.set(r.device_id, (out.get(r.device_id) ?? 0) + Number(r.s));
  };
  // Raw readings in (a, b), or (a, b] when `closed`.
  const raw = async (a: number, b: number, aOpen: boolean, bClosed: boolean) => {
    if (b < a || (b === a && (aOpen || !bClosed))) return;
    const r = await sql<{ device_id: number; s: number }>`
      select device_id, sum((vals ->> ${quantity})::float8) as s from readings
      where device_id = any(${[...deviceIds]}::int[])
        and ts ${sql.raw(aOpen ? '>' : '>=')} ${tsParam(a)} and ts ${sql.raw(bClosed ? '<=' : '<')} ${tsParam(b)}
        and jsonb_typeof(vals -> ${quantity}) = 'number'
      group by device_id`.execute(db.k);
    add(r.rows);
  };
  if (hA >= hB) {
    await raw(from, to, true, true);
    return out;
  }
  await raw(from, hA, true, false);
  const r = await sql<{ device_id: number; s: number }>`
    select device_id, sum(total) as s from readings_hourly
    where device_id = any(${[...deviceIds]}::int[]) and quantity = ${quantity}
      and bucket >= ${tsParam(hA)} and bucket < ${tsParam(hB)}
    group by device_id`.execute(db.k);
  add(r.rows);
  await raw(hB, to, false, true);
  return out;
}

/** Count and total per device and quantity of the hourly buckets starting in [from, to). */
export async function hourlyTotals(
  db: Db,
  deviceIds: readonly number[],
  quantities: readonly string[],
  from: number,
  to: number,
): Promise<{ deviceId: number; quantity: string; n: number; total: number }[]> {
  if (deviceIds.length === 0) return [];
  const r = await sql<{ device_id: number; quantity: string; n: number; total: number }>`
    select device_id, quantity, sum(n)::int as n, sum(total) as total from readings_hourly
    where device_id = any(${[...deviceIds]}::int[]) and quantity = any(${[...quantities]}::text[])
      and bucket >= ${tsParam(from)} and bucket < ${tsParam(to)}
    group by device_id, quantity`.execute(db.k);
  return r.rows.map((x) => ({ deviceId: x.device_id, quantity: x.quantity, n: Number(x.n), total: Number(x.total) }));
}

// ----------------------------------------------------------------------------------------------- reports

export interface PeriodRow {
  deviceId: number;
  quantity: string;
  t: number;
  n: number;
  total: number;
  min: number;
  max: number;
  first: number;
  last: number;
}

/**
 * Per device, quantity and period (day, week, month, year) of the local calendar of `timeZone`, periods
 * starting in [from, to) (`from` and `to` are local midnights): UTC from the daily rollups grouped in SQL;
 * another zone by its period bounds over the daily rollups (bounds on UTC midnights), the hourly rollups
 * (a whole-hour zone) or the raw readings.
 */
export async function periodRows(
  db: Db,
  unit: 'original' | 'hour' | 'day' | 'week' | 'month' | 'year',
  deviceIds: readonly number[],
  quantities: readonly string[],
  from: number,
  to: number,
  timeZone = 'UTC',
): Promise<PeriodRow[]> {
  if (deviceIds.length === 0) return [];
  type Row = {
    device_id: number;
    quantity: string;
    t: number;
    n: number;
    total: number;
    min: number;
    max: number;
    first: number;
    last: number;
  };
  const ids = sql`${[...deviceIds]}::int[]`;
  const qs = sql`${[...quantities]}::text[]`;
  let r;
  if (unit === 'original') {
    // Each reading is its own row (the caller bounds the period).
    r = await sql<Row>`
      select r.device_id, e.key as quantity, (extract(epoch from r.ts) * 1000)::float8 as t, 1 as n,
             (e.value #>> '{}')::float8 as total, (e.value #>> '{}')::float8 as min, (e.value #>> '{}')::float8 as max,
             (e.value #>> '{}')::float8 as first, (e.value #>> '{}')::float8 as last
      from readings r, jsonb_each(r.vals) e
      where r.device_id = any(${ids}) and r.ts >= ${tsParam(from)} and r.ts < ${tsParam(to)}
        and jsonb_typeof(e.value) = 'number' and e.key = any(${qs})
      order by 1, 2, 3`.execute(db.k);
  } else if (isUtcZone(timeZone) && unit !== 'hour') {
    r = await sql<Row>`
    select device_id, quantity, (extract(epoch from b) * 1000)::float8 as t, n, total, min, max, first, last from (
      select device_id, quantity, date_trunc(${unit}, bucket at time zone 'UTC') at time zone 'UTC' as b,
             sum(n)::int as n, sum(total) as total, min(min_v) as min, max(max_v) as max,
             (array_agg(first_v order by first_ts))[1] as first, (array_agg(last_v order by last_ts desc))[1] as last
      from readings_daily
      where device_id = any(${ids}) and quantity = any(${qs})
        and bucket >= ${tsParam(from)} and bucket < ${tsParam(to)}
      group by 1, 2, 3) x
    order by device_id, quantity, b`.execute(db.k);
  } else {
    const bounds = bucketBounds(from, Math.max(to, from + 1), unit, timeZone);
    const source = sourceOf(bounds);
    const lo = tsParam(from);
    const hi = tsParam(Math.min(to, bounds[bounds.length - 1]!));
    r =
      source === 'raw'
        ? await sql<Row>`
      select device_id, quantity, ${boundOf(sql.ref('ts'), bounds)} as t, count(*)::int as n, sum(v) as total,
             min(v) as min, max(v) as max, (array_agg(v order by ts))[1] as first,
             (array_agg(v order by ts desc))[1] as last
      from (select r.device_id, r.ts, e.key as quantity, (e.value #>> '{}')::float8 as v
            from readings r, jsonb_each(r.vals) e
            where r.device_id = any(${ids}) and r.ts >= ${lo} and r.ts < ${hi}
              and jsonb_typeof(e.value) = 'number' and e.key = any(${qs})) x
      group by 1, 2, 3 order by 1, 2, 3`.execute(db.k)
        : await sql<Row>`
      select device_id, quantity, ${boundOf(sql.ref('bucket'), bounds)} as t, sum(n)::int as n, sum(total) as total,
             min(min_v) as min, max(max_v) as max, (array_agg(first_v order by first_ts))[1] as first,
             (array_agg(last_v order by last_ts desc))[1] as last
      from ${sql.table(source === 'day' ? 'readings_daily' : 'readings_hourly')}
      where device_id = any(${ids}) and quantity = any(${qs}) and bucket >= ${lo} and bucket < ${hi}
      group by 1, 2, 3 order by 1, 2, 3`.execute(db.k);
  }
  return r.rows.map((x) => ({
    deviceId: x.device_id,
    quantity: x.quantity,
    t: Number(x.t),
    n: Number(x.n),
    total: Number(x.total),
    min: Number(x.min),
    max: Number(x.max),
    first: Number(x.first),
    last: Number(x.last),
  }));
}

// -------------------------------------------------------------------------------------- data processing

export interface StoredReading {
  ts: number;
  vals: Record<string, unknown>;
}

const parseVals = (v: unknown): Record<string, unknown> =>
  (typeof v === 'string' ? JSON.parse(v) : (v ?? {})) as Record<string, unknown>;

export function inTransaction<T>(db: Db, fn: (tx: Q) => Promise<T>): Promise<T> {
  return db.k.transaction().execute(fn);
}

/** Readings of a device in [from, to) (optionally only those holding a numeric quantity), locked. */
export async function readingsForUpdate(
  tx: Q,
  deviceId: number,
  from: number,
  to: number,
  quantity: string | null,
): Promise<StoredReading[]> {
  const r = await sql<{ t: number; vals: unknown }>`
    select ${epochMs('ts')} as t, vals from readings
    where device_id = ${deviceId} and ts >= ${tsParam(from)} and ts < ${tsParam(to)}
      ${quantity === null ? sql`` : sql`and jsonb_typeof(vals -> ${quantity}) = 'number'`}
    order by ts for update`.execute(tx);
  return r.rows.map((x) => ({ ts: Number(x.t), vals: parseVals(x.vals) }));
}

/** Readings of a device at the given times, locked. */
export async function readingsAt(tx: Q, deviceId: number, tss: readonly number[]): Promise<StoredReading[]> {
  if (tss.length === 0) return [];
  const lo = Math.min(...tss);
  const hi = Math.max(...tss);
  const r = await sql<{ t: number; vals: unknown }>`
    select ${epochMs('ts')} as t, vals from readings
    where device_id = ${deviceId} and ts >= ${tsParam(lo)} and ts <= ${tsParam(hi)}
      and ts = any(${tss.map(iso)}::timestamptz[])
    order by ts for update`.execute(tx);
  return r.rows.map((x) => ({ ts: Number(x.t), vals: parseVals(x.vals) }));
}

export async function logEdits(
  tx: Q,
  deviceId: number,
  action: 'smooth' | 'delete' | 'edit',
  userId: number,
  rows: readonly { ts: number; oldVals: Record<string, unknown>; newVals: Record<string, unknown> | null }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    await sql`
      insert into reading_edits (device_id, ts, action, old_vals, new_vals, user_id)
      select ${deviceId}, u.ts, ${action}, u.old_vals, u.new_vals, ${userId}
      from unnest(${part.map((r) => iso(r.ts))}::timestamptz[], ${part.map((r) => JSON.stringify(r.oldVals))}::jsonb[],
                  ${part.map((r) => (r.newVals ? JSON.stringify(r.newVals) : null))}::jsonb[]) as u(ts, old_vals, new_vals)`.execute(
      tx,
    );
  }
}

export async function updateReadings(
  tx: Q,
  deviceId: number,
  rows: readonly { ts: number; vals: Record<string, unknown> }[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    const lo = Math.min(...part.map((r) => r.ts));
    const hi = Math.max(...part.map((r) => r.ts));
    await sql`
      update readings r set vals = u.vals
      from unnest(${part.map((r) => iso(r.ts))}::timestamptz[], ${part.map((r) => JSON.stringify(r.vals))}::jsonb[]) as u(ts, vals)
      where r.device_id = ${deviceId} and r.ts = u.ts and r.ts >= ${tsParam(lo)} and r.ts <= ${tsParam(hi)}`.execute(
      tx,
    );
  }
}

/**
 * Deletes readings of a device (a time window, or given times) and keeps each in the edit log, in one
 * statement. Answers the times deleted.
 */
export async function deleteLogged(
  tx: Q,
  deviceId: number,
  userId: number,
  what: { from: number; to: number } | { tss: readonly number[] },
): Promise<number[]> {
  let where: RawBuilder<unknown>;
  if ('tss' in what) {
    if (what.tss.length === 0) return [];
    where = sql`ts >= ${tsParam(Math.min(...what.tss))} and ts <= ${tsParam(Math.max(...what.tss))}
      and ts = any(${what.tss.map(iso)}::timestamptz[])`;
  } else where = sql`ts >= ${tsParam(what.from)} and ts < ${tsParam(what.to)}`;
  const r = await sql<{ t: number }>`
    with d as (delete from readings where device_id = ${deviceId} and ${where} returning ts, vals)
    insert into reading_edits (device_id, ts, action, old_vals, new_vals, user_id)
    select ${deviceId}, ts, 'delete', vals, null, ${userId} from d
    returning ${epochMs('ts')} as t`.execute(tx);
  return r.rows.map((x) => Number(x.t));
}

/**
 * Recomputes from the raw readings the hourly and daily rollup rows of a device for the buckets holding
 * the given times (rows of buckets left empty disappear), then the device's newest values.
 *
 * Safe beside the ingest writer without a lock: each statement sees what committed before it; a writer
 * batch that touched a bucket row first makes the delete wait for its commit (the insert then counts its
 * readings); a batch coming later waits for this transaction and adds its increments (upsert) on top.
 */
export async function recomputeRollups(tx: Q, deviceId: number, tss: readonly number[]): Promise<void> {
  for (const unit of ['hour', 'day'] as const) {
    const buckets = [...new Set(tss.map((t) => truncUtc(t, unit)))].sort((a, b) => a - b);
    if (buckets.length === 0) continue;
    const table = unit === 'hour' ? 'readings_hourly' : 'readings_daily';
    const span = unit === 'hour' ? HOUR_MS : DAY_MS;
    const list = buckets.map(iso);
    await sql`delete from ${sql.table(table)} where device_id = ${deviceId} and bucket = any(${list}::timestamptz[])`.execute(
      tx,
    );
    await sql`
      insert into ${sql.table(table)} (device_id, quantity, bucket, n, total, min_v, max_v, first_ts, first_v, last_ts, last_v)
      select device_id, quantity, b, count(*), sum(v), min(v), max(v),
             min(ts), (array_agg(v order by ts))[1], max(ts), (array_agg(v order by ts desc))[1]
      from (
        select r.device_id, r.ts, e.key as quantity, (e.value #>> '{}')::float8 as v,
               date_trunc(${unit}, r.ts at time zone 'UTC') at time zone 'UTC' as b
        from readings r, jsonb_each(r.vals) e
        where r.device_id = ${deviceId} and r.ts >= ${tsParam(buckets[0]!)}
          and r.ts < ${tsParam(buckets[buckets.length - 1]! + span)} and jsonb_typeof(e.value) = 'number'
      ) x
      where b = any(${list}::timestamptz[])
      group by device_id, quantity, b`.execute(tx);
  }
  // Newest value per quantity = last value of its newest daily bucket.
  await sql`
    update devices set
      last_values = coalesce((
        select jsonb_object_agg(quantity, last_v) from (
          select distinct on (quantity) quantity, last_v from readings_daily
          where device_id = ${deviceId} order by quantity, bucket desc) x), '{}'::jsonb),
      last_reading_at = (select max(last_ts) from readings_daily where device_id = ${deviceId})
    where id = ${deviceId}`.execute(tx);
}

/** The rollup rows of a device as stored (tests compare them to a recomputation). */
export async function rollupRows(
  db: Db,
  table: 'readings_hourly' | 'readings_daily',
  deviceId: number,
): Promise<
  { quantity: string; t: number; n: number; total: number; min: number; max: number; first: number; last: number }[]
> {
  const r = await sql<{
    quantity: string;
    t: number;
    n: number;
    total: number;
    min: number;
    max: number;
    first: number;
    last: number;
  }>`
    select quantity, ${epochMs('bucket')} as t, n, total, min_v as min, max_v as max, first_v as first, last_v as last
    from ${sql.table(table)} where device_id = ${deviceId} order by quantity, bucket`.execute(db.k);
  return r.rows.map((x) => ({
    quantity: x.quantity,
    t: Number(x.t),
    n: Number(x.n),
    total: Number(x.total),
    min: Number(x.min),
    max: Number(x.max),
    first: Number(x.first),
    last: Number(x.last),
  }));
}
