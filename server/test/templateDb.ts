// Migrated template databases for the API tests: the migrations run once per run (per set of migration files),
// and each test file starts from a copy. PostgreSQL: CREATE DATABASE … TEMPLATE gs_tpl_<hash>. PGlite: a closed
// data folder in the OS temp dir (gs-tpl-pglite-<hash>), copied into the test's own folder. The hash covers the
// migration files' names and contents (and PGlite's version), so a changed migration makes a new template.
// Vitest runs the default export once per API project (globalSetup): it removes leftovers of earlier runs, builds
// the template, and at the end removes what this run's dead processes left. Test processes create the template
// themselves when it is missing (a run without the globalSetup), one at a time under a lock.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { openDb } from '../src/platform/db/db.ts';
import { MIGRATIONS_DIR, migrate } from '../src/platform/db/migrate.ts';

/** The PostgreSQL server tests create their databases on (CI: 127.0.0.1:5432, trust auth). */
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Our databases on the PostgreSQL server: templates, templates being built, and test files' databases. */
const PG_TEMPLATE = 'gs_tpl_';
const PG_BUILD = 'gs_tplbuild_';
export const PG_TEST = 'gs_test_';
/** Our folders in the OS temp dir: PGlite templates (and their builds, `.build-<pid>`), test files' copies. */
const PGLITE_TEMPLATE = 'gs-tpl-pglite-';
export const PGLITE_COPY = 'gs-pglite-';

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function pgliteVersion(): string {
  // Node's lookup of the package, upwards through node_modules folders (its exports hide package.json).
  let dir = path.dirname(new URL(import.meta.url).pathname);
  for (;;) {
    const file = path.join(dir, 'node_modules', '@electric-sql', 'pglite', 'package.json');
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
    const up = path.dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

/** The migration files as migrate() reads them, and the hash naming their template. */
function migrationSet(salt: string): { hash: string; files: [string, string][] } {
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f): [string, string] => [f, fs.readFileSync(path.join(MIGRATIONS_DIR, f), 'utf8')]);
  const h = crypto.createHash('sha256').update(salt);
  for (const [name, body] of files) h.update(`\0${name}\0${body}`);
  return { hash: h.digest('hex').slice(0, 16), files };
}

/** Writes the set into a folder of its own, so the template is migrated from exactly what was hashed. */
function snapshot(files: [string, string][]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-migrations-'));
  for (const [name, body] of files) fs.writeFileSync(path.join(dir, name), body);
  return dir;
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Retries a statement that fails while another session still uses the database it names (SQLSTATE 55006). */
async function retryInUse(fn: () => Promise<unknown>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await fn();
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== '55006' || i >= 100) throw e;
      await sleep(100);
    }
  }
}

/** `gs_test_<pid>_…`, `gs_tplbuild_<pid>_…`: the pid of the process that made it. */
function pidOf(name: string): number {
  return Number(/^gs_(?:test|tplbuild)_(\d+)_[0-9a-f]+$/.exec(name)?.[1] ?? NaN);
}

/**
 * Drops our databases that nobody will use again: templates of other migration sets, and the databases and
 * template builds of processes that are gone (a crashed or killed run). Never touches other databases, nor those
 * of a live process (another run on the same server).
 */
async function cleanPg(c: pg.Client, keepTemplate: string | null): Promise<string[]> {
  const names = (
    await c.query<{ datname: string }>(
      `select datname from pg_database where datname like 'gs\\_test\\_%' or datname like 'gs\\_tpl%'`,
    )
  ).rows.map((r) => r.datname);
  const dropped: string[] = [];
  for (const name of names) {
    if (!/^[a-z0-9_]+$/.test(name)) continue;
    const stale = name.startsWith(PG_TEMPLATE)
      ? keepTemplate !== null && name !== keepTemplate
      : !Number.isNaN(pidOf(name)) && !alive(pidOf(name)); // only names of our own pattern
    if (!stale) continue;
    try {
      await c.query(`drop database if exists ${name} with (force)`);
      dropped.push(name);
    } catch {
      /* another run dropped it first, or is creating a copy of it right now: the next run tries again */
    }
  }
  return dropped;
}

const PG_LOCK = 'geosentry:test-template:2';
let pgTemplate: Promise<string> | null = null;

