import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './db.ts';
import { sql } from 'kysely';

export const MIGRATIONS_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../migrations');

/**
 * Applies the numbered plain-SQL migrations (server/migrations/NNNN_name.sql) that are not yet applied,
 * in order, each in its own transaction together with its bookkeeping row. Forward-only.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  // Two nodes starting at once on one PostgreSQL: the second waits, then finds the work done.
  return db.exclusive('geosentry:migrate', () => migrateLocked(db, dir));
}

async function migrateLocked(db: Db, dir: string): Promise<string[]> {
  await db.script(`create table if not exists schema_migrations (
    version integer primary key, name text not null, applied_at timestamptz not null default now())`);
  const done = new Set(
    (await sql<{ version: number }>`select version from schema_migrations`.execute(db.k)).rows.map((r) => r.version),
  );
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort();
  const applied: string[] = [];
  for (const f of files) {
    const version = Number(f.slice(0, 4));
    if (done.has(version)) continue;
    const body = fs.readFileSync(path.join(dir, f), 'utf8');
    const name = f.slice(5, -4);
    await db.script(
      `begin;\n${body}\n;insert into schema_migrations(version, name) values (${version}, '${name}');\ncommit;`,
    );
    applied.push(f);
  }
  return applied;
}
