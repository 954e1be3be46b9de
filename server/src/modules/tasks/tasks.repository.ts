import { sql, type RawBuilder } from 'kysely';
import {
  TASK_COUNT_CAP,
  type Language,
  type TaskGrade,
  type TaskPriority,
  type TaskReviewResult,
  type TaskStatus,
  type TaskType,
  type TaskView,
} from '@geosentry/contract';
import type { DataScope } from '../../platform/auth/access.ts';
import type { Db } from '../../platform/db/db.ts';
import { ids, isDbId, iso, isoOrNull, json, likePattern, type Exec } from '../../platform/db/sql.ts';

/**
 * SQL of tasks (tables of migration 0021; raw SQL like the report jobs). Every read takes the caller: a task is
 * visible to him when its site is in his data scope, or he is its responsible person, publisher or reviewer.
 */

export interface Viewer {
  id: number;
  scope: DataScope;
}

/** The visibility of task `t` to a viewer, as a SQL condition. */
export function visible(v: Viewer, t = 't'): RawBuilder<boolean> {
  if (v.scope.all) return sql<boolean>`true`;
  const own = sql`(${sql.ref(`${t}.assignee_id`)} = ${v.id} or ${sql.ref(`${t}.reviewer_id`)} = ${v.id} or ${sql.ref(`${t}.publisher_id`)} = ${v.id})`;
  if (!v.scope.platformIds.length) return sql<boolean>`${own}`;
  return sql<boolean>`(${sql.ref(`${t}.platform_id`)} in (${ids(v.scope.platformIds)}) or ${own})`;
}

