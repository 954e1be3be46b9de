import { sql } from 'kysely';
import type { JobState } from '@geosentry/contract';
import type { Db } from '../db/db.ts';
import type { Exec } from '../db/sql.ts';

/** SQL of the background jobs (table `jobs`, migration 0019). Raw SQL: the table belongs to the platform. */

export interface JobRow {
  id: number;
  kind: string;
  owner_id: number;
  params: Record<string, unknown>;
  state: JobState;
  phase: string | null;
  done: number;
  total: number | null;
  checkpoint: unknown;
  error: string | null;
  error_params: Record<string, string | number> | null;
  result: Record<string, unknown> | null;
  result_file: string | null;
  attempts: number;
  cancel_requested: boolean;
  runner: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
}

const parsed = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** A row as read (JSON columns parsed whatever the driver answers, bigints as numbers). */
export function rowOf(r: JobRow): JobRow {
  return {
    ...r,
    id: Number(r.id),
    done: Number(r.done),
    total: r.total === null ? null : Number(r.total),
    params: parsed<Record<string, unknown>>(r.params) ?? {},
    checkpoint: parsed<unknown>(r.checkpoint),
    result: parsed<Record<string, unknown> | null>(r.result),
    error_params: parsed<Record<string, string | number> | null>(r.error_params),
  };
}

export async function insertJob(db: Exec, kind: string, ownerId: number, params: object): Promise<JobRow> {
  const r = await sql<JobRow>`
    insert into jobs (kind, owner_id, params) values (${kind}, ${ownerId}, ${JSON.stringify(params)}::jsonb)
    returning *`.execute(db);
  return rowOf(r.rows[0]!);
}

/** A job of this owner (another's answers as missing). */
export async function ownJob(db: Exec, ownerId: number, id: number): Promise<JobRow | undefined> {
  const r = await sql<JobRow>`select * from jobs where id = ${id} and owner_id = ${ownerId}`.execute(db);
  return r.rows[0] ? rowOf(r.rows[0]) : undefined;
}

export async function jobById(db: Exec, id: number): Promise<JobRow | undefined> {
  const r = await sql<JobRow>`select * from jobs where id = ${id}`.execute(db);
  return r.rows[0] ? rowOf(r.rows[0]) : undefined;
}

export async function listOwn(
  db: Exec,
  ownerId: number,
  f: { pageNum: number; pageSize: number; state?: string | undefined; kind?: string | undefined },
): Promise<{ list: JobRow[]; total: number }> {
  const where = sql`owner_id = ${ownerId}
    and (${f.state ?? null}::text is null or state = ${f.state ?? null})
    and (${f.kind ?? null}::text is null or kind = ${f.kind ?? null})`;
  const [rows, count] = await Promise.all([
    sql<JobRow>`select * from jobs where ${where} order by id desc
      limit ${f.pageSize} offset ${(f.pageNum - 1) * f.pageSize}`.execute(db),
    sql<{ n: number }>`select count(*)::int as n from jobs where ${where}`.execute(db),
  ]);
  return { list: rows.rows.map(rowOf), total: Number(count.rows[0]?.n ?? 0) };
}

/**
 * Claims the oldest due job of the given kinds: a queued one, or a running one whose runner's lease expired (it
 * died). One statement; FOR UPDATE SKIP LOCKED keeps two runners (two server nodes) from claiming the same job.
 */
export async function claim(db: Db, runner: string, kinds: readonly string[], leaseMs: number): Promise<JobRow | null> {
  if (!kinds.length) return null;
  const r = await sql<JobRow>`
    update jobs j
       set state = 'running', attempts = j.attempts + 1, runner = ${runner},
           locked_until = now() + make_interval(secs => ${leaseMs / 1000}), heartbeat_at = now(),
           started_at = coalesce(j.started_at, now())
     where j.id = (
       select id from jobs
        where (state = 'queued' or (state = 'running' and locked_until < now()))
          and kind = any(${[...kinds]}::text[])
        order by id
        limit 1
        for update skip locked)
    returning j.*`.execute(db.k);
  return r.rows[0] ? rowOf(r.rows[0]) : null;
}

