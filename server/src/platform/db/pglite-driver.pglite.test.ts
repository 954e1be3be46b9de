import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import { PgliteDriver, PgliteWorker } from './pglite-driver.ts';
import { copyPgliteTemplate } from '../../../test/templateDb.ts';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A Kysely handle over a real PGlite worker, as openDb builds it, on a copy of an initialised empty data folder
 * (server/test/templateDb.ts: PGlite's initdb, in memory too, takes seconds).
 */
async function open(stallMs?: number): Promise<{ w: PgliteWorker; k: Kysely<Record<string, never>> }> {
  const dir = await copyPgliteTemplate('empty');
  copies.push(dir);
  const w = new PgliteWorker(path.join(dir, 'pgdata'));
  const k = new Kysely<Record<string, never>>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new PgliteDriver(w, stallMs),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { w, k };
}

/** The worker thread ending without an 'error' event (as when the database's runtime exits). */
const endThread = (w: PgliteWorker): Promise<number> => (w as unknown as { worker: Worker }).worker.terminate();

/** Settles within `ms`, or answers 'hung'. */
const within = <T>(p: Promise<T>, ms = 5000): Promise<T | 'hung'> =>
  Promise.race([p, new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms))]);

describe('PGlite driver when its worker thread is gone', () => {
  it('rejects the calls pending at the exit and every later one at once, with a logged error', async () => {
    const { w, k } = await open();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect((await sql<{ n: number }>`select 1 as n`.execute(k)).rows).toEqual([{ n: 1 }]);
      // A transaction holds the single connection while its query runs; the thread ends under it.
      const inTx = k.transaction().execute(async (trx) => {
        await sql`select pg_sleep(2)`.execute(trx);
      });
      await new Promise((r) => setTimeout(r, 200));
      await endThread(w);
      const first = await within(inTx.then(() => 'ok').catch((e: Error) => e.message));
      expect(first).toMatch(/embedded database .*exited/);
      // Later statements (they queue on the connection's lock) fail, and fast: no request waits forever.
      for (let i = 0; i < 3; i++) {
        const later = await within(
          sql`select 1`
            .execute(k)
            .then(() => 'ok')
            .catch((e: Error) => e.message),
        );
        expect(later).toMatch(/embedded database .*exited.*unavailable/);
      }
      expect(logged.mock.calls.some((c) => /PGlite worker thread\) exited/.test(String(c[0])))).toBe(true);
    } finally {
      logged.mockRestore();
      await k.destroy();
    }
  }, 30_000);

  it('an orderly close logs nothing and refuses later calls', async () => {
    const { w, k } = await open();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await sql`select 1`.execute(k);
      await k.destroy();
      expect(await within(w.query('select 1', []).catch((e: Error) => e.message))).toMatch(/closed/);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  }, 30_000);

  it('a transaction awaiting a query made outside it is named by the stall warning', async () => {
    const { w, k } = await open(300);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await sql`select 1`.execute(k);
      // The mistake the warning is for: inside the transaction, a query through the app's handle, not trx.
      void k.transaction().execute(async (trx) => {
        await sql`select 'inside' as a`.execute(trx);
        await sql`select 'outside' as b`.execute(k);
      });
      await expect
        .poll(() => logged.mock.calls.map((c) => String(c[0])).join('\n'), { timeout: 5000 })
        .toMatch(/waited \d+ s .*single connection.*was answered: the holder waits for something else.*'inside'/);
    } finally {
      // The deadlocked transaction never ends: the thread is ended instead.
      await endThread(w);
      logged.mockRestore();
    }
  }, 30_000);
});
