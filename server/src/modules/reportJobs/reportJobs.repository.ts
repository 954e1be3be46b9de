import { sql } from 'kysely';
import type { ReportJobFormat, ReportKind } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { DataScope } from '../../platform/auth/access.ts';
import type { Exec } from '../../platform/db/sql.ts';
import type { JobRow } from '../../platform/jobs/index.ts';

/** SQL of report jobs and schedules (tables of migration 0026; raw SQL like the platform's jobs). */

const parsed = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
const scopeSql = (scope: DataScope, column: string) =>
  scope.all
    ? sql`true`
    : scope.platformIds.length
      ? sql`${sql.ref(column)} = any(${scope.platformIds}::int[])`
      : sql`false`;

// ------------------------------------------------------------------------------------------------ jobs

export interface ReportJobInsert {
  jobId: number;
  ownerId: number;
  kind: ReportKind;
  format: ReportJobFormat;
  platformId: number;
  fileName: string | null;
  dedupeKey: string;
}

/**
 * Serialises the submissions of one owner and key inside the transaction `tx` (an advisory lock held until it
 * ends), then answers the queued or running job of that key, if any.
 */
export async function lockAndFindActive(tx: Exec, ownerId: number, key: string): Promise<number | null> {
  await sql`select pg_advisory_xact_lock(${ownerId}::int, hashtext(${key}))`.execute(tx);
  const r = await sql<{ job_id: string | number }>`
    select r.job_id from report_jobs r join jobs j on j.id = r.job_id
     where r.owner_id = ${ownerId} and r.dedupe_key = ${key} and j.state in ('queued', 'running')
     order by r.job_id desc limit 1`.execute(tx);
  return r.rows[0] ? Number(r.rows[0].job_id) : null;
}

export async function insertReportJob(tx: Exec, r: ReportJobInsert): Promise<void> {
  await sql`insert into report_jobs (job_id, owner_id, kind, format, platform_id, file_name, dedupe_key)
    values (${r.jobId}, ${r.ownerId}, ${r.kind}, ${r.format}, ${r.platformId}, ${r.fileName}, ${r.dedupeKey})`.execute(
    tx,
  );
}

export interface ReportJobRow extends JobRow {
  report_kind: ReportKind;
  format: ReportJobFormat;
  platform_id: number;
  platform_name: string | null;
  file_name: string | null;
}

const JOB_SORT: Record<string, string> = {
  createdAt: 'j.id',
  state: 'j.state',
  reportKind: 'r.kind',
  platformName: 'p.name',
};

/** The owner's report jobs, one page. */
export async function listReportJobs(
  db: Db,
  ownerId: number,
  f: {
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: 'ascend' | 'descend' | undefined;
    state?: string | undefined;
    reportKind?: string | undefined;
    platformId?: number | undefined;
  },
): Promise<{ list: ReportJobRow[]; total: number }> {
  const where = sql`r.owner_id = ${ownerId}
    and (${f.state ?? null}::text is null or j.state = ${f.state ?? null})
    and (${f.reportKind ?? null}::text is null or r.kind = ${f.reportKind ?? null})
    and (${f.platformId ?? null}::int is null or r.platform_id = ${f.platformId ?? null})`;
  const col = JOB_SORT[f.sortField ?? ''] ?? 'j.id';
  const dir = f.sortOrder === 'ascend' ? sql`asc` : sql`desc`;
  const [rows, count] = await Promise.all([
    sql<ReportJobRow>`
      select j.*, r.kind as report_kind, r.format, r.platform_id, p.name as platform_name, r.file_name
        from report_jobs r join jobs j on j.id = r.job_id left join platforms p on p.id = r.platform_id
       where ${where}
       order by ${sql.raw(col)} ${dir}, j.id desc
       limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize}`.execute(db.k),
    sql<{ n: number }>`select count(*)::int as n from report_jobs r join jobs j on j.id = r.job_id
      left join platforms p on p.id = r.platform_id where ${where}`.execute(db.k),
  ]);
  return { list: rows.rows, total: Number(count.rows[0]?.n ?? 0) };
}

