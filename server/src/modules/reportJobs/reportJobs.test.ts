import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Status, type Job, type Page, type ReportJob } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, scopedUser } from '../platforms/platforms.testkit.ts';
import { JOB, RJ, download, generalParams, settled, submit } from './testkit.ts';

// Report jobs: any report queued as a job, downloaded by its owner only while the site is in his scope.
describe('report jobs', () => {
  let t: TestApp;
  let admin: string;
  let engineer: string;
  let other: string;
  let engineerId: number;
  let siteA: number;
  let siteB: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'North slope' });
    siteB = await buildPlatform(t, { type: 'disaster', name: 'South slope' });
    await roleWith(t, admin, 'reporter', ['monitor', 'monitor:report', 'monitor:generalReport']);
    engineer = await scopedUser(t, admin, 'engineer', 'reporter', [siteA]);
    other = await scopedUser(t, admin, 'other', 'reporter', [siteA, siteB]);
    engineerId = (
      await t.db.k.selectFrom('users').select('id').where('account', '=', 'engineer').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('renders a report into its result file, downloaded by GET with token or POST, under the given name', async () => {
    const r = await submit(t, engineer, { ...generalParams(siteA), format: 'pdf' });
    expect(r.status, r.info).toBe(0);
    expect(r.data.kind).toBe('report');
    const job = await settled(t, engineer, r.data.id);
    expect(job.state, job.error ?? '').toBe('done');
    expect(job.resultFileId).toMatch(/^[0-9a-f]{32}$/);
    const res = await download(t, engineer, job.id, 'Weekly north');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('Weekly north.pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const posted = await t.app.inject({
      method: 'POST',
      url: `${RJ}/download`,
      headers: { token: engineer, language: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      payload: `id=${job.id}`,
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const xlsx = await submit(t, engineer, { ...generalParams(siteA), format: 'xlsx' });
    const x = await settled(t, engineer, xlsx.data.id);
    const xr = await download(t, engineer, x.id);
    expect(xr.headers['content-type']).toContain('spreadsheetml');
    expect(xr.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const list = await t.api<Page<ReportJob>>('GET', `${RJ}/getListPage`, { token: engineer });
    expect(list.status, list.info).toBe(0);
    const mine = list.data.list.find((j) => j.id === job.id)!;
    expect(mine).toMatchObject({
      reportKind: 'general',
      format: 'pdf',
      platformId: siteA,
      platformName: 'North slope',
    });
  });

  it('checks the parameters with the report route’s schema and queues nothing on bad input', async () => {
    const count = async () =>
      Number((await sql<{ n: number }>`select count(*)::int as n from jobs`.execute(t.db.k)).rows[0]!.n);
    const before = await count();
    const noStart = await submit(t, engineer, {
      kind: 'general',
      format: 'pdf',
      platformId: siteA,
      endTime: '2026-11-07',
    });
    expect(noStart.status).toBe(Status.invalid);
    expect(noStart.info).toMatch(/startTime/);
    const empty = await submit(t, engineer, { ...generalParams(siteA), endTime: '2026-10-01', format: 'pdf' });
    expect(empty.status).toBe(Status.invalid);
    const long = await submit(t, engineer, { ...generalParams(siteA), startTime: '2025-01-01', format: 'pdf' });
    expect(long.status).toBe(Status.invalid);
    expect(long.info).toMatch(/92/);
    const badKind = await submit(t, engineer, { ...generalParams(siteA), kind: 'weather', format: 'pdf' });
    expect(badKind.status).toBe(Status.invalid);
    const badFormat = await submit(t, engineer, { ...generalParams(siteA), format: 'json' });
    expect(badFormat.status).toBe(Status.invalid);
    const foreign = await submit(t, engineer, { ...generalParams(siteB), format: 'pdf' });
    expect(foreign.status).toBe(Status.notFound);
    const vib = await submit(t, engineer, { ...generalParams(siteA), kind: 'vibration', format: 'pdf' });
    expect(vib.status).toBe(Status.noPermission);
    expect(await count()).toBe(before);
  });

  it('gives no result of a site that left the owner’s scope, in any format, and none to another user', async () => {
    const ids: number[] = [];
    for (const format of ['pdf', 'xlsx']) {
      const r = await submit(t, engineer, { ...generalParams(siteA), format, fileName: `scope-${format}` });
      ids.push((await settled(t, engineer, r.data.id)).id);
    }
    for (const id of ids) {
      const foreign = await download(t, other, id);
      expect(foreign.json()).toMatchObject({ status: Status.notFound, info: 'The job does not exist' });
    }
    // Queued while in scope, run after the scope lost the site: the job fails, no file.
    await t.built.jobs.close();
    const queued = await submit(t, engineer, { ...generalParams(siteA), format: 'pdf', fileName: 'later' });
    await sql`delete from user_platforms where user_id = ${engineerId}`.execute(t.db.k);
    t.built.jobs.start();
    const failed = await settled(t, engineer, queued.data.id);
    expect(failed.state).toBe('failed');
    expect(failed.error).toBe('The site does not exist');
    expect(failed.resultFileId).toBeNull();
    for (const id of [...ids, queued.data.id]) {
      const res = await download(t, engineer, id);
      expect(res.headers['content-type']).toContain('json');
      expect(res.json()).toMatchObject({ status: Status.notFound, info: 'The job does not exist' });
    }
    const list = await t.api<Page<ReportJob>>('GET', `${RJ}/getListPage`, { token: engineer });
    expect(list.data.list.filter((j) => ids.includes(j.id)).map((j) => j.platformName)).toEqual([null, null]);
    await sql`insert into user_platforms (user_id, platform_id) values (${engineerId}, ${siteA})`.execute(t.db.k);
  });

  it('cancels a queued job: it never runs and leaves no file', async () => {
    await t.built.jobs.close();
    const r = await submit(t, engineer, { ...generalParams(siteA), format: 'pdf', fileName: 'cancelled' });
    const c = await t.api<Job>('POST', `${JOB}/cancel`, { token: engineer, body: { id: r.data.id } });
    expect(c.status, c.info).toBe(0);
    expect(c.data.state).toBe('cancelled');
    t.built.jobs.start();
    await t.built.jobs.idle();
    const job = await settled(t, engineer, r.data.id);
    expect(job.state).toBe('cancelled');
    expect(job.resultFileId).toBeNull();
    const res = await download(t, engineer, r.data.id);
    expect(res.json()).toMatchObject({ status: Status.conflict });
  });

  it('makes one job of 100 parallel requests for the same report', async () => {
    await t.built.jobs.close();
    const body = { ...generalParams(siteA), format: 'xlsx', fileName: 'same' };
    const answers = await Promise.all(Array.from({ length: 100 }, () => submit(t, engineer, body)));
    for (const a of answers) expect(a.status, a.info).toBe(0);
    const ids = new Set(answers.map((a) => a.data.id));
    expect(ids.size).toBe(1);
    const rows = await sql<{ n: number }>`select count(*)::int as n from report_jobs r join jobs j on j.id = r.job_id
      where r.owner_id = ${engineerId} and j.state = 'queued'`.execute(t.db.k);
    expect(rows.rows[0]!.n).toBe(1);
    t.built.jobs.start();
    const done = await settled(t, engineer, [...ids][0]!);
    expect(done.state).toBe('done');
    // Once finished, the same request makes a new job.
    const again = await submit(t, engineer, body);
    expect(again.data.id).not.toBe(done.id);
    await settled(t, engineer, again.data.id);
  });

  it('removes expired jobs with their files in the sweep', async () => {
    const r = await submit(t, engineer, { ...generalParams(siteA), format: 'pdf', fileName: 'expiring' });
    const job = await settled(t, engineer, r.data.id);
    const f = await t.built.jobs.files.own(engineerId, job.resultFileId!);
    expect(fs.existsSync(f!.path)).toBe(true);
    expect(Date.parse(job.expiresAt!) - Date.now()).toBeGreaterThan((t.config.jobResultDays - 0.01) * 86_400_000);
    await sql`update jobs set expires_at = now() - interval '1 second' where id = ${job.id}`.execute(t.db.k);
    await t.built.jobs.purge();
    expect(fs.existsSync(f!.path)).toBe(false);
    const res = await download(t, engineer, job.id);
    expect(res.json()).toMatchObject({ status: Status.notFound });
  });
});
