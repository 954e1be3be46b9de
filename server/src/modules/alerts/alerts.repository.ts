import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { isDbId, iso, isoOrNull, likePattern, orderBy } from '../devices/common.ts';
import { inRegionSubtree } from '../regions/regions.repository.ts';

/** All SQL of the alerts feature. */

type Tx = Kysely<Database>;

export const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** `column in scope` as a SQL condition (for raw aggregates). */
export function scopeSql(scope: DataScope, column: string): RawBuilder<boolean> {
  if (scope.all) return sql<boolean>`true`;
  if (scope.platformIds.length === 0) return sql<boolean>`false`;
  return sql<boolean>`${sql.ref(column)} = any(${[...scope.platformIds]}::int[])`;
}

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

/** What evaluation needs of a device: site, names, monitor type, initial values, state. */
export interface EvalDevice {
  id: number;
  platformId: number | null;
  platformName: string;
  name: string;
  number: string;
  moduleId: number;
  initialValues: Record<string, number>;
  state: string;
  lastSeenAt: string | null;
  offlineHours: number | null;
}

export async function evalDevices(db: Db | Tx, ids: readonly number[]): Promise<Map<number, EvalDevice>> {
  const k = 'k' in db ? db.k : db;
  const out = new Map<number, EvalDevice>();
  if (!ids.length) return out;
  const rows = await k
    .selectFrom('devices as d')
    .leftJoin('platforms as p', 'p.id', 'd.platform_id')
    .select([
      'd.id',
      'd.platform_id',
      'p.name as platform_name',
      'd.device_name',
      'd.number',
      'd.module_id',
      'd.initial_values',
      'd.state',
      'd.last_seen_at',
      'd.offline_hours',
    ])
    .where('d.id', 'in', [...new Set(ids)])
    .execute();
  for (const r of rows)
    out.set(r.id, {
      id: r.id,
      platformId: r.platform_id,
      platformName: r.platform_name ?? '',
      name: r.device_name,
      number: r.number,
      moduleId: r.module_id,
      initialValues: json<Record<string, number> | null>(r.initial_values) ?? {},
      state: r.state,
      lastSeenAt: isoOrNull(r.last_seen_at),
      offlineHours: r.offline_hours,
    });
  return out;
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

// ------------------------------------------------------------------------------------------------------
// Readings for evaluation
// ------------------------------------------------------------------------------------------------------

export interface SeriesRequest {
  deviceId: number;
  from: number;
  to: number;
  /** Readings before `from` to include as well (previous readings for rate / acceleration). */
  before: number;
}

/** Stored readings of several devices over ranges, plus up to `before` readings before each range; oldest first. */
export async function readingsFor(
  db: Db,
  reqs: readonly SeriesRequest[],
): Promise<{ deviceId: number; ts: number; vals: Record<string, number> }[]> {
  if (!reqs.length) return [];
  const ids = reqs.map((r) => r.deviceId);
  const froms = reqs.map((r) => new Date(r.from).toISOString());
  const tos = reqs.map((r) => new Date(r.to).toISOString());
  const befores = reqs.map((r) => r.before);
  const rows = await sql<{ device_id: number; ts: Date; vals: unknown }>`
    with w as (select * from unnest(${ids}::int[], ${froms}::timestamptz[], ${tos}::timestamptz[], ${befores}::int[])
               as w(device_id, f, t, b))
    select r.device_id, r.ts, r.vals from w join readings r on r.device_id = w.device_id and r.ts >= w.f and r.ts <= w.t
    union all
    select w.device_id, p.ts, p.vals from w cross join lateral (
      select ts, vals from readings where device_id = w.device_id and ts < w.f order by ts desc limit w.b) p
    where w.b > 0
    order by 1, 2`.execute(db.k);
  return rows.rows.map((r) => ({ deviceId: r.device_id, ts: new Date(r.ts).getTime(), vals: json(r.vals) }));
}

/**
 * Readings of the given devices received since a moment (the last days only, for partition pruning), oldest
 * first per device: what a restart re-evaluates in case it stopped between a commit and its evaluation.
 */
export async function receivedSince(
  db: Db,
  deviceIds: readonly number[],
  since: Date,
): Promise<{ deviceId: number; ts: number; values: Record<string, number> }[]> {
  if (!deviceIds.length) return [];
  const rows = await sql<{ device_id: number; ts: Date; vals: unknown }>`
    select device_id, ts, vals from readings
    where ts > ${since.toISOString()}::timestamptz - interval '2 days' and received_at >= ${since.toISOString()}::timestamptz
      and device_id = any(${[...deviceIds]}::int[])
    order by device_id, ts limit 200000`.execute(db.k);
  return rows.rows.map((r) => ({ deviceId: r.device_id, ts: new Date(r.ts).getTime(), values: json(r.vals) }));
}

/** The first stored value of each quantity of a device (from the daily rollups), the cumulative-change origin. */
export async function firstValues(db: Db, deviceId: number): Promise<Record<string, number>> {
  const rows = await sql<{ quantity: string; first_v: number }>`
    select distinct on (quantity) quantity, first_v from readings_daily where device_id = ${deviceId}
    order by quantity, bucket asc`.execute(db.k);
  return Object.fromEntries(rows.rows.map((r) => [r.quantity, r.first_v]));
}

// ------------------------------------------------------------------------------------------------------
// Alerts: writes (inside the evaluator's transaction)
// ------------------------------------------------------------------------------------------------------

export interface OpenAlert {
  id: number;
  level: number;
  count: number;
}

/** The open alert of a family (a multi-device rule has one open alert whichever member tipped it). */
export async function openAlertForUpdate(tx: Tx, deviceId: number, family: string): Promise<OpenAlert | undefined> {
  const r = await sql<{ id: number; level: number; count: number }>`
    select id, level, count from alerts
    where family = ${family} and status <> 'processed'
      ${family.startsWith('multi:') ? sql`` : sql`and device_id = ${deviceId}`}
    order by id limit 1 for update`.execute(tx);
  return r.rows[0];
}

export async function hitExists(tx: Tx, ruleKey: string, deviceId: number, ts: number): Promise<boolean> {
  const r = await tx
    .selectFrom('alert_hits')
    .select('alert_id')
    .where('rule_key', '=', ruleKey)
    .where('device_id', '=', deviceId)
    .where('reading_ts', '=', new Date(ts).toISOString())
    .executeTakeFirst();
  return !!r;
}

/**
 * What an alert store reads before it writes, in one statement: of the given firing keys (rule, device, reading
 * time), those already stored ("ruleKey|deviceId|ts"), and the open alerts of their families, locked (oldest
 * first): device families by (device, family), multi-device families by family alone, keyed "deviceId|family"
 * and "*|multi:..."; the oldest open alert of a key wins.
 */
export async function storedHitsAndOpenAlerts(
  tx: Tx,
  decisions: readonly { ruleKey: string; deviceId: number; ts: number; family: string }[],
): Promise<{ done: Set<string>; open: Map<string, OpenAlert> }> {
  const done = new Set<string>();
  const open = new Map<string, OpenAlert>();
  if (!decisions.length) return { done, open };
  const multi = [...new Set(decisions.filter((w) => w.family.startsWith('multi:')).map((w) => w.family))];
  const single = decisions.filter((w) => !w.family.startsWith('multi:'));
  const r = await sql<{
    hit: boolean;
    rule_key: string | null;
    device_id: number;
    t: number | null;
    id: number | null;
    family: string | null;
    level: number | null;
    count: number | null;
  }>`
    with o as materialized (
      select id, device_id, family, level, count from alerts
      where status <> 'processed' and (family = any(${multi}::text[])
        or (device_id, family) in (select * from unnest(${single.map((w) => w.deviceId)}::int[],
                                                        ${single.map((w) => w.family)}::text[])))
      order by id for update)
    select true as hit, h.rule_key, h.device_id, (extract(epoch from h.reading_ts) * 1000)::float8 as t,
           null::int as id, null::text as family, null::int as level, null::int as count
      from unnest(${decisions.map((k) => k.ruleKey)}::text[], ${decisions.map((k) => k.deviceId)}::int[],
                  ${decisions.map((k) => new Date(k.ts).toISOString())}::timestamptz[]) as u(k, d, t)
      join alert_hits h on h.rule_key = u.k and h.device_id = u.d and h.reading_ts = u.t
    union all
    select false, null, device_id, null, id, family, level, count from o
    order by hit, id`.execute(tx);
  for (const x of r.rows) {
    if (x.hit) done.add(`${x.rule_key}|${x.device_id}|${Math.round(Number(x.t))}`);
    else {
      const key = x.family!.startsWith('multi:') ? `*|${x.family}` : `${x.device_id}|${x.family}`;
      if (!open.has(key)) open.set(key, { id: x.id!, level: x.level!, count: x.count! });
    }
  }
  return { done, open };
}

/** Who did what to an alert and when (`alert_actions`): raised / escalated by the system, saved / processed by a user. */
export interface NewAction {
  alertId: number;
  action: string;
  userId: number | null;
  userName: string | null;
  level: number | null;
  detail: unknown;
}

/** A firing of a rule on a reading (`alert_hits`), keyed by (rule, device, reading time). */
export interface NewHit {
  ruleKey: string;
  deviceId: number;
  ts: number;
  alertId: number;
  level: number;
  value: number | null;
  metric: number | null;
}

/**
 * Stores a store's actions (in the given order) and its hits in one statement: the actions as written, the hits
 * keyed by (rule, device, reading time).
 */
export async function insertActionsAndHits(
  tx: Tx,
  actions: readonly NewAction[],
  hits: readonly NewHit[],
): Promise<void> {
  if (!actions.length && !hits.length) return;
  await sql`
    with a as (
      insert into alert_actions (alert_id, action, user_id, user_name, level, detail)
      select a, b, c, d, e, f from unnest(${actions.map((x) => x.alertId)}::int[], ${actions.map((x) => x.action)}::text[],
                           ${actions.map((x) => x.userId)}::int[], ${actions.map((x) => x.userName)}::text[],
                           ${actions.map((x) => x.level)}::smallint[],
                           ${actions.map((x) => JSON.stringify(x.detail ?? {}))}::jsonb[]) with ordinality as u(a, b, c, d, e, f, n)
      order by n)
    insert into alert_hits (rule_key, device_id, reading_ts, alert_id, level, value, metric)
    select * from unnest(${hits.map((h) => h.ruleKey)}::text[], ${hits.map((h) => h.deviceId)}::int[],
                         ${hits.map((h) => new Date(h.ts).toISOString())}::timestamptz[], ${hits.map((h) => h.alertId)}::int[],
                         ${hits.map((h) => h.level)}::smallint[], ${hits.map((h) => h.value)}::float8[],
                         ${hits.map((h) => h.metric)}::float8[])`.execute(tx);
}

export interface NewAlert {
  platform_id: number;
  device_id: number;
  quantity: string | null;
  kind: string;
  family: string;
  rule_id: number | null;
  relation_id: number | null;
  value_type: string;
  level: number;
  threshold: number | null;
  value: number | null;
  metric: number | null;
  at: number;
  evidence: unknown;
  group_id: number | null;
  channels: string[];
  push_interval_minutes: number;
}

/** Inserts alerts (one statement); answers their ids in the order given. */
export async function insertAlerts(tx: Tx, list: readonly NewAlert[]): Promise<number[]> {
  if (!list.length) return [];
  const rows = await tx
    .insertInto('alerts')
    .values(
      list.map((a) => {
        const at = new Date(a.at).toISOString();
        return {
          platform_id: a.platform_id,
          device_id: a.device_id,
          quantity: a.quantity,
          kind: a.kind,
          family: a.family,
          rule_id: a.rule_id,
          relation_id: a.relation_id,
          value_type: a.value_type,
          level: a.level,
          first_level: a.level,
          threshold: a.threshold,
          first_value: a.value,
          last_value: a.value,
          metric: a.metric,
          trigger_value: a.metric ?? a.value,
          trigger_at: a.kind === 'offline' ? null : at,
          first_at: at,
          last_at: at,
          evidence: JSON.stringify(a.evidence),
          group_id: a.group_id,
          channels: a.channels,
          push_interval_minutes: a.push_interval_minutes,
        };
      }),
    )
    .returning(['id', 'device_id', 'family'])
    .execute();
  // Matched by (device, family), unique among one store's new alerts, rather than trusting the row order.
  const byKey = new Map(rows.map((r) => [`${r.device_id}|${r.family}`, r.id]));
  return list.map((a) => byKey.get(`${a.device_id}|${a.family}`)!);
}

/** What a hit writes into the alert it folds into. */
export type FoldValues = Omit<NewAlert, 'platform_id' | 'device_id' | 'quantity' | 'kind' | 'family'>;

/**
 * Folds hits into open alerts, all in one statement: `n` more hits, the last hit's value and metric, the latest
 * reading time; with `esc` (the last hit that escalated the alert) also its level, evidence, rule and threshold.
 */
export async function foldIntoAlerts(
  tx: Tx,
  folds: readonly { id: number; n: number; last: FoldValues; lastAt: number; esc: FoldValues | null }[],
): Promise<void> {
  if (!folds.length) return;
  const col = <T>(f: (x: (typeof folds)[number]) => T): T[] => folds.map(f);
  const iso = (t: number): string => new Date(t).toISOString();
  await sql`update alerts a set
      count = a.count + f.n,
      last_value = case when f.last_at >= a.last_at then f.last_value else a.last_value end,
      metric = case when f.last_at >= a.last_at then f.metric else a.metric end,
      last_at = greatest(a.last_at, f.last_at),
      updated_at = now(),
      evidence = case when f.esc then f.evidence else a.evidence end,
      level = case when f.esc then f.level else a.level end,
      escalated_at = case when f.esc then f.esc_at else a.escalated_at end,
      trigger_value = case when f.esc then f.trigger_value else a.trigger_value end,
      trigger_at = case when f.esc then f.esc_at else a.trigger_at end,
      rule_id = case when f.esc then f.rule_id else a.rule_id end,
      threshold = case when f.esc then f.threshold else a.threshold end,
      value_type = case when f.esc then f.value_type else a.value_type end,
      group_id = case when f.esc then f.group_id else a.group_id end,
      channels = case when f.esc then string_to_array(f.channels, ',') else a.channels end,
      push_interval_minutes = case when f.esc then f.push_interval_minutes else a.push_interval_minutes end
    from unnest(
      ${col((x) => x.id)}::int[], ${col((x) => x.n)}::int[], ${col((x) => x.last.value)}::float8[],
      ${col((x) => x.last.metric)}::float8[], ${col((x) => iso(Math.max(x.lastAt, x.last.at)))}::timestamptz[],
      ${col((x) => x.esc !== null)}::bool[], ${col((x) => (x.esc ? JSON.stringify(x.esc.evidence) : null))}::jsonb[],
      ${col((x) => x.esc?.level ?? null)}::int[], ${col((x) => (x.esc ? iso(x.esc.at) : null))}::timestamptz[],
      ${col((x) => x.esc?.rule_id ?? null)}::int[], ${col((x) => x.esc?.threshold ?? null)}::float8[],
      ${col((x) => x.esc?.value_type ?? null)}::text[], ${col((x) => x.esc?.group_id ?? null)}::int[],
      ${col((x) => (x.esc ? x.esc.channels.join(',') : null))}::text[],
      ${col((x) => x.esc?.push_interval_minutes ?? null)}::int[],
      ${col((x) => (x.esc ? (x.esc.metric ?? x.esc.value) : null))}::float8[]
    ) as f(id, n, last_value, metric, last_at, esc, evidence, level, esc_at, rule_id, threshold, value_type,
           group_id, channels, push_interval_minutes, trigger_value)
    where a.id = f.id`.execute(tx);
}

/** A late reading of a device (ISO time): see markLateReadings. */
export interface LateReading {
  deviceId: number;
  at: string;
}

/**
 * Records late readings in the evidence of the devices' open alerts with a hit at or after them (one
 * statement): the alert stays raised, and its evidence says a reading before its latest hit arrived late.
 */
export async function markLateReadings(tx: Tx, lates: readonly LateReading[]): Promise<void> {
  if (!lates.length) return;
  await sql`update alerts a
       set evidence = a.evidence || jsonb_build_object('late', true, 'lateReadingAt', l.at), updated_at = now()
      from (select device_id, min(at) as at
              from unnest(${lates.map((x) => x.deviceId)}::int[], ${lates.map((x) => x.at)}::text[]) as u(device_id, at)
             group by device_id) l
     where a.device_id = l.device_id and a.status <> 'processed' and a.kind <> 'offline'
       and a.last_at >= l.at::timestamptz`.execute(tx);
}

export async function insertAlert(tx: Tx, a: NewAlert): Promise<number> {
  return (await insertAlerts(tx, [a]))[0]!;
}

export async function insertAction(tx: Tx | Db, a: NewAction): Promise<void> {
  const k = 'k' in tx ? tx.k : tx;
  await k
    .insertInto('alert_actions')
    .values({
      alert_id: a.alertId,
      action: a.action,
      user_id: a.userId,
      user_name: a.userName,
      level: a.level,
      detail: JSON.stringify(a.detail ?? {}),
    })
    .execute();
}

/**
 * Sets a device's state from its open (not processed) alerts: 3-4 alarm, 1-2 alert, none normal. Offline and
 * abnormal devices keep their state (offline alerts do not count). Answers the change, if any.
 */
export async function refreshDeviceState(
  tx: Tx | Db,
  deviceId: number,
): Promise<{ platformId: number | null; state: string } | null> {
  const k = 'k' in tx ? tx.k : tx;
  const r = await sql<{ platform_id: number | null; state: string; old_state: string }>`
    with m as (select coalesce(max(level), 0) as lvl from alerts
               where device_id = ${deviceId} and status <> 'processed' and kind <> 'offline'),
    old as (select id, state from devices where id = ${deviceId} for update)
    update devices d set state = case when m.lvl >= 3 then 'alarm' when m.lvl >= 1 then 'alert' else 'normal' end
    from m, old
    where d.id = old.id and d.state in ('normal', 'alert', 'alarm')
    returning d.platform_id, d.state, old.state as old_state`.execute(k);
  const row = r.rows[0];
  return row && row.state !== row.old_state ? { platformId: row.platform_id, state: row.state } : null;
}

/** Devices whose state may follow from their alerts: in alert or alarm, or with open (non-offline) alerts. */
export async function devicesWithAlertState(db: Db): Promise<number[]> {
  const r = await sql<{ id: number }>`
    select id from devices where state in ('alert', 'alarm')
    union
    select device_id from alerts where status <> 'processed' and kind <> 'offline' and device_id is not null`.execute(
    db.k,
  );
  return r.rows.map((x) => x.id);
}

/**
 * `refreshDeviceState` for several devices: the changing rows are locked in id order, the order the
 * ingest writer locks them in, so the two never deadlock. Answers the changes.
 */
export async function refreshDeviceStates(
  tx: Tx,
  deviceIds: readonly number[],
): Promise<{ deviceId: number; platformId: number | null; state: string }[]> {
  if (!deviceIds.length) return [];
  // Only devices whose state changes are written (and locked): the ingest writer updates every reporting
  // device's row in each batch, and waiting for its commit here would hold up the alerts of this store.
  // The changing rows are locked first, in id order (the writer's order; a locking CTE is materialized), then
  // updated, in one statement: an UPDATE alone locks in the order of its join, which deadlocked with
  // concurrent ingest batches.
  const r = await sql<{ id: number; platform_id: number | null; state: string }>`
    with l as (
      select d.id, s.state
      from devices d
      cross join lateral (
        select coalesce(max(a.level), 0) as lvl from alerts a
        where a.device_id = d.id and a.status <> 'processed' and a.kind <> 'offline') x
      cross join lateral (
        select case when x.lvl >= 3 then 'alarm' when x.lvl >= 1 then 'alert' else 'normal' end as state) s
      where d.id = any(${[...new Set(deviceIds)]}::int[]) and d.state in ('normal', 'alert', 'alarm') and d.state <> s.state
      order by d.id
      for no key update of d)
    update devices d set state = l.state
    from l
    where d.id = l.id
    returning d.id, d.platform_id, d.state`.execute(tx);
  return r.rows.map((x) => ({ deviceId: x.id, platformId: x.platform_id, state: x.state }));
}

// ------------------------------------------------------------------------------------------------------
// Alerts: reads
// ------------------------------------------------------------------------------------------------------

export interface AlertFilter {
  platformId?: number | undefined;
  deviceId?: number | undefined;
  level?: number | undefined;
  status?: string | undefined;
  kind?: string | undefined;
  valueType?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  keyword?: string | undefined;
}

function alertsBase(db: Db | Tx, scope: DataScope) {
  const k = 'k' in db ? db.k : db;
  return whereInScope(
    k
      .selectFrom('alerts as a')
      .leftJoin('devices as d', 'd.id', 'a.device_id')
      .leftJoin('platforms as p', 'p.id', 'a.platform_id'),
    scope,
    'a.platform_id',
  );
}

function filteredAlerts(db: Db, scope: DataScope, f: AlertFilter) {
  let q = alertsBase(db, scope);
  if (f.platformId !== undefined) q = q.where('a.platform_id', '=', isDbId(f.platformId) ? f.platformId : -1);
  if (f.deviceId !== undefined) q = q.where('a.device_id', '=', isDbId(f.deviceId) ? f.deviceId : -1);
  if (f.level !== undefined) q = q.where('a.level', '=', f.level);
  if (f.status) q = q.where('a.status', '=', f.status);
  if (f.kind) q = q.where('a.kind', '=', f.kind);
  if (f.valueType) q = q.where('a.value_type', '=', f.valueType);
  if (f.from) q = q.where('a.last_at', '>=', f.from.toISOString());
  if (f.to) q = q.where('a.first_at', '<=', f.to.toISOString());
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<boolean>`(lower(coalesce(d.device_name, '')) like ${k} or lower(coalesce(d.number, '')) like ${k}
        or lower(coalesce(p.name, '')) like ${k} or lower(coalesce(a.quantity, '')) like ${k})`,
    );
  }
  return q;
}

