import {
  FILE_TYPES,
  Status,
  TASK_ALERT_DEADLINE_DAYS,
  TASK_ALERT_PRIORITY,
  TASK_LATE_REPORT_DAYS,
  TASK_MAX_FILES,
  TASK_RATE_MAX,
  TASK_RATE_MIN,
  TASK_REMINDER_HOURS,
  deviationRate,
  remainingDays,
  type AuditAction,
  type FileType,
  type Language,
  type Task,
  type TaskAlertDraft,
  type TaskDetail,
  type TaskEvaluation,
  type TaskFile,
  type TaskGrade,
  type TaskPriority,
  type TaskProgress,
  type TaskReviewResult,
  type TaskType,
  type TaskUser,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { writeAudit } from '../../platform/audit.ts';
import type { DataScope, SessionUser } from '../../platform/auth/access.ts';
import { findSite } from '../../platform/auth/sites.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { MessageKey } from '../../platform/http/messages.ts';
import type { Exec } from '../../platform/db/sql.ts';
import { findFiles } from '../files/index.ts';
import * as repo from './tasks.repository.ts';
import { taskMessage, type TaskEvent } from './tasks.messages.ts';

/** What the tasks module needs to know of an alert (handed in by app.ts from the alerts module). */
export interface TaskAlert {
  id: number;
  platformId: number;
  platformName: string;
  deviceId: number;
  deviceName: string;
  level: number;
  firstAt: string;
  quantity: string | null;
  valueType: string;
  evidence: unknown;
}

export interface TasksDeps {
  /** An alert within the scope, or undefined (missing or foreign). */
  alertById: (scope: DataScope, id: number) => Promise<TaskAlert | undefined>;
  /** Asks the outbox's sender to send what was queued (after the commit). */
  kickOutbox: () => void;
  /** The clock (tests). */
  now?: () => Date;
  /** How often the reminder check runs, ms (0: never by itself). */
  reminderEveryMs?: number;
}

/** The fields of create and edit as the contract gives them (all optional: required ones are checked here). */
export interface TaskInput {
  name?: string | undefined;
  type?: TaskType | undefined;
  project?: string | undefined;
  area?: string | undefined;
  constructionPoint?: string | undefined;
  platformId?: number | undefined;
  deviceId?: number | undefined;
  priority?: TaskPriority | undefined;
  assigneeId?: number | undefined;
  reviewerId?: number | undefined;
  documents?: string[] | undefined;
  planHours?: number | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
  description?: string | undefined;
  acceptance?: string | undefined;
}

const invalid = (key: MessageKey, params: Record<string, string | number> = {}, field?: string) =>
  new AppError(Status.invalid, key, params, field ? { errors: [{ field, rule: 'required' }] } : null);

/** Spec §5: required task fields, each with its "cannot be empty" message, in the order of the form. */
const REQUIRED: [keyof TaskInput, MessageKey][] = [
  ['name', 'taskNameRequired'],
  ['priority', 'taskPriorityRequired'],
  ['platformId', 'taskSiteRequired'],
  ['assigneeId', 'taskAssigneeRequired'],
  ['reviewerId', 'taskReviewerRequired'],
  ['project', 'taskProjectRequired'],
  ['constructionPoint', 'taskConstructionPointRequired'],
  ['startTime', 'taskStartTimeRequired'],
  ['endTime', 'taskEndTimeRequired'],
  ['description', 'taskDescriptionRequired'],
];

/** Where a call came from (the audit record's address). */
export interface Meta {
  ip: string;
}

const instant = (s: string): number => Date.parse(s.includes(' ') ? s.replace(' ', 'T') : s);
const toIso = (s: string): string => new Date(instant(s)).toISOString();

/**
 * Field tasks: publish (task:assignedtask), do (the responsible person: start, daily progress, submit) and review
 * (the reviewer: pass with a grade, or fail back to ongoing with a note). The workflow is
 * not started -> ongoing -> to be reviewed -> completed; every change of status is one conditional UPDATE (where
 * status = the expected one, and the caller is the one who may), so concurrent calls end in one state and a refused
 * call changes nothing. A task is visible to the users who see its site, and to its responsible person, publisher
 * and reviewer; a foreign id answers like a missing one.
 */
export class TasksService {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;
  private readonly now: () => Date;

  constructor(
    private readonly ctx: AppContext,
    private readonly deps: TasksDeps,
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /** The audit record of a change to a task (target `task:<id>`), like the other modules' changes. */
  private audit(
    user: SessionUser,
    meta: Meta,
    action: AuditAction,
    id: number,
    detail: Record<string, unknown>,
  ): Promise<void> {
    return writeAudit(this.ctx.db, {
      action,
      userId: user.id,
      account: user.account,
      target: `task:${id}`,
      detail,
      ip: meta.ip,
    });
  }

  private viewer(u: SessionUser): repo.Viewer {
    return { id: u.id, scope: u.scope };
  }

  private async mustGet(user: SessionUser, id: number): Promise<repo.TaskRow> {
    const t = await repo.getTask(this.ctx.db, this.viewer(user), id);
    if (!t) throw new AppError(Status.notFound, 'taskNotFound');
    return t;
  }

  // ---------------------------------------------------------------------------------------------- presenting

  private async files(user: SessionUser, idList: string[]): Promise<Map<string, TaskFile>> {
    const found = await findFiles(this.ctx.db, user.scope, idList);
    return new Map(
      found.map((f) => [
        f.id,
        { file_id: f.id, name: f.originalName, mime: FILE_TYPES[f.ext as FileType]?.mime ?? f.mime },
      ]),
    );
  }

  private present(rows: repo.TaskRow[], files: Map<string, TaskFile>): Task[] {
    const now = this.now().getTime();
    return rows.map((r) => {
      const start = Date.parse(r.startTime);
      const end = Date.parse(r.endTime);
      const at = r.completedAt ? Date.parse(r.completedAt) : now;
      const days = r.status === 'completed' ? null : remainingDays(end, now);
      return {
        ...r,
        deviationRate: deviationRate(r.completionRate, start, end, at),
        remainingDays: days === null ? null : days === 0 ? 0 : days,
        documents: r.documents.map((id) => files.get(id) ?? { file_id: id, name: null, mime: null }),
      };
    });
  }

  private async presentAll(user: SessionUser, rows: repo.TaskRow[]): Promise<Task[]> {
    return this.present(
      rows,
      await this.files(
        user,
        rows.flatMap((r) => r.documents),
      ),
    );
  }

  // ---------------------------------------------------------------------------------------------- reads

  async list(
    user: SessionUser,
    lang: Language,
    f: repo.TaskFilter & { pageNum: number; pageSize: number; sortField?: string; sortOrder?: string },
  ): Promise<{ list: Task[]; total: number; totalCapped: boolean }> {
    if (f.view === 'received') await repo.rememberLanguage(this.ctx.db, user.id, lang);
    const page = await repo.listTasks(this.ctx.db, this.viewer(user), f);
    return { list: await this.presentAll(user, page.list), total: page.total, totalCapped: page.totalCapped };
  }

  async detail(user: SessionUser, id: number): Promise<TaskDetail> {
    const t = await this.mustGet(user, id);
    const [[task], evidence, reviews] = await Promise.all([
      this.presentAll(user, [t]),
      repo.taskEvidence(this.ctx.db, t.id),
      repo.taskReviews(this.ctx.db, t.id),
    ]);
    const has = (p: string) => user.permissions.has(p) || user.roleCode === 'superAdmin';
    const mine = t.assigneeId === user.id;
    return {
      ...task!,
      evidence,
      reviews,
      can: {
        edit: t.status !== 'completed' && has('task:assignedtask'),
        start: mine && t.status === 'notStarted' && has('task:receivetask'),
        report: mine && t.status === 'ongoing' && has('task:receivetask'),
        submit: mine && t.status === 'ongoing' && has('task:receivetask'),
        review: t.reviewerId === user.id && !mine && t.status === 'toBeReviewed' && has('task:reviewtask'),
      },
    };
  }

  async byAlert(user: SessionUser, alertId: number): Promise<Task[]> {
    const alert = await this.deps.alertById(user.scope, alertId);
    if (!alert) throw new AppError(Status.notFound, 'alertNotFound');
    const page = await repo.listTasks(
      this.ctx.db,
      { id: user.id, scope: { all: true } },
      {
        alertId,
        pageNum: 1,
        pageSize: 100,
        sortField: 'createdAt',
      },
    );
    return this.presentAll(user, page.list);
  }

  async progressList(
    user: SessionUser,
    f: repo.ProgressFilter & { pageNum: number; pageSize: number },
  ): Promise<{ list: TaskProgress[]; total: number; totalCapped: boolean }> {
    const page = await repo.listProgress(this.ctx.db, this.viewer(user), f);
    const files = await this.files(
      user,
      page.list.flatMap((r) => r.photos),
    );
    return {
      total: page.total,
      totalCapped: page.totalCapped,
      list: page.list.map((r) => ({
        ...r,
        photos: r.photos.map((id) => files.get(id) ?? { file_id: id, name: null, mime: null }),
      })),
    };
  }

  async evaluation(
    user: SessionUser,
    f: { startDate?: string | undefined; endDate?: string | undefined; platformId?: number | undefined },
  ): Promise<TaskEvaluation> {
    const today = this.now().toISOString().slice(0, 10);
    const endDate = f.endDate ?? today;
    const startDate = f.startDate ?? new Date(Date.parse(endDate) - 30 * 86_400_000).toISOString().slice(0, 10);
    if (endDate < startDate) throw invalid('taskPeriodReversed');
    const rows = await repo.evaluation(this.ctx.db, this.viewer(user), {
      startDate,
      endDate,
      platformId: f.platformId,
    });
    const rate = (onTime: number, completed: number) =>
      completed ? Math.round((onTime / completed) * 1000) / 10 : null;
    const sum = (k: keyof Omit<repo.EvalCounts, 'userId' | 'name'>) => rows.reduce((a, r) => a + r[k], 0);
    const team = {
      tasks: sum('tasks'),
      completed: sum('completed'),
      onTime: sum('onTime'),
      normal: sum('normal'),
      good: sum('good'),
      excellent: sum('excellent'),
      failedReviews: sum('failedReviews'),
    };
    return {
      startDate,
      endDate,
      persons: rows.map((r) => ({ ...r, onTimeRate: rate(r.onTime, r.completed) })),
      team: { ...team, onTimeRate: rate(team.onTime, team.completed) },
    };
  }

  async users(user: SessionUser, platformId: number): Promise<TaskUser[]> {
    const site = await findSite(this.ctx.db, user.scope, platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    return repo.usersOfSite(this.ctx.db, platformId);
  }

  async alertDraft(user: SessionUser, lang: Language, alertId: number): Promise<TaskAlertDraft> {
    const a = await this.deps.alertById(user.scope, alertId);
    if (!a) throw new AppError(Status.notFound, 'alertNotFound');
    const level = Math.min(4, Math.max(1, a.level)) as 1 | 2 | 3 | 4;
    const start = this.now();
    const end = new Date(start.getTime() + TASK_ALERT_DEADLINE_DAYS[level] * 86_400_000);
    const what = a.deviceName;
    const since = `${a.firstAt.slice(0, 10)} ${a.firstAt.slice(11, 16)} UTC`;
    const NAME: Record<Language, string> = {
      en: `Handle alert #${a.id}: ${what}`,
      zh: `处理告警 #${a.id}：${what}`,
      ko: `경보 #${a.id} 처리: ${what}`,
    };
    const DESC: Record<Language, string> = {
      en: `Level ${level} alert at ${a.platformName}, device ${a.deviceName}, since ${since}. Check on site and report.`,
      zh: `${a.platformName} 设备 ${a.deviceName} 的 ${level} 级告警，始于 ${since}。请现场核查并汇报。`,
      ko: `${a.platformName} 장치 ${a.deviceName}의 ${level}단계 경보, ${since}부터. 현장을 확인하고 보고하세요.`,
    };
    return {
      alertId: a.id,
      platformId: a.platformId,
      platformName: a.platformName,
      deviceId: a.deviceId,
      deviceName: a.deviceName,
      level,
      name: NAME[lang].slice(0, 100),
      type: 'alertHandling',
      priority: TASK_ALERT_PRIORITY[level],
      startTime: start.toISOString(),
      endTime: end.toISOString(),
      description: DESC[lang],
      evidence: (a.evidence ?? {}) as Record<string, unknown>,
    };
  }

  // ---------------------------------------------------------------------------------------------- writes

  /** Spec §5 required fields, the period, the people, the device and the documents; answers what is stored. */
  private async check(user: SessionUser, input: TaskInput, stored?: repo.TaskRow): Promise<repo.TaskWrite> {
    for (const [field, key] of REQUIRED) {
      const v = input[field];
      if (v === undefined || (typeof v === 'string' && v.trim() === '')) throw invalid(key, {}, field);
    }
    const w = input as Required<Pick<TaskInput, (typeof REQUIRED)[number][0]>> & TaskInput;
    const start = instant(w.startTime);
    const end = instant(w.endTime);
    if (!(end > start)) throw invalid('taskEndBeforeStart');
    const site = await findSite(this.ctx.db, user.scope, w.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    if (w.assigneeId === w.reviewerId) throw invalid('taskReviewerIsAssignee');
    for (const [who, key] of [
      [w.assigneeId, 'taskAssigneeNotOfSite'],
      [w.reviewerId, 'taskReviewerNotOfSite'],
    ] as const)
      if (!(await repo.userMaySeeSite(this.ctx.db, who, w.platformId))) throw invalid(key);
    if (w.deviceId !== undefined) {
      const ok = await this.ctx.db.k
        .selectFrom('devices')
        .select('id')
        .where('id', '=', w.deviceId)
        .where('platform_id', '=', w.platformId)
        .executeTakeFirst();
      if (!ok) throw invalid('taskDeviceNotOfSite');
    }
    const documents = [...new Set(input.documents ?? stored?.documents ?? [])];
    await this.checkFiles(user, w.platformId, documents);
    return {
      name: w.name.trim(),
      type: w.type ?? null,
      project: w.project,
      area: w.area ?? null,
      constructionPoint: w.constructionPoint,
      platformId: w.platformId,
      deviceId: w.deviceId ?? null,
      priority: w.priority,
      assigneeId: w.assigneeId,
      reviewerId: w.reviewerId,
      documents,
      planHours: w.planHours ?? null,
      startTime: toIso(w.startTime),
      endTime: toIso(w.endTime),
      description: w.description,
      acceptance: w.acceptance ?? null,
    };
  }

  /** At most 3 files (spec §5), each one the caller may see, of this site or of none. */
  private async checkFiles(user: SessionUser, platformId: number, fileIds: string[]): Promise<void> {
    if (fileIds.length > TASK_MAX_FILES) throw invalid('taskTooManyFiles', { max: TASK_MAX_FILES });
    const found = new Map((await findFiles(this.ctx.db, user.scope, fileIds)).map((f) => [f.id, f]));
    for (const id of fileIds) {
      const f = found.get(id);
      if (!f) throw invalid('taskFileNotFound', { file: id });
      if (f.platformId !== null && f.platformId !== platformId)
        throw invalid('taskFileOtherSite', { name: f.originalName });
    }
  }

  async create(
    user: SessionUser,
    lang: Language,
    input: TaskInput & { alertId?: number | undefined },
    meta: Meta,
  ): Promise<number> {
    let alert: TaskAlert | undefined;
    if (input.alertId !== undefined) {
      alert = await this.deps.alertById(user.scope, input.alertId);
      if (!alert) throw new AppError(Status.notFound, 'alertNotFound');
      // The alert decides the site and the device.
      input = { ...input, platformId: alert.platformId, deviceId: alert.deviceId };
    }
    const w = await this.check(user, input);
    await repo.rememberLanguage(this.ctx.db, user.id, lang);
    const t = await this.ctx.db.k.transaction().execute(async (tx) => {
      const id = await repo.insertTask(tx, w, user.id, alert ? { id: alert.id, evidence: alert.evidence } : null);
      const t = (await repo.getTask(tx, { id: user.id, scope: { all: true } }, id))!;
      await this.notify(tx, t, 'assigned', { kind: 'assigned' }, [t.assigneeId], lang);
      await this.notify(tx, t, 'reviewerAssigned', { kind: 'reviewerAssigned' }, [t.reviewerId], lang);
      return t;
    });
    this.deps.kickOutbox();
    await this.audit(user, meta, 'task.add', t.id, {
      name: t.name,
      site: t.platformName,
      assignee: t.assignee,
      reviewer: t.reviewer,
      ...(t.alertId !== null ? { alertId: t.alertId } : {}),
    });
    return t.id;
  }

  async edit(user: SessionUser, lang: Language, id: number, input: TaskInput, meta: Meta): Promise<void> {
    const t = await this.mustGet(user, id);
    if (t.status === 'completed') throw invalid('taskCompletedNoEdit');
    if (t.alertId !== null) input = { ...input, platformId: t.platformId, deviceId: t.deviceId ?? undefined };
    const w = await this.check(user, input, t);
    await repo.rememberLanguage(this.ctx.db, user.id, lang);
    const after = await this.ctx.db.k.transaction().execute(async (tx) => {
      if (!(await repo.updateTask(tx, id, w))) throw invalid('taskCompletedNoEdit');
      const now = (await repo.getTask(tx, { id: user.id, scope: { all: true } }, id))!;
      // A new responsible person or reviewer is told, like at the creation.
      const stamp = Date.now().toString(36);
      if (now.assigneeId !== t.assigneeId)
        await this.notify(tx, now, `assigned:${stamp}`, { kind: 'assigned' }, [now.assigneeId], lang);
      if (now.reviewerId !== t.reviewerId)
        await this.notify(tx, now, `reviewerAssigned:${stamp}`, { kind: 'reviewerAssigned' }, [now.reviewerId], lang);
      return now;
    });
    const changed = (k: 'name' | 'assignee' | 'reviewer' | 'priority' | 'endTime') =>
      after[k] !== t[k] ? { [k]: { from: t[k], to: after[k] } } : {};
    if (after.assigneeId !== t.assigneeId || after.reviewerId !== t.reviewerId) this.deps.kickOutbox();
    await this.audit(user, meta, 'task.edit', id, {
      name: after.name,
      ...changed('name'),
      ...changed('assignee'),
      ...changed('reviewer'),
      ...changed('priority'),
      ...changed('endTime'),
    });
  }

  /** Why a transition was refused: the message of the first rule the task breaks (nothing was changed). */
  private refusal(t: repo.TaskRow, user: SessionUser, want: 'start' | 'progress' | 'submit' | 'review'): AppError {
    if (want === 'review') {
      if (t.assigneeId === user.id) return invalid('taskReviewOwn');
      if (t.reviewerId !== user.id) return invalid('taskNotReviewer');
      return invalid(t.status === 'completed' ? 'taskAlreadyCompleted' : 'taskNotToBeReviewed');
    }
    if (t.assigneeId !== user.id) return invalid('taskNotAssignee');
    if (t.status === 'completed') return invalid('taskAlreadyCompleted');
    if (want === 'start') return invalid('taskAlreadyStarted');
    if (t.status === 'notStarted') return invalid('taskNotStarted');
    return invalid('taskAlreadySubmitted');
  }

  async start(user: SessionUser, lang: Language, id: number, meta: Meta): Promise<void> {
    const t = await this.mustGet(user, id);
    await repo.rememberLanguage(this.ctx.db, user.id, lang);
    const ok = await this.ctx.db.k.transaction().execute((tx) => repo.startTask(tx, id, user.id));
    if (!ok) throw this.refusal((await this.mustGet(user, id)) ?? t, user, 'start');
    await this.audit(user, meta, 'task.start', id, { name: t.name });
  }

  async progress(
    user: SessionUser,
    lang: Language,
    id: number,
    p: {
      text?: string | undefined;
      completionRate?: number | undefined;
      photos?: string[] | undefined;
      lat?: number | undefined;
      lon?: number | undefined;
      day?: string | undefined;
    },
    meta: Meta,
  ): Promise<number> {
    const t = await this.mustGet(user, id);
    if (!p.text) throw invalid('taskProgressTextRequired', {}, 'text');
    if (p.completionRate === undefined) throw invalid('taskRateRequired', {}, 'completionRate');
    if (p.completionRate < TASK_RATE_MIN || p.completionRate > TASK_RATE_MAX)
      throw invalid('taskRateRange', { min: TASK_RATE_MIN, max: TASK_RATE_MAX });
    if ((p.lat === undefined) !== (p.lon === undefined)) throw invalid('taskPositionIncomplete');
    const day = this.reportDay(t, p.day);
    const photos = [...new Set(p.photos ?? [])];
    await this.checkFiles(user, t.platformId, photos);
    await repo.rememberLanguage(this.ctx.db, user.id, lang);
    const entry = await this.ctx.db.k.transaction().execute((tx) =>
      repo.addProgress(tx, id, user, {
        text: p.text!,
        completionRate: p.completionRate!,
        photos,
        lat: p.lat ?? null,
        lon: p.lon ?? null,
        day,
      }),
    );
    if (entry === null) throw this.refusal(await this.mustGet(user, id), user, 'progress');
    await this.audit(user, meta, 'task.progress', id, { name: t.name, day, completionRate: p.completionRate });
    return entry;
  }

  /**
   * The day of a progress entry (TASK_LATE_REPORT_DAYS): today unless given; an earlier day for a report made later,
   * at most TASK_LATE_REPORT_DAYS back and not before the task's planned start day; never after today (the UTC day
   * of now + 14 h, the earliest time zone).
   */
  private reportDay(t: repo.TaskRow, day: string | undefined): string {
    const now = this.now().getTime();
    const today = new Date(now).toISOString().slice(0, 10);
    if (day === undefined) return today;
    const latest = new Date(now + 14 * 3_600_000).toISOString().slice(0, 10);
    const back = new Date(now - TASK_LATE_REPORT_DAYS * 86_400_000).toISOString().slice(0, 10);
    const planned = t.startTime.slice(0, 10);
    const earliest = planned > back ? planned : back;
    if (day > latest || day < earliest) throw invalid('taskProgressDayRange', { from: earliest, to: today }, 'day');
    return day;
  }

  async submit(user: SessionUser, lang: Language, id: number, meta: Meta): Promise<void> {
    const before = await this.mustGet(user, id);
    await repo.rememberLanguage(this.ctx.db, user.id, lang);
    const ok = await this.ctx.db.k.transaction().execute(async (tx) => {
      if (!(await repo.submitTask(tx, id, user.id))) return false;
      const t = (await repo.getTask(tx, { id: user.id, scope: { all: true } }, id))!;
      await this.notify(tx, t, `submitted:${t.submittedAt}`, { kind: 'submitted' }, [t.reviewerId], lang);
      return true;
    });
    if (!ok) throw this.refusal(await this.mustGet(user, id), user, 'submit');
    this.deps.kickOutbox();
    await this.audit(user, meta, 'task.submit', id, { name: before.name, completionRate: before.completionRate });
  }

  async review(
    user: SessionUser,
    lang: Language,
    id: number,
    r: { result?: TaskReviewResult | undefined; grade?: TaskGrade | undefined; note?: string | undefined },
    meta: Meta,
  ): Promise<void> {
    const t = await this.mustGet(user, id);
    if (t.assigneeId === user.id) throw invalid('taskReviewOwn');
    if (!r.result) throw invalid('taskReviewResultRequired', {}, 'result');
    if (r.result === 'pass' && !r.grade) throw invalid('taskGradeRequired', {}, 'grade');
    if (r.result === 'fail' && !r.note) throw invalid('taskReviewNoteRequired', {}, 'note');
    await repo.rememberLanguage(this.ctx.db, user.id, lang);
    const result = r.result;
    const ok = await this.ctx.db.k.transaction().execute(async (tx) => {
      const done = await repo.reviewTask(tx, id, user, { result, grade: r.grade ?? null, note: r.note ?? null });
      if (!done) return false;
      const now = (await repo.getTask(tx, { id: user.id, scope: { all: true } }, id))!;
      const seq = await repo.reviewCount(tx, id);
      const event: TaskEvent = {
        kind: 'reviewed',
        pass: result === 'pass',
        grade: r.grade ?? null,
        note: r.note ?? null,
      };
      await this.notify(tx, now, `reviewed:${seq}`, event, [now.assigneeId], lang);
      return true;
    });
    if (!ok) throw this.refusal(await this.mustGet(user, id), user, 'review');
    this.deps.kickOutbox();
    await this.audit(user, meta, 'task.review', id, {
      name: t.name,
      result,
      ...(result === 'pass' ? { grade: r.grade } : { note: r.note }),
    });
  }

  // ---------------------------------------------------------------------------------------------- messages

  /** Queues a mail and an SMS (where the user has an address) to each user, in his language (else `fallback`). */
  private async notify(
    tx: Exec,
    t: repo.TaskRow,
    event: string,
    e: TaskEvent,
    userIds: number[],
    fallback: Language,
  ): Promise<number> {
    const people = await repo.contacts(tx, userIds);
    const rows: repo.TaskMessage[] = [];
    for (const uid of userIds) {
      const c = people.get(uid);
      if (!c) continue;
      const language = c.language ?? fallback;
      const { subject, body } = taskMessage(language, t, e);
      const base = { taskId: t.id, platformId: t.platformId, event, recipientName: c.name, language, subject, body };
      if (c.email) rows.push({ ...base, channel: 'mail', recipient: c.email });
      if (c.phone) rows.push({ ...base, channel: 'sms', recipient: c.phone });
    }
    return repo.enqueueMessages(tx, rows);
  }

  /**
   * The reminder check: each open task within TASK_REMINDER_HOURS of its end time is claimed once (a conditional
   * update in the same transaction as its messages), so it is reminded exactly once even when checks overlap.
   * Answers the number of tasks reminded.
   */
  async sweepReminders(): Promise<number> {
    const n = await this.ctx.db.k.transaction().execute(async (tx) => {
      const due = await repo.claimReminders(tx, TASK_REMINDER_HOURS);
      for (const t of due)
        await this.notify(tx, t, 'reminder', { kind: 'reminder' }, [t.assigneeId, t.reviewerId], 'en');
      return due.length;
    });
    if (n) this.deps.kickOutbox();
    return n;
  }

  /** Starts the periodic reminder check. */
  startReminders(): void {
    const every = this.deps.reminderEveryMs ?? 60_000;
    if (!every || this.timer) return;
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweepReminders()
        .catch((err: unknown) => {
          this.ctx.log.warn({ err }, 'task reminder check failed');
          return 0;
        })
        .finally(() => {
          this.sweeping = null;
        });
    }, every);
    this.timer.unref?.();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }
}