export interface TaskRow {
  id: number;
  name: string;
  type: TaskType | null;
  project: string;
  area: string | null;
  constructionPoint: string;
  platformId: number;
  platformName: string;
  deviceId: number | null;
  deviceName: string | null;
  alertId: number | null;
  priority: TaskPriority;
  status: TaskStatus;
  completionRate: number;
  assigneeId: number;
  assignee: string;
  publisherId: number;
  publisher: string;
  reviewerId: number;
  reviewer: string;
  documents: string[];
  planHours: number | null;
  startTime: string;
  endTime: string;
  description: string;
  acceptance: string | null;
  grade: TaskGrade | null;
  reviewResult: TaskReviewResult | null;
  reviewNote: string | null;
  startedAt: string | null;
  submittedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const SELECT = sql`t.id, t.name, t.type, t.project, t.area, t.construction_point, t.platform_id, p.name as platform_name,
  t.device_id, d.device_name as device_name, t.alert_id, t.priority, t.status, t.completion_rate,
  t.assignee_id, ua.name as assignee, t.publisher_id, up.name as publisher, t.reviewer_id, ur.name as reviewer,
  t.documents, t.plan_hours, t.start_time, t.end_time, t.description, t.acceptance, t.grade, t.review_result,
  t.review_note, t.started_at, t.submitted_at, t.completed_at, t.created_at, t.updated_at`;
const FROM = sql`from tasks t join platforms p on p.id = t.platform_id
  join users ua on ua.id = t.assignee_id join users up on up.id = t.publisher_id join users ur on ur.id = t.reviewer_id
  left join devices d on d.id = t.device_id`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const present = (r: any): TaskRow => ({
  id: r.id,
  name: r.name,
  type: r.type,
  project: r.project,
  area: r.area,
  constructionPoint: r.construction_point,
  platformId: r.platform_id,
  platformName: r.platform_name,
  deviceId: r.device_id,
  deviceName: r.device_name ?? null,
  alertId: r.alert_id,
  priority: r.priority,
  status: r.status,
  completionRate: Number(r.completion_rate),
  assigneeId: r.assignee_id,
  assignee: r.assignee,
  publisherId: r.publisher_id,
  publisher: r.publisher,
  reviewerId: r.reviewer_id,
  reviewer: r.reviewer,
  documents: json<string[]>(r.documents) ?? [],
  planHours: r.plan_hours === null ? null : Number(r.plan_hours),
  startTime: iso(r.start_time),
  endTime: iso(r.end_time),
  description: r.description,
  acceptance: r.acceptance,
  grade: r.grade,
  reviewResult: r.review_result,
  reviewNote: r.review_note,
  startedAt: isoOrNull(r.started_at),
  submittedAt: isoOrNull(r.submitted_at),
  completedAt: isoOrNull(r.completed_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

/**
 * Lists count their rows up to TASK_COUNT_CAP (10,000) and say when there are more: an exact count of 100,000
 * tasks or 1,000,000 entries would cost more than the page itself.
 */
const capped = (n: number): { total: number; totalCapped: boolean } => ({
  total: Math.min(n, TASK_COUNT_CAP),
  totalCapped: n > TASK_COUNT_CAP,
});

export interface TaskFilter {
  view?: TaskView | undefined;
  status?: TaskStatus | 'all' | undefined;
  priority?: TaskPriority | undefined;
  platformId?: number | undefined;
  assigneeId?: number | undefined;
  alertId?: number | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  keyword?: string | undefined;
}

const PRIORITY_ORDER = sql`t.priority_rank`;
const STATUS_ORDER = sql`array_position(array['notStarted','ongoing','toBeReviewed','completed']::text[], t.status)`;
const SORTABLE: Record<string, string> = {
  endTime: 't.end_time',
  startTime: 't.start_time',
  completionRate: 't.completion_rate',
  name: 't.name',
  platformName: 'p.name',
  createdAt: 't.created_at',
};

function where(v: Viewer, f: TaskFilter): RawBuilder<boolean> {
  const c: RawBuilder<unknown>[] = [visible(v)];
  if (f.view === 'received') c.push(sql`t.assignee_id = ${v.id}`);
  if (f.view === 'assigned') c.push(sql`t.publisher_id = ${v.id}`);
  if (f.view === 'review') c.push(sql`t.reviewer_id = ${v.id}`);
  if (f.status && f.status !== 'all') c.push(sql`t.status = ${f.status}`);
  if (f.priority) c.push(sql`t.priority = ${f.priority}`);
  if (f.platformId !== undefined) c.push(sql`t.platform_id = ${isDbId(f.platformId) ? f.platformId : 0}`);
  if (f.assigneeId !== undefined) c.push(sql`t.assignee_id = ${isDbId(f.assigneeId) ? f.assigneeId : 0}`);
  if (f.alertId !== undefined) c.push(sql`t.alert_id = ${isDbId(f.alertId) ? f.alertId : 0}`);
  // The period: tasks whose planned end falls in it (a range of the end time, read from its indexes).
  if (f.startDate) c.push(sql`t.end_time >= ${f.startDate}::date`);
  if (f.endDate) c.push(sql`t.end_time < ${f.endDate}::date + 1`);
  if (f.keyword) c.push(sql`t.search_text like ${likePattern(f.keyword)}`);
  return sql<boolean>`${sql.join(c, sql` and `)}`;
}

export async function listTasks(
  db: Db,
  v: Viewer,
  f: TaskFilter & { pageNum: number; pageSize: number; sortField?: string | undefined; sortOrder?: string | undefined },
): Promise<{ list: TaskRow[]; total: number; totalCapped: boolean }> {
  const dir = f.sortOrder === 'descend' ? sql`desc` : sql`asc`;
  // Every sortable column is not null: a plain direction (no NULLS LAST), so the page is read from an index.
  const col = SORTABLE[f.sortField ?? ''];
  const order =
    f.sortField === 'priority'
      ? sql`${PRIORITY_ORDER} ${dir}, t.end_time ${dir}`
      : f.sortField === 'status'
        ? sql`${STATUS_ORDER} ${dir}, t.end_time ${dir}`
        : col
          ? sql`${sql.raw(col)} ${dir}`
          : sql`t.end_time ${dir}`;
  const w = where(v, f);
  const [rows, total] = await Promise.all([
    sql`select ${SELECT} ${FROM} where ${w} order by ${order}, t.id ${dir}
      limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize}`.execute(db.k),
    sql<{ n: string | number }>`select count(*) as n from (select 1 from tasks t where ${w}
      limit ${TASK_COUNT_CAP + 1}) x`.execute(db.k),
  ]);
  return { list: rows.rows.map(present), ...capped(Number(total.rows[0]!.n)) };
}

/** One visible task; a foreign one answers undefined, like a missing one. */
export async function getTask(db: Db | Exec, v: Viewer, id: number): Promise<TaskRow | undefined> {
  if (!isDbId(id)) return undefined;
  const k = 'k' in db ? db.k : db;
  const r = await sql`select ${SELECT} ${FROM} where t.id = ${id} and ${visible(v)}`.execute(k);
  return r.rows[0] ? present(r.rows[0]) : undefined;
}

export async function taskEvidence(db: Db, id: number): Promise<Record<string, unknown> | null> {
  const r = await sql<{ evidence: unknown }>`select evidence from tasks where id = ${id}`.execute(db.k);
  return r.rows[0]?.evidence ? json<Record<string, unknown>>(r.rows[0].evidence) : null;
}

export async function taskReviews(db: Db, id: number) {
  const r = await sql<{
    reviewer_name: string;
    result: TaskReviewResult;
    grade: TaskGrade | null;
    note: string | null;
    created_at: Date;
  }>`select reviewer_name, result, grade, note, created_at from task_reviews where task_id = ${id} order by id`.execute(
    db.k,
  );
  return r.rows.map((x) => ({
    reviewer: x.reviewer_name,
    result: x.result,
    grade: x.grade,
    note: x.note,
    at: iso(x.created_at),
  }));
}

export interface TaskWrite {
  name: string;
  type: TaskType | null;
  project: string;
  area: string | null;
  constructionPoint: string;
  platformId: number;
  deviceId: number | null;
  priority: TaskPriority;
  assigneeId: number;
  reviewerId: number;
  documents: string[];
  planHours: number | null;
  startTime: string;
  endTime: string;
  description: string;
  acceptance: string | null;
}

export async function insertTask(
  tx: Exec,
  w: TaskWrite,
  publisherId: number,
  alert: { id: number; evidence: unknown } | null,
): Promise<number> {
  const r = await sql<{ id: number }>`insert into tasks (name, type, project, area, construction_point, platform_id,
      device_id, alert_id, evidence, priority, assignee_id, publisher_id, reviewer_id, documents, plan_hours,
      start_time, end_time, description, acceptance)
    values (${w.name}, ${w.type}, ${w.project}, ${w.area}, ${w.constructionPoint}, ${w.platformId}, ${w.deviceId},
      ${alert?.id ?? null}, ${alert ? JSON.stringify(alert.evidence) : null}::jsonb, ${w.priority}, ${w.assigneeId},
      ${publisherId}, ${w.reviewerId}, ${JSON.stringify(w.documents)}::jsonb, ${w.planHours}, ${w.startTime}::timestamptz,
      ${w.endTime}::timestamptz, ${w.description}, ${w.acceptance})
    returning id`.execute(tx);
  return r.rows[0]!.id;
}

/** Edits a task unless it is completed (conditional: a task completed meanwhile is not changed). */
export async function updateTask(tx: Exec, id: number, w: TaskWrite): Promise<boolean> {
  const r = await sql`update tasks set name = ${w.name}, type = ${w.type}, project = ${w.project}, area = ${w.area},
      construction_point = ${w.constructionPoint}, platform_id = ${w.platformId}, device_id = ${w.deviceId},
      priority = ${w.priority}, assignee_id = ${w.assigneeId}, reviewer_id = ${w.reviewerId},
      documents = ${JSON.stringify(w.documents)}::jsonb, plan_hours = ${w.planHours},
      start_time = ${w.startTime}::timestamptz, end_time = ${w.endTime}::timestamptz, description = ${w.description},
      acceptance = ${w.acceptance},
      reminded_at = case when end_time = ${w.endTime}::timestamptz then reminded_at else null end, updated_at = now()
    where id = ${id} and status <> 'completed'`.execute(tx);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/** not started -> ongoing, by the assignee only. */
export async function startTask(tx: Exec, id: number, userId: number): Promise<boolean> {
  const r = await sql`update tasks set status = 'ongoing', started_at = now(), updated_at = now()
    where id = ${id} and assignee_id = ${userId} and status = 'notStarted'`.execute(tx);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/**
 * A progress report of an ongoing task by its assignee: the entry, and the task's rate unless an entry of a later day
 * already gave it (a late report of an earlier day does not set the rate back); or nothing.
 */
export async function addProgress(
  tx: Exec,
  id: number,
  user: { id: number; name: string },
  p: {
    text: string;
    completionRate: number;
    photos: string[];
    lat: number | null;
    lon: number | null;
    /** The day the work was done (yyyy-MM-dd), checked by the service. */
    day: string;
  },
): Promise<number | null> {
  const u = await sql`update tasks set updated_at = now(), completion_rate = case when exists (select 1
      from task_progress e where e.task_id = ${id} and e.day > ${p.day}::date) then completion_rate
      else ${p.completionRate} end
    where id = ${id} and assignee_id = ${user.id} and status = 'ongoing'`.execute(tx);
  if (Number(u.numAffectedRows ?? 0) !== 1) return null;
  const r = await sql<{ id: string | number }>`insert into task_progress (task_id, user_id, user_name, day, text,
      completion_rate, photos, lat, lon)
    values (${id}, ${user.id}, ${user.name}, ${p.day}::date, ${p.text}, ${p.completionRate},
      ${JSON.stringify(p.photos)}::jsonb, ${p.lat}, ${p.lon})
    returning id`.execute(tx);
  return Number(r.rows[0]!.id);
}

/** ongoing -> to be reviewed, by the assignee only: one of any number of concurrent calls succeeds. */
export async function submitTask(tx: Exec, id: number, userId: number): Promise<boolean> {
  const r = await sql`update tasks set status = 'toBeReviewed', submitted_at = now(), updated_at = now()
    where id = ${id} and assignee_id = ${userId} and status = 'ongoing'`.execute(tx);
  return Number(r.numAffectedRows ?? 0) === 1;
}

/**
 * to be reviewed -> completed (pass, with its grade) or back to ongoing (fail, with the note), by the task's
 * reviewer who is not its assignee; the review is recorded in the same transaction.
 */
export async function reviewTask(
  tx: Exec,
  id: number,
  reviewer: { id: number; name: string },
  r: { result: TaskReviewResult; grade: TaskGrade | null; note: string | null },
): Promise<boolean> {
  const pass = r.result === 'pass';
  const u = await sql`update tasks set
      status = ${pass ? 'completed' : 'ongoing'}, review_result = ${r.result}, review_note = ${r.note},
      grade = ${pass ? r.grade : null}, completed_at = ${pass ? sql`now()` : sql`null`}, updated_at = now()
    where id = ${id} and reviewer_id = ${reviewer.id} and assignee_id <> ${reviewer.id} and status = 'toBeReviewed'`.execute(
    tx,
  );
  if (Number(u.numAffectedRows ?? 0) !== 1) return false;
  await sql`insert into task_reviews (task_id, reviewer_id, reviewer_name, result, grade, note)
    values (${id}, ${reviewer.id}, ${reviewer.name}, ${r.result}, ${pass ? r.grade : null}, ${r.note})`.execute(tx);
  return true;
}

export async function reviewCount(tx: Exec, id: number): Promise<number> {
  const r = await sql<{ n: string | number }>`select count(*) as n from task_reviews where task_id = ${id}`.execute(tx);
  return Number(r.rows[0]!.n);
}

// ------------------------------------------------------------------------------------------------ progress

export interface ProgressFilter {
  id?: number | undefined;
  platformId?: number | undefined;
  userId?: number | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

export interface ProgressRow {
  id: number;
  taskId: number;
  taskName: string;
  platformName: string;
  userId: number | null;
  user: string;
  day: string;
  text: string;
  completionRate: number;
  photos: string[];
  lat: number | null;
  lon: number | null;
  createdAt: string;
}

export async function listProgress(
  db: Db,
  v: Viewer,
  f: ProgressFilter & { pageNum: number; pageSize: number },
): Promise<{ list: ProgressRow[]; total: number; totalCapped: boolean }> {
  const c: RawBuilder<unknown>[] = [visible(v)];
  if (f.id !== undefined) c.push(sql`e.task_id = ${isDbId(f.id) ? f.id : 0}`);
  if (f.platformId !== undefined) c.push(sql`t.platform_id = ${isDbId(f.platformId) ? f.platformId : 0}`);
  if (f.userId !== undefined) c.push(sql`e.user_id = ${isDbId(f.userId) ? f.userId : 0}`);
  if (f.startDate) c.push(sql`e.day >= ${f.startDate}::date`);
  if (f.endDate) c.push(sql`e.day <= ${f.endDate}::date`);
  const w = sql.join(c, sql` and `);
  const countWhere = sql.join([sql`true`, ...c.slice(1)], sql` and `);
  const [rows, total] = await Promise.all([
    sql<{
      id: string | number;
      task_id: number;
      task_name: string;
      platform_name: string;
      user_id: number | null;
      user_name: string;
      day: string;
      text: string;
      completion_rate: number;
      photos: unknown;
      lat: number | null;
      lon: number | null;
      created_at: Date;
    }>`
      -- The page's entries first, from the index (task_id, day, id) alone; then only their rows. A site's 500 tasks
      -- have 5,000 entries spread over the table: sorting their rows read 5,000 pages (1.4 s cold), sorting the
      -- index entries reads none (4 ms; migration 0027).
      with page as (select e.id, e.day from task_progress e join tasks t on t.id = e.task_id
        where ${w} order by e.day desc, e.id desc limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize})
      select e.id, e.task_id, t.name as task_name, p.name as platform_name, e.user_id, e.user_name,
        to_char(e.day, 'YYYY-MM-DD') as day, e.text, e.completion_rate, e.photos, e.lat, e.lon, e.created_at
      from page join task_progress e on e.id = page.id join tasks t on t.id = e.task_id
        join platforms p on p.id = t.platform_id
      order by page.day desc, page.id desc`.execute(db.k),
    // The count joins the tasks only when it must (a scope, or a site); it stops past the cap.
    sql<{ n: string | number }>`select count(*) as n from (select 1 from task_progress e
      ${v.scope.all && f.platformId === undefined ? sql`` : sql`join tasks t on t.id = e.task_id`}
      where ${v.scope.all && f.platformId === undefined ? countWhere : w} limit ${TASK_COUNT_CAP + 1}) x`.execute(db.k),
  ]);
  return {
    ...capped(Number(total.rows[0]!.n)),
    list: rows.rows.map((r) => ({
      id: Number(r.id),
      taskId: r.task_id,
      taskName: r.task_name,
      platformName: r.platform_name,
      userId: r.user_id,
      user: r.user_name,
      day: r.day,
      text: r.text,
      completionRate: Number(r.completion_rate),
      photos: json<string[]>(r.photos) ?? [],
      lat: r.lat === null ? null : Number(r.lat),
      lon: r.lon === null ? null : Number(r.lon),
      createdAt: iso(r.created_at),
    })),
  };
}

// ------------------------------------------------------------------------------------------------ evaluation

export interface EvalCounts {
  userId: number;
  name: string;
  tasks: number;
  completed: number;
  onTime: number;
  normal: number;
  good: number;
  excellent: number;
  failedReviews: number;
}

/** Per responsible person: the visible tasks whose planned end or completion falls in [start, end] (dates, UTC). */
export async function evaluation(
  db: Db,
  v: Viewer,
  f: { startDate: string; endDate: string; platformId?: number | undefined },
): Promise<EvalCounts[]> {
  const site = f.platformId !== undefined ? sql`and t.platform_id = ${isDbId(f.platformId) ? f.platformId : 0}` : sql``;
  const r = await sql<Record<string, string | number>>`
    select t.assignee_id as user_id, u.name, count(*) as tasks,
      count(*) filter (where t.status = 'completed') as completed,
      count(*) filter (where t.status = 'completed' and t.completed_at <= t.end_time) as on_time,
      count(*) filter (where t.grade = 'normal') as normal,
      count(*) filter (where t.grade = 'good') as good,
      count(*) filter (where t.grade = 'excellent') as excellent,
      coalesce(sum((select count(*) from task_reviews rv where rv.task_id = t.id and rv.result = 'fail')), 0) as failed
    from tasks t join users u on u.id = t.assignee_id
    where ${visible(v)} and ((t.end_time >= ${f.startDate}::date and t.end_time < ${f.endDate}::date + 1)
      or (t.completed_at >= ${f.startDate}::date and t.completed_at < ${f.endDate}::date + 1)) ${site}
    group by t.assignee_id, u.name order by u.name, t.assignee_id`.execute(db.k);
  return r.rows.map((x) => ({
    userId: Number(x.user_id),
    name: String(x.name),
    tasks: Number(x.tasks),
    completed: Number(x.completed),
    onTime: Number(x.on_time),
    normal: Number(x.normal),
    good: Number(x.good),
    excellent: Number(x.excellent),
    failedReviews: Number(x.failed),
  }));
}

// ------------------------------------------------------------------------------------------------ people, languages

/** Enabled users who may see a site (every site, or this one in their scope), by name. */
export async function usersOfSite(db: Db, platformId: number) {
  const r = await sql<{ id: number; name: string; account: string }>`
    select u.id, u.name, u.account from users u
    where u.enabled and (u.scope_all or exists (select 1 from user_platforms up where up.user_id = u.id
      and up.platform_id = ${platformId}))
    order by u.name, u.id`.execute(db.k);
  return r.rows;
}

export async function userMaySeeSite(db: Db | Exec, userId: number, platformId: number): Promise<boolean> {
  if (!isDbId(userId)) return false;
  const k = 'k' in db ? db.k : db;
  const r = await sql`select 1 from users u where u.id = ${userId} and u.enabled and (u.scope_all or exists (
      select 1 from user_platforms up where up.user_id = u.id and up.platform_id = ${platformId}))`.execute(k);
  return r.rows.length > 0;
}

/** Remembers the language a user works in (his messages are written in it). */
export async function rememberLanguage(db: Db, userId: number, lang: Language): Promise<void> {
  await sql`insert into task_user_languages (user_id, language) values (${userId}, ${lang})
    on conflict (user_id) do update set language = excluded.language
    where task_user_languages.language <> excluded.language`.execute(db.k);
}

export interface Contact {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  language: Language | null;
}

export async function contacts(db: Exec, userIds: readonly number[]): Promise<Map<number, Contact>> {
  if (!userIds.length) return new Map();
  const r = await sql<{
    id: number;
    name: string;
    email: string | null;
    phone: string | null;
    language: Language | null;
  }>`
    select u.id, u.name, u.email, u.phone, l.language from users u
    left join task_user_languages l on l.user_id = u.id where u.id in (${ids(userIds)})`.execute(db);
  return new Map(r.rows.map((x) => [x.id, x]));
}

// ------------------------------------------------------------------------------------------------ outbox

export interface TaskMessage {
  taskId: number;
  platformId: number;
  /** The idempotency key of the event: assigned, submitted:<n>, reviewed:<n>, reminder. */
  event: string;
  channel: 'mail' | 'sms';
  recipient: string;
  recipientName: string;
  language: Language;
  subject: string;
  body: string;
}

/** Queues task messages in the alerts' outbox (sent by its sender); a repeated (task, event, channel, to) is skipped. */
export async function enqueueMessages(tx: Exec, rows: readonly TaskMessage[]): Promise<number> {
  let n = 0;
  for (const m of rows) {
    const r = await sql`insert into notification_outbox (alert_id, event_seq, platform_id, level, channel, recipient,
        contact_id, recipient_name, language, template_code, subject, body, task_id, task_event)
      values (null, 0, ${m.platformId}, null, ${m.channel}, ${m.recipient}, null, ${m.recipientName}, ${m.language},
        null, ${m.subject}, ${m.body}, ${m.taskId}, ${m.event})
      on conflict (task_id, task_event, channel, recipient) where task_id is not null do nothing`.execute(tx);
    n += Number(r.numAffectedRows ?? 0);
  }
  return n;
}

/**
 * Claims the open tasks (not started, ongoing) within `hours` of their end time that were not reminded yet:
 * marks them reminded in the same statement, so each task is claimed once whatever runs the check concurrently.
 */
export async function claimReminders(tx: Exec, hours: number, limit = 200): Promise<TaskRow[]> {
  const r = await sql<{ id: number }>`update tasks set reminded_at = now()
    where id in (select id from tasks where reminded_at is null and status in ('notStarted', 'ongoing')
      and end_time <= now() + make_interval(hours => ${hours}) and end_time > now() - interval '1 day'
      order by end_time limit ${limit} for update skip locked)
      and reminded_at is null
    returning id`.execute(tx);
  if (!r.rows.length) return [];
  const rows = await sql`select ${SELECT} ${FROM} where t.id in (${ids(r.rows.map((x) => x.id))})`.execute(tx);
  return rows.rows.map(present);
}

/** The task's outbox rows (tests and the delivery record). */
export async function taskMessages(db: Db, taskId: number) {
  const r = await sql<{ task_event: string; channel: string; recipient: string; language: string; subject: string }>`
    select task_event, channel, recipient, language, subject from notification_outbox where task_id = ${taskId}
    order by id`.execute(db.k);
  return r.rows;
}
