// What the module report templates B to E read beyond the period statistics (moduleData.repository.ts
// periodRows): each device's initial value and its value before the period (changes), the extremes of the
// period with their times, and the alerts raised in it. Reads of devices the caller already resolved in scope.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

const iso = (t: number) => new Date(t).toISOString();
const tsParam = (t: number): RawBuilder<unknown> => sql`${iso(t)}::timestamptz`;
const toMs = (v: unknown): number => (v instanceof Date ? v.getTime() : Date.parse(String(v)));

export interface ValueAt {
  value: number;
  at: number;
}
/** Per device id, per quantity. */
export type PerQuantity<T> = Map<number, Map<string, T>>;

function put<T>(m: PerQuantity<T>, deviceId: number, quantity: string, v: T): void {
  let q = m.get(deviceId);
  if (!q) m.set(deviceId, (q = new Map()));
  q.set(quantity, v);
}

/**
 * The initial value (the device's first reading ever: the base of cumulative change) and the last value before
 * `from` (the base of the period's change), per device and quantity. Read from the hourly rollups (their first
 * and last readings are exact readings): a bucket that straddles `from` counts only if its last reading is before it.
 */
export async function baseValues(
  db: Db,
  deviceIds: readonly number[],
  quantities: readonly string[],
  from: number,
): Promise<{ initial: PerQuantity<ValueAt>; before: PerQuantity<ValueAt> }> {
  const initial: PerQuantity<ValueAt> = new Map();
  const before: PerQuantity<ValueAt> = new Map();
  if (deviceIds.length === 0 || quantities.length === 0) return { initial, before };
  const ids = sql`${[...deviceIds]}::int[]`;
  const qs = sql`${[...quantities]}::text[]`;
  type Row = { device_id: number; quantity: string; v: number; ts: Date | string };
  const first = await sql<Row>`
    select distinct on (device_id, quantity) device_id, quantity, first_v as v, first_ts as ts
    from readings_hourly where device_id = any(${ids}) and quantity = any(${qs})
    order by device_id, quantity, bucket`.execute(db.k);
  for (const r of first.rows) put(initial, r.device_id, r.quantity, { value: r.v, at: toMs(r.ts) });
  const prev = await sql<Row>`
    select distinct on (device_id, quantity) device_id, quantity, last_v as v, last_ts as ts
    from readings_hourly
    where device_id = any(${ids}) and quantity = any(${qs}) and bucket < ${tsParam(from)} and last_ts < ${tsParam(from)}
    order by device_id, quantity, bucket desc`.execute(db.k);
  for (const r of prev.rows) put(before, r.device_id, r.quantity, { value: r.v, at: toMs(r.ts) });
  return { initial, before };
}

/**
 * The largest and smallest reading of each device and quantity in [from, to) with the time it was first read.
 * The hourly rollups find the hour of each extreme; the raw readings of that hour give its time.
 */
export async function extremes(
  db: Db,
  deviceIds: readonly number[],
  quantities: readonly string[],
  from: number,
  to: number,
): Promise<{ max: PerQuantity<ValueAt>; min: PerQuantity<ValueAt> }> {
  const max: PerQuantity<ValueAt> = new Map();
  const min: PerQuantity<ValueAt> = new Map();
  if (deviceIds.length === 0 || quantities.length === 0) return { max, min };
  const ids = sql`${[...deviceIds]}::int[]`;
  const qs = sql`${[...quantities]}::text[]`;
  type Row = { device_id: number; quantity: string; v: number; ts: Date | string | null };
  for (const [kind, target] of [
    ['max', max],
    ['min', min],
  ] as const) {
    const value = kind === 'max' ? sql.ref('max_v') : sql.ref('min_v');
    const order = kind === 'max' ? sql`max_v desc` : sql`min_v asc`;
    const r = await sql<Row>`
      with h as (
        select distinct on (device_id, quantity) device_id, quantity, bucket, ${value} as v
        from readings_hourly
        where device_id = any(${ids}) and quantity = any(${qs})
          and bucket >= ${tsParam(from)} and bucket < ${tsParam(to)}
        order by device_id, quantity, ${order}, bucket)
      select h.device_id, h.quantity, h.v,
        (select min(r.ts) from readings r
          where r.device_id = h.device_id and r.ts >= h.bucket and r.ts < h.bucket + interval '1 hour'
            and jsonb_typeof(r.vals -> h.quantity) = 'number' and (r.vals ->> h.quantity)::float8 = h.v) as ts
      from h`.execute(db.k);
    for (const x of r.rows) put(target, x.device_id, x.quantity, { value: x.v, at: x.ts === null ? NaN : toMs(x.ts) });
  }
  return { max, min };
}

export interface PeriodAlert {
  id: number;
  deviceId: number;
  quantity: string | null;
  level: number;
  status: string;
  firstAt: number;
  firstValue: number | null;
  threshold: number | null;
}

/** Alerts first raised in [from, to) on the devices, oldest first (at most `limit`), and their count per device and level. */
export async function periodAlerts(
  db: Db,
  deviceIds: readonly number[],
  from: number,
  to: number,
  limit = 500,
): Promise<{ list: PeriodAlert[]; total: number; counts: Map<number, Record<number, number>> }> {
  const counts = new Map<number, Record<number, number>>();
  if (deviceIds.length === 0) return { list: [], total: 0, counts };
  const ids = sql`${[...deviceIds]}::int[]`;
  const c = await sql<{ device_id: number; level: number; n: number }>`
    select device_id, level, count(*)::int as n from alerts
    where device_id = any(${ids}) and first_at >= ${tsParam(from)} and first_at < ${tsParam(to)}
    group by 1, 2`.execute(db.k);
  let total = 0;
  for (const r of c.rows) {
    const m = counts.get(r.device_id) ?? {};
    m[r.level] = r.n;
    counts.set(r.device_id, m);
    total += r.n;
  }
  type Row = {
    id: number;
    device_id: number;
    quantity: string | null;
    level: number;
    status: string;
    first_at: Date | string;
    first_value: number | null;
    threshold: number | null;
  };
  const r = await sql<Row>`
    select id, device_id, quantity, level, status, first_at, first_value, threshold from alerts
    where device_id = any(${ids}) and first_at >= ${tsParam(from)} and first_at < ${tsParam(to)}
    order by first_at, id limit ${limit}`.execute(db.k);
  return {
    total,
    counts,
    list: r.rows.map((x) => ({
      id: x.id,
      deviceId: x.device_id,
      quantity: x.quantity,
      level: x.level,
      status: x.status,
      firstAt: toMs(x.first_at),
      firstValue: x.first_value,
      threshold: x.threshold,
    })),
  };
}
