import { sql, type RawBuilder } from 'kysely';
import type {
  ArchiveContact,
  ArchiveSite,
  ExpiryStatus,
  InspectionItem,
  PlanKind,
  PlanStatus,
  RectificationState,
  SafetyDocType,
} from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { DataScope } from '../../platform/auth/access.ts';
import { iso, isoOrNull, isDbId, json, likePattern, orderBy, scopeSql, type Paging } from '../../platform/db/sql.ts';
import { overdueSql, todaySql } from '../../platform/rectification.ts';
import { arch } from './archives.tables.ts';

/**
 * Safety supervision records. Every read is limited to the caller's data scope by the record's site (a plan's
 * versions and drills, a document's versions and folders by their plan's, document's or folder's site); a
 * record outside it answers like a missing one.
 */

const AND = (conds: RawBuilder<unknown>[]) => (conds.length ? sql.join(conds, sql` and `) : sql`true`);
const idOrZero = (n: number | undefined) => (n !== undefined && isDbId(n) ? n : 0);
const stored = (v: unknown): string[] => (Array.isArray(json(v)) ? json<string[]>(v) : []);

// ------------------------------------------------------------------------------------------ shared

/** Every site in the scope, by name. */
export async function sites(db: Db, scope: DataScope): Promise<ArchiveSite[]> {
  const r = await sql<{ id: number; name: string; type: string }>`
    select p.id, p.name, p.type from platforms p where ${scopeSql(scope, 'p.id')} order by p.name, p.id`.execute(db.k);
  return r.rows.map((x) => ({ platformId: x.id, name: x.name, type: x.type }));
}

/** Alert contacts with an email address (who may be reminded), by name. */
export async function contacts(db: Db): Promise<ArchiveContact[]> {
  const r = await sql<ArchiveContact>`
    select id, name, email, language from alert_contacts where email is not null and email <> ''
    order by name, id`.execute(db.k);
  return r.rows;
}

export async function contactExists(db: Db, id: number): Promise<boolean> {
  if (!isDbId(id)) return false;
  const r = await sql<{ id: number }>`
    select id from alert_contacts where id = ${id} and email is not null and email <> ''`.execute(db.k);
  return r.rows.length > 0;
}

// ---------------------------------------------------------------------------- dynamic supervision

export interface InspectionFilter {
  platformId?: number | undefined;
  state?: RectificationState | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  withProblems?: boolean | undefined;
  overdue?: boolean | undefined;
  keyword?: string | undefined;
}

const INSPECTION_SORT: Record<string, string> = {
  inspectionDate: 'i.inspection_date',
  platformName: 'p.name',
  inspector: 'i.inspector',
  state: 'i.state',
  deadline: 'i.deadline',
  completedDate: 'i.completed_date',
  problemCount: 'i.problem_count',
  createdAt: 'i.created_at',
};

function inspectionWhere(scope: DataScope, f: InspectionFilter): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [scopeSql(scope, 'i.platform_id')];
  if (f.platformId !== undefined) c.push(sql`i.platform_id = ${idOrZero(f.platformId)}`);
  if (f.state) c.push(sql`i.state = ${f.state}`);
  if (f.startDate) c.push(sql`i.inspection_date >= ${f.startDate}::date`);
  if (f.endDate) c.push(sql`i.inspection_date <= ${f.endDate}::date`);
  if (f.withProblems === true) c.push(sql`i.problem_count > 0`);
  if (f.withProblems === false) c.push(sql`i.problem_count = 0`);
  if (f.overdue === true) c.push(overdueSql('i'));
  if (f.overdue === false) c.push(sql`not ${overdueSql('i')}`);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    c.push(sql`(lower(i.inspector) like ${k} or lower(p.name) like ${k} or lower(coalesce(i.requirement, '')) like ${k}
      or lower(coalesce(i.result, '')) like ${k} or lower(i.problems::text) like ${k} or lower(i.items::text) like ${k})`);
  }
  return AND(c);
}

