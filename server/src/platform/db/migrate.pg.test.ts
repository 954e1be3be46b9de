import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDb } from './db.ts';
import { migrate } from './migrate.ts';
import { freshDb, tempDir } from '../../../test/harness.ts';

describe('migrations on PostgreSQL', () => {
  it('two nodes starting at once on an empty database migrate one after the other', async () => {
    const fresh = await freshDb('postgres');
    const other = await openDb({ databaseUrl: fresh.url, dataDir: tempDir(), poolSize: 3 });
    try {
      const [a, b] = await Promise.all([migrate(fresh.db), migrate(other)]);
      // One node applied everything, the other found it done.
      expect([a.length, b.length].sort()).toEqual([0, Math.max(a.length, b.length)]);
      expect(Math.max(a.length, b.length)).toBeGreaterThan(3);
      const rows = await fresh.db.k.selectFrom('schema_migrations').select('version').execute();
      expect(rows.length).toBe(Math.max(a.length, b.length));
    } finally {
      await other.close();
      await fresh.drop();
    }
  });

  it("the server's sessions run without JIT compilation (short statements, latency-bound work)", async () => {
    const fresh = await freshDb('postgres');
    try {
      const r = await sql<{ jit: string }>`show jit`.execute(fresh.db.k);
      expect(r.rows[0]!.jit).toBe('off');
    } finally {
      await fresh.drop();
    }
  });
});
