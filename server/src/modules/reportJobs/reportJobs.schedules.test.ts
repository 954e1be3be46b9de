import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Status, type Page, type ReportSchedule, type ScheduleRun } from '@geosentry/contract';
import { buildPlatform, freshDb, tempDir, testApp, type FreshDb, type TestApp } from '../../../test/harness.ts';
import { openDb } from '../../platform/db/db.ts';
import { roleWith, scopedUser } from '../platforms/platforms.testkit.ts';
import { serverOn, startSmtp, until, type ReceivedMail } from '../alertNotifications/testkit.ts';
import { RS } from './testkit.ts';

const A = '/api/v2/data/alert';

/** The attachments of a received mail (multipart/mixed, base64 parts). */
function attachmentsOf(raw: string): { name: string; type: string; data: Buffer }[] {
  const b = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  if (!b) return [];
  const out: { name: string; type: string; data: Buffer }[] = [];
  for (const part of raw.split(`--${b}`)) {
    const split = part.search(/\r?\n\r?\n/);
    if (split < 0) continue;
    const head = part.slice(0, split);
    if (!/Content-Disposition:\s*attachment/i.test(head)) continue;
    const name = (
      /filename="([^"]+)"/i.exec(head.replace(/\r?\n\s+/g, ' '))?.[1] ??
      /filename=([^;\r\n]+)/i.exec(head)?.[1] ??
      ''
    ).trim();
    const type = /Content-Type:\s*([^;\r\n]+)/i.exec(head)?.[1] ?? '';
    out.push({ name, type, data: Buffer.from(part.slice(split).replace(/[\s-]+/g, ''), 'base64') });
  }
  return out;
}

