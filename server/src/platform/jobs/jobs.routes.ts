import type { FastifyInstance } from 'fastify';
import { Status, jobRoutes, type Job, type JobState, type Language } from '@geosentry/contract';
import type { AppContext } from '../context.ts';
import { caller, defineRoute } from '../http/route.ts';
import { AppError } from '../http/errors.ts';
import { MESSAGES, translate, type MessageKey } from '../http/messages.ts';
import { isDbId, iso, isoOrNull } from '../db/sql.ts';
import * as repo from './jobs.repository.ts';
import type { JobRunner } from './jobs.runner.ts';

/** A job row as its owner reads it: the error translated into his language. */
export function jobView(r: repo.JobRow, lang: Language): Job {
  const key = r.error && r.error in MESSAGES ? (r.error as MessageKey) : null;
  return {
    id: r.id,
    kind: r.kind,
    state: r.state as JobState,
    phase: r.phase,
    done: r.done,
    total: r.total,
    error: key ? translate(lang, key, r.error_params ?? {}) : r.error,
    errorKey: r.error,
    result: r.result,
    resultFileId: r.result_file,
    params: r.params,
    attempts: r.attempts,
    cancelRequested: r.cancel_requested,
    createdAt: iso(r.created_at),
    startedAt: isoOrNull(r.started_at),
    finishedAt: isoOrNull(r.finished_at),
    expiresAt: isoOrNull(r.expires_at),
  };
}

const missing = (): AppError => new AppError(Status.notFound, 'jobNotFound');

/** Routes of the background jobs: a signed-in user lists, reads and cancels his own jobs only. */
export function registerJobs(app: FastifyInstance, ctx: AppContext, runner: JobRunner): void {
  defineRoute(app, ctx, jobRoutes.list, async (c) => {
    const page = await repo.listOwn(ctx.db.k, caller(c).id, c.query);
    return {
      data: {
        list: page.list.map((r) => jobView(r, c.lang)),
        total: page.total,
        pageNum: c.query.pageNum,
        pageSize: c.query.pageSize,
      },
    };
  });
  defineRoute(app, ctx, jobRoutes.get, async (c) => {
    const row = isDbId(c.query.id) ? await repo.ownJob(ctx.db.k, caller(c).id, c.query.id) : undefined;
    if (!row) throw missing();
    return { data: jobView(row, c.lang) };
  });
  defineRoute(app, ctx, jobRoutes.cancel, async (c) => {
    const user = caller(c);
    const before = isDbId(c.body.id) ? await repo.ownJob(ctx.db.k, user.id, c.body.id) : undefined;
    if (!before) throw missing();
    if (before.state === 'done' || before.state === 'failed' || before.state === 'cancelled')
      throw new AppError(Status.conflict, 'jobFinished');
    const row = await runner.cancel(user.id, before.id);
    if (!row) throw missing();
    return { key: 'jobCancelRequested', data: jobView(row, c.lang) };
  });
}
