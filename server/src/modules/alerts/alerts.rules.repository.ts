import { sql, type Kysely } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { isDbId, iso, likePattern, orderBy } from '../../platform/db/sql.ts';

/** SQL of the alert rules and their administration: rules (alert values), criteria, the devices they watch. */

type Tx = Kysely<Database>;

// ------------------------------------------------------------------------------------------------------
// Devices
// ------------------------------------------------------------------------------------------------------

export interface RuleDevice {
  id: number;
  name: string;
  number: string;
  moduleId: number;
  platformId: number;
  platformName: string;
}

/** A bound device in the scope, by id or by name. */
export async function findDevice(
  db: Db,
  scope: DataScope,
  by: { id?: number | undefined; name?: string | undefined },
): Promise<RuleDevice | undefined> {
  if (by.id !== undefined && !isDbId(by.id)) return undefined;
  let q = db.k
    .selectFrom('devices as d')
    .innerJoin('platforms as p', 'p.id', 'd.platform_id')
    .select(['d.id', 'd.device_name', 'd.number', 'd.module_id', 'd.platform_id', 'p.name as platform_name']);
  if (by.id !== undefined) q = q.where('d.id', '=', by.id);
  else if (by.name !== undefined) q = q.where('d.device_name', '=', by.name);
  else return undefined;
  const r = await whereInScope(q, scope, 'd.platform_id').executeTakeFirst();
  return r
    ? {
        id: r.id,
        name: r.device_name,
        number: r.number,
        moduleId: r.module_id,
        platformId: r.platform_id!,
        platformName: r.platform_name,
      }
    : undefined;
}

export async function findDevices(db: Db, scope: DataScope, ids: readonly number[]): Promise<RuleDevice[]> {
  const valid = [...new Set(ids.filter(isDbId))];
  if (!valid.length) return [];
  const rows = await whereInScope(
    db.k
      .selectFrom('devices as d')
      .innerJoin('platforms as p', 'p.id', 'd.platform_id')
      .select(['d.id', 'd.device_name', 'd.number', 'd.module_id', 'd.platform_id', 'p.name as platform_name'])
      .where('d.id', 'in', valid),
    scope,
    'd.platform_id',
  ).execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.device_name,
    number: r.number,
    moduleId: r.module_id,
    platformId: r.platform_id!,
    platformName: r.platform_name,
  }));
}

// ------------------------------------------------------------------------------------------------------
// Rules
// ------------------------------------------------------------------------------------------------------

