import path from 'node:path';
import pg from 'pg';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Dialect,
} from 'kysely';
import { PgliteDriver, PgliteWorker } from './pglite-driver.ts';
import { lockDataDir } from './datadir-lock.ts';
import type { Database } from './schema.ts';

// node-postgres: bigint and numeric as JavaScript numbers (ids and counts stay far below 2^53).
pg.types.setTypeParser(20, Number);
pg.types.setTypeParser(1700, Number);

export type DbKind = 'pglite' | 'postgres';

/** The application's database: a typed Kysely handle over PGlite or PostgreSQL, and a script runner for migrations. */
export interface Db {
  kind: DbKind;
  k: Kysely<Database>;
  /** Runs a multi-statement SQL script (no parameters). */
  script(sql: string): Promise<void>;
  /**
   * Runs fn while holding a cluster-wide lock of this name (PostgreSQL advisory lock, so two server
   * nodes starting at once migrate one after the other). The embedded database has one process anyway.
   */
  exclusive<T>(name: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** In-memory PGlite (tests only). */
  memory?: boolean;
  poolSize?: number;
}

export async function openDb(opts: DbOptions): Promise<Db> {
  if (opts.databaseUrl) {
    // JIT off for the server's sessions: its statements are short, and a plan whose estimate passes
    // jit_above_cost was compiled for hundreds of ms inside latency-bound work (an alert store took 700 ms).
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10, options: '-c jit=off' });
    pool.on('error', () => undefined); // an idle client's error is reported by the next query
    const k = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    await pool.query('select 1');
    return {
      kind: 'postgres',
      k,
      async script(sql) {
        const c = await pool.connect();
        try {
          await c.query(sql);
        } catch (e) {
          await c.query('rollback').catch(() => undefined);
          throw e;
        } finally {
          c.release();
        }
      },
      async exclusive(name, fn) {
        const c = await pool.connect();
        try {
          await c.query('select pg_advisory_lock(hashtext($1))', [name]);
          try {
            return await fn();
          } finally {
            await c.query('select pg_advisory_unlock(hashtext($1))', [name]);
          }
        } finally {
          c.release();
        }
      },
      close: () => k.destroy(),
    };
  }
  let release: (() => void) | null = null;
  let dir = 'memory://';
  if (!opts.memory) {
    release = lockDataDir(opts.dataDir);
    dir = path.join(opts.dataDir, 'pgdata');
  }
  const worker = new PgliteWorker(dir);
  try {
    await worker.ready;
  } catch (e) {
    release?.();
    throw e;
  }
  const dialect: Dialect = {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgliteDriver(worker),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
  const k = new Kysely<Database>({ dialect });
  return {
    kind: 'pglite',
    k,
    async script(sql) {
      // Through Kysely's connection so the script holds the single PGlite connection alone.
      await k.connection().execute(async () => {
        try {
          await worker.exec(sql);
        } catch (e) {
          await worker.exec('rollback').catch(() => undefined);
          throw e;
        }
      });
    },
    exclusive: (_name, fn) => fn(),
    async close() {
      await k.destroy();
      release?.();
    },
  };
}
