import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { json } from '../../platform/db/sql.ts';
import { isDbId, iso, likePattern } from '../../platform/db/sql.ts';

/** SQL of the multi-device rules (relations). */

// ------------------------------------------------------------------------------------------------------
// Relations (multi-device rules)
// ------------------------------------------------------------------------------------------------------

export interface RelationRecord {
  id: number;
  platformId: number;
  platformName: string;
  name: string;
  members: { deviceId: number; quantity: string }[];
  valueType: string;
  direction: string;
  levels: { level: number; value: number }[];
  windowN: number | null;
  windowUnit: string | null;
  mode: string;
  groupId: number | null;
  channels: string[];
  pushIntervalMinutes: number;
  enabled: boolean;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}
export interface RelationValues {
  platform_id: number;
  name: string;
  members: { deviceId: number; quantity: string }[];
  value_type: string;
  direction: string;
  levels: { level: number; value: number }[];
  window_n: number | null;
  window_unit: string | null;
  mode: string;
  group_id: number | null;
  channels: string[];
  push_interval_minutes: number;
  enabled: boolean;
  description: string | null;
}

function relationsBase(db: Db) {
  return db.k
    .selectFrom('alert_relations as x')
    .innerJoin('platforms as p', 'p.id', 'x.platform_id')
    .selectAll('x')
    .select('p.name as platform_name');
}
type RelSel = Awaited<ReturnType<ReturnType<typeof relationsBase>['executeTakeFirstOrThrow']>>;
const presentRelation = (r: RelSel): RelationRecord => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  name: r.name,
  members: json(r.members),
  valueType: r.value_type,
  direction: r.direction,
  levels: json(r.levels),
  windowN: r.window_n,
  windowUnit: r.window_unit,
  mode: r.mode,
  groupId: r.group_id,
  channels: r.channels ?? [],
  pushIntervalMinutes: r.push_interval_minutes,
  enabled: r.enabled,
  description: r.description,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export async function listRelations(
  db: Db,
  scope: DataScope,
  f: { platformId?: number | undefined; keyword?: string | undefined; pageNum: number; pageSize: number },
): Promise<{ list: RelationRecord[]; total: number }> {
  let q = whereInScope(relationsBase(db), scope, 'x.platform_id');
  if (f.platformId !== undefined) q = q.where('x.platform_id', '=', isDbId(f.platformId) ? f.platformId : -1);
  if (f.keyword) q = q.where(sql<boolean>`lower(x.name) like ${likePattern(f.keyword)}`);
  const rows = await q.orderBy('p.name').orderBy('x.name').orderBy('x.id').execute();
  const list = rows.slice((f.pageNum - 1) * f.pageSize, f.pageNum * f.pageSize).map(presentRelation);
  return { list, total: rows.length };
}

export async function relationById(db: Db, scope: DataScope, id: number): Promise<RelationRecord | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await whereInScope(relationsBase(db), scope, 'x.platform_id').where('x.id', '=', id).executeTakeFirst();
  return r ? presentRelation(r) : undefined;
}

export async function enabledRelations(db: Db): Promise<RelationRecord[]> {
  const rows = await relationsBase(db).where('x.enabled', '=', true).execute();
  return rows.map(presentRelation);
}

const relRow = (v: RelationValues) => ({
  ...v,
  members: JSON.stringify(v.members),
  levels: JSON.stringify(v.levels),
});
export async function insertRelation(db: Db, v: RelationValues, userId: number): Promise<number> {
  return (
    await db.k
      .insertInto('alert_relations')
      .values({ ...relRow(v), created_by: userId })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}
export async function updateRelation(db: Db, id: number, v: RelationValues): Promise<void> {
  await db.k
    .updateTable('alert_relations')
    .set({ ...relRow(v), updated_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .execute();
}
export async function deleteRelation(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('alert_relations').where('id', '=', id).execute();
}