export interface RuleRecord {
  id: number;
  deviceId: number;
  quantity: string;
  level: number;
  valueType: string;
  value: number;
  rateValue: number | null;
  direction: string;
  windowN: number | null;
  windowUnit: string | null;
  ratio: number | null;
  groupId: number | null;
  channels: string[];
  pushIntervalMinutes: number;
  enabled: boolean;
  criterionId: number | null;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RuleValues {
  device_id: number;
  quantity: string;
  level: number;
  value_type: string;
  value: number;
  rate_value: number | null;
  direction: string;
  window_n: number | null;
  window_unit: string | null;
  ratio: number | null;
  group_id: number | null;
  channels: string[];
  push_interval_minutes: number;
  enabled: boolean;
  criterion_id: number | null;
  description: string | null;
}

const ruleCols = [
  'r.id',
  'r.device_id',
  'r.quantity',
  'r.level',
  'r.value_type',
  'r.value',
  'r.rate_value',
  'r.direction',
  'r.window_n',
  'r.window_unit',
  'r.ratio',
  'r.group_id',
  'r.channels',
  'r.push_interval_minutes',
  'r.enabled',
  'r.criterion_id',
  'r.description',
  'r.created_at',
  'r.updated_at',
] as const;

type RuleSel = {
  id: number;
  device_id: number;
  quantity: string;
  level: number;
  value_type: string;
  value: number;
  rate_value: number | null;
  direction: string;
  window_n: number | null;
  window_unit: string | null;
  ratio: number | null;
  group_id: number | null;
  channels: string[];
  push_interval_minutes: number;
  enabled: boolean;
  criterion_id: number | null;
  description: string | null;
  created_at: Date;
  updated_at: Date;
};
const presentRule = (r: RuleSel): RuleRecord => ({
  id: r.id,
  deviceId: r.device_id,
  quantity: r.quantity,
  level: r.level,
  valueType: r.value_type,
  value: r.value,
  rateValue: r.rate_value,
  direction: r.direction,
  windowN: r.window_n,
  windowUnit: r.window_unit,
  ratio: r.ratio,
  groupId: r.group_id,
  channels: r.channels ?? [],
  pushIntervalMinutes: r.push_interval_minutes,
  enabled: r.enabled,
  criterionId: r.criterion_id,
  description: r.description,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export type RuleWithDevice = RuleRecord & { device: RuleDevice };

function rulesBase(db: Db, scope: DataScope) {
  return whereInScope(
    db.k
      .selectFrom('alert_rules as r')
      .innerJoin('devices as d', 'd.id', 'r.device_id')
      .innerJoin('platforms as p', 'p.id', 'd.platform_id'),
    scope,
    'd.platform_id',
  );
}
const withDevice = (
  r: RuleSel & {
    device_name: string;
    number: string;
    module_id: number;
    platform_id: number | null;
    platform_name: string;
  },
): RuleWithDevice => ({
  ...presentRule(r),
  device: {
    id: r.device_id,
    name: r.device_name,
    number: r.number,
    moduleId: r.module_id,
    platformId: r.platform_id!,
    platformName: r.platform_name,
  },
});
const devCols = ['d.device_name', 'd.number', 'd.module_id', 'd.platform_id', 'p.name as platform_name'] as const;

export async function ruleById(db: Db, scope: DataScope, id: number): Promise<RuleWithDevice | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await rulesBase(db, scope)
    .select([...ruleCols, ...devCols])
    .where('r.id', '=', id)
    .executeTakeFirst();
  return r ? withDevice(r as never) : undefined;
}

export interface RuleFilter {
  platformId?: number | undefined;
  deviceId?: number | undefined;
  quantity?: string | undefined;
  level?: number | undefined;
  valueType?: string | undefined;
  enabled?: boolean | undefined;
  keyword?: string | undefined;
}
const RULE_SORT: Record<string, string> = {
  deviceName: 'd.device_name',
  quantity: 'r.quantity',
  level: 'r.level',
  valueType: 'r.value_type',
  updatedAt: 'r.updated_at',
};
function filteredRules(db: Db, scope: DataScope, f: RuleFilter) {
  let q = rulesBase(db, scope);
  if (f.platformId !== undefined) q = q.where('d.platform_id', '=', isDbId(f.platformId) ? f.platformId : -1);
  if (f.deviceId !== undefined) q = q.where('r.device_id', '=', isDbId(f.deviceId) ? f.deviceId : -1);
  if (f.quantity) q = q.where('r.quantity', '=', f.quantity);
  if (f.level !== undefined) q = q.where('r.level', '=', f.level);
  if (f.valueType) q = q.where('r.value_type', '=', f.valueType);
  if (f.enabled !== undefined) q = q.where('r.enabled', '=', f.enabled);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<boolean>`(lower(d.device_name) like ${k} or lower(d.number) like ${k} or lower(p.name) like ${k} or lower(r.quantity) like ${k})`,
    );
  }
  return q;
}

