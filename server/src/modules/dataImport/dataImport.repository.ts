import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Exec } from '../../platform/db/sql.ts';

/** SQL of the data import: the devices and sections a file names, what is stored already, water level rows. */

export interface TargetRecord {
  id: number;
  platformId: number | null;
  /** Devices: their monitor type. */
  moduleId: number;
}

/** Devices by number or by name (a name two devices share is left out: it names neither). */
export async function devicesBy(
  db: Db,
  key: 'number' | 'name' | 'id',
  values: readonly string[],
): Promise<Map<string, TargetRecord>> {
  const out = new Map<string, TargetRecord>();
  if (!values.length) return out;
  const col = key === 'number' ? sql.ref('number') : key === 'name' ? sql.ref('device_name') : sql`id::text`;
  const r = await sql<{ k: string; id: number; platform_id: number | null; module_id: number; n: number }>`
    select ${col} as k, min(id) as id, min(platform_id) as platform_id, min(module_id) as module_id,
           count(*)::int as n
    from devices where ${col} = any(${[...values]}::text[]) group by 1`.execute(db.k);
  for (const x of r.rows) if (x.n === 1) out.set(x.k, { id: x.id, platformId: x.platform_id, moduleId: x.module_id });
  return out;
}

/** Sections by name or id (a name sections of two sites share is left out). */
export async function sectionsBy(db: Db, key: 'name' | 'id', values: readonly string[]) {
  const out = new Map<string, TargetRecord>();
  if (!values.length) return out;
  const r =
    key === 'id'
      ? await sql<{ k: string; id: number; platform_id: number; n: number }>`
          select id::text as k, id, platform_id, 1 as n from sections
          where id::text = any(${[...values]}::text[])`.execute(db.k)
      : await sql<{ k: string; id: number; platform_id: number; n: number }>`
          select lower(name) as k, min(id) as id, min(platform_id) as platform_id, count(*)::int as n
          from sections where lower(name) = any(${values.map((v) => v.toLowerCase())}::text[]) group by 1`.execute(
          db.k,
        );
  for (const x of r.rows) if (Number(x.n) === 1) out.set(x.k, { id: x.id, platformId: x.platform_id, moduleId: 0 });
  return out;
}

/** How many of these (device, time) readings are stored already. */
export async function storedReadings(db: Db, ids: readonly number[], ts: readonly number[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await sql<{ n: number }>`
    select count(*)::int as n from readings r
    join unnest(${`{${ids.join(',')}}`}::int[], ${`{${ts.join(',')}}`}::float8[]) as x(d, t)
      on r.device_id = x.d and r.ts = to_timestamp(x.t / 1000.0)`.execute(db.k);
  return Number(r.rows[0]?.n ?? 0);
}

/** How many of these (section, time) water levels are stored already. */
export async function storedWaterLevels(db: Db, ids: readonly number[], ts: readonly number[]): Promise<number> {
  if (!ids.length) return 0;
  const r = await sql<{ n: number }>`
    select count(*)::int as n from river_water_levels w
    join unnest(${`{${ids.join(',')}}`}::int[], ${`{${ts.join(',')}}`}::float8[]) as x(s, t)
      on w.section_id = x.s and w.measured_at = to_timestamp(x.t / 1000.0)`.execute(db.k);
  return Number(r.rows[0]?.n ?? 0);
}

/** Inserts manual water levels (a stored (section, time) is skipped); answers how many were added. */
export async function insertWaterLevels(
  tx: Exec,
  rows: readonly { sectionId: number; ts: number; elevation: number }[],
  importId: number,
  userId: number,
): Promise<number> {
  if (!rows.length) return 0;
  const r = await sql<{ n: number }>`
    with ins as (
      insert into river_water_levels (section_id, measured_at, elevation, created_by, import_id)
      select s, to_timestamp(t / 1000.0), e, ${userId}, ${importId}
      from unnest(${`{${rows.map((x) => x.sectionId).join(',')}}`}::int[],
                  ${`{${rows.map((x) => x.ts).join(',')}}`}::float8[],
                  ${`{${rows.map((x) => x.elevation).join(',')}}`}::float8[]) as x(s, t, e)
      on conflict (section_id, measured_at) do nothing
      returning 1)
    select count(*)::int as n from ins`.execute(tx);
  return Number(r.rows[0]?.n ?? 0);
}