const alertCols = [
  'a.id',
  'a.platform_id',
  'p.name as platform_name',
  'p.type as platform_type',
  'a.device_id',
  'd.device_name',
  'd.number',
  'd.module_id',
  'a.quantity',
  'a.kind',
  'a.rule_id',
  'a.relation_id',
  'a.value_type',
  'a.level',
  'a.first_level',
  'a.status',
  'a.threshold',
  'a.first_value',
  'a.last_value',
  'a.metric',
  'a.trigger_value',
  'a.trigger_at',
  'a.count',
  'a.first_at',
  'a.last_at',
  'a.escalated_at',
  'a.processed_at',
  'a.processed_by_name',
  'a.processing',
  'a.group_id',
  'a.channels',
  'a.push_interval_minutes',
] as const;

export interface AlertRecord {
  id: number;
  platformId: number;
  platformName: string;
  platformType: string;
  deviceId: number;
  deviceName: string;
  deviceNumber: string;
  moduleId: number;
  quantity: string | null;
  kind: string;
  ruleId: number | null;
  relationId: number | null;
  valueType: string;
  level: number;
  firstLevel: number;
  status: string;
  threshold: number | null;
  firstValue: number | null;
  lastValue: number | null;
  metric: number | null;
  triggerValue: number | null;
  triggerAt: string | null;
  count: number;
  firstAt: string;
  lastAt: string;
  escalatedAt: string | null;
  processedAt: string | null;
  processedBy: string | null;
  processing: Record<string, unknown> | null;
  groupId: number | null;
  channels: string[];
  pushIntervalMinutes: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const presentAlert = (r: any): AlertRecord => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name ?? '',
  platformType: r.platform_type ?? '',
  deviceId: r.device_id,
  deviceName: r.device_name ?? '',
  deviceNumber: r.number ?? '',
  moduleId: r.module_id ?? 0,
  quantity: r.quantity,
  kind: r.kind,
  ruleId: r.rule_id,
  relationId: r.relation_id,
  valueType: r.value_type,
  level: r.level,
  firstLevel: r.first_level,
  status: r.status,
  threshold: r.threshold,
  firstValue: r.first_value,
  lastValue: r.last_value,
  metric: r.metric,
  triggerValue: r.trigger_value ?? null,
  triggerAt: isoOrNull(r.trigger_at ?? null),
  count: r.count,
  firstAt: iso(r.first_at),
  lastAt: iso(r.last_at),
  escalatedAt: isoOrNull(r.escalated_at),
  processedAt: isoOrNull(r.processed_at),
  processedBy: r.processed_by_name,
  processing: r.processing ? json(r.processing) : null,
  groupId: r.group_id,
  channels: r.channels ?? [],
  pushIntervalMinutes: r.push_interval_minutes,
});

