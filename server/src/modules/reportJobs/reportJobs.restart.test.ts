import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildPlatform, freshDb, tempDir, testApp, type FreshDb, type TestApp } from '../../../test/harness.ts';
import { download, generalParams, settled, submit } from './testkit.ts';

// A restart during report jobs: a queued job survives it, a job whose runner died (lease expired) is claimed
// again and renders from the start, one given up after too many interruptions fails cleanly with no file.
describe('report jobs across a restart', () => {
  let fresh: FreshDb;
  let t: TestApp | null = null;
  afterAll(async () => {
    await t?.close();
    await fresh?.drop();
  });

  it('resumes queued and interrupted jobs, fails cleanly past the attempts, one file each', async () => {
    fresh = await freshDb(undefined, { migrated: true });
    const dataDir = tempDir();
    t = await testApp({}, { fresh, dataDir });
    const admin = await t.token();
    const site = await buildPlatform(t, { type: 'disaster', name: 'Restart slope' });
    // Stopped in the middle: submitted, then the server stops at once (the job is queued, running or done).
    const during = await submit(t, admin, { ...generalParams(site), format: 'pdf', fileName: 'during' });
    expect(during.status, during.info).toBe(0);
    await t.built.close();
    t = null;
    // Two more jobs whose runner died holding them: one on its first attempt, one past the attempts.
    const app2 = await testApp({}, { fresh, dataDir });
    await app2.built.jobs.close();
    const token2 = await app2.token();
    const died = await submit(app2, token2, { ...generalParams(site), format: 'xlsx', fileName: 'died' });
    const doomed = await submit(app2, token2, { ...generalParams(site), format: 'pdf', fileName: 'doomed' });
    await app2.built.close();
    await sql`update jobs set state = 'running', runner = 'dead', attempts = 1,
      locked_until = now() - interval '1 second' where id = ${died.data.id}`.execute(fresh.db.k);
    await sql`update jobs set state = 'running', runner = 'dead', attempts = 3,
      locked_until = now() - interval '1 second' where id = ${doomed.data.id}`.execute(fresh.db.k);
    const states = await sql<{ id: number; state: string }>`select id, state from jobs order by id`.execute(fresh.db.k);
    expect(states.rows.find((r) => Number(r.id) === during.data.id)?.state).toMatch(/^(queued|done)$/);

    t = await testApp({}, { fresh, dataDir });
    const admin3 = await t.token();
    for (const id of [during.data.id, died.data.id]) {
      const job = await settled(t, admin3, id);
      expect(job.state, job.error ?? '').toBe('done');
      const res = await download(t, admin3, id);
      expect(res.statusCode).toBe(200);
    }
    const given = await settled(t, admin3, doomed.data.id);
    expect(given.state).toBe('failed');
    expect(given.error).toBe('The job was interrupted 3 times and was given up');
    expect(given.resultFileId).toBeNull();
    // One result file per finished job: nothing rendered twice was kept.
    const files = await sql<{ n: number }>`select count(*)::int as n from job_files`.execute(fresh.db.k);
    expect(files.rows[0]!.n).toBe(2);
  });
});
