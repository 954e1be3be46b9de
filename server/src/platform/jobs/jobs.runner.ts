import os from 'node:os';
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { JOB_SOCKET_EVENT, type JobState } from '@geosentry/contract';
import type { AppContext } from '../context.ts';
import type { Exec } from '../db/sql.ts';
import type { SessionUser } from '../auth/access.ts';
import type { MessageKey } from '../http/messages.ts';
import * as repo from './jobs.repository.ts';
import { JobFiles } from './jobs.files.ts';

/** A failure a handler names for the job's owner: a message key of the server's catalogue and its parameters. */
export class JobError extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

/** Why a job's signal fired: its owner cancelled it, the server is stopping, or another runner took it over. */
export type StopReason = 'cancel' | 'close' | 'lost';

/** What a handler sees of its job. */
export interface JobContext<P = Record<string, unknown>> {
  id: number;
  ownerId: number;
  params: P;
  /** Where a previous run stopped (what the handler committed with its last checkpoint), or null. */
  checkpoint: unknown;
  attempts: number;
  /** Fires when the job must stop (see stopReason); handlers look at it between batches. */
  signal: AbortSignal;
  /** Throws when the signal fired (call it between batches). */
  throwIfStopped(): void;
  /** The owner's rights now (enabled, role permissions, data scope), read again; null: disabled or deleted. */
  owner(): Promise<SessionUser | null>;
  /** Progress outside any transaction (throttled: written and pushed at most twice a second unless `force`). */
  progress(p: { done?: number; total?: number | null; phase?: string }, force?: boolean): Promise<void>;
  /**
   * Progress and resume point inside the handler's transaction `tx`, so they commit with the work they count.
   * Throws (rolling the transaction back) when the job is no longer this runner's.
   */
  checkpointIn(
    tx: Exec,
    p: { done: number; total?: number | null; phase?: string; checkpoint: unknown },
  ): Promise<void>;
  /** The job files store (uploads, results). */
  files: JobFiles;
}

export interface JobOutcome {
  result?: Record<string, unknown>;
  resultFile?: string;
}

export type JobHandler<P = Record<string, unknown>> = (c: JobContext<P>) => Promise<JobOutcome>;

export interface JobRunnerOptions {
  /** Jobs run at the same time by this process (1 or 2; PGlite: 1). */
  concurrency?: number;
  /** How long a claimed job is reserved for its runner without a heartbeat. */
  leaseMs?: number;
  /** How often the queue is looked at (a submit also wakes the runner at once). */
  pollMs?: number;
  /** Claims of one job before it is given up (each start after a runner died counts). */
  maxAttempts?: number;
}

interface Running {
  id: number;
  ownerId: number;
  controller: AbortController;
  reason: StopReason | null;
  done: Promise<void>;
}

/** The rights of a user now: as a session would resolve them, without a session (jobs run on their own). */
export async function userRights(db: Exec, userId: number): Promise<SessionUser | null> {
  const r = await sql<{
    id: number;
    account: string;
    name: string;
    role_id: number;
    role_code: string;
    scope_all: boolean;
    enabled: boolean;
    permissions: string[] | null;
    platform_ids: number[] | null;
  }>`
    select u.id, u.account, u.name, u.role_id, r.code as role_code, u.scope_all, u.enabled,
      (select array_agg(p.code) from role_permissions rp join permissions p on p.id = rp.permission_id
        where rp.role_id = u.role_id) as permissions,
      (select array_agg(up.platform_id) from user_platforms up where up.user_id = u.id) as platform_ids
    from users u join roles r on r.id = u.role_id where u.id = ${userId}`.execute(db);
  const row = r.rows[0];
  if (!row || !row.enabled) return null;
  return {
    id: row.id,
    account: row.account,
    name: row.name,
    roleId: row.role_id,
    roleCode: row.role_code,
    permissions: new Set(row.permissions ?? []),
    scope: row.scope_all ? { all: true } : { all: false, platformIds: row.platform_ids ?? [] },
    sessionId: 0,
  };
}

/**
 * The background job runner: jobs live in the database (table `jobs`, both engines), so a queued job survives a
 * restart, and a job whose runner died (its lease expired) is claimed again and resumes from its checkpoint.
 * Handlers are registered by kind (app.ts builds the runner and hands it to the modules); `concurrency` jobs run
 * at once. Cancel is cooperative: the handler's signal fires, it stops at its next batch. Progress goes to the
 * database (readable by HTTP) and to the owner's browser sockets.
 */
