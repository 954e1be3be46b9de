// Report jobs (issue 17, scope 7): any report queued as a background job of the platform's runner, rendered by the
// report renderers into the job's result file, downloaded by its owner while he may still see the site.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import {
  GENERAL_REPORT_LIMITS,
  REPORT_JOB_KIND,
  VIBRATION_LIMITS,
  reportPeriod,
  REPORT_KIND_PERMISSION,
  REPORT_KIND_QUERY,
  Status,
  type Language,
  type ReportDocument,
  type ReportJob,
  type ReportJobFormat,
  type ReportKind,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { inScope, mayCall, type SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import { JobError, jobView, ownJob, type JobContext, type JobRow, type JobRunner } from '../../platform/jobs/index.ts';
import { CONTENT_TYPES, attachmentHeader, renderReport, reportFileName } from '../../platform/reports/index.ts';
import { findPlatform } from '../platforms/index.ts';
import { buildReport, type ReportSources } from './reportJobs.sources.ts';
import * as repo from './reportJobs.repository.ts';

/** The longest period of the reports whose limit does not depend on their statistics, days. */
const PERIOD_LIMIT_DAYS: Partial<Record<ReportKind, number>> = {
  vibration: VIBRATION_LIMITS.maxDays,
  general: GENERAL_REPORT_LIMITS.maxDays,
};

export interface ReportJobParams {
  kind: ReportKind;
  format: ReportJobFormat;
  lang: Language;
  /** The report's parameters as its route's schema read them (timeZone fixed at submit). */
  params: Record<string, unknown>;
}

/** Parameters in a stable order (the de-duplication key does not depend on the order they came in). */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, canonical(x)]),
    );
  return v;
}

/** A report feature's failure as the job's failure (its message key and parameters, translated when read). */
export function asJobError(e: unknown): unknown {
  if (e instanceof AppError) return new JobError(e.key, e.params);
  if (e instanceof ZodError) return new JobError('validation', { details: e.issues[0]?.message ?? '' });
  return e;
}