export async function reportJobOf(
  db: Db,
  ownerId: number,
  jobId: number,
): Promise<{ kind: ReportKind; format: ReportJobFormat; platformId: number; fileName: string | null } | undefined> {
  const r = await sql<{ kind: ReportKind; format: ReportJobFormat; platform_id: number; file_name: string | null }>`
    select kind, format, platform_id, file_name from report_jobs where job_id = ${jobId} and owner_id = ${ownerId}`.execute(
    db.k,
  );
  const x = r.rows[0];
  return x ? { kind: x.kind, format: x.format, platformId: x.platform_id, fileName: x.file_name } : undefined;
}

// ------------------------------------------------------------------------------------------- schedules

export interface ScheduleRow {
  id: number;
  owner_id: number;
  name: string;
  kind: ReportKind;
  params: Record<string, unknown>;
  platform_id: number;
  platform_name: string | null;
  formats: ReportJobFormat[];
  frequency: 'daily' | 'weekly' | 'monthly';
  weekday: number | null;
  month_day: number | null;
  local_time: string;
  time_zone: string;
  period: 'yesterday' | 'last7Days' | 'lastWeek' | 'lastMonth';
  group_id: number;
  group_name: string | null;
  enabled: boolean;
  next_due_at: Date | null;
  created_at: Date;
}

const scheduleOf = (r: ScheduleRow): ScheduleRow => ({
  ...r,
  params: parsed<Record<string, unknown>>(r.params) ?? {},
  formats: Array.isArray(r.formats) ? r.formats : parsed<ReportJobFormat[]>(r.formats),
});

const SCHEDULE_SELECT = sql`select s.*, p.name as platform_name, g.name as group_name
  from report_schedules s left join platforms p on p.id = s.platform_id left join alert_groups g on g.id = s.group_id`;

export interface ScheduleWrite {
  name: string;
  kind: ReportKind;
  params: Record<string, unknown>;
  platformId: number;
  formats: ReportJobFormat[];
  frequency: string;
  weekday: number | null;
  monthDay: number | null;
  time: string;
  timeZone: string;
  period: string;
  groupId: number;
  enabled: boolean;
  nextDueAt: Date | null;
}

export async function countSchedules(db: Db, ownerId: number): Promise<number> {
  const r = await sql<{
    n: number;
  }>`select count(*)::int as n from report_schedules where owner_id = ${ownerId}`.execute(db.k);
  return Number(r.rows[0]?.n ?? 0);
}

export async function insertSchedule(db: Db, ownerId: number, w: ScheduleWrite): Promise<number> {
  const r = await sql<{ id: number }>`
    insert into report_schedules (owner_id, name, kind, params, platform_id, formats, frequency, weekday, month_day,
      local_time, time_zone, period, group_id, enabled, next_due_at)
    values (${ownerId}, ${w.name}, ${w.kind}, ${JSON.stringify(w.params)}::jsonb, ${w.platformId}, ${w.formats}::text[],
      ${w.frequency}, ${w.weekday}, ${w.monthDay}, ${w.time}, ${w.timeZone}, ${w.period}, ${w.groupId}, ${w.enabled},
      ${w.nextDueAt})
    returning id`.execute(db.k);
  return r.rows[0]!.id;
}

export async function updateSchedule(db: Db, ownerId: number, id: number, w: ScheduleWrite): Promise<boolean> {
  const r = await sql`
    update report_schedules set name = ${w.name}, kind = ${w.kind}, params = ${JSON.stringify(w.params)}::jsonb,
      platform_id = ${w.platformId}, formats = ${w.formats}::text[], frequency = ${w.frequency},
      weekday = ${w.weekday}, month_day = ${w.monthDay}, local_time = ${w.time}, time_zone = ${w.timeZone},
      period = ${w.period}, group_id = ${w.groupId}, enabled = ${w.enabled}, next_due_at = ${w.nextDueAt},
      updated_at = now()
     where id = ${id} and owner_id = ${ownerId}`.execute(db.k);
  return Number(r.numAffectedRows ?? 0) > 0;
}

export async function deleteSchedule(db: Db, ownerId: number, id: number): Promise<boolean> {
  const r = await sql`delete from report_schedules where id = ${id} and owner_id = ${ownerId}`.execute(db.k);
  return Number(r.numAffectedRows ?? 0) > 0;
}