/** The name of the migrated template database of the current migration files, created if missing. */
export function pgTemplateName(): Promise<string> {
  pgTemplate ??= ensurePgTemplate().catch((e: unknown) => {
    pgTemplate = null;
    throw e;
  });
  return pgTemplate;
}

async function ensurePgTemplate(): Promise<string> {
  const { hash, files } = migrationSet('postgres');
  const name = `${PG_TEMPLATE}${hash}`;
  return withAdmin(async (c) => {
    // Session lock: released by PostgreSQL if this process dies while building; a holder stuck for minutes
    // (a build takes seconds) fails this run with a lock timeout instead of hanging it.
    await c.query(`set lock_timeout = '300s'`);
    await c.query(`select pg_advisory_lock(hashtext('${PG_LOCK}'))`);
    try {
      await cleanPg(c, name);
      const have = await c.query('select 1 from pg_database where datname = $1', [name]);
      if (have.rowCount) return name;
      const build = `${PG_BUILD}${process.pid}_${hash}`;
      await c.query(`drop database if exists ${build} with (force)`);
      await c.query(`create database ${build}`);
      const dir = snapshot(files);
      try {
        const url = new URL(PG_ADMIN_URL);
        url.pathname = `/${build}`;
        // Two connections: migrate() holds one for its advisory lock while its scripts run on another.
        const db = await openDb({ databaseUrl: url.toString(), dataDir: dir, poolSize: 2 });
        try {
          await migrate(db, dir);
        } finally {
          await db.close();
        }
        // No connections to the template, ever: one would make CREATE DATABASE … TEMPLATE fail.
        try {
          await retryInUse(() => c.query(`alter database ${build} rename to ${name}`));
          await c.query(`alter database ${name} allow_connections false`);
        } catch (e) {
          if ((e as { code?: string }).code !== '42P04') throw e; // made meanwhile by a run not under our lock
          await c.query(`drop database if exists ${build} with (force)`);
        }
      } catch (e) {
        await c.query(`drop database if exists ${build} with (force)`).catch(() => undefined);
        throw e;
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
      return name;
    } finally {
      await c.query(`select pg_advisory_unlock(hashtext('${PG_LOCK}'))`).catch(() => undefined);
    }
  });
}

/** Creates database `name` as a copy of the migrated template. */
export async function createFromPgTemplate(name: string): Promise<void> {
  const template = await pgTemplateName();
  await withAdmin((c) => retryInUse(() => c.query(`create database ${name} template ${template}`)));
}

// ── PGlite ──────────────────────────────────────────────────────────────────────────────────────────────

/** Holds a lock file (holding our pid, made by link(2): never seen empty) while fn runs; a dead pid's is taken over. */
async function withLockFile<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const mine = `${file}.${process.pid}`;
  fs.writeFileSync(mine, String(process.pid));
  try {
    for (;;) {
      try {
        fs.linkSync(mine, file);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        let pid: number;
        try {
          pid = Number(fs.readFileSync(file, 'utf8').trim());
        } catch {
          continue; // released meanwhile
        }
        if (!alive(pid)) fs.rmSync(file, { force: true });
        else await sleep(200);
      }
    }
  } finally {
    fs.rmSync(mine, { force: true });
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** A test file's PGlite copy (`gs-pglite-<pid>-…`) whose process is gone. */
function deadCopy(entry: string): boolean {
  const pid = /^gs-pglite-(\d+)-/.exec(entry)?.[1];
  return pid !== undefined && !alive(Number(pid));
}

/** Removes our PGlite templates of other sets, and the copies and builds of processes that are gone. */
function cleanPglite(keep: string[]): string[] {
  const removed: string[] = [];
  const tmp = os.tmpdir();
  for (const entry of fs.readdirSync(tmp)) {
    let stale = false;
    if (entry.startsWith(PGLITE_TEMPLATE)) {
      const owner = /\.(?:build-|lock\.)(\d+)$/.exec(entry);
      if (owner) stale = !alive(Number(owner[1]));
      else if (entry.endsWith('.lock'))
        stale = false; // withLockFile takes over a dead process's lock
      else stale = !keep.includes(entry);
    } else if (entry.startsWith(PGLITE_COPY)) {
      stale = deadCopy(entry);
    }
    if (!stale) continue;
    fs.rmSync(path.join(tmp, entry), { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}

/** A PGlite data folder made by fill (PGlite's own initdb, then maybe migrations), closed, named by key. */
async function ensurePgliteFolder(key: string, fill: (dataDir: string) => Promise<void>): Promise<string> {
  const tmp = os.tmpdir();
  const final = path.join(tmp, `${PGLITE_TEMPLATE}${key}`);
  const ready = (): boolean => fs.existsSync(path.join(final, 'pgdata', 'PG_VERSION'));
  if (ready()) return final;
  return withLockFile(`${final}.lock`, async () => {
    if (ready()) return final;
    const build = `${final}.build-${process.pid}`;
    fs.rmSync(build, { recursive: true, force: true });
    try {
      await fill(build);
      fs.rmSync(path.join(build, 'geosentry.lock'), { force: true });
      try {
        fs.renameSync(build, final); // atomic: a copier sees no template or a whole one
      } catch (e) {
        if (!ready()) throw e; // else another process (that took over a lock it thought stale) won
      }
    } finally {
      fs.rmSync(build, { recursive: true, force: true });
    }
    return final;
  });
}

let pgliteTemplates: Promise<{ empty: string; migrated: string }> | null = null;

/** The PGlite template folders: `empty` (initdb only) and `migrated` (the current migration files). */
export function pgliteTemplateDirs(): Promise<{ empty: string; migrated: string }> {
  pgliteTemplates ??= ensurePgliteTemplates().catch((e: unknown) => {
    pgliteTemplates = null;
    throw e;
  });
  return pgliteTemplates;
}

async function ensurePgliteTemplates(): Promise<{ empty: string; migrated: string }> {
  const version = pgliteVersion();
  const { hash, files } = migrationSet(`pglite ${version}`);
  const emptyKey = `empty-${version.replace(/[^0-9a-z.]/gi, '_')}`;
  const keep = [`${PGLITE_TEMPLATE}${emptyKey}`, `${PGLITE_TEMPLATE}${hash}`];
  cleanPglite(keep);
  const empty = await ensurePgliteFolder(emptyKey, async (dir) => {
    const db = await openDb({ databaseUrl: null, dataDir: dir });
    // A query first: Kysely's destroy() ends the PGlite worker thread only once its driver was used.
    await sql`select 1`.execute(db.k);
    await db.close();
  });
  const migrated = await ensurePgliteFolder(hash, async (dir) => {
    fs.cpSync(path.join(empty, 'pgdata'), path.join(dir, 'pgdata'), { recursive: true });
    const from = snapshot(files);
    try {
      const db = await openDb({ databaseUrl: null, dataDir: dir });
      try {
        await migrate(db, from);
      } finally {
        await db.close();
      }
    } finally {
      fs.rmSync(from, { recursive: true, force: true });
    }
  });
  return { empty, migrated };
}

/** A new folder of this process (`gs-pglite-<pid>-…`) holding a copy of a template's data. */
export async function copyPgliteTemplate(which: 'empty' | 'migrated'): Promise<string> {
  const from = (await pgliteTemplateDirs())[which];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${PGLITE_COPY}${process.pid}-`));
  fs.cpSync(path.join(from, 'pgdata'), path.join(dir, 'pgdata'), { recursive: true });
  return dir;
}

// ── Vitest globalSetup (api-pg and api-pglite projects) ─────────────────────────────────────────────────

async function pgReachable(): Promise<boolean> {
  try {
    await withAdmin((c) => c.query('select 1'));
    return true;
  } catch {
    return false;
  }
}

export default async function setup(project: {
  name: string;
  config?: { env?: Record<string, string> };
}): Promise<() => Promise<void>> {
  const kind = project.config?.env?.TEST_DB ?? (project.name === 'api-pg' ? 'postgres' : 'pglite');
  if (kind === 'postgres') {
    // Without a server the tests report it themselves (tools/test.mjs does not run them then).
    if (!(await pgReachable())) return async () => undefined;
    await pgTemplateName();
    return async () => {
      await withAdmin((c) => cleanPg(c, null)).catch(() => undefined);
    };
  }
  await pgliteTemplateDirs();
  return async () => {
    // The copies of this run's test processes (each removes its own; a killed one cannot).
    for (const entry of fs.readdirSync(os.tmpdir()))
      if (deadCopy(entry)) fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
  };
}