export class JobRunner {
  readonly id = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  readonly files: JobFiles;
  private handlers = new Map<string, JobHandler<never>>();
  private running = new Map<number, Running>();
  private timers: NodeJS.Timeout[] = [];
  private claiming: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;

  constructor(
    private readonly ctx: AppContext,
    opts: JobRunnerOptions = {},
  ) {
    this.files = new JobFiles(ctx.db, ctx.config.dataDir);
    const wanted = Math.max(1, Math.min(2, opts.concurrency ?? ctx.config.jobConcurrency));
    this.concurrency = ctx.db.kind === 'pglite' ? 1 : wanted;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.pollMs = opts.pollMs ?? 1000;
    this.maxAttempts = opts.maxAttempts ?? 3;
  }

  /** Registers the handler of a kind (before start). */
  register<P>(kind: string, handler: JobHandler<P>): void {
    this.handlers.set(kind, handler as JobHandler<never>);
  }

  /** Queues a job for its owner; answers its row. */
  async submit(kind: string, ownerId: number, params: object): Promise<repo.JobRow> {
    if (!this.handlers.has(kind)) throw new Error(`no job handler for ${kind}`);
    const row = await repo.insertJob(this.ctx.db.k, kind, ownerId, params);
    this.push(row);
    this.kick();
    return row;
  }

  /**
   * Queues a job inside the caller's transaction `tx`: it exists only if that transaction commits (a row of the
   * caller's that names the job commits with it). Call `kick()` after the commit.
   */
  async submitIn(tx: Exec, kind: string, ownerId: number, params: object): Promise<repo.JobRow> {
    if (!this.handlers.has(kind)) throw new Error(`no job handler for ${kind}`);
    return repo.insertJob(tx, kind, ownerId, params);
  }

  /** Asks for a job's cancel (the owner's only); answers the row after, or undefined when it is not his. */
  async cancel(ownerId: number, id: number): Promise<repo.JobRow | undefined> {
    const row = await repo.requestCancel(this.ctx.db, ownerId, id, this.ctx.config.jobResultDays);
    if (!row) return undefined;
    const r = this.running.get(id);
    if (r) this.stop(r, 'cancel');
    this.push(row);
    return row;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const poll = setInterval(() => this.kick(), this.pollMs);
    const beat = setInterval(() => void this.beat(), Math.max(100, this.leaseMs / 3));
    const purge = setInterval(() => void this.purge(), 3600_000);
    for (const t of [poll, beat, purge]) t.unref();
    this.timers.push(poll, beat, purge);
    void this.purge();
    this.kick();
  }

  /** Removes finished jobs and files past their expiry (hourly; tests call it). */
  async purge(): Promise<void> {
    try {
      const files = await repo.purgeJobs(this.ctx.db);
      await this.files.purge(files);
    } catch (e) {
      this.ctx.log.warn({ err: e }, 'job purge failed');
    }
  }