export async function listRules(
  db: Db,
  scope: DataScope,
  f: RuleFilter & { pageNum: number; pageSize: number; sortField?: string | undefined; sortOrder?: string | undefined },
): Promise<{ list: RuleWithDevice[]; total: number }> {
  const [rows, total] = await Promise.all([
    filteredRules(db, scope, f)
      .select([...ruleCols, ...devCols])
      .orderBy(orderBy(RULE_SORT[f.sortField ?? ''] ?? 'd.device_name', f.sortOrder))
      .orderBy('r.quantity')
      .orderBy('r.value_type')
      .orderBy('r.level')
      .orderBy('r.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    filteredRules(db, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map((r) => withDevice(r as never)), total: Number(total.n) };
}

export async function rulesOfDevice(db: Db, scope: DataScope, f: RuleFilter): Promise<RuleWithDevice[]> {
  const rows = await filteredRules(db, scope, f)
    .select([...ruleCols, ...devCols])
    .orderBy('r.quantity')
    .orderBy('r.value_type')
    .orderBy('r.level')
    .orderBy('r.id')
    .execute();
  return rows.map((r) => withDevice(r as never));
}

export async function insertRule(db: Db, v: RuleValues, userId: number): Promise<number> {
  const r = await db.k
    .insertInto('alert_rules')
    .values({ ...v, created_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateRule(db: Db, id: number, v: RuleValues): Promise<void> {
  await db.k
    .updateTable('alert_rules')
    .set({ ...v, updated_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .execute();
}

export async function deleteRule(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('alert_rules').where('id', '=', id).execute();
}

export async function setRuleEnabled(db: Db, id: number, enabled: boolean): Promise<void> {
  await db.k
    .updateTable('alert_rules')
    .set({ enabled, updated_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .execute();
}

/** Every enabled rule (the evaluator's cache). */
export async function enabledRules(db: Db): Promise<RuleRecord[]> {
  const rows = await db.k.selectFrom('alert_rules as r').select(ruleCols).where('r.enabled', '=', true).execute();
  return rows.map((r) => presentRule(r as RuleSel));
}

/** The rule of a device that carries the notification settings of its offline alert (lowest level first). */
export async function notifyRuleOf(
  db: Db | Tx,
  deviceId: number,
): Promise<{ groupId: number | null; channels: string[]; pushIntervalMinutes: number } | undefined> {
  const k = 'k' in db ? db.k : db;
  const r = await k
    .selectFrom('alert_rules')
    .select(['group_id', 'channels', 'push_interval_minutes'])
    .where('device_id', '=', deviceId)
    .where('enabled', '=', true)
    .orderBy('level')
    .orderBy('id')
    .executeTakeFirst();
  return r
    ? { groupId: r.group_id, channels: r.channels ?? [], pushIntervalMinutes: r.push_interval_minutes }
    : undefined;
}

// ------------------------------------------------------------------------------------------------------
// Criteria
// ------------------------------------------------------------------------------------------------------

export async function listCriteria(db: Db, f: { keyword?: string | undefined; type?: string | undefined }) {
  let q = db.k
    .selectFrom('alert_criteria as c')
    .select([
      'c.id',
      'c.name',
      'c.type',
      'c.description',
      'c.created_at',
      'c.updated_at',
      sql<number>`(select count(*) from alert_rules r where r.criterion_id = c.id)`.as('rule_count'),
    ]);
  if (f.type) q = q.where('c.type', '=', f.type);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(sql<boolean>`(lower(c.name) like ${k} or lower(coalesce(c.description, '')) like ${k})`);
  }
  const rows = await q.orderBy('c.name').orderBy('c.id').execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    type: r.type,
    description: r.description,
    ruleCount: Number(r.rule_count),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  }));
}

export async function criterionExists(db: Db, id: number): Promise<boolean> {
  if (!isDbId(id)) return false;
  return !!(await db.k.selectFrom('alert_criteria').select('id').where('id', '=', id).executeTakeFirst());
}

export async function insertCriterion(db: Db, v: { name: string; type: string; description: string | null }) {
  return (await db.k.insertInto('alert_criteria').values(v).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateCriterion(
  db: Db,
  id: number,
  v: { name: string; type: string; description: string | null },
): Promise<boolean> {
  if (!isDbId(id)) return false;
  const r = await db.k
    .updateTable('alert_criteria')
    .set({ ...v, updated_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteCriterion(db: Db, id: number): Promise<boolean> {
  if (!isDbId(id)) return false;
  const r = await db.k.deleteFrom('alert_criteria').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