const ALERT_SORT: Record<string, string> = {
  lastAt: 'a.last_at',
  firstAt: 'a.first_at',
  level: 'a.level',
  status: 'a.status',
  platformName: 'p.name',
  deviceName: 'd.device_name',
  count: 'a.count',
};

export async function listAlerts(
  db: Db,
  scope: DataScope,
  f: AlertFilter & {
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: AlertRecord[]; total: number }> {
  const sortCol = ALERT_SORT[f.sortField ?? ''];
  const [rows, total] = await Promise.all([
    filteredAlerts(db, scope, f)
      .select(alertCols)
      .orderBy(orderBy(sortCol ?? 'a.last_at', sortCol ? f.sortOrder : 'descend'))
      .orderBy('a.id', 'desc')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    filteredAlerts(db, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentAlert), total: Number(total.n) };
}

/** Every alert of a filter (export), newest first, capped. */
export async function allAlerts(db: Db, scope: DataScope, f: AlertFilter, cap = 100_000): Promise<AlertRecord[]> {
  const rows = await filteredAlerts(db, scope, f).select(alertCols).orderBy('a.first_at', 'desc').limit(cap).execute();
  return rows.map(presentAlert);
}

export async function alertById(
  db: Db | Tx,
  scope: DataScope,
  id: number,
): Promise<(AlertRecord & { evidence: unknown }) | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await alertsBase(db, scope)
    .select([...alertCols, 'a.evidence'])
    .where('a.id', '=', id)
    .executeTakeFirst();
  return r ? { ...presentAlert(r), evidence: json(r.evidence) } : undefined;
}

/** Locks an alert in the scope for processing; answers its status and device. */
export async function lockAlert(
  tx: Tx,
  scope: DataScope,
  id: number,
): Promise<{ id: number; status: string; deviceId: number; platformId: number; level: number } | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await sql<{ id: number; status: string; device_id: number; platform_id: number; level: number }>`
    select id, status, device_id, platform_id, level from alerts
    where id = ${id} and ${scopeSql(scope, 'platform_id')} for update`.execute(tx);
  const row = r.rows[0];
  return row
    ? { id: row.id, status: row.status, deviceId: row.device_id, platformId: row.platform_id, level: row.level }
    : undefined;
}

