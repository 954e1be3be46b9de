// All SQL of the vibration report. Times in and out are epoch milliseconds (UTC).
import { sql } from 'kysely';
import { VIBRATION_MODULE_ID } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { json } from '../../platform/db/sql.ts';

export interface VibrationDevice {
  id: number;
  name: string;
  number: string;
}

/** The vibration devices of a site in the caller's scope (one when deviceId is given), by name. */
export async function vibrationDevices(
  db: Db,
  scope: DataScope,
  platformId: number,
  deviceId: number | undefined,
): Promise<VibrationDevice[]> {
  let q = whereInScope(
    db.k
      .selectFrom('devices as d')
      .select(['d.id', 'd.device_name', 'd.number'])
      .where('d.platform_id', '=', platformId)
      .where('d.module_id', '=', VIBRATION_MODULE_ID),
    scope,
    'd.platform_id',
  );
  if (deviceId !== undefined) q = q.where('d.id', '=', deviceId);
  const rows = await q.orderBy('d.device_name').orderBy('d.id').execute();
  return rows.map((r) => ({ id: r.id, name: r.device_name, number: r.number }));
}

/** A device's readings in [from, to), by time, at most `limit` (the caller asks one more to know it is cut). */
export async function readingsOf(
  db: Db,
  deviceId: number,
  from: number,
  to: number,
  limit: number,
): Promise<{ t: number; vals: Record<string, unknown> }[]> {
  const r = await sql<{ t: number; vals: unknown }>`
    select (extract(epoch from ts) * 1000)::float8 as t, vals from readings
    where device_id = ${deviceId} and ts >= ${new Date(from).toISOString()}::timestamptz and ts < ${new Date(to).toISOString()}::timestamptz
    order by ts limit ${limit}`.execute(db.k);
  return r.rows.map((x) => ({ t: Math.round(Number(x.t)), vals: json<Record<string, unknown>>(x.vals) }));
}