/** One of the owner's schedules whose site is in his scope (another's, or out of scope: undefined). */
export async function ownSchedule(db: Db, ownerId: number, scope: DataScope, id: number) {
  const r = await sql<ScheduleRow>`${SCHEDULE_SELECT}
    where s.id = ${id} and s.owner_id = ${ownerId} and ${scopeSql(scope, 's.platform_id')}`.execute(db.k);
  return r.rows[0] ? scheduleOf(r.rows[0]) : undefined;
}

export async function scheduleById(db: Exec, id: number): Promise<ScheduleRow | undefined> {
  const r = await sql<ScheduleRow>`${SCHEDULE_SELECT} where s.id = ${id}`.execute(db);
  return r.rows[0] ? scheduleOf(r.rows[0]) : undefined;
}

const SCHEDULE_SORT: Record<string, string> = {
  name: 's.name',
  kind: 's.kind',
  frequency: 's.frequency',
  nextDueAt: 's.next_due_at',
  createdAt: 's.id',
};

export async function listSchedules(
  db: Db,
  ownerId: number,
  scope: DataScope,
  f: {
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: 'ascend' | 'descend' | undefined;
    keyword?: string | undefined;
    kind?: string | undefined;
  },
): Promise<{ list: ScheduleRow[]; total: number }> {
  const like = f.keyword ? `%${f.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`s.owner_id = ${ownerId} and ${scopeSql(scope, 's.platform_id')}
    and (${like}::text is null or s.name ilike ${like} or p.name ilike ${like})
    and (${f.kind ?? null}::text is null or s.kind = ${f.kind ?? null})`;
  const col = SCHEDULE_SORT[f.sortField ?? ''] ?? 's.id';
  const dir = f.sortOrder === 'ascend' ? sql`asc` : sql`desc`;
  const [rows, count] = await Promise.all([
    sql<ScheduleRow>`${SCHEDULE_SELECT} where ${where} order by ${sql.raw(col)} ${dir} nulls last, s.id desc
      limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize}`.execute(db.k),
    sql<{ n: number }>`select count(*)::int as n from report_schedules s left join platforms p on p.id = s.platform_id
      where ${where}`.execute(db.k),
  ]);
  return { list: rows.rows.map(scheduleOf), total: Number(count.rows[0]?.n ?? 0) };
}

/** Enabled schedules due at `now`. */
export async function dueSchedules(db: Db, now: Date, limit = 100): Promise<ScheduleRow[]> {
  const r = await sql<ScheduleRow>`${SCHEDULE_SELECT}
    where s.enabled and s.next_due_at <= ${now} order by s.next_due_at limit ${limit}`.execute(db.k);
  return r.rows.map(scheduleOf);
}

/** Moves a schedule's next due time on, only from the value the caller read (two tickers agree on the result). */
export async function advanceSchedule(tx: Exec, id: number, from: Date, to: Date): Promise<void> {
  await sql`update report_schedules set next_due_at = ${to} where id = ${id} and next_due_at = ${from}`.execute(tx);
}

// ------------------------------------------------------------------------------------------------ runs

export interface RunRow {
  id: number;
  schedule_id: number;
  due_at: Date;
  state: 'queued' | 'running' | 'done' | 'failed';
  reason: string | null;
  reason_params: Record<string, string | number> | null;
  job_id: number | null;
  mails: number;
  sent: number;
  created_at: Date;
  finished_at: Date | null;
}

const runOf = (r: RunRow): RunRow => ({
  ...r,
  id: Number(r.id),
  job_id: r.job_id === null ? null : Number(r.job_id),
  mails: Number(r.mails),
  sent: Number(r.sent ?? 0),
  reason_params: parsed<Record<string, string | number> | null>(r.reason_params),
});

/** Inserts the run of (schedule, due time) unless it exists: answers its id only to the one who inserted it. */
export async function claimRun(tx: Exec, scheduleId: number, dueAt: Date): Promise<number | null> {
  const r = await sql<{ id: string | number }>`
    insert into report_schedule_runs (schedule_id, due_at) values (${scheduleId}, ${dueAt})
    on conflict (schedule_id, due_at) do nothing returning id`.execute(tx);
  return r.rows[0] ? Number(r.rows[0].id) : null;
}

export async function setRunJob(tx: Exec, runId: number, jobId: number): Promise<void> {
  await sql`update report_schedule_runs set job_id = ${jobId} where id = ${runId}`.execute(tx);
}

export async function runById(db: Exec, id: number): Promise<RunRow | undefined> {
  const r = await sql<RunRow>`select r.*, 0 as sent from report_schedule_runs r where r.id = ${id}`.execute(db);
  return r.rows[0] ? runOf(r.rows[0]) : undefined;
}

export async function markRun(
  db: Exec,
  id: number,
  state: RunRow['state'],
  extra: { reason?: string | null; reasonParams?: Record<string, string | number> | null; mails?: number } = {},
): Promise<void> {
  const final = state === 'done' || state === 'failed';
  await sql`update report_schedule_runs set state = ${state},
      reason = ${extra.reason ?? null}, reason_params = ${extra.reasonParams ? JSON.stringify(extra.reasonParams) : null}::jsonb,
      mails = coalesce(${extra.mails ?? null}::int, mails),
      finished_at = case when ${final}::boolean then now() else null end
    where id = ${id}`.execute(db);
}

const RUN_SELECT = sql`select r.*,
  (select count(*)::int from notification_outbox o where o.report_run_id = r.id and o.state = 'sent') as sent
  from report_schedule_runs r`;

export async function runsOf(db: Db, scheduleId: number, limit = 20): Promise<RunRow[]> {
  const r = await sql<RunRow>`${RUN_SELECT} where r.schedule_id = ${scheduleId}
    order by r.due_at desc limit ${limit}`.execute(db.k);
  return r.rows.map(runOf);
}

export async function lastRuns(db: Db, scheduleIds: readonly number[]): Promise<Map<number, RunRow>> {
  if (!scheduleIds.length) return new Map();
  const r = await sql<RunRow>`${RUN_SELECT} where r.id in (
      select distinct on (schedule_id) id from report_schedule_runs
       where schedule_id = any(${[...scheduleIds]}::int[]) order by schedule_id, due_at desc)`.execute(db.k);
  return new Map(r.rows.map((x) => [x.schedule_id, runOf(x)]));
}

// ---------------------------------------------------------------------------------------- recipients

export interface MailRecipient {
  contactId: number;
  name: string;
  email: string;
  language: 'en' | 'zh' | 'ko';
  /** The zone of the enabled user with this e-mail address, if he set one. */
  timeZone: string | null;
}

/** The members of a contact group with an e-mail address, each once. */
export async function groupRecipients(db: Exec, groupId: number): Promise<MailRecipient[]> {
  const r = await sql<{ id: number; name: string; email: string; language: string; tz: string | null }>`
    select c.id, c.name, c.email, c.language,
      (select u.time_zone from users u where u.enabled and u.time_zone is not null and lower(u.email) = lower(c.email)
        order by u.id limit 1) as tz
      from alert_group_contacts gc join alert_contacts c on c.id = gc.contact_id
     where gc.group_id = ${groupId} and c.email is not null and c.email <> ''
     order by c.id`.execute(db);
  const seen = new Set<string>();
  const out: MailRecipient[] = [];
  for (const x of r.rows) {
    const key = x.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      contactId: x.id,
      name: x.name,
      email: x.email,
      language: (['en', 'zh', 'ko'].includes(x.language) ? x.language : 'en') as MailRecipient['language'],
      timeZone: x.tz,
    });
  }
  return out;
}

export async function groupExists(db: Db, groupId: number): Promise<boolean> {
  const r = await sql`select 1 from alert_groups where id = ${groupId}`.execute(db.k);
  return r.rows.length > 0;
}

export async function groupOptions(db: Db): Promise<{ id: number; name: string; mailable: number }[]> {
  const r = await sql<{ id: number; name: string; mailable: number }>`
    select g.id, g.name, (select count(*)::int from alert_group_contacts gc join alert_contacts c on c.id = gc.contact_id
                           where gc.group_id = g.id and c.email is not null and c.email <> '') as mailable
      from alert_groups g order by g.name, g.id`.execute(db.k);
  return r.rows.map((x) => ({ id: x.id, name: x.name, mailable: Number(x.mailable) }));
}
