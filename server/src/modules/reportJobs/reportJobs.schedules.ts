// Scheduled reports (issue 17, scope 8): a registry of schedules, a ticker that starts each (schedule, due time)
// once, and the run job that renders the report per recipient language and zone and mails it through the
// notification outbox with the files attached.
import {
  REPORT_CENTRE_PERMISSION,
  REPORT_KIND_PERMISSION,
  REPORT_KIND_QUERY,
  REPORT_SCHEDULE_JOB_KIND,
  REPORT_SCHEDULE_LIMITS,
  SCHEDULE_RUN_FIELDS,
  Status,
  perm,
  type Language,
  type ReportJobFormat,
  type ReportSchedule,
  type ScheduleRun,
} from '@geosentry/contract';
import type { z } from 'zod';
import type { reportScheduleAddBody } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { mayCall, type SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { MESSAGES, translate, type MessageKey } from '../../platform/http/messages.ts';
import { iso, isoOrNull } from '../../platform/db/sql.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import { JobError, StoppedError, type JobContext, type JobRunner } from '../../platform/jobs/index.ts';
import { CONTENT_TYPES, reportFileName } from '../../platform/reports/index.ts';
import { findPlatform } from '../platforms/index.ts';
import type { AlertNotifier, MailAttachment, ReportMailInsert } from '../alertNotifications/index.ts';
import { buildReport, type ReportSources } from './reportJobs.sources.ts';
import { asJobError, renderToStore } from './reportJobs.service.ts';
import { nextDue, periodDates, type ScheduleWhen } from './reportJobs.calendar.ts';
import * as repo from './reportJobs.repository.ts';

type ScheduleInput = z.output<typeof reportScheduleAddBody>;

/** The mail of a scheduled report, per language. */
const MAIL: Record<Language, { subject: string; body: string }> = {
  en: {
    subject: 'Report: {name} ({start} – {end})',
    body: 'The scheduled report "{name}" of {site} for {start} – {end} (time zone {zone}) is attached.\n\nSent by the monitoring console on behalf of {owner}.',
  },
  zh: {
    subject: '报表：{name}（{start} 至 {end}）',
    body: '附件为{site}的定时报表“{name}”，时段 {start} 至 {end}（时区 {zone}）。\n\n由监测平台代 {owner} 发送。',
  },
  ko: {
    subject: '보고서: {name} ({start} ~ {end})',
    body: '{site}의 정기 보고서 "{name}"({start} ~ {end}, 시간대 {zone})를 첨부합니다.\n\n{owner} 님을 대신하여 모니터링 콘솔이 보냈습니다.',
  },
};
const fill = (s: string, p: Record<string, string>): string => s.replace(/\{(\w+)\}/g, (m, k: string) => p[k] ?? m);

const MAY_SCHEDULE = perm(REPORT_CENTRE_PERMISSION);

export interface RunParams {
  runId: number;
}

const whenOf = (s: Pick<repo.ScheduleRow, 'frequency' | 'weekday' | 'month_day' | 'local_time' | 'time_zone'>) =>
  ({
    frequency: s.frequency,
    weekday: s.weekday,
    monthDay: s.month_day,
    time: s.local_time,
    timeZone: s.time_zone,
  }) satisfies ScheduleWhen;

export class ReportSchedulesService {
  /** The ticker's clock (tests move it). */
  now: () => Date = () => new Date();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<number> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly runner: JobRunner,
    private readonly notifier: AlertNotifier,
    private readonly sources: ReportSources,
  ) {
    runner.register<RunParams>(REPORT_SCHEDULE_JOB_KIND, (c) => this.run(c));
  }

  // ------------------------------------------------------------------------------------------ registry

  private runView(r: repo.RunRow, lang: Language): ScheduleRun {
    const key = r.reason && r.reason in MESSAGES ? (r.reason as MessageKey) : null;
    return {
      id: r.id,
      scheduleId: r.schedule_id,
      dueAt: iso(r.due_at),
      state: r.state,
      reason: key ? translate(lang, key, r.reason_params ?? {}) : r.reason,
      reasonKey: r.reason,
      mails: r.mails,
      sent: r.sent,
      jobId: r.job_id,
      createdAt: iso(r.created_at),
      finishedAt: isoOrNull(r.finished_at),
    };
  }

  private view(s: repo.ScheduleRow, last: repo.RunRow | undefined, lang: Language): ReportSchedule {
    return {
      id: s.id,
      name: s.name,
      kind: s.kind,
      params: s.params,
      platformId: s.platform_id,
      platformName: s.platform_name,
      formats: s.formats,
      frequency: s.frequency,
      weekday: s.weekday,
      monthDay: s.month_day,
      time: s.local_time,
      timeZone: s.time_zone,
      period: s.period,
      groupId: s.group_id,
      groupName: s.group_name,
      enabled: s.enabled,
      nextDueAt: isoOrNull(s.next_due_at),
      lastRun: last ? this.runView(last, lang) : null,
      createdAt: iso(s.created_at),
    };
  }

  /** Checks a schedule as its owner writes it; answers what is stored. */
  private async checked(user: SessionUser, b: ScheduleInput): Promise<repo.ScheduleWrite> {
    if (!mayCall(user, REPORT_KIND_PERMISSION[b.kind])) throw new AppError(Status.noPermission, 'noPermission');
    if ((b.frequency === 'weekly' && !b.weekday) || (b.frequency === 'monthly' && !b.monthDay))
      throw new AppError(Status.invalid, 'reportScheduleWhen');
    const stored: Record<string, unknown> = { ...b.params };
    for (const f of SCHEDULE_RUN_FIELDS) delete stored[f];
    // The report's own schema checks every other parameter (the period, zone and format are set at each run).
    const parsed = REPORT_KIND_QUERY[b.kind].parse({
      ...stored,
      startTime: '2000-01-01',
      endTime: '2000-01-01',
      format: 'pdf',
    }) as Record<string, unknown> & { platformId: number };
    const params: Record<string, unknown> = { ...parsed };
    for (const f of SCHEDULE_RUN_FIELDS) delete params[f];
    const site = await findPlatform(this.ctx.db, user.scope, parsed.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    if (!(await repo.groupExists(this.ctx.db, b.groupId))) throw new AppError(Status.notFound, 'notifyGroupNotFound');
    const timeZone = await requestTimeZone(this.ctx, user.id, b.timeZone);
    const formats = [...new Set(b.formats)] as ReportJobFormat[];
    const when: ScheduleWhen = {
      frequency: b.frequency,
      weekday: b.frequency === 'weekly' ? (b.weekday ?? null) : null,
      monthDay: b.frequency === 'monthly' ? (b.monthDay ?? null) : null,
      time: b.time,
      timeZone,
    };
    return {
      name: b.name,
      kind: b.kind,
      params,
      platformId: site.id,
      formats,
      frequency: when.frequency,
      weekday: when.weekday,
      monthDay: when.monthDay,
      time: when.time,
      timeZone,
      period: b.period,
      groupId: b.groupId,
      enabled: b.enabled,
      nextDueAt: b.enabled ? new Date(nextDue(when, this.now().getTime())) : null,
    };
  }

  async add(user: SessionUser, b: ScheduleInput): Promise<number> {
    const w = await this.checked(user, b);
    if ((await repo.countSchedules(this.ctx.db, user.id)) >= REPORT_SCHEDULE_LIMITS.maxPerOwner)
      throw new AppError(Status.invalid, 'reportScheduleLimit', { max: REPORT_SCHEDULE_LIMITS.maxPerOwner });
    return repo.insertSchedule(this.ctx.db, user.id, w);
  }

  async edit(user: SessionUser, b: ScheduleInput & { id: number }): Promise<void> {
    if (!(await repo.ownSchedule(this.ctx.db, user.id, user.scope, b.id)))
      throw new AppError(Status.notFound, 'reportScheduleNotFound');
    const w = await this.checked(user, b);
    if (!(await repo.updateSchedule(this.ctx.db, user.id, b.id, w)))
      throw new AppError(Status.notFound, 'reportScheduleNotFound');
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    if (!(await repo.ownSchedule(this.ctx.db, user.id, user.scope, id)))
      throw new AppError(Status.notFound, 'reportScheduleNotFound');
    await repo.deleteSchedule(this.ctx.db, user.id, id);
  }

  async list(user: SessionUser, lang: Language, q: Parameters<typeof repo.listSchedules>[3]) {
    const page = await repo.listSchedules(this.ctx.db, user.id, user.scope, q);
    const last = await repo.lastRuns(
      this.ctx.db,
      page.list.map((s) => s.id),
    );
    return { total: page.total, list: page.list.map((s) => this.view(s, last.get(s.id), lang)) };
  }

  async runs(user: SessionUser, lang: Language, id: number): Promise<ScheduleRun[]> {
    if (!(await repo.ownSchedule(this.ctx.db, user.id, user.scope, id)))
      throw new AppError(Status.notFound, 'reportScheduleNotFound');
    return (await repo.runsOf(this.ctx.db, id)).map((r) => this.runView(r, lang));
  }

  groupOptions() {
    return repo.groupOptions(this.ctx.db);
  }

  // ------------------------------------------------------------------------------------------- ticker

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tickSafely(), this.ctx.config.reportScheduleTickMs);
    this.timer.unref();
    void this.tickSafely();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking?.catch(() => 0);
  }

  private async tickSafely(): Promise<void> {
    if (this.ticking) return;
    this.ticking = this.tick().finally(() => (this.ticking = null));
    await this.ticking.catch((e: unknown) => this.ctx.log.error({ err: e }, 'report schedule tick failed'));
  }

  /**
   * Starts the runs of the schedules due now: per schedule, one transaction inserts the run of its due time (ON
   * CONFLICT DO NOTHING: another node's or another tick's insert wins, this one starts nothing), queues its job
   * and moves the schedule to its next due time after now (runs missed while the server was down make one run).
   * Answers the runs this call started.
   */
  async tick(now: Date = this.now()): Promise<number> {
    let started = 0;
    for (const s of await repo.dueSchedules(this.ctx.db, now)) {
      const due = s.next_due_at!;
      const next = new Date(nextDue(whenOf(s), now.getTime()));
      const runId = await this.ctx.db.k.transaction().execute(async (tx) => {
        const id = await repo.claimRun(tx, s.id, due);
        if (id !== null) {
          const job = await this.runner.submitIn(tx, REPORT_SCHEDULE_JOB_KIND, s.owner_id, { runId: id });
          await repo.setRunJob(tx, id, job.id);
        }
        await repo.advanceSchedule(tx, s.id, due, next);
        return id;
      });
      if (runId !== null) started++;
    }
    if (started) this.runner.kick();
    return started;
  }

  // ---------------------------------------------------------------------------------------------- run

  /** Records a run's failure with its reason and fails its job with the same message. */
  private async fail(runId: number, key: MessageKey, params: Record<string, string | number> = {}): Promise<never> {
    await repo.markRun(this.ctx.db.k, runId, 'failed', { reason: key, reasonParams: params });
    throw new JobError(key, params);
  }

  /**
   * One run: the owner's rights now (monitor:report, the report's permission and the site in his scope, else it
   * fails with its reason and nothing is mailed), the report rendered once per (language, zone) of the group's
   * recipients and per format, and one mail per recipient queued in the outbox with his files, in one
   * transaction with the run's end. A restart renders again; the outbox keeps one mail per run and recipient.
   */
  private async run(c: JobContext<RunParams>) {
    try {
      return await this.runOnce(c);
    } catch (e) {
      // An unexpected failure still ends the run with a reason (a stop leaves it to the next start).
      if (!(e instanceof JobError) && !(e instanceof StoppedError) && !c.signal.aborted)
        await repo.markRun(this.ctx.db.k, c.params.runId, 'failed', { reason: 'jobFailed' });
      throw e;
    }
  }

  private async runOnce(c: JobContext<RunParams>) {
    const run = await repo.runById(this.ctx.db.k, c.params.runId);
    const s = run ? await repo.scheduleById(this.ctx.db.k, run.schedule_id) : undefined;
    if (!run || !s) return { result: { mails: 0 } };
    if (run.state === 'done' || run.state === 'failed') return { result: { mails: run.mails } };
    await repo.markRun(this.ctx.db.k, run.id, 'running');
    const owner = await c.owner();
    if (!owner || !mayCall(owner, MAY_SCHEDULE) || !mayCall(owner, REPORT_KIND_PERMISSION[s.kind]))
      return this.fail(run.id, 'noPermission');
    const site = await findPlatform(this.ctx.db, owner.scope, s.platform_id);
    if (!site) return this.fail(run.id, 'platformNotFound');
    const recipients = await repo.groupRecipients(this.ctx.db.k, s.group_id);
    if (!recipients.length) return this.fail(run.id, 'reportScheduleNoRecipients');
    const dates = periodDates(s.period, run.due_at.getTime(), s.time_zone);
    const variantKey = (lang: Language, zone: string) => `${lang}\u0000${zone}`;
    const variants = new Map<string, { lang: Language; zone: string }>();
    for (const r of recipients) {
      const zone = r.timeZone ?? s.time_zone;
      variants.set(variantKey(r.language, zone), { lang: r.language, zone });
    }
    const total = variants.size * s.formats.length;
    let done = 0;
    await c.progress({ done, total, phase: 'render' }, true);
    const files = new Map<string, MailAttachment[]>();
    for (const [key, v] of variants) {
      const list: MailAttachment[] = [];
      for (const format of s.formats) {
        c.throwIfStopped();
        const params = { ...s.params, startTime: dates.start, endTime: dates.end, timeZone: v.zone, format };
        let doc;
        try {
          doc = await buildReport(this.sources, s.kind, owner, v.lang, params);
        } catch (e) {
          const err = asJobError(e);
          if (err instanceof JobError) return this.fail(run.id, err.key, err.params);
          throw err;
        }
        const name = reportFileName(`${s.name} ${dates.start}_${dates.end}`, format);
        const f = await renderToStore(this.ctx, this.runner, doc, format, s.owner_id, name);
        list.push({ fileId: f.id, ext: format, name: f.name, contentType: CONTENT_TYPES[format] });
        await c.progress({ done: ++done, total, phase: 'render' });
      }
      files.set(key, list);
    }
    c.throwIfStopped();
    const rows: ReportMailInsert[] = recipients.map((r) => {
      const zone = r.timeZone ?? s.time_zone;
      const words = { name: s.name, site: site.name, start: dates.start, end: dates.end, zone, owner: owner.name };
      return {
        report_run_id: run.id,
        platform_id: s.platform_id,
        recipient: r.email,
        contact_id: r.contactId,
        recipient_name: r.name,
        language: r.language,
        subject: fill(MAIL[r.language].subject, words),
        body: fill(MAIL[r.language].body, words),
        attachments: files.get(variantKey(r.language, zone)) ?? [],
      };
    });
    const mails = await this.ctx.db.k.transaction().execute(async (tx) => {
      const n = await this.notifier.enqueueReportMails(tx, rows);
      await repo.markRun(tx, run.id, 'done', { mails: rows.length });
      return n;
    });
    this.notifier.kick();
    return { result: { mails: rows.length, queued: mails, files: total } };
  }
}