export async function saveProcessing(
  tx: Tx,
  id: number,
  p: { status: string; processing: unknown; userId: number; userName: string; finish: boolean },
): Promise<void> {
  await sql`update alerts set status = ${p.status}, processing = ${JSON.stringify(p.processing)}::jsonb,
      updated_at = now()
      ${p.finish ? sql`, processed_at = now(), processed_by = ${p.userId}, processed_by_name = ${p.userName}` : sql``}
    where id = ${id}`.execute(tx);
}

export async function alertActions(db: Db, alertId: number) {
  const rows = await db.k
    .selectFrom('alert_actions')
    .selectAll()
    .where('alert_id', '=', alertId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    at: iso(r.at),
    action: r.action,
    userId: r.user_id,
    userName: r.user_name,
    level: r.level,
    detail: json<Record<string, unknown>>(r.detail) ?? {},
  }));
}

export async function alertHits(db: Db, alertId: number, limit = 100) {
  const rows = await db.k
    .selectFrom('alert_hits')
    .select(['reading_ts', 'level', 'value', 'metric'])
    .where('alert_id', '=', alertId)
    .orderBy('reading_ts', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ts: iso(r.reading_ts), level: r.level, value: r.value, metric: r.metric }));
}

/** Files by id with their type (attachment check). */
export async function filesByIds(db: Db, ids: readonly string[]) {
  if (!ids.length) return [];
  return db.k
    .selectFrom('files')
    .select(['id', 'ext', 'original_name', 'platform_id'])
    .where('id', 'in', [...ids])
    .execute();
}