  /** Stops taking jobs; running ones stop at their next batch and go back to the queue (the next start resumes them). */
  async close(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const r of this.running.values()) this.stop(r, 'close');
    await this.claiming;
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Waits until no job runs here and none is due (tests). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      await this.claiming;
      await Promise.all([...this.running.values()].map((r) => r.done));
      const due = await sql<{ n: number }>`select count(*)::int as n from jobs
        where state = 'queued' or (state = 'running' and locked_until < now())`.execute(this.ctx.db.k);
      if (!this.running.size && !Number(due.rows[0]?.n)) return;
      if (Date.now() > end) throw new Error('jobs still running');
      this.kick();
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Looks for due jobs while there is room (coalesced). */
  kick(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.fill()
      .catch((e: unknown) => this.ctx.log.error({ err: e }, 'job claim failed'))
      .finally(() => {
        this.claiming = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running.size < this.concurrency) {
      const row = await repo.claim(this.ctx.db, this.id, [...this.handlers.keys()], this.leaseMs);
      if (!row) return;
      if (this.stopped) {
        await repo.requeue(this.ctx.db, row.id, this.id);
        return;
      }
      this.launch(row);
    }
  }

  private stop(r: Running, reason: StopReason): void {
    if (r.reason) return;
    r.reason = reason;
    r.controller.abort(reason);
  }

  private launch(row: repo.JobRow): void {
    const controller = new AbortController();
    const r: Running = { id: row.id, ownerId: row.owner_id, controller, reason: null, done: Promise.resolve() };
    this.running.set(row.id, r);
    r.done = this.execute(row, r).finally(() => {
      this.running.delete(row.id);
      this.kick();
    });
  }

  private async execute(row: repo.JobRow, r: Running): Promise<void> {
    const days = this.ctx.config.jobResultDays;
    const end = async (e: Parameters<typeof repo.finish>[3]) => {
      const after = await repo.finish(this.ctx.db, row.id, this.id, e, days);
      if (after) this.push(after);
    };
    if (row.cancel_requested) return end({ state: 'cancelled' });
    // Claimed again after its runner died too often: given up cleanly rather than tried for ever.
    if (row.attempts > this.maxAttempts)
      return end({ state: 'failed', error: 'jobInterrupted', errorParams: { attempts: row.attempts - 1 } });
    const handler = this.handlers.get(row.kind)!;
    let lastPush = 0;
    const c: JobContext<never> = {
      id: row.id,
      ownerId: row.owner_id,
      params: row.params as never,
      checkpoint: row.checkpoint,
      attempts: row.attempts,
      signal: r.controller.signal,
      files: this.files,
      throwIfStopped: () => {
        if (r.controller.signal.aborted) throw new StoppedError();
      },
      owner: () => userRights(this.ctx.db.k, row.owner_id),
      progress: async (p, force = false) => {
        const now = Date.now();
        if (!force && now - lastPush < 500) return;
        lastPush = now;
        const s = await repo.progress(this.ctx.db.k, row.id, this.id, p);
        if (!s.ours) this.stop(r, 'lost');
        else if (s.cancel) this.stop(r, 'cancel');
        this.pushProgress(row, p);
      },
      checkpointIn: async (tx, p) => {
        const s = await repo.progress(tx, row.id, this.id, p);
        if (!s.ours) {
          this.stop(r, 'lost');
          throw new StoppedError();
        }
        if (s.cancel) this.stop(r, 'cancel');
        const now = Date.now();
        if (now - lastPush >= 500) {
          lastPush = now;
          this.pushProgress(row, p);
        }
      },
    };
    this.push({ ...row, state: 'running' });
    let outcome: JobOutcome;
    try {
      outcome = await handler(c);
    } catch (e) {
      const reason = r.reason;
      if (reason === 'close') return repo.requeue(this.ctx.db, row.id, this.id);
      if (reason === 'lost') return;
      if (reason === 'cancel' && (e instanceof StoppedError || r.controller.signal.aborted))
        return end({ state: 'cancelled' });
      if (e instanceof JobError) return end({ state: 'failed', error: e.key, errorParams: e.params });
      this.ctx.log.error({ err: e, jobId: row.id, kind: row.kind }, 'job failed');
      return end({ state: 'failed', error: 'jobFailed' });
    }
    await end({ state: 'done', result: outcome.result ?? null, resultFile: outcome.resultFile ?? null });
  }

  /** Extends the leases of the running jobs; a job taken over elsewhere stops, a cancel asked elsewhere is heard. */
  private async beat(): Promise<void> {
    if (!this.running.size) return;
    try {
      const alive = await repo.heartbeat(this.ctx.db, this.id, [...this.running.keys()], this.leaseMs);
      for (const r of this.running.values()) {
        const cancel = alive.get(r.id);
        if (cancel === undefined) this.stop(r, 'lost');
        else if (cancel) this.stop(r, 'cancel');
      }
    } catch (e) {
      this.ctx.log.warn({ err: e }, 'job heartbeat failed');
    }
  }

  private push(row: Pick<repo.JobRow, 'id' | 'kind' | 'owner_id' | 'state' | 'phase' | 'done' | 'total'>): void {
    this.ctx.hub.sendToUser(row.owner_id, {
      type: JOB_SOCKET_EVENT,
      id: row.id,
      kind: row.kind,
      state: row.state as JobState,
      phase: row.phase,
      done: row.done,
      total: row.total,
    });
  }

  private pushProgress(row: repo.JobRow, p: { done?: number; total?: number | null; phase?: string }): void {
    this.push({
      ...row,
      state: 'running',
      done: p.done ?? row.done,
      total: p.total === undefined ? row.total : p.total,
      phase: p.phase ?? row.phase,
    });
  }
}

/** Thrown by throwIfStopped: the job's signal fired. */
export class StoppedError extends Error {
  constructor() {
    super('job stopped');
  }
}
