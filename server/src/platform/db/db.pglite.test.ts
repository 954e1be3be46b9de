import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDb } from './db.ts';
import { migrate } from './migrate.ts';
import { DataDirLockedError } from './datadir-lock.ts';
import { tempDir } from '../../../test/harness.ts';
import { copyPgliteTemplate } from '../../../test/templateDb.ts';

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');

// PGlite's initdb takes seconds (tens on a busy machine): the first case starts from an empty folder, as a new
// server does; the others start from a copy of an initialised, empty data folder (server/test/templateDb.ts).
const dirs: string[] = [];
async function initialised(): Promise<string> {
  const dir = await copyPgliteTemplate('empty');
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('embedded database (PGlite)', () => {
  it('keeps committed data across a close and reopen of the data folder', async () => {
    const dir = tempDir();
    const db = await openDb({ databaseUrl: null, dataDir: dir });
    await migrate(db);
    await db.k
      .insertInto('settings')
      .values({ key: 'durable', value: JSON.stringify({ n: 42 }) })
      .execute();
    await db.close();
    const again = await openDb({ databaseUrl: null, dataDir: dir });
    const row = await again.k.selectFrom('settings').select('value').where('key', '=', 'durable').executeTakeFirst();
    expect(row?.value).toEqual({ n: 42 });
    // Migrations are not applied twice.
    expect(await migrate(again)).toEqual([]);
    await again.close();
  });

  it('refuses a second opener of the same data folder with a clear error, and frees it on close', async () => {
    const dir = await initialised();
    const db = await openDb({ databaseUrl: null, dataDir: dir });
    await expect(openDb({ databaseUrl: null, dataDir: dir })).rejects.toBeInstanceOf(DataDirLockedError);
    await db.close();
    const next = await openDb({ databaseUrl: null, dataDir: dir });
    await next.close();
  });

  it('a second server process on the same data folder exits with a clear message', async () => {
    const dir = await initialised();
    const db = await openDb({ databaseUrl: null, dataDir: dir });
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATA_DIR: dir,
        PORT: '0',
        WEB_DIST: '',
        CAPTCHA: 'off',
        DEMO: 'off',
        ADMIN_PASSWORD: 'Second-proc-pass-1',
      },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((res) => child.on('exit', res));
    // Its output names the cause when it exits otherwise (seen once on the overloaded machine: exit code 1).
    expect(code, err.slice(-4000)).toBe(2);
    expect(err).toMatch(/in use by another Geosentry process/);
    await db.close();
    // The first opener's data is intact.
    const again = await openDb({ databaseUrl: null, dataDir: dir });
    await again.close();
  });

  it('takes over a stale lock left by a dead process', async () => {
    const dir = await initialised();
    fs.writeFileSync(path.join(dir, 'geosentry.lock'), '999999');
    const db = await openDb({ databaseUrl: null, dataDir: dir });
    await db.close();
  });

  it('runs each migration in a transaction: a failing one leaves nothing behind', async () => {
    const migrations = tempDir();
    fs.writeFileSync(path.join(migrations, '0001_ok.sql'), 'create table a (id int);');
    fs.writeFileSync(
      path.join(migrations, '0002_broken.sql'),
      'create table b (id int);\ninsert into b values (1);\nselect * from no_such_table;',
    );
    const db = await openDb({ databaseUrl: null, dataDir: await initialised() });
    await expect(migrate(db, migrations)).rejects.toThrow(/no_such_table/);
    const tables = await sql<{
      t: string;
    }>`select table_name as t from information_schema.tables where table_schema = 'public' order by 1`.execute(db.k);
    expect(tables.rows.map((r) => r.t)).toEqual(['a', 'schema_migrations']);
    const versions = await sql<{ version: number }>`select version from schema_migrations`.execute(db.k);
    expect(versions.rows.map((r) => r.version)).toEqual([1]);
    await db.close();
  });

  it('runs queries off the event loop: timers keep firing during a heavy query', async () => {
    const db = await openDb({ databaseUrl: null, dataDir: await initialised() });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const started = Date.now();
    await sql`select sum(x) from generate_series(1, 3000000) x`.execute(db.k);
    const ms = Date.now() - started;
    clearInterval(timer);
    await db.close();
    // A query on the main thread would let no timer fire while it runs.
    expect(ms).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThan(Math.floor(ms / 10 / 4));
  });

  it('serialises transactions on the single connection', async () => {
    const db = await openDb({ databaseUrl: null, dataDir: await initialised() });
    await sql`create table c (n int)`.execute(db.k);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.k
          .transaction()
          .execute(async (trx) => {
            await sql`insert into c values (${i})`.execute(trx);
            if (i % 5 === 0) throw new Error('rollback me');
          })
          .catch(() => undefined),
      ),
    );
    const n = await sql<{ n: number }>`select count(*)::int as n from c`.execute(db.k);
    expect(n.rows[0]!.n).toBe(16);
    await db.close();
  });
});