/** Renders a document into a new file of the job store (kept JOB_RESULT_DAYS for `ownerId`); answers it. */
export async function renderToStore(
  ctx: AppContext,
  runner: JobRunner,
  doc: ReportDocument,
  format: ReportJobFormat,
  ownerId: number,
  name: string,
): Promise<{ id: string; name: string; size: number }> {
  const tmp = await runner.files.tempPath();
  try {
    await renderReport(doc, format, fs.createWriteStream(tmp, { mode: 0o640 }));
    const size = (await fs.promises.stat(tmp)).size;
    const id = await runner.files.adopt(tmp, { ownerId, name, ext: format, size }, ctx.config.jobResultDays);
    return { id, name, size };
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}

export class ReportJobsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly runner: JobRunner,
    private readonly sources: ReportSources,
  ) {
    runner.register<ReportJobParams>(REPORT_JOB_KIND, (c) => this.run(c));
  }

  /**
   * Queues a report: the caller must hold the report's own permission and see its site; its parameters are read
   * by the report route's schema (a bad one: the validation message, nothing queued). The same report (kind,
   * format, parameters, language) queued or running already for the caller answers that job: a hundred clicks
   * make one job.
   */
  async submit(user: SessionUser, lang: Language, body: Record<string, unknown>): Promise<JobRow> {
    const { kind: rawKind, format: rawFormat, ...rest } = body;
    const kind = rawKind as ReportKind;
    const format = rawFormat as ReportJobFormat;
    if (!mayCall(user, REPORT_KIND_PERMISSION[kind])) throw new AppError(Status.noPermission, 'noPermission');
    const parsed = REPORT_KIND_QUERY[kind].parse({ ...rest, format }) as Record<string, unknown> & {
      platformId: number;
      timeZone?: string;
      fileName?: string;
    };
    const site = await findPlatform(this.ctx.db, user.scope, parsed.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    // The zone is fixed now (the user's own when not asked): the job reads the same calendar whenever it runs.
    const params = { ...parsed, timeZone: await requestTimeZone(this.ctx, user.id, parsed.timeZone) };
    // An empty period, or one longer than the report allows where its limit does not depend on its statistics,
    // is refused now (the others are judged by the report when the job runs, with the same message).
    const period = reportPeriod(
      parsed.startTime as string,
      parsed.endTime as string,
      params.timeZone,
      PERIOD_LIMIT_DAYS[kind] ?? Number.MAX_SAFE_INTEGER,
    );
    if (period === 'empty') throw new AppError(Status.invalid, 'badTimeRange');
    if (period === 'tooLong')
      throw new AppError(Status.invalid, 'reportPeriodTooLong', { max: PERIOD_LIMIT_DAYS[kind] ?? 0 });
    const job: ReportJobParams = { kind, format, lang, params };
    const key = crypto
      .createHash('sha256')
      .update(JSON.stringify(canonical(job)))
      .digest('hex');
    const row = await this.ctx.db.k.transaction().execute(async (tx) => {
      const active = await repo.lockAndFindActive(tx, user.id, key);
      if (active !== null) return { id: active, fresh: null };
      const fresh = await this.runner.submitIn(tx, REPORT_JOB_KIND, user.id, job);
      await repo.insertReportJob(tx, {
        jobId: fresh.id,
        ownerId: user.id,
        kind,
        format,
        platformId: site.id,
        fileName: parsed.fileName ? reportFileName(parsed.fileName, format) : null,
        dedupeKey: key,
      });
      return { id: fresh.id, fresh };
    });
    if (row.fresh) this.runner.kick();
    const out = row.fresh ?? (await ownJob(this.ctx.db.k, user.id, row.id));
    if (!out) throw new AppError(Status.notFound, 'jobNotFound');
    return out;
  }

  /** The job's handler: the owner's rights now, the document, the file. */
  private async run(c: JobContext<ReportJobParams>) {
    const { kind, format, lang, params } = c.params;
    const owner = await c.owner();
    if (!owner || !mayCall(owner, REPORT_KIND_PERMISSION[kind])) throw new JobError('noPermission');
    // A user whose scope lost the site gets nothing (the report's own service answers platformNotFound too).
    if (!inScope(owner.scope, Number(params.platformId))) throw new JobError('platformNotFound');
    await c.progress({ done: 0, total: 2, phase: 'build' }, true);
    let doc: ReportDocument;
    try {
      doc = await buildReport(this.sources, kind, owner, lang, params);
    } catch (e) {
      throw asJobError(e);
    }
    c.throwIfStopped();
    await c.progress({ done: 1, total: 2, phase: 'render' }, true);
    const name = reportFileName((params.fileName as string | undefined) ?? doc.fileName, format);
    const file = await renderToStore(this.ctx, this.runner, doc, format, c.ownerId, name);
    // Stopped while writing (cancel, or the server stopping: it renders again at the next start): no file kept.
    if (c.signal.aborted) await this.runner.files.purge([file.id]);
    c.throwIfStopped();
    return { resultFile: file.id, result: { fileName: file.name, size: file.size } };
  }

  async list(
    user: SessionUser,
    lang: Language,
    q: Parameters<typeof repo.listReportJobs>[2],
  ): Promise<{ list: ReportJob[]; total: number }> {
    const page = await repo.listReportJobs(this.ctx.db, user.id, q);
    return {
      total: page.total,
      list: page.list.map((r) => {
        const j = jobView(rowOfJob(r), lang);
        // A site the user no longer sees is not named.
        const visible = inScope(user.scope, r.platform_id);
        return {
          ...j,
          reportKind: r.report_kind,
          format: r.format,
          platformId: r.platform_id,
          platformName: visible ? r.platform_name : null,
          fileName: r.file_name ?? (typeof j.result?.fileName === 'string' ? j.result.fileName : null),
        };
      }),
    };
  }

  /**
   * Sends a finished job's file to its owner, saved under `fileName` (default the report's). Another's job, one
   * whose site left the owner's scope or whose report he may no longer make answers as a missing job.
   */
  async download(user: SessionUser, q: { id: number; fileName?: string | undefined }, reply: FastifyReply) {
    const missing = new AppError(Status.notFound, 'jobNotFound');
    const job = await ownJob(this.ctx.db.k, user.id, q.id);
    const rj = job ? await repo.reportJobOf(this.ctx.db, user.id, q.id) : undefined;
    if (!job || !rj) throw missing;
    if (!mayCall(user, REPORT_KIND_PERMISSION[rj.kind]) || !inScope(user.scope, rj.platformId)) throw missing;
    if (job.state !== 'done' || !job.result_file) throw new AppError(Status.conflict, 'reportJobNotReady');
    const file = await this.runner.files.own(user.id, job.result_file);
    if (!file) throw new AppError(Status.notFound, 'fileNotFound');
    const format = file.ext as ReportJobFormat;
    const name = reportFileName(q.fileName ?? file.name, format);
    reply.header('content-type', CONTENT_TYPES[format]);
    reply.header('content-length', String(file.size));
    reply.header('content-disposition', attachmentHeader(name));
    reply.header('cache-control', 'no-store');
    return reply.send(fs.createReadStream(file.path));
  }
}

/** The platform's job row within a report job row. */
function rowOfJob(r: repo.ReportJobRow): JobRow {
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));
  return {
    ...r,
    id: Number(r.id),
    done: Number(r.done),
    total: r.total === null ? null : Number(r.total),
    params: parse<Record<string, unknown>>(r.params) ?? {},
    checkpoint: parse<unknown>(r.checkpoint),
    result: parse<Record<string, unknown> | null>(r.result),
    error_params: parse<Record<string, string | number> | null>(r.error_params),
  };
}
