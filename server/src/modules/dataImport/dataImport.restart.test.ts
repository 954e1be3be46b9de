import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ImportResult, Job } from '@geosentry/contract';
import { buildPlatform, freshDb, tempDir, testApp, type FreshDb, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';
import { DI, JOB, dryRun, settled, uploadFile } from './testkit.ts';

// A restart during an import: the server stops after some batches (its job goes back to the queue, or its
// runner "dies" and the lease expires); a server started on the same database resumes after the last committed
// batch, and every row of the file is stored once.
describe('data import across a restart', () => {
  let fresh: FreshDb;
  let t: TestApp | null = null;
  afterAll(async () => {
    await t?.close();
    await fresh?.drop();
  });

  it('resumes from its checkpoint and imports no reading twice', async () => {
    fresh = await freshDb(undefined, { migrated: true });
    const dataDir = tempDir();
    t = await testApp({}, { fresh, dataDir });
    const admin = await t.token();
    const site = await buildPlatform(t, { type: 'disaster', name: 'Restart slope' });
    const term = await addTerminal(t, admin, site, 'RS-1');
    const devices = 4;
    for (let d = 0; d < devices; d++)
      await addDevice(t, admin, deviceBody(site, term.terminalId, `r${d}`, { moduleId: 3 }));
    const per = 12_000;
    const start = Date.UTC(2023, 0, 1);
    const lines = ['device,time,level'];
    for (let i = 0; i < per; i++)
      for (let d = 0; d < devices; d++) lines.push(`DEV-r${d},${start / 1000 + i * 60},${(i % 100) / 10}`);
    const rows = per * devices;
    const up = await uploadFile(t, admin, 'big.csv', Buffer.from(lines.join('\n')));
    expect(up.status, up.info).toBe(0);
    const dry = await dryRun(t, admin, {
      fileId: up.data.fileId,
      deviceColumn: 0,
      timeColumn: 1,
      timeFormat: 'epochSeconds',
      timeZone: 'UTC',
      quantities: { waterLevel: 2 },
    });
    expect(dry.state, dry.error ?? '').toBe('done');
    const r = await t.api<Job>('POST', `${DI}/import`, { token: admin, body: { jobId: dry.id } });
    const id = r.data.id;
    // Stop once a batch (or two) committed.
    const progressed = async () =>
      Number(
        (await sql<{ done: number }>`select done from jobs where id = ${id} and phase = 'write'`.execute(t!.db.k))
          .rows[0]?.done ?? 0,
      );
    const end = Date.now() + 60_000;
    while ((await progressed()) < 10_000) {
      if (Date.now() > end) throw new Error('no batch committed');
      await new Promise((res) => setTimeout(res, 5));
    }
    await t.built.close();
    t = null;
    const mid = (
      await sql<{ state: string; done: number }>`select state, done from jobs where id = ${id}`.execute(fresh.db.k)
    ).rows[0]!;
    expect(mid.state).toBe('queued');
    expect(Number(mid.done)).toBeLessThan(rows);
    const stored = Number(
      (await sql<{ n: number }>`select count(*)::int as n from readings`.execute(fresh.db.k)).rows[0]!.n,
    );
    expect(stored).toBe(Number(mid.done)); // the checkpoint committed with its batch
    // As if its runner had died holding it: running, lease expired.
    await sql`update jobs set state = 'running', runner = 'dead', locked_until = now() - interval '1 second'
      where id = ${id}`.execute(fresh.db.k);

    t = await testApp({}, { fresh, dataDir });
    const admin2 = await t.token();
    const job = await settled(t, admin2, id, 120_000);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.result as ImportResult).toMatchObject({ rows, added: rows, duplicates: 0 });
    const n = await sql<{ n: number; d: number }>`select count(*)::int as n,
      count(distinct (device_id, ts))::int as d from readings where import_id = ${id}`.execute(t.db.k);
    expect(n.rows[0]).toEqual({ n: rows, d: rows });
    const rolled = await sql<{
      n: number;
    }>`select sum(n)::int as n from readings_daily where quantity = 'waterLevel'`.execute(t.db.k);
    expect(rolled.rows[0]!.n).toBe(rows);
    const list = await t.api<{ list: Job[] }>('GET', `${JOB}/getListPage`, { token: admin2 });
    expect(list.data.list.find((j) => j.id === id)?.attempts).toBeGreaterThanOrEqual(1);
  });
});