/** Extends the leases of this runner's jobs; answers those still its own, with their cancel flag. */
export async function heartbeat(
  db: Db,
  runner: string,
  ids: readonly number[],
  leaseMs: number,
): Promise<Map<number, boolean>> {
  if (!ids.length) return new Map();
  const r = await sql<{ id: number; cancel_requested: boolean }>`
    update jobs set locked_until = now() + make_interval(secs => ${leaseMs / 1000}), heartbeat_at = now()
     where id = any(${[...ids]}::bigint[]) and runner = ${runner} and state = 'running'
    returning id, cancel_requested`.execute(db.k);
  return new Map(r.rows.map((x) => [Number(x.id), x.cancel_requested]));
}

/**
 * Progress of a running job held by this runner (in the caller's transaction when `db` is one: a checkpoint
 * commits with the work it counts). Answers false when the job is no longer this runner's (its lease expired
 * and another took it), and whether a cancel was asked for.
 */
export async function progress(
  db: Exec,
  id: number,
  runner: string,
  p: { done?: number | undefined; total?: number | null | undefined; phase?: string | undefined; checkpoint?: unknown },
): Promise<{ ours: boolean; cancel: boolean }> {
  const r = await sql<{ cancel_requested: boolean }>`
    update jobs set
      done = coalesce(${p.done ?? null}::bigint, done),
      total = case when ${p.total !== undefined}::boolean then ${p.total ?? null}::bigint else total end,
      phase = coalesce(${p.phase ?? null}::text, phase),
      checkpoint = case when ${p.checkpoint !== undefined}::boolean then ${JSON.stringify(p.checkpoint ?? null)}::jsonb
                        else checkpoint end
     where id = ${id} and runner = ${runner} and state = 'running'
    returning cancel_requested`.execute(db);
  const row = r.rows[0];
  return { ours: !!row, cancel: !!row?.cancel_requested };
}

/** Ends a job this runner holds: done, failed or cancelled, kept `days` days. */
export async function finish(
  db: Db,
  id: number,
  runner: string,
  end: {
    state: 'done' | 'failed' | 'cancelled';
    result?: Record<string, unknown> | null;
    resultFile?: string | null;
    error?: string | null;
    errorParams?: Record<string, string | number> | null;
  },
  days: number,
): Promise<JobRow | undefined> {
  const r = await sql<JobRow>`
    update jobs set state = ${end.state}, finished_at = now(), locked_until = null,
      expires_at = now() + make_interval(days => ${days}),
      result = coalesce(${end.result === undefined || end.result === null ? null : JSON.stringify(end.result)}::jsonb, result),
      result_file = coalesce(${end.resultFile ?? null}::text, result_file),
      error = ${end.error ?? null}, error_params = ${end.errorParams ? JSON.stringify(end.errorParams) : null}::jsonb
     where id = ${id} and runner = ${runner} and state = 'running'
    returning *`.execute(db.k);
  return r.rows[0] ? rowOf(r.rows[0]) : undefined;
}

/** Gives a job this runner holds back to the queue (the server is stopping): the next start resumes it. */
export async function requeue(db: Db, id: number, runner: string): Promise<void> {
  await sql`update jobs set state = 'queued', runner = null, locked_until = null,
              attempts = greatest(attempts - 1, 0)
            where id = ${id} and runner = ${runner} and state = 'running'`.execute(db.k);
}

/**
 * Asks for a job's cancel: a queued job is cancelled at once; a running one is flagged (its handler stops at its
 * next batch). Answers the row after, or undefined when it is not the owner's.
 */
export async function requestCancel(db: Db, ownerId: number, id: number, days: number): Promise<JobRow | undefined> {
  const r = await sql<JobRow>`
    update jobs set cancel_requested = true,
      state = case when state = 'queued' then 'cancelled' else state end,
      finished_at = case when state = 'queued' then now() else finished_at end,
      expires_at = case when state = 'queued' then now() + make_interval(days => ${days}) else expires_at end
     where id = ${id} and owner_id = ${ownerId}
    returning *`.execute(db.k);
  return r.rows[0] ? rowOf(r.rows[0]) : undefined;
}

/** Removes finished jobs past their expiry; answers the result files they named. */
export async function purgeJobs(db: Db): Promise<string[]> {
  const r = await sql<{ result_file: string | null }>`
    delete from jobs where expires_at < now() and state in ('done', 'failed', 'cancelled')
    returning result_file`.execute(db.k);
  return r.rows.map((x) => x.result_file).filter((x): x is string => !!x);
}