function pdfText(data: Buffer): string {
  const f = path.join(os.tmpdir(), `gs-sched-${process.pid}-${Date.now()}.pdf`);
  fs.writeFileSync(f, data);
  try {
    return execFileSync('pdftotext', ['-enc', 'UTF-8', f, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(f, { force: true });
  }
}

async function setup(t: TestApp, admin: string, site: number) {
  const contact = async (body: Record<string, unknown>) => {
    const r = await t.api<{ id: number }>('POST', `${A}/contract/add`, { token: admin, body });
    if (r.status !== 0) throw new Error(r.info);
    return r.data.id;
  };
  const alice = await contact({ name: 'Alice', email: 'alice@example.com', language: 'en' });
  const wang = await contact({ name: 'Wang', email: 'wang@example.com', language: 'zh' });
  const phoneOnly = await contact({ name: 'Li', phone: '13800000000', language: 'zh' });
  const g = await t.api<{ id: number }>('POST', `${A}/group/add`, {
    token: admin,
    body: { name: 'Dam owner', contactIds: [alice, wang, phoneOnly], platformIds: [site] },
  });
  if (g.status !== 0) throw new Error(g.info);
  return g.data.id;
}

const scheduleBody = (site: number, groupId: number) => ({
  name: 'Daily slope',
  kind: 'general',
  params: JSON.stringify({ platformId: site }),
  formats: 'pdf',
  frequency: 'daily',
  time: '07:00',
  timeZone: 'Asia/Shanghai',
  period: 'yesterday',
  groupId,
});

/** Due 2026-11-02 07:00 in Shanghai; the ticks look at 08:00 that day. */
const DUE = new Date('2026-11-01T23:00:00Z');
const NOW = new Date('2026-11-02T00:00:00Z');

describe('scheduled reports', () => {
  let t: TestApp;
  let admin: string;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let site: number;
  let groupId: number;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await testApp({ smtpUrl: smtp.url, notifyRetryMs: 50 });
    admin = await t.token();
    site = await buildPlatform(t, { type: 'reservoir', name: 'Qingshui dam' });
    groupId = await setup(t, admin, site);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const runsOf = async (token: string, id: number) =>
    (await t.api<ScheduleRun[]>('GET', `${RS}/getRuns`, { token, query: { id: String(id) } })).data;

  it('checks a schedule: the report’s own parameters, its weekday, its group, its site', async () => {
    const bad = await t.api('POST', `${RS}/add`, {
      token: admin,
      body: { ...scheduleBody(site, groupId), params: JSON.stringify({ platformId: 'x' }) },
    });
    expect(bad.status).toBe(Status.invalid);
    const noDay = await t.api('POST', `${RS}/add`, {
      token: admin,
      body: { ...scheduleBody(site, groupId), frequency: 'weekly' },
    });
    expect(noDay.info).toBe('A weekly schedule needs its weekday, a monthly one its day of the month');
    const noGroup = await t.api('POST', `${RS}/add`, { token: admin, body: scheduleBody(site, 999_999) });
    expect(noGroup.status).toBe(Status.notFound);
    const noSite = await t.api('POST', `${RS}/add`, { token: admin, body: scheduleBody(999_999, groupId) });
    expect(noSite.status).toBe(Status.notFound);
    const n = await sql<{ n: number }>`select count(*)::int as n from report_schedules`.execute(t.db.k);
    expect(n.rows[0]!.n).toBe(0);
  });

  it('runs once per due time under 100 concurrent ticks, mailing each recipient in his language', async () => {
    const add = await t.api<{ id: number }>('POST', `${RS}/add`, { token: admin, body: scheduleBody(site, groupId) });
    expect(add.status, add.info).toBe(0);
    const id = add.data.id;
    await sql`update report_schedules set next_due_at = ${DUE} where id = ${id}`.execute(t.db.k);
    const started = await Promise.all(Array.from({ length: 100 }, () => t.built.reportSchedules.tick(NOW)));
    expect(started.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await t.built.reportSchedules.tick(NOW)).toBe(0);
    const runs = await sql<{ n: number }>`select count(*)::int as n from report_schedule_runs`.execute(t.db.k);
    expect(runs.rows[0]!.n).toBe(1);
    const jobs = await sql<{ n: number }>`select count(*)::int as n from jobs where kind = 'reportSchedule'`.execute(
      t.db.k,
    );
    expect(jobs.rows[0]!.n).toBe(1);
    await t.built.jobs.idle();
    await until(() => smtp.mails.length >= 2, 15_000, 'two mails');
    await t.built.notifier.idle();
    expect(smtp.mails).toHaveLength(2);
    const byTo = (to: string) => smtp.mails.find((m) => m.to.includes(to))!;
    const en = byTo('alice@example.com');
    const zh = byTo('wang@example.com');
    expect(en.subject).toBe('Report: Daily slope (2026-11-01 – 2026-11-01)');
    expect(zh.subject).toBe('报表：Daily slope（2026-11-01 至 2026-11-01）');
    const check = (m: ReceivedMail, title: string) => {
      const files = attachmentsOf(m.raw);
      expect(files).toHaveLength(1);
      expect(files[0]!.type).toBe('application/pdf');
      expect(files[0]!.name).toBe('Daily slope 2026-11-01_2026-11-01.pdf');
      expect(files[0]!.data.subarray(0, 5).toString()).toBe('%PDF-');
      const text = pdfText(files[0]!.data);
      expect(text).toContain(title);
      expect(text).toContain('Qingshui dam');
    };
    check(en, 'Monitoring report');
    check(zh, '监测报告');
    const [run] = await runsOf(admin, id);
    expect(run).toMatchObject({ state: 'done', mails: 2, sent: 2, dueAt: DUE.toISOString() });
    const list = await t.api<Page<ReportSchedule>>('GET', `${RS}/getListPage`, { token: admin });
    const row = list.data.list.find((s) => s.id === id)!;
    expect(row.nextDueAt).toBe('2026-11-02T23:00:00.000Z');
    expect(row.lastRun?.state).toBe('done');
  });

  it('fails a run with its reason and mails nothing once the owner lost the site', async () => {
    await roleWith(t, admin, 'scheduler', ['monitor', 'monitor:report', 'monitor:generalReport']);
    const engineer = await scopedUser(t, admin, 'scheduler1', 'scheduler', [site]);
    const add = await t.api<{ id: number }>('POST', `${RS}/add`, {
      token: engineer,
      body: { ...scheduleBody(site, groupId), name: 'Lost scope' },
    });
    expect(add.status, add.info).toBe(0);
    // Another user does not see it.
    const other = await t.api('POST', `${RS}/delete`, {
      token: await scopedUser(t, admin, 'x1', 'scheduler', [site]),
      body: { id: add.data.id },
    });
    expect(other.status).toBe(Status.notFound);
    await sql`update report_schedules set next_due_at = ${DUE} where id = ${add.data.id}`.execute(t.db.k);
    await sql`delete from user_platforms where user_id = (select id from users where account = 'scheduler1')`.execute(
      t.db.k,
    );
    const before = smtp.mails.length;
    expect(await t.built.reportSchedules.tick(NOW)).toBe(1);
    await t.built.jobs.idle();
    await t.built.notifier.idle();
    const run = (
      await sql<{ state: string; reason: string; mails: number; id: number }>`select * from report_schedule_runs r
        where schedule_id = ${add.data.id}`.execute(t.db.k)
    ).rows[0]!;
    expect(run).toMatchObject({ state: 'failed', reason: 'platformNotFound', mails: 0 });
    const queued = await sql<{ n: number }>`select count(*)::int as n from notification_outbox
      where report_run_id = ${run.id}`.execute(t.db.k);
    expect(queued.rows[0]!.n).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
    // Its own list no longer shows a schedule of a site out of scope; the administrator's run view names why.
    const mine = await t.api<Page<ReportSchedule>>('GET', `${RS}/getListPage`, { token: engineer });
    expect(mine.data.list).toHaveLength(0);
  });

  it('fails a run when the owner lost monitor:report, and mails nothing', async () => {
    await roleWith(t, admin, 'scheduler2', ['monitor', 'monitor:report', 'monitor:generalReport']);
    const engineer = await scopedUser(t, admin, 'scheduler2u', 'scheduler2', [site]);
    const add = await t.api<{ id: number }>('POST', `${RS}/add`, {
      token: engineer,
      body: { ...scheduleBody(site, groupId), name: 'Lost role' },
    });
    expect(add.status, add.info).toBe(0);
    await sql`update report_schedules set next_due_at = ${DUE} where id = ${add.data.id}`.execute(t.db.k);
    await sql`delete from role_permissions where role_id = (select id from roles where code = 'scheduler2')
      and permission_id = (select id from permissions where code = 'monitor:report')`.execute(t.db.k);
    expect(await t.built.reportSchedules.tick(NOW)).toBe(1);
    await t.built.jobs.idle();
    const run = (
      await sql<{ state: string; reason: string; id: number }>`select * from report_schedule_runs
        where schedule_id = ${add.data.id}`.execute(t.db.k)
    ).rows[0]!;
    expect(run).toMatchObject({ state: 'failed', reason: 'noPermission' });
    const queued = await sql<{ n: number }>`select count(*)::int as n from notification_outbox
      where report_run_id = ${run.id}`.execute(t.db.k);
    expect(queued.rows[0]!.n).toBe(0);
  });
});

// Two server instances on one PostgreSQL database tick at the same time: each (schedule, due time) runs once.
describe.runIf(process.env.TEST_DB === 'postgres')('scheduled reports on two servers', () => {
  let fresh: FreshDb;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of closers) await c();
    await smtp?.close();
    await fresh?.drop();
  });

  it('starts one run and sends one mail per recipient', async () => {
    smtp = await startSmtp();
    fresh = await freshDb(undefined, { migrated: true });
    const dataDir = tempDir();
    const a = await serverOn(fresh, { smtpUrl: smtp.url, dataDir });
    closers.push(() => a.built.close());
    const db2 = await openDb({ databaseUrl: fresh.url, dataDir, poolSize: 5 });
    const b = await serverOn({ db: db2, url: fresh.url }, { smtpUrl: smtp.url, dataDir }, false);
    closers.push(async () => {
      await b.built.close();
      await db2.close();
    });
    const site = await buildPlatform(a.t, { type: 'reservoir', name: 'Twin dam' });
    const groupId = await setup(a.t, a.token, site);
    const add = await a.api<{ id: number }>('POST', `${RS}/add`, { token: a.token, body: scheduleBody(site, groupId) });
    expect(add.status, add.info).toBe(0);
    await sql`update report_schedules set next_due_at = ${DUE} where id = ${add.data.id}`.execute(fresh.db.k);
    const ticks = await Promise.all(
      Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).built.reportSchedules.tick(NOW)),
    );
    expect(ticks.reduce((x, y) => x + y, 0)).toBe(1);
    await until(() => smtp.mails.length >= 2, 20_000, 'two mails');
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.map((m) => m.to[0]).sort()).toEqual(['alice@example.com', 'wang@example.com']);
    const rows = await sql<{ attempts: number; last_error: string | null }>`select attempts, last_error
      from notification_outbox where report_run_id is not null`.execute(fresh.db.k);
    expect(rows.rows.map((r) => [r.attempts, r.last_error])).toEqual([
      [1, null],
      [1, null],
    ]);
  });
});