// ------------------------------------------------------------------------------------------------------
// Counts and report
// ------------------------------------------------------------------------------------------------------

export async function openCountsByLevel(db: Db, scope: DataScope) {
  const r = await sql<{ level: number; status: string; n: number }>`
    select level, status, count(*)::int as n from alerts
    where status <> 'processed' and ${scopeSql(scope, 'platform_id')} group by level, status`.execute(db.k);
  return r.rows.map((x) => ({ level: x.level, status: x.status, n: Number(x.n) }));
}

/** Alerts raised per local day (yyyy-MM-dd in the IANA `timeZone`) since a time. */
export async function raisedPerDay(db: Db, scope: DataScope, since: Date, timeZone = 'UTC') {
  const r = await sql<{ day: string; n: number }>`
    select to_char(date_trunc('day', first_at at time zone ${timeZone}), 'YYYY-MM-DD') as day, count(*)::int as n
    from alerts where first_at >= ${since.toISOString()}::timestamptz and ${scopeSql(scope, 'platform_id')}
    group by 1 order by 1`.execute(db.k);
  return r.rows.map((x) => ({ day: x.day, n: Number(x.n) }));
}

export async function platformsWithAlerts(
  db: Db,
  scope: DataScope,
  f: { platformId?: number | undefined; regionCode?: string | undefined },
) {
  const r = await sql<{
    id: number;
    name: string;
    type: string;
    region_code: string | null;
    lon: number | null;
    lat: number | null;
    l1: number;
    l2: number;
    l3: number;
    l4: number;
    devices: number;
  }>`
    select p.id, p.name, p.type, p.region_code, p.lon, p.lat,
      count(a.id) filter (where a.level = 1)::int as l1, count(a.id) filter (where a.level = 2)::int as l2,
      count(a.id) filter (where a.level = 3)::int as l3, count(a.id) filter (where a.level = 4)::int as l4,
      (select count(*) from devices d where d.platform_id = p.id)::int as devices
    from platforms p left join alerts a on a.platform_id = p.id and a.status <> 'processed'
    where ${scopeSql(scope, 'p.id')}
      ${f.platformId !== undefined ? sql`and p.id = ${isDbId(f.platformId) ? f.platformId : -1}` : sql``}
      ${f.regionCode ? sql`and ${inRegionSubtree('p.region_code', f.regionCode)}` : sql``}
    group by p.id order by p.name, p.id`.execute(db.k);
  return r.rows;
}