interface InspectionRow {
  id: number;
  platform_id: number;
  platform_name: string;
  inspection_date: string;
  inspector: string;
  items: unknown;
  problems: unknown;
  problem_count: number;
  requirement: string | null;
  deadline: string | null;
  state: RectificationState;
  overdue: boolean;
  completed_date: string | null;
  result: string | null;
  created_by_name: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface InspectionRaw {
  id: number;
  platformId: number;
  platformName: string;
  inspectionDate: string;
  inspector: string;
  items: InspectionItem[];
  problems: { description: string; photos: string[] }[];
  problemCount: number;
  requirement: string | null;
  deadline: string | null;
  state: RectificationState;
  overdue: boolean;
  completedDate: string | null;
  result: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

const inspectionSelect = sql`
  select i.id, i.platform_id, p.name as platform_name, to_char(i.inspection_date, 'YYYY-MM-DD') as inspection_date,
    i.inspector, i.items, i.problems, i.problem_count, i.requirement, to_char(i.deadline, 'YYYY-MM-DD') as deadline,
    i.state, ${overdueSql('i')} as overdue, to_char(i.completed_date, 'YYYY-MM-DD') as completed_date, i.result,
    u.name as created_by_name, i.created_at, i.updated_at
  from archive_inspections i
  join platforms p on p.id = i.platform_id
  left join users u on u.id = i.created_by`;

const presentInspection = (r: InspectionRow): InspectionRaw => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  inspectionDate: r.inspection_date,
  inspector: r.inspector,
  items: json<InspectionItem[]>(r.items) ?? [],
  problems: json<{ description: string; photos: string[] }[]>(r.problems) ?? [],
  problemCount: Number(r.problem_count),
  requirement: r.requirement,
  deadline: r.deadline,
  state: r.state,
  overdue: r.overdue === true,
  completedDate: r.completed_date,
  result: r.result,
  createdBy: r.created_by_name,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export async function listInspections(
  db: Db,
  scope: DataScope,
  f: InspectionFilter & Paging,
): Promise<{ list: InspectionRaw[]; total: number }> {
  const where = inspectionWhere(scope, f);
  const col = INSPECTION_SORT[f.sortField ?? ''];
  const order = col ? sql`${orderBy(col, f.sortOrder)}, i.id desc` : sql`i.inspection_date desc, i.id desc`;
  const [rows, total] = await Promise.all([
    sql<InspectionRow>`${inspectionSelect} where ${where} order by ${order}
      limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize}`.execute(db.k),
    sql<{ n: number }>`select count(*)::int as n from archive_inspections i join platforms p on p.id = i.platform_id
      where ${where}`.execute(db.k),
  ]);
  return { list: rows.rows.map(presentInspection), total: Number(total.rows[0]!.n) };
}

export async function getInspection(db: Db, scope: DataScope, id: number): Promise<InspectionRaw | undefined> {
  if (!isDbId(id)) return undefined;
  const r =
    await sql<InspectionRow>`${inspectionSelect} where i.id = ${id} and ${scopeSql(scope, 'i.platform_id')}`.execute(
      db.k,
    );
  return r.rows[0] ? presentInspection(r.rows[0]) : undefined;
}

export interface InspectionWrite {
  platformId: number;
  inspectionDate: string;
  inspector: string;
  items: InspectionItem[];
  problems: { description: string; photos: string[] }[];
  problemCount: number;
  requirement?: string | undefined;
  deadline?: string | undefined;
  state: RectificationState;
  completedDate?: string | undefined;
  result?: string | undefined;
}

const inspectionColumns = (w: InspectionWrite) => ({
  platform_id: w.platformId,
  inspection_date: w.inspectionDate,
  inspector: w.inspector,
  items: JSON.stringify(w.items),
  problems: JSON.stringify(w.problems),
  problem_count: w.problemCount,
  requirement: w.requirement ?? null,
  deadline: w.deadline ?? null,
  state: w.state,
  completed_date: w.state === 'completed' ? (w.completedDate ?? null) : null,
  result: w.result ?? null,
});

export async function insertInspection(db: Db, w: InspectionWrite, userId: number): Promise<number> {
  const r = await arch(db)
    .insertInto('archive_inspections')
    .values({ ...inspectionColumns(w), created_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateInspection(db: Db, id: number, w: InspectionWrite): Promise<void> {
  await arch(db)
    .updateTable('archive_inspections')
    .set({ ...inspectionColumns(w), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Marks it completed unless it already is; answers whether this call did. */
export async function rectifyInspection(
  db: Db,
  id: number,
  completedDate: string,
  result: string | undefined,
): Promise<boolean> {
  const r = await arch(db)
    .updateTable('archive_inspections')
    .set({
      state: 'completed',
      completed_date: completedDate,
      ...(result !== undefined ? { result } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('state', '=', 'incomplete')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteInspection(db: Db, id: number): Promise<void> {
  await arch(db).deleteFrom('archive_inspections').where('id', '=', id).execute();
}

// -------------------------------------------------------------------------------------- plans

export interface PlanFilter {
  platformId?: number | undefined;
  kind?: PlanKind | undefined;
  status?: PlanStatus | undefined;
  keyword?: string | undefined;
}

const PLAN_SORT: Record<string, string> = {
  name: 'x.name',
  platformName: 'x.platform_name',
  kind: 'x.kind',
  validTo: 'x.valid_to',
  version: 'x.version',
  approvedAt: 'x.approved_at',
  createdAt: 'x.created_at',
};

/** Plans with their newest approved version, newest version, pending versions, drills and status. */
const planRows = (scope: DataScope) => sql`
  select pl.id, pl.platform_id, p.name as platform_name, pl.kind, pl.name, pl.contact_id, ac.name as contact_name,
    pl.remind_days, pl.created_at, av.version, to_char(av.valid_from, 'YYYY-MM-DD') as valid_from,
    to_char(av.valid_to, 'YYYY-MM-DD') as valid_to, av.approved_by_name, av.approved_at,
    (select max(v.version) from archive_plan_versions v where v.plan_id = pl.id) as latest_version,
    (select count(*) from archive_plan_versions v where v.plan_id = pl.id and v.approved_at is null
      and v.version > coalesce(av.version, 0)) as pending,
    (select count(*) from archive_plan_drills d where d.plan_id = pl.id) as drills,
    (select to_char(max(d.drill_date), 'YYYY-MM-DD') from archive_plan_drills d where d.plan_id = pl.id) as last_drill,
    case when av.version is null then 'draft'
      when av.valid_to < ${todaySql} then 'expired'
      when av.valid_to - pl.remind_days <= ${todaySql} then 'expiring'
      else 'valid' end as status
  from archive_plans pl
  join platforms p on p.id = pl.platform_id
  left join alert_contacts ac on ac.id = pl.contact_id
  left join lateral (
    select v.version, v.valid_from, v.valid_to, v.approved_by_name, v.approved_at from archive_plan_versions v
    where v.plan_id = pl.id and v.approved_at is not null order by v.version desc limit 1) av on true
  where ${scopeSql(scope, 'pl.platform_id')}`;

function planWhere(f: PlanFilter): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [];
  if (f.platformId !== undefined) c.push(sql`x.platform_id = ${idOrZero(f.platformId)}`);
  if (f.kind) c.push(sql`x.kind = ${f.kind}`);
  if (f.status) c.push(sql`x.status = ${f.status}`);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    c.push(sql`(lower(x.name) like ${k} or lower(x.platform_name) like ${k})`);
  }
  return AND(c);
}

interface PlanRow {
  id: number;
  platform_id: number;
  platform_name: string;
  kind: PlanKind;
  name: string;
  contact_id: number | null;
  contact_name: string | null;
  remind_days: number;
  created_at: Date;
  version: number | null;
  valid_from: Date | string | null;
  valid_to: Date | string | null;
  approved_by_name: string | null;
  approved_at: Date | null;
  latest_version: number;
  pending: number | string;
  drills: number | string;
  last_drill: Date | string | null;
  status: PlanStatus;
}

/** A date column as read (PGlite and node-postgres give a Date at UTC midnight): yyyy-MM-dd. */
const ymd = (d: Date | string | null): string | null =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : iso(d).slice(0, 10);

export interface PlanRaw {
  id: number;
  platformId: number;
  platformName: string;
  kind: PlanKind;
  name: string;
  contactId: number | null;
  contactName: string | null;
  remindDays: number;
  status: PlanStatus;
  version: number | null;
  validFrom: string | null;
  validTo: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
  latestVersion: number;
  pendingVersions: number;
  drills: number;
  lastDrill: string | null;
  createdAt: string;
}

const presentPlan = (r: PlanRow): PlanRaw => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  kind: r.kind,
  name: r.name,
  contactId: r.contact_id,
  contactName: r.contact_name,
  remindDays: r.remind_days,
  status: r.status,
  version: r.version,
  validFrom: ymd(r.valid_from),
  validTo: ymd(r.valid_to),
  approvedBy: r.approved_by_name,
  approvedAt: isoOrNull(r.approved_at),
  latestVersion: Number(r.latest_version ?? 0),
  pendingVersions: Number(r.pending),
  drills: Number(r.drills),
  lastDrill: ymd(r.last_drill),
  createdAt: iso(r.created_at),
});

export async function listPlans(
  db: Db,
  scope: DataScope,
  f: PlanFilter & Paging,
): Promise<{ list: PlanRaw[]; total: number }> {
  const where = planWhere(f);
  const col = PLAN_SORT[f.sortField ?? ''];
  const order = col ? sql`${orderBy(col, f.sortOrder)}, x.id desc` : sql`x.created_at desc, x.id desc`;
  const [rows, total] = await Promise.all([
    sql<PlanRow>`select * from (${planRows(scope)}) x where ${where} order by ${order}
      limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize}`.execute(db.k),
    sql<{ n: number }>`select count(*)::int as n from (${planRows(scope)}) x where ${where}`.execute(db.k),
  ]);
  return { list: rows.rows.map(presentPlan), total: Number(total.rows[0]!.n) };
}

export async function getPlan(db: Db, scope: DataScope, id: number): Promise<PlanRaw | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await sql<PlanRow>`select * from (${planRows(scope)}) x where x.id = ${id}`.execute(db.k);
  return r.rows[0] ? presentPlan(r.rows[0]) : undefined;
}

export interface VersionRaw {
  id: number;
  planId: number;
  version: number;
  validFrom: string;
  validTo: string;
  summary: string | null;
  files: string[];
  approvedBy: string | null;
  approvedAt: string | null;
  createdBy: string | null;
  createdAt: string;
}

const versionSelect = sql`
  select v.id, v.plan_id, v.version, to_char(v.valid_from, 'YYYY-MM-DD') as valid_from,
    to_char(v.valid_to, 'YYYY-MM-DD') as valid_to, v.summary, v.files, v.approved_by_name, v.approved_at,
    u.name as created_by_name, v.created_at
  from archive_plan_versions v
  join archive_plans pl on pl.id = v.plan_id
  left join users u on u.id = v.created_by`;

interface VersionRow {
  id: number;
  plan_id: number;
  version: number;
  valid_from: string;
  valid_to: string;
  summary: string | null;
  files: unknown;
  approved_by_name: string | null;
  approved_at: Date | null;
  created_by_name: string | null;
  created_at: Date;
}
const presentVersion = (r: VersionRow): VersionRaw => ({
  id: r.id,
  planId: r.plan_id,
  version: r.version,
  validFrom: r.valid_from,
  validTo: r.valid_to,
  summary: r.summary,
  files: stored(r.files),
  approvedBy: r.approved_by_name,
  approvedAt: isoOrNull(r.approved_at),
  createdBy: r.created_by_name,
  createdAt: iso(r.created_at),
});

export async function planVersions(db: Db, planId: number): Promise<VersionRaw[]> {
  const r = await sql<VersionRow>`${versionSelect} where v.plan_id = ${planId} order by v.version desc`.execute(db.k);
  return r.rows.map(presentVersion);
}

/** A version whose plan is in the scope, with its plan's site. */
export async function getVersion(
  db: Db,
  scope: DataScope,
  id: number,
): Promise<(VersionRaw & { platformId: number }) | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await sql<VersionRow & { platform_id: number }>`
    select x.*, pl2.platform_id from (${versionSelect} where v.id = ${id}) x
    join archive_plans pl2 on pl2.id = x.plan_id where ${scopeSql(scope, 'pl2.platform_id')}`.execute(db.k);
  const row = r.rows[0];
  return row ? { ...presentVersion(row), platformId: row.platform_id } : undefined;
}

export interface DrillRaw {
  id: number;
  planId: number;
  drillDate: string;
  participants: string;
  participantCount: number | null;
  notes: string | null;
  files: string[];
  createdBy: string | null;
  createdAt: string;
}

interface DrillRow {
  id: number;
  plan_id: number;
  drill_date: string;
  participants: string;
  participant_count: number | null;
  notes: string | null;
  files: unknown;
  created_by_name: string | null;
  created_at: Date;
  platform_id: number;
}
const drillSelect = sql`
  select d.id, d.plan_id, to_char(d.drill_date, 'YYYY-MM-DD') as drill_date, d.participants, d.participant_count,
    d.notes, d.files, u.name as created_by_name, d.created_at, pl.platform_id
  from archive_plan_drills d
  join archive_plans pl on pl.id = d.plan_id
  left join users u on u.id = d.created_by`;
const presentDrill = (r: DrillRow): DrillRaw => ({
  id: r.id,
  planId: r.plan_id,
  drillDate: r.drill_date,
  participants: r.participants,
  participantCount: r.participant_count,
  notes: r.notes,
  files: stored(r.files),
  createdBy: r.created_by_name,
  createdAt: iso(r.created_at),
});

export async function planDrills(db: Db, planId: number): Promise<DrillRaw[]> {
  const r =
    await sql<DrillRow>`${drillSelect} where d.plan_id = ${planId} order by d.drill_date desc, d.id desc`.execute(db.k);
  return r.rows.map(presentDrill);
}

export async function getDrill(db: Db, scope: DataScope, id: number): Promise<DrillRaw | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await sql<DrillRow>`${drillSelect} where d.id = ${id} and ${scopeSql(scope, 'pl.platform_id')}`.execute(
    db.k,
  );
  return r.rows[0] ? presentDrill(r.rows[0]) : undefined;
}

export interface PlanWrite {
  kind: PlanKind;
  name: string;
  contactId?: number | undefined;
  remindDays: number;
}
export interface VersionWrite {
  validFrom: string;
  validTo: string;
  summary?: string | undefined;
  files: string[];
}

export async function insertPlan(
  db: Db,
  platformId: number,
  p: PlanWrite,
  v: VersionWrite,
  userId: number,
): Promise<number> {
  return db.k.transaction().execute(async (tx) => {
    const a = arch(tx);
    const plan = await a
      .insertInto('archive_plans')
      .values({
        platform_id: platformId,
        kind: p.kind,
        name: p.name,
        contact_id: p.contactId ?? null,
        remind_days: p.remindDays,
        created_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await a
      .insertInto('archive_plan_versions')
      .values({ plan_id: plan.id, version: 1, ...versionColumns(v), created_by: userId })
      .execute();
    return plan.id;
  });
}

const versionColumns = (v: VersionWrite) => ({
  valid_from: v.validFrom,
  valid_to: v.validTo,
  summary: v.summary ?? null,
  files: JSON.stringify(v.files),
});

export async function updatePlan(db: Db, id: number, p: PlanWrite): Promise<void> {
  await arch(db)
    .updateTable('archive_plans')
    .set({
      kind: p.kind,
      name: p.name,
      contact_id: p.contactId ?? null,
      remind_days: p.remindDays,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deletePlan(db: Db, id: number): Promise<void> {
  await arch(db).deleteFrom('archive_plans').where('id', '=', id).execute();
}

/**
 * Adds the next version. The plan row is locked first, so two versions added at once get numbers one after
 * the other (never the same number, never a unique-violation).
 */
export async function insertVersion(db: Db, planId: number, v: VersionWrite, userId: number): Promise<number> {
  return db.k.transaction().execute(async (tx) => {
    await sql`select id from archive_plans where id = ${planId} for update`.execute(tx);
    const r = await sql<{ id: number }>`
      insert into archive_plan_versions (plan_id, version, valid_from, valid_to, summary, files, created_by)
      select ${planId}, coalesce(max(version), 0) + 1, ${v.validFrom}::date, ${v.validTo}::date, ${v.summary ?? null},
        ${JSON.stringify(v.files)}::jsonb, ${userId}
      from archive_plan_versions where plan_id = ${planId}
      returning id`.execute(tx);
    return r.rows[0]!.id;
  });
}

/**
 * Approves a version that is not approved yet, in one statement: of any number of approvals at once, exactly
 * one updates the row. Answers who and when, or undefined when it was approved already.
 */
export async function approveVersion(
  db: Db,
  id: number,
  user: { id: number; name: string },
): Promise<{ approvedBy: string; approvedAt: string } | undefined> {
  // Not approved yet, and no newer version of the plan approved (that one supersedes it).
  const r = await sql<{ approved_by_name: string; approved_at: Date }>`
    update archive_plan_versions v set approved_by = ${user.id}, approved_by_name = ${user.name}, approved_at = now()
    where v.id = ${id} and v.approved_at is null
      and not exists (select 1 from archive_plan_versions n
        where n.plan_id = v.plan_id and n.version > v.version and n.approved_at is not null)
    returning v.approved_by_name, v.approved_at`.execute(db.k);
  const row = r.rows[0];
  return row ? { approvedBy: row.approved_by_name, approvedAt: iso(row.approved_at) } : undefined;
}

export interface DrillWrite {
  drillDate: string;
  participants: string;
  participantCount?: number | undefined;
  notes?: string | undefined;
  files: string[];
}

export async function insertDrill(db: Db, planId: number, d: DrillWrite, userId: number): Promise<number> {
  const r = await arch(db)
    .insertInto('archive_plan_drills')
    .values({
      plan_id: planId,
      drill_date: d.drillDate,
      participants: d.participants,
      participant_count: d.participantCount ?? null,
      notes: d.notes ?? null,
      files: JSON.stringify(d.files),
      created_by: userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function deleteDrill(db: Db, id: number): Promise<void> {
  await arch(db).deleteFrom('archive_plan_drills').where('id', '=', id).execute();
}

// --------------------------------------------------------------------------------- security files

export interface FolderRaw {
  id: number;
  platformId: number;
  parentId: number | null;
  name: string;
  documents: number;
}

export async function folders(db: Db, platformId: number): Promise<FolderRaw[]> {
  const r = await sql<{ id: number; platform_id: number; parent_id: number | null; name: string; documents: number }>`
    select f.id, f.platform_id, f.parent_id, f.name,
      (select count(*)::int from archive_documents d where d.folder_id = f.id) as documents
    from archive_folders f where f.platform_id = ${platformId} order by lower(f.name), f.id`.execute(db.k);
  return r.rows.map((x) => ({
    id: x.id,
    platformId: x.platform_id,
    parentId: x.parent_id,
    name: x.name,
    documents: Number(x.documents),
  }));
}

export async function getFolder(db: Db, scope: DataScope, id: number): Promise<FolderRaw | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await sql<{ id: number; platform_id: number; parent_id: number | null; name: string }>`
    select f.id, f.platform_id, f.parent_id, f.name from archive_folders f
    where f.id = ${id} and ${scopeSql(scope, 'f.platform_id')}`.execute(db.k);
  const x = r.rows[0];
  return x ? { id: x.id, platformId: x.platform_id, parentId: x.parent_id, name: x.name, documents: 0 } : undefined;
}

/** Makes a folder; undefined when a folder of that name (any case) exists there already. */
export async function insertFolder(
  db: Db,
  platformId: number,
  parentId: number | null,
  name: string,
): Promise<number | undefined> {
  const r = await sql<{ id: number }>`
    insert into archive_folders (platform_id, parent_id, name) values (${platformId}, ${parentId}, ${name})
    on conflict do nothing returning id`.execute(db.k);
  return r.rows[0]?.id;
}

/** Deletes a folder holding no documents and no folders; answers whether it did. */
export async function deleteEmptyFolder(db: Db, id: number): Promise<boolean> {
  const r = await sql<{ id: number }>`
    delete from archive_folders f where f.id = ${id}
      and not exists (select 1 from archive_documents d where d.folder_id = f.id)
      and not exists (select 1 from archive_folders c where c.parent_id = f.id)
    returning f.id`.execute(db.k);
  return r.rows.length > 0;
}

export interface DocumentFilter {
  platformId?: number | undefined;
  folderId?: number | undefined;
  docType?: SafetyDocType | undefined;
  expiry?: ExpiryStatus | undefined;
  keyword?: string | undefined;
}

const DOCUMENT_SORT: Record<string, string> = {
  name: 'x.name',
  docType: 'x.doc_type',
  expiresOn: 'x.expires_on',
  version: 'x.version',
  updatedAt: 'x.uploaded_at',
  uploadedBy: 'x.uploaded_by_name',
};

const documentRows = (scope: DataScope) => sql`
  select d.id, d.platform_id, p.name as platform_name, d.folder_id, f.name as folder_name, d.name, d.doc_type,
    to_char(d.expires_on, 'YYYY-MM-DD') as expires_on, d.expires_on as expires_date, d.contact_id,
    ac.name as contact_name, d.remind_days, lv.version, lv.file_id, lv.uploaded_by_name, lv.created_at as uploaded_at,
    case when d.expires_on is null then 'none'
      when d.expires_on < ${todaySql} then 'expired'
      when d.expires_on - d.remind_days <= ${todaySql} then 'expiring'
      else 'valid' end as expiry
  from archive_documents d
  join platforms p on p.id = d.platform_id
  left join archive_folders f on f.id = d.folder_id
  left join alert_contacts ac on ac.id = d.contact_id
  join lateral (
    select v.version, v.file_id, v.uploaded_by_name, v.created_at from archive_document_versions v
    where v.document_id = d.id order by v.version desc limit 1) lv on true
  where ${scopeSql(scope, 'd.platform_id')}`;

function documentWhere(f: DocumentFilter): RawBuilder<unknown> {
  const c: RawBuilder<unknown>[] = [];
  if (f.platformId !== undefined) c.push(sql`x.platform_id = ${idOrZero(f.platformId)}`);
  if (f.folderId !== undefined) c.push(sql`x.folder_id = ${idOrZero(f.folderId)}`);
  if (f.docType) c.push(sql`x.doc_type = ${f.docType}`);
  if (f.expiry) c.push(sql`x.expiry = ${f.expiry}`);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    c.push(sql`(lower(x.name) like ${k} or lower(coalesce(x.folder_name, '')) like ${k})`);
  }
  return AND(c);
}

interface DocumentRow {
  id: number;
  platform_id: number;
  platform_name: string;
  folder_id: number | null;
  folder_name: string | null;
  name: string;
  doc_type: SafetyDocType;
  expires_on: string | null;
  contact_id: number | null;
  contact_name: string | null;
  remind_days: number;
  version: number;
  file_id: string;
  uploaded_by_name: string | null;
  uploaded_at: Date;
  expiry: ExpiryStatus;
}

export interface DocumentRaw {
  id: number;
  platformId: number;
  platformName: string;
  folderId: number | null;
  folderName: string | null;
  name: string;
  docType: SafetyDocType;
  expiresOn: string | null;
  expiry: ExpiryStatus;
  contactId: number | null;
  contactName: string | null;
  remindDays: number;
  version: number;
  fileId: string;
  uploadedBy: string | null;
  updatedAt: string;
}

const presentDocument = (r: DocumentRow): DocumentRaw => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  folderId: r.folder_id,
  folderName: r.folder_name,
  name: r.name,
  docType: r.doc_type,
  expiresOn: r.expires_on,
  expiry: r.expiry,
  contactId: r.contact_id,
  contactName: r.contact_name,
  remindDays: r.remind_days,
  version: r.version,
  fileId: r.file_id,
  uploadedBy: r.uploaded_by_name,
  updatedAt: iso(r.uploaded_at),
});

export async function listDocuments(
  db: Db,
  scope: DataScope,
  f: DocumentFilter & Paging,
): Promise<{ list: DocumentRaw[]; total: number }> {
  const where = documentWhere(f);
  const col = DOCUMENT_SORT[f.sortField ?? ''];
  const order = col ? sql`${orderBy(col, f.sortOrder)}, x.id desc` : sql`lower(x.name), x.id`;
  const [rows, total] = await Promise.all([
    sql<DocumentRow>`select * from (${documentRows(scope)}) x where ${where} order by ${order}
      limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize}`.execute(db.k),
    sql<{ n: number }>`select count(*)::int as n from (${documentRows(scope)}) x where ${where}`.execute(db.k),
  ]);
  return { list: rows.rows.map(presentDocument), total: Number(total.rows[0]!.n) };
}

export async function getDocument(db: Db, scope: DataScope, id: number): Promise<DocumentRaw | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await sql<DocumentRow>`select * from (${documentRows(scope)}) x where x.id = ${id}`.execute(db.k);
  return r.rows[0] ? presentDocument(r.rows[0]) : undefined;
}

export interface DocumentVersionRaw {
  id: number;
  version: number;
  fileId: string;
  note: string | null;
  uploadedBy: string | null;
  createdAt: string;
}

export async function documentVersions(db: Db, documentId: number): Promise<DocumentVersionRaw[]> {
  const rows = await arch(db)
    .selectFrom('archive_document_versions')
    .select(['id', 'version', 'file_id', 'note', 'uploaded_by_name', 'created_at'])
    .where('document_id', '=', documentId)
    .orderBy('version', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    fileId: r.file_id,
    note: r.note,
    uploadedBy: r.uploaded_by_name,
    createdAt: iso(r.created_at),
  }));
}

export interface DocumentWrite {
  folderId?: number | undefined;
  name: string;
  docType: SafetyDocType;
  expiresOn?: string | undefined;
  contactId?: number | undefined;
  remindDays: number;
}

const documentColumns = (w: DocumentWrite) => ({
  folder_id: w.folderId ?? null,
  name: w.name,
  doc_type: w.docType,
  expires_on: w.expiresOn ?? null,
  contact_id: w.contactId ?? null,
  remind_days: w.remindDays,
});

export async function insertDocument(
  db: Db,
  platformId: number,
  w: DocumentWrite,
  file: { fileId: string; note?: string | undefined },
  user: { id: number; name: string },
): Promise<number> {
  return db.k.transaction().execute(async (tx) => {
    const a = arch(tx);
    const d = await a
      .insertInto('archive_documents')
      .values({ platform_id: platformId, ...documentColumns(w), created_by: user.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await a
      .insertInto('archive_document_versions')
      .values({
        document_id: d.id,
        version: 1,
        file_id: file.fileId,
        note: file.note ?? null,
        uploaded_by: user.id,
        uploaded_by_name: user.name,
      })
      .execute();
    return d.id;
  });
}

export async function updateDocument(db: Db, id: number, w: DocumentWrite): Promise<void> {
  await arch(db)
    .updateTable('archive_documents')
    .set({ ...documentColumns(w), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** Adds the next version (the document row locked first: concurrent uploads get consecutive numbers). */
export async function insertDocumentVersion(
  db: Db,
  documentId: number,
  file: { fileId: string; note?: string | undefined },
  user: { id: number; name: string },
): Promise<number> {
  return db.k.transaction().execute(async (tx) => {
    await sql`select id from archive_documents where id = ${documentId} for update`.execute(tx);
    const r = await sql<{ id: number }>`
      insert into archive_document_versions (document_id, version, file_id, note, uploaded_by, uploaded_by_name)
      select ${documentId}, coalesce(max(version), 0) + 1, ${file.fileId}, ${file.note ?? null}, ${user.id}, ${user.name}
      from archive_document_versions where document_id = ${documentId}
      returning id`.execute(tx);
    await sql`update archive_documents set updated_at = now() where id = ${documentId}`.execute(tx);
    return r.rows[0]!.id;
  });
}

export async function deleteDocument(db: Db, id: number): Promise<void> {
  await arch(db).deleteFrom('archive_documents').where('id', '=', id).execute();
}

// ----------------------------------------------------------------------------------------- reminders

/** Something about to expire whose reminder may be due: a plan's newest approved version, or a document. */
export interface DueReminder {
  kind: 'plan' | 'document';
  refId: number;
  dueDate: string;
  platformId: number;
  site: string;
  name: string;
  /** The plan kind, or the document type. */
  sort: string;
  version: number | null;
  contactId: number;
  recipient: string;
  recipientName: string;
  language: 'en' | 'zh' | 'ko';
}

/**
 * What is due for a reminder on `today` (yyyy-MM-dd): the end date is within its remind days, and no reminder
 * of that (kind, id, end date) was recorded yet. Expired ones too (their reminder was never sent).
 */
export async function dueReminders(db: Db, today: string, limit = 200): Promise<DueReminder[]> {
  const r = await sql<{
    kind: 'plan' | 'document';
    ref_id: number;
    due_date: string;
    platform_id: number;
    site: string;
    name: string;
    sort: string;
    version: number | null;
    contact_id: number;
    email: string;
    contact_name: string;
    language: 'en' | 'zh' | 'ko';
  }>`
    select * from (
      select 'plan' as kind, pl.id as ref_id, to_char(av.valid_to, 'YYYY-MM-DD') as due_date, pl.platform_id,
        p.name as site, pl.name, pl.kind as sort, av.version, ac.id as contact_id, ac.email,
        ac.name as contact_name, ac.language
      from archive_plans pl
      join platforms p on p.id = pl.platform_id
      join alert_contacts ac on ac.id = pl.contact_id and ac.email is not null and ac.email <> ''
      join lateral (
        select v.version, v.valid_to from archive_plan_versions v
        where v.plan_id = pl.id and v.approved_at is not null order by v.version desc limit 1) av on true
      where av.valid_to - pl.remind_days <= ${today}::date
      union all
      select 'document', d.id, to_char(d.expires_on, 'YYYY-MM-DD'), d.platform_id, p.name, d.name, d.doc_type,
        null, ac.id, ac.email, ac.name, ac.language
      from archive_documents d
      join platforms p on p.id = d.platform_id
      join alert_contacts ac on ac.id = d.contact_id and ac.email is not null and ac.email <> ''
      where d.expires_on is not null and d.expires_on - d.remind_days <= ${today}::date
    ) x
    where not exists (select 1 from archive_reminders r
      where r.kind = x.kind and r.ref_id = x.ref_id and r.due_date = x.due_date::date)
    order by x.due_date, x.kind, x.ref_id
    limit ${limit}`.execute(db.k);
  return r.rows.map((x) => ({
    kind: x.kind,
    refId: x.ref_id,
    dueDate: x.due_date,
    platformId: x.platform_id,
    site: x.site,
    name: x.name,
    sort: x.sort,
    version: x.version,
    contactId: x.contact_id,
    recipient: x.email,
    recipientName: x.contact_name,
    language: x.language,
  }));
}
