import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

interface WorkerReply {
  id?: number;
  ready?: boolean;
  result?: { rows: unknown[]; affectedRows: number };
  error?: { message: string; code?: string; detail?: string; constraint?: string };
}

/** An error from PostgreSQL with its SQLSTATE code, as node-postgres raises it. */
export class DbError extends Error {
  code: string | undefined;
  detail: string | undefined;
  constraint: string | undefined;
  constructor(e: NonNullable<WorkerReply['error']>) {
    super(e.message);
    this.code = e.code;
    this.detail = e.detail;
    this.constraint = e.constraint;
  }
}

/** The PGlite database on a worker thread, spoken to by messages. */
export class PgliteWorker {
  private worker: Worker;
  private seq = 0;
  private pending = new Map<
    number,
    { resolve: (r: { rows: unknown[]; affectedRows: number }) => void; reject: (e: Error) => void }
  >();
  readonly ready: Promise<void>;
  /**
   * Set once the worker thread is gone (an error, or an exit without one, e.g. the database aborting): every
   * call pending then is rejected with it, and every later call fails at once with it instead of waiting for an
   * answer that can never come (which held the single connection forever and hung every request).
   */
  private dead: Error | null = null;
  /** close() ended the worker on purpose. */
  private closing = false;

  constructor(dataDir: string) {
    this.worker = new Worker(new URL('./pglite.worker.mjs', import.meta.url), { workerData: { dataDir } });
    this.ready = new Promise((resolve, reject) => {
      const onMsg = (m: WorkerReply): void => {
        if (m.ready) {
          this.worker.off('error', reject);
          resolve();
        }
      };
      this.worker.once('message', onMsg);
      this.worker.once('error', reject);
      this.worker.once('exit', (code) =>
        reject(new Error(`the embedded database stopped while starting (exit code ${code})`)),
      );
    });
    this.worker.on('message', (m: WorkerReply) => {
      if (m.id === undefined) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error) p.reject(new DbError(m.error));
      else p.resolve(m.result!);
    });
    this.worker.on('error', (err) => this.died(err));
    this.worker.on('exit', (code) => {
      this.died(
        new Error(
          this.closing
            ? 'the embedded database is closed'
            : `the embedded database (PGlite worker thread) exited with code ${code}`,
        ),
      );
    });
  }

  /** The worker is gone: rejects what waits for it and refuses what comes (see `dead`). */
  private died(err: Error): void {
    if (!this.dead) {
      this.dead = new Error(`${err.message}; the embedded database is unavailable until the server restarts`, {
        cause: err,
      });
      if (!this.closing) console.error(`Geosentry: ${this.dead.message}`, err);
    }
    for (const p of this.pending.values()) p.reject(this.dead);
    this.pending.clear();
  }

  private call(
    op: 'query' | 'exec' | 'close',
    sql = '',
    params: readonly unknown[] = [],
  ): Promise<{ rows: unknown[]; affectedRows: number }> {
    if (this.dead) return Promise.reject(this.dead);
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.worker.postMessage({ id, op, sql, params });
      } catch (e) {
        // Parameters that cannot be sent (not structured-cloneable): this call fails, the worker lives on.
        this.pending.delete(id);
        reject(e as Error);
      }
    });
  }

  query(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[]; affectedRows: number }> {
    return this.call('query', sql, params);
  }
  exec(sql: string): Promise<unknown> {
    return this.call('exec', sql);
  }
  async close(): Promise<void> {
    if (this.dead) return;
    await this.call('close');
    this.closing = true;
    await this.worker.terminate();
  }
}

/** A simple FIFO mutex: PGlite is one connection, so a transaction must hold it alone. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = this.tail;
    this.tail = prev.then(() => next);
    return prev.then(() => release);
  }
}

/** What the holder of the single connection did (named by the stall warning, see PgliteDriver). */
interface Holder {
  since: number;
  statements: number;
  last: string;
  /** Its last statement still waits for the database's answer. */
  running: boolean;
}

class PgliteConnection implements DatabaseConnection {
  readonly holder: Holder = { since: Date.now(), statements: 0, last: '', running: false };
  constructor(private readonly db: PgliteWorker) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    this.holder.statements++;
    this.holder.last = q.sql;
    this.holder.running = true;
    try {
      const r = await this.db.query(q.sql, q.parameters);
      return { rows: r.rows as R[], numAffectedRows: BigInt(r.affectedRows) };
    } finally {
      this.holder.running = false;
    }
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite');
  }
}

/** Kysely driver over a PGlite worker (kysely-pglite pins an old Kysely, architecture.md §1). */
export class PgliteDriver implements Driver {
  private mutex = new Mutex();
  private releases = new WeakMap<DatabaseConnection, () => void>();
  private conn: PgliteConnection;
  /** The connection's current holder, and when a stall was last reported. */
  private holder: Holder | null = null;
  private warnedAt = 0;
  /**
   * `stallMs`: a statement waiting this long for the connection logs who holds it. A transaction that awaits a
   * query made outside it (through the app's handle, not its `trx`) waits for itself forever here (PostgreSQL's
   * pool hides it): the warning says so, with the holder's last statement.
   */
  constructor(
    private readonly db: PgliteWorker,
    private readonly stallMs = 30_000,
  ) {
    this.conn = new PgliteConnection(db);
  }
  async init(): Promise<void> {
    await this.db.ready;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const asked = Date.now();
    const timer = setTimeout(() => this.stalled(asked), this.stallMs);
    timer.unref();
    let release: () => void;
    try {
      release = await this.mutex.lock();
    } finally {
      clearTimeout(timer);
    }
    const c = new PgliteConnection(this.db);
    this.holder = c.holder;
    this.releases.set(c, release);
    return c;
  }

  private stalled(asked: number): void {
    const now = Date.now();
    if (now - this.warnedAt < this.stallMs) return;
    this.warnedAt = now;
    const h = this.holder;
    const held = h
      ? `held for ${Math.round((now - h.since) / 1000)} s by a holder of ${h.statements} statement(s), whose last ` +
        (h.running
          ? 'still waits for the database'
          : 'was answered: the holder waits for something else (a transaction awaiting a query made outside it?)') +
        `: ${h.last.replace(/\s+/g, ' ').slice(0, 300)}`
      : 'held';
    console.error(
      `Geosentry: a statement has waited ${Math.round((now - asked) / 1000)} s for the embedded database's single connection, ${held}`,
    );
  }
  async beginTransaction(c: DatabaseConnection, s: TransactionSettings): Promise<void> {
    if (s.isolationLevel)
      await c.executeQuery(CompiledQuery.raw(`start transaction isolation level ${s.isolationLevel}`));
    else await c.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await c.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    if (this.holder === (c as PgliteConnection).holder) this.holder = null;
    this.releases.get(c)?.();
    this.releases.delete(c);
  }
  async destroy(): Promise<void> {
    void this.conn;
    await this.db.close();
  }
}