export async function reportAggregates(
  db: Db,
  scope: DataScope,
  f: { platformId?: number | undefined; from: Date; to: Date; period: 'day' | 'week' | 'month'; timeZone?: string },
) {
  const where = sql`a.first_at >= ${f.from.toISOString()}::timestamptz and a.first_at <= ${f.to.toISOString()}::timestamptz
    and ${scopeSql(scope, 'a.platform_id')}
    ${f.platformId !== undefined ? sql`and a.platform_id = ${isDbId(f.platformId) ? f.platformId : -1}` : sql``}`;
  const unit = sql.raw(`'${f.period}'`);
  const [levels, sites, types, statuses, periods] = await Promise.all([
    sql<{
      level: number;
      n: number;
    }>`select level, count(*)::int as n from alerts a where ${where} group by level order by level`.execute(db.k),
    sql<{ id: number; name: string; level: number; n: number }>`
      select a.platform_id as id, coalesce(p.name, '') as name, a.level, count(*)::int as n
      from alerts a left join platforms p on p.id = a.platform_id where ${where}
      group by a.platform_id, p.name, a.level order by 2, 1`.execute(db.k),
    sql<{
      value_type: string;
      n: number;
    }>`select value_type, count(*)::int as n from alerts a where ${where} group by value_type order by 2 desc, 1`.execute(
      db.k,
    ),
    sql<{
      status: string;
      n: number;
    }>`select status, count(*)::int as n from alerts a where ${where} group by status`.execute(db.k),
    sql<{ period: string; level: number; n: number }>`
      select to_char(date_trunc(${unit}, a.first_at at time zone ${f.timeZone ?? 'UTC'}), 'YYYY-MM-DD') as period, a.level,
             count(*)::int as n
      from alerts a where ${where} group by 1, 2 order by 1, 2`.execute(db.k),
  ]);
  return {
    levels: levels.rows,
    sites: sites.rows,
    types: types.rows,
    statuses: statuses.rows,
    periods: periods.rows,
  };
}
