import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deviationRate,
  expectedProgress,
  remainingDays,
  type Page,
  type Task,
  type TaskAlertDraft,
  type TaskDetail,
  type TaskEvaluation,
  type TaskProgress,
  type UploadAnswer,
} from '@geosentry/contract';
import { sql } from 'kysely';
import { buildPlatform, buildUser, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith } from '../devices/testkit.ts';
import { jpeg, upload } from '../files/files.testkit.ts';

const B = '/api/v2/data/task';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe('field tasks', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let other: number;
  let device: number;
  let alertId: number;
  let foreignAlert: number;
  /** Users: publisher (duty engineer), field engineer (assignee), reviewer, a stranger of another site. */
  const id = { pub: 0, eng: 0, rev: 0, stranger: 0, eng2: 0 };
  const tok = { pub: '', eng: '', rev: '', stranger: '', eng2: '' };

  const post = <T = unknown>(path: string, body: Record<string, unknown>, token: string, lang = 'en') =>
    t.api<T>('POST', `${B}/${path}`, { token, body, lang });
  const get = <T = unknown>(path: string, query: Record<string, string>, token: string) =>
    t.api<T>('GET', `${B}/${path}`, { token, query });
  const body = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    name: 'Inspect seepage at the toe',
    type: 'inspection',
    project: 'Dam safety 2026',
    area: 'Left bank',
    constructionPoint: 'Toe drain P3',
    platformId: site,
    priority: 'importantUrgent',
    assigneeId: id.eng,
    reviewerId: id.rev,
    startTime: at(-1),
    endTime: at(9),
    description: 'Walk the toe, photograph seepage, measure the flow.',
    acceptance: 'Photos and a flow figure',
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}): Promise<number> => {
    const r = await post<{ id: number }>('add', body(extra), tok.pub);
    if (r.status !== 0) throw new Error(`create failed: ${r.info}`);
    return r.data.id;
  };
  const detail = (taskId: number, token = tok.pub) => get<TaskDetail>('getDetail', { id: String(taskId) }, token);
  const snapshot = async (taskId: number) =>
    (
      await sql<
        Record<string, unknown>
      >`select t.*, (select count(*) from task_progress e where e.task_id = t.id) as entries,
        (select count(*) from task_reviews r where r.task_id = t.id) as reviews from tasks t where id = ${taskId}`.execute(
        t.db.k,
      )
    ).rows[0];

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await buildPlatform(t, { type: 'tailings', name: 'Tailings pond A' });
    other = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir B' });
    await roleWith(t, admin, 'taskAll', ['task:receivetask', 'task:assignedtask', 'task:reviewtask']);
    await roleWith(t, admin, 'taskField', ['task:receivetask']);
    await roleWith(t, admin, 'taskReview', ['task:reviewtask', 'task:receivetask']);
    const mk = async (k: keyof typeof id, roleCode: string, platformIds: number[]) => {
      const password = `${k}-Pass-word-9`;
      id[k] = await buildUser(t, admin, { account: k, password, roleCode, platformIds });
      tok[k] = await t.token(k, password);
    };
    await mk('pub', 'taskAll', [site]);
    await mk('eng', 'taskField', [site]);
    await mk('rev', 'taskReview', [site]);
    await mk('stranger', 'taskAll', [other]);
    await mk('eng2', 'taskField', [site]);
    await sql`update users set email = account || '@example.com', phone = '+8613800000' || id where account in ('eng', 'rev')`.execute(
      t.db.k,
    );
    const { terminalId } = await addTerminal(t, admin, site, 'TL-1');
    device = await addDevice(t, admin, deviceBody(site, terminalId, 'P3'));
    const { terminalId: t2 } = await addTerminal(t, admin, other, 'TL-2');
    const device2 = await addDevice(t, admin, deviceBody(other, t2, 'R1'));
    const alert = (platform: number, dev: number, level: number) =>
      t.db.k
        .insertInto('alerts')
        .values({
          platform_id: platform,
          device_id: dev,
          quantity: 'waterLevel',
          kind: 'single',
          family: `single:waterLevel:${platform}`,
          value_type: 'threshold',
          level,
          first_level: level,
          status: 'untreated',
          threshold: 11,
          first_value: 11.2,
          last_value: 11.2,
          first_at: new Date(),
          last_at: new Date(),
          evidence: JSON.stringify({ value: 11.2, threshold: 11 }),
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow();
    alertId = (await alert(site, device, 3)).id;
    foreignAlert = (await alert(other, device2, 4)).id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('deviation rate and remaining days, hand-computed', () => {
    const start = Date.parse('2026-03-01T00:00:00Z');
    const end = Date.parse('2026-03-11T00:00:00Z');
    // 6 March 12:00: 5.5 of 10 days passed -> the plan expects 55 %; a reported 40 % is 15 points behind.
    expect(expectedProgress(start, end, Date.parse('2026-03-06T12:00:00Z'))).toBe(55);
    expect(deviationRate(40, start, end, Date.parse('2026-03-06T12:00:00Z'))).toBe(-15);
    expect(deviationRate(70, start, end, Date.parse('2026-03-06T12:00:00Z'))).toBe(15);
    expect(deviationRate(10, start, end, Date.parse('2026-02-20T00:00:00Z'))).toBe(10);
    expect(deviationRate(90, start, end, Date.parse('2026-03-20T00:00:00Z'))).toBe(-10);
    // 6 March 12:00 to 11 March 00:00: 4.5 days -> 5 remaining; 1.5 days after the end -> -1.
    expect(remainingDays(end, Date.parse('2026-03-06T12:00:00Z'))).toBe(5);
    expect(remainingDays(end, Date.parse('2026-03-12T12:00:00Z'))).toBe(-1);
  });

  it('the API answers the deviation computed from the plan and the reported rate', async () => {
    // Planned from 4 days ago to 6 days from now: 40 % of the period passed; reported 10 -> about -30.
    const taskId = await create({ startTime: at(-4), endTime: at(6) });
    expect((await post('start', { id: taskId }, tok.eng)).status).toBe(0);
    expect((await post('progress/add', { id: taskId, text: 'Day 1', completionRate: 10 }, tok.eng)).status).toBe(0);
    const d = await detail(taskId);
    expect(d.data.completionRate).toBe(10);
    expect(Math.abs(d.data.deviationRate - -30)).toBeLessThanOrEqual(0.2);
    expect(d.data.remainingDays).toBe(6);
  });

  it('bad input: the spec’s messages, nothing saved', async () => {
    const before = (await sql<{ n: number }>`select count(*)::int as n from tasks`.execute(t.db.k)).rows[0]!.n;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'The task name cannot be empty'],
      [{ priority: undefined }, 'The task priority cannot be empty'],
      [{ assigneeId: undefined }, 'The responsible person cannot be empty'],
      [{ reviewerId: '' }, 'The reviewer cannot be empty'],
      [{ project: ' ' }, 'The project cannot be empty'],
      [{ constructionPoint: undefined }, 'The construction point cannot be empty'],
      [{ startTime: undefined }, 'The start time cannot be empty'],
      [{ endTime: '' }, 'The end time cannot be empty'],
      [{ description: undefined }, 'The description cannot be empty'],
      [{ startTime: at(2), endTime: at(1) }, 'The end time must be after the start time'],
      [{ reviewerId: id.eng }, 'The reviewer cannot be the responsible person'],
      [{ assigneeId: id.stranger }, 'The responsible person must be a user who may see the site'],
    ];
    for (const [extra, info] of cases) {
      const r = await post('add', body(extra), tok.pub);
      expect([r.status, r.info], JSON.stringify(extra)).toEqual([422, info]);
    }
    const zh = await post('add', body({ name: '' }), tok.pub, 'zh');
    expect(zh.info).toBe('任务名称不能为空');
    // A fourth file.
    const files: string[] = [];
    for (let i = 0; i < 4; i++) {
      const u = await upload<UploadAnswer>(t, tok.pub, { kind: 'picture', platformId: String(site) }, [
        { filename: `p${i}.jpg`, data: jpeg() },
      ]);
      expect(u.status, u.info).toBe(0);
      files.push(u.data.fileId);
    }
    const four = await post('add', body({ documents: files }), tok.pub);
    expect([four.status, four.info]).toEqual([422, 'At most 3 files']);
    expect((await sql<{ n: number }>`select count(*)::int as n from tasks`.execute(t.db.k)).rows[0]!.n).toBe(before);
    // Three are fine.
    const ok = await post<{ id: number }>('add', body({ documents: files.slice(0, 3) }), tok.pub);
    expect(ok.status).toBe(0);
    expect((await detail(ok.data.id)).data.documents.map((d) => d.name)).toEqual(['p0.jpg', 'p1.jpg', 'p2.jpg']);

    // Completion rate 0 and 101, a fourth photo: refused, nothing saved.
    const taskId = await create();
    await post('start', { id: taskId }, tok.eng);
    const snap = await snapshot(taskId);
    for (const rate of [0, 101, -5]) {
      const r = await post('progress/add', { id: taskId, text: 'x', completionRate: rate }, tok.eng);
      expect([r.status, r.info]).toEqual([422, 'The completion rate must be between 1 and 100']);
    }
    const r4 = await post('progress/add', { id: taskId, text: 'x', completionRate: 5, photos: files }, tok.eng);
    expect([r4.status, r4.info]).toEqual([422, 'At most 3 files']);
    const noText = await post('progress/add', { id: taskId, completionRate: 5 }, tok.eng, 'ko');
    expect([noText.status, noText.info]).toEqual([422, '진행 내용은 비워 둘 수 없습니다']);
    expect(await snapshot(taskId)).toEqual(snap);
  });

  it('the workflow refuses what the states do not allow, with a message and nothing changed', async () => {
    const taskId = await create();
    const refuse = async (path: string, b: Record<string, unknown>, token: string, info: string) => {
      const before = await snapshot(taskId);
      const r = await post(path, { id: taskId, ...b }, token);
      expect([r.status, r.info], `${path} ${JSON.stringify(b)}`).toEqual([422, info]);
      expect(await snapshot(taskId)).toEqual(before);
    };
    // Completing (passing) a task nobody submitted; progress before the start; someone else's task.
    await refuse(
      'review',
      { result: 'pass', grade: 'good' },
      tok.rev,
      'The task has not been submitted for review: it cannot be completed',
    );
    await refuse(
      'progress/add',
      { text: 'x', completionRate: 5 },
      tok.eng,
      'The task has not been started: start it first',
    );
    await refuse('start', {}, tok.eng2, 'Only the responsible person of the task may do this');
    await refuse('submit', {}, tok.eng, 'The task has not been started: start it first');
    expect((await post('start', { id: taskId }, tok.eng)).status).toBe(0);
    await refuse('start', {}, tok.eng, 'The task has already been started');
    await refuse(
      'review',
      { result: 'pass', grade: 'good' },
      tok.rev,
      'The task has not been submitted for review: it cannot be completed',
    );
    expect((await post('progress/add', { id: taskId, text: 'Done', completionRate: 100 }, tok.eng)).status).toBe(0);
    expect((await post('submit', { id: taskId }, tok.eng)).status).toBe(0);
    await refuse(
      'progress/add',
      { text: 'more', completionRate: 90 },
      tok.eng,
      'The task has been submitted for review: it can no longer be changed until reviewed',
    );
    // Reviewing one's own task: the publisher makes himself the assignee of a task he reviews.
    const own = await create({ assigneeId: id.pub, reviewerId: id.rev });
    const r = await post('review', { id: own, result: 'pass', grade: 'good' }, tok.pub);
    expect([r.status, r.info]).toEqual([422, 'You cannot review your own task']);
    await refuse('review', { result: 'pass', grade: 'good' }, tok.pub, 'Only the reviewer of the task may review it');
    await refuse('review', { result: 'pass' }, tok.rev, 'The completion grade cannot be empty');
    await refuse('review', { result: 'fail' }, tok.rev, 'A failed review needs a note: what must be done again');
    // Fail: back to ongoing with the note; then pass with a grade.
    expect((await post('review', { id: taskId, result: 'fail', note: 'Photos missing' }, tok.rev)).status).toBe(0);
    let d = await detail(taskId);
    expect([d.data.status, d.data.reviewResult, d.data.reviewNote]).toEqual(['ongoing', 'fail', 'Photos missing']);
    expect((await post('submit', { id: taskId }, tok.eng)).status).toBe(0);
    expect((await post('review', { id: taskId, result: 'pass', grade: 'excellent' }, tok.rev)).status).toBe(0);
    d = await detail(taskId);
    expect([d.data.status, d.data.grade, d.data.remainingDays, d.data.reviews.length]).toEqual([
      'completed',
      'excellent',
      null,
      2,
    ]);
    // A completed task: no edit, no second review.
    await refuse('edit', body({ name: 'Renamed' }), tok.pub, 'A completed task cannot be edited');
    await refuse('review', { result: 'fail', note: 'again' }, tok.rev, 'The task is already completed');
    // Messages: the assignee and the reviewer by mail and SMS, in the language they work in.
    const msgs = (
      await sql<{ task_event: string; channel: string; language: string; subject: string }>`
      select task_event, channel, language, subject from notification_outbox where task_id = ${taskId} order by id`.execute(
        t.db.k,
      )
    ).rows;
    expect(msgs.map((m) => `${m.task_event}/${m.channel}`)).toEqual([
      'assigned/mail',
      'assigned/sms',
      'reviewerAssigned/mail',
      'reviewerAssigned/sms',
      expect.stringMatching(/^submitted:.*\/mail$/),
      expect.stringMatching(/^submitted:.*\/sms$/),
      'reviewed:1/mail',
      'reviewed:1/sms',
      expect.stringMatching(/^submitted:.*\/mail$/),
      expect.stringMatching(/^submitted:.*\/sms$/),
      'reviewed:2/mail',
      'reviewed:2/sms',
    ]);
  });

  it('messages are written in the recipient’s language', async () => {
    // The reviewer works in Chinese (he read his list in zh); the assignee in Korean.
    await t.api('GET', `${B}/getListPage`, { token: tok.rev, query: { view: 'received' }, lang: 'zh' });
    await t.api('GET', `${B}/getListPage`, { token: tok.eng, query: { view: 'received' }, lang: 'ko' });
    const taskId = await create({ name: 'Lang check' });
    const rows = (
      await sql<{ task_event: string; language: string; subject: string; channel: string }>`
      select task_event, language, subject, channel from notification_outbox where task_id = ${taskId} and channel = 'mail'
      order by id`.execute(t.db.k)
    ).rows;
    expect(rows).toEqual([
      { task_event: 'assigned', language: 'ko', subject: '새 작업: Lang check', channel: 'mail' },
      { task_event: 'reviewerAssigned', language: 'zh', subject: '待审核任务：Lang check', channel: 'mail' },
    ]);
  });

  it('100 parallel submissions of one task end in one state', async () => {
    const taskId = await create();
    await post('start', { id: taskId }, tok.eng);
    await post('progress/add', { id: taskId, text: 'All done', completionRate: 100 }, tok.eng);
    const answers = await Promise.all(Array.from({ length: 100 }, () => post('submit', { id: taskId }, tok.eng)));
    expect(answers.filter((a) => a.status === 0)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.status !== 0).map((a) => a.info))).toEqual(
      new Set(['The task has been submitted for review: it can no longer be changed until reviewed']),
    );
    const rows = (
      await sql<{ task_event: string }>`select task_event from notification_outbox
      where task_id = ${taskId} and task_event like 'submitted:%'`.execute(t.db.k)
    ).rows;
    expect(rows).toHaveLength(2); // one mail and one SMS to the reviewer
    // 100 parallel reviews (50 pass, 50 fail): one wins, one review is recorded.
    const reviews = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post(
          'review',
          i % 2 ? { id: taskId, result: 'pass', grade: 'good' } : { id: taskId, result: 'fail', note: 'no' },
          tok.rev,
        ),
      ),
    );
    expect(reviews.filter((a) => a.status === 0)).toHaveLength(1);
    expect(Number((await snapshot(taskId))!.reviews)).toBe(1);
  }, 60_000);

  it('data scope: tasks of one’s sites plus one’s own; a foreign id answers like a missing one', async () => {
    const taskId = await create({ name: 'Scope check' });
    const missing = await detail(999_999, tok.stranger);
    const foreign = await detail(taskId, tok.stranger);
    expect([foreign.status, foreign.info]).toEqual([missing.status, missing.info]);
    expect(foreign.status).toBe(404);
    for (const [path, b] of [
      ['edit', body()],
      ['start', {}],
      ['submit', {}],
      ['review', { result: 'pass', grade: 'good' }],
      ['progress/add', { text: 'x', completionRate: 3 }],
    ] as const) {
      const r = await post(path, { ...b, id: taskId }, tok.stranger);
      expect([r.status, r.info], path).toEqual([404, 'The task does not exist']);
    }
    const list = await get<Page<Task>>('getListPage', { keyword: 'Scope check' }, tok.stranger);
    expect(list.data.total).toBe(0);
    expect((await get<Page<Task>>('getListPage', { keyword: 'Scope check' }, tok.eng2)).data.total).toBe(1);
    // Progress and evaluation follow the same scope.
    const hist = await get<Page<TaskProgress>>('progress/getListPage', {}, tok.stranger);
    expect(hist.data.total).toBe(0);
    const ev = await get<TaskEvaluation>('evaluation/get', {}, tok.stranger);
    expect(ev.data.team.tasks).toBe(0);
    // A task of another site assigned to him: he sees it (and only it).
    await sql`insert into user_platforms (user_id, platform_id) values (${id.stranger}, ${site})`.execute(t.db.k);
    const theirs = await create({ name: 'Assigned across', assigneeId: id.stranger });
    await sql`delete from user_platforms where user_id = ${id.stranger} and platform_id = ${site}`.execute(t.db.k);
    const mine = await get<Page<Task>>('getListPage', { view: 'received' }, tok.stranger);
    expect(mine.data.list.map((x) => x.id)).toEqual([theirs]);
    expect((await detail(theirs, tok.stranger)).status).toBe(0);
    // The alert of another site: not found, like a missing one.
    const a = await get('getAlertDraft', { alertId: String(foreignAlert) }, tok.pub);
    const m = await get('getAlertDraft', { alertId: '999999' }, tok.pub);
    expect([a.status, a.info]).toEqual([m.status, m.info]);
    const c = await post('add', body({ alertId: foreignAlert }), tok.pub);
    expect(c.status).toBe(404);
  });

  it('from an alert: draft by level, the task keeps site, device and evidence; the alert lists it', async () => {
    const draft = await get<TaskAlertDraft>('getAlertDraft', { alertId: String(alertId) }, tok.pub);
    expect(draft.status).toBe(0);
    expect(draft.data).toMatchObject({ platformId: site, deviceId: device, level: 3, priority: 'importantUrgent' });
    // Orange: 3 days.
    expect(Date.parse(draft.data.endTime) - Date.parse(draft.data.startTime)).toBe(3 * DAY);
    const r = await post<{ id: number }>(
      'add',
      body({
        alertId,
        platformId: other,
        name: draft.data.name,
        endTime: draft.data.endTime,
        startTime: draft.data.startTime,
      }),
      tok.pub,
    );
    expect(r.status, r.info).toBe(0);
    const d = await detail(r.data.id);
    expect([d.data.platformId, d.data.deviceId, d.data.alertId]).toEqual([site, device, alertId]);
    expect(d.data.evidence).toEqual({ value: 11.2, threshold: 11 });
    const linked = await get<Task[]>('getByAlert', { alertId: String(alertId) }, tok.pub);
    expect(linked.data.map((x) => [x.id, x.status])).toEqual([[r.data.id, 'notStarted']]);
  });

  it('reminders before the end time are queued exactly once per task', async () => {
    const soon = await create({ name: 'Due soon', startTime: at(-2), endTime: at(0.5) });
    const later = await create({ name: 'Due later', startTime: at(-2), endTime: at(5) });
    const counts = await Promise.all(Array.from({ length: 10 }, () => t.built.tasks.sweepReminders()));
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const rows = (
      await sql<{ task_id: number; channel: string }>`select task_id, channel from notification_outbox
      where task_event = 'reminder' and task_id in (${soon}, ${later})`.execute(t.db.k)
    ).rows;
    // The assignee and the reviewer, mail and SMS each: 4 rows, for the task due soon only.
    expect(rows.map((x) => x.task_id)).toEqual([soon, soon, soon, soon]);
    expect(await t.built.tasks.sweepReminders()).toBe(0);
  });

  it('daily history and evaluation', async () => {
    const u = await upload<UploadAnswer>(t, tok.eng, { kind: 'picture', platformId: String(site) }, [
      { filename: 'toe.jpg', data: jpeg() },
    ]);
    const taskId = await create({ name: 'History', startTime: at(-3), endTime: at(1) });
    await post('start', { id: taskId }, tok.eng);
    const p = await post(
      'progress/add',
      { id: taskId, text: 'Toe photographed', completionRate: 60, photos: [u.data.fileId], lat: 30.5, lon: 114.3 },
      tok.eng,
    );
    expect(p.status, p.info).toBe(0);
    const h = await get<Page<TaskProgress>>('progress/getListPage', { id: String(taskId) }, tok.pub);
    expect(h.data.list).toHaveLength(1);
    expect(h.data.list[0]).toMatchObject({
      text: 'Toe photographed',
      completionRate: 60,
      lat: 30.5,
      lon: 114.3,
      user: 'eng',
    });
    expect(h.data.list[0]!.photos[0]!.name).toBe('toe.jpg');
    const ev = await get<TaskEvaluation>(
      'evaluation/get',
      { startDate: at(-40).slice(0, 10), endDate: at(40).slice(0, 10) },
      tok.pub,
    );
    expect(ev.status).toBe(0);
    const eng = ev.data.persons.find((x) => x.userId === id.eng)!;
    expect(eng.completed).toBeGreaterThanOrEqual(1);
    expect(eng.excellent).toBeGreaterThanOrEqual(1);
    expect(eng.onTimeRate).toBe(100);
    expect(ev.data.team.tasks).toBe(ev.data.persons.reduce((a, x) => a + x.tasks, 0));
  });

  it('lists filter and sort on the server', async () => {
    const page = await get<Page<Task>>(
      'getListPage',
      { status: 'completed', sortField: 'priority', pageSize: '5' },
      tok.pub,
    );
    expect(page.status).toBe(0);
    expect(page.data.list.every((x) => x.status === 'completed')).toBe(true);
    const all = await get<Page<Task>>('getListPage', { status: 'all', view: 'review' }, tok.rev);
    expect(all.data.list.every((x) => x.reviewerId === id.rev)).toBe(true);
    expect(all.data.total).toBeGreaterThan(3);
  });
  it('a progress report of an earlier day: within the plan and the last days only; the rate stays the latest', async () => {
    const dayOf = (n: number) => at(n).slice(0, 10);
    const taskId = await create({ name: 'Late reports', startTime: at(-10), endTime: at(5) });
    await post('start', { id: taskId }, tok.eng);
    const before = await snapshot(taskId);
    for (const [d, why] of [
      [dayOf(2), 'after today'],
      [dayOf(-8), 'more than 7 days back'],
    ] as const) {
      const r = await post('progress/add', { id: taskId, text: why, completionRate: 10, day: d }, tok.eng);
      expect(r, why).toMatchObject({
        status: 422,
        info: `The day of a progress report must be from ${dayOf(-7)} to ${dayOf(0)}`,
      });
    }
    // A task planned from 2 days ago: not before its planned start day.
    const recent = await create({ name: 'Recent', startTime: at(-2), endTime: at(5) });
    await post('start', { id: recent }, tok.eng);
    const early = await post('progress/add', { id: recent, text: 'x', completionRate: 5, day: dayOf(-3) }, tok.eng);
    expect(early.info).toBe(`The day of a progress report must be from ${dayOf(-2)} to ${dayOf(0)}`);
    expect(await snapshot(taskId)).toEqual(before);
    // Today (70), then yesterday's report made late (40): the history has both days, the rate stays 70.
    expect((await post('progress/add', { id: taskId, text: 'Today', completionRate: 70 }, tok.eng)).status).toBe(0);
    const late = await post(
      'progress/add',
      { id: taskId, text: 'Yesterday', completionRate: 40, day: dayOf(-1) },
      tok.eng,
    );
    expect(late.status, late.info).toBe(0);
    const h = await get<Page<TaskProgress>>('progress/getListPage', { id: String(taskId) }, tok.pub);
    expect(h.data.list.map((e) => [e.day, e.text])).toEqual([
      [dayOf(0), 'Today'],
      [dayOf(-1), 'Yesterday'],
    ]);
    expect((await detail(taskId)).data.completionRate).toBe(70);
    // Only the assignee reports, for any day.
    const other = await post('progress/add', { id: taskId, text: 'x', completionRate: 5, day: dayOf(-1) }, tok.pub);
    expect(other.info).toBe('Only the responsible person of the task may do this');
  });

  it('every change of a task writes an audit record (who, what, from where), shown in the audit log', async () => {
    const taskId = await create({ name: 'Audited task' });
    expect((await post('edit', { id: taskId, ...body({ name: 'Audited task, renamed' }) }, tok.pub)).status).toBe(0);
    await post('start', { id: taskId }, tok.eng);
    await post('progress/add', { id: taskId, text: 'Day one', completionRate: 50, day: at(-1).slice(0, 10) }, tok.eng);
    await post('submit', { id: taskId }, tok.eng);
    await post('review', { id: taskId, result: 'fail', note: 'Photo missing' }, tok.rev);
    await post('progress/add', { id: taskId, text: 'Day two', completionRate: 100 }, tok.eng);
    await post('submit', { id: taskId }, tok.eng);
    await post('review', { id: taskId, result: 'pass', grade: 'good' }, tok.rev);
    // A refused call writes nothing.
    await post('review', { id: taskId, result: 'pass', grade: 'good' }, tok.rev);
    const rows = await t.db.k
      .selectFrom('audit_log')
      .select(['action', 'account', 'detail', 'ip'])
      .where('target', '=', `task:${taskId}`)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, r.account])).toEqual([
      ['task.add', 'pub'],
      ['task.edit', 'pub'],
      ['task.start', 'eng'],
      ['task.progress', 'eng'],
      ['task.submit', 'eng'],
      ['task.review', 'rev'],
      ['task.progress', 'eng'],
      ['task.submit', 'eng'],
      ['task.review', 'rev'],
    ]);
    const detailOf = (i: number) => {
      const d = rows[i]!.detail as unknown;
      return (typeof d === 'string' ? JSON.parse(d) : d) as Record<string, unknown>;
    };
    expect(detailOf(0)).toMatchObject({
      name: 'Audited task',
      site: 'Tailings pond A',
      assignee: 'eng',
      reviewer: 'rev',
    });
    expect(detailOf(1)).toMatchObject({ name: { from: 'Audited task', to: 'Audited task, renamed' } });
    expect(detailOf(3)).toEqual({ name: 'Audited task, renamed', day: at(-1).slice(0, 10), completionRate: 50 });
    expect(detailOf(5)).toEqual({ name: 'Audited task, renamed', result: 'fail', note: 'Photo missing' });
    expect(detailOf(8)).toEqual({ name: 'Audited task, renamed', result: 'pass', grade: 'good' });
    expect(rows.every((r) => r.ip)).toBe(true);
    // The audit screen's list carries them.
    const log = await t.api<Page<{ action: string; target: string }>>('GET', '/api/v2/manage/audit/getListPage', {
      token: admin,
      query: { action: 'task.review', pageSize: '50' },
    });
    expect(log.data.list.filter((r) => r.target === `task:${taskId}`)).toHaveLength(2);
  });
});
