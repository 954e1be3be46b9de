import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  Status,
  type Inspection,
  type Page,
  type Plan,
  type PlanDetail,
  type SafetyDocument,
  type SafetyDocumentVersion,
  type UploadAnswer,
} from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { addSite } from '../platforms/platforms.testkit.ts';
import { roleWith, userToken } from '../devices/testkit.ts';
import { jpeg, pdf, upload } from '../files/files.testkit.ts';

const A = '/api/v2/data/archives';
const day = (n: number): string => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('safety supervision (archives)', () => {
  let t: TestApp;
  let admin: string;
  /** Sees site `mine` only; `other` sees `theirs` only. */
  let mine: string;
  let other: string;
  let siteA: number;
  let siteB: number;

  const post = <T = { id: number } | null>(path: string, body: Record<string, unknown>, token = mine, lang = 'en') =>
    t.api<T>('POST', `${A}/${path}`, { token, body, lang });
  const get = <T>(path: string, query: Record<string, string>, token = mine) =>
    t.api<T>('GET', `${A}/${path}`, { token, query });
  const count = async (table: string): Promise<number> =>
    Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.db.k)).rows[0]!.n);
  const file = async (platformId: number, filename: string, data: Buffer, token = mine): Promise<string> => {
    const r = await upload<UploadAnswer>(t, token, { kind: 'attachment', platformId: String(platformId) }, [
      { filename, data },
    ]);
    if (r.status !== 0) throw new Error(`upload failed: ${r.info}`);
    return r.data.fileId;
  };
  /** The answer to a foreign id must be the answer to a missing one (status, message, data). */
  const sameAsMissing = async (
    call: (id: number) => Promise<{ status: number; info: string; data: unknown }>,
    foreign: number,
  ) => {
    const a = await call(foreign);
    const b = await call(2_000_000_000);
    expect(a.status).toBe(Status.notFound);
    expect({ status: a.status, info: a.info, data: a.data }).toEqual({ status: b.status, info: b.info, data: b.data });
  };
  const inspection = (extra: Record<string, unknown> = {}) => ({
    platformId: siteA,
    inspectionDate: day(-3),
    inspector: 'Li Wei',
    items: [
      { name: 'Drainage ditch', result: 'ok' },
      { name: 'Retaining wall', result: 'problem', note: 'Crack 2 mm wide at the toe' },
    ],
    problems: [{ description: 'Crack in the retaining wall', photos: [] }],
    requirement: 'Seal and monitor the crack',
    deadline: day(10),
    state: 'incomplete',
    ...extra,
  });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await addSite(t, admin, 'disaster', { name: 'Archive slope A' });
    siteB = await addSite(t, admin, 'reservoir', { name: 'Archive dam B' });
    await roleWith(t, admin, 'safetyMgr', ['supervisor:dynamic', 'supervisor:plan', 'supervisor:archive']);
    mine = await userToken(t, admin, { account: 'safetyA', roleCode: 'safetyMgr', platformIds: [siteA] });
    other = await userToken(t, admin, { account: 'safetyB', roleCode: 'safetyMgr', platformIds: [siteB] });
  });
  afterAll(() => t.close());

  describe('dynamic supervision', () => {
    let id: number;
    it('records an inspection with a problem and its photo; lists it, filtered and sorted on the server', async () => {
      const photo = await file(siteA, 'crack.jpg', jpeg());
      const r = await post('supervise/add', inspection({ problems: [{ description: 'Crack', photos: [photo] }] }));
      expect(r).toMatchObject({ status: 0, info: 'Added successfully' });
      id = r.data!.id;
      await post(
        'supervise/add',
        inspection({
          inspectionDate: day(-1),
          items: [{ name: 'Gauges', result: 'ok' }],
          problems: [],
          requirement: '',
          deadline: '',
        }),
      );
      const list = await get<Page<Inspection>>('supervise/getListPage', { withProblems: 'true' });
      expect(list.data.total).toBe(1);
      expect(list.data.list[0]).toMatchObject({ id, state: 'incomplete', overdue: false, problemCount: 1 });
      expect(list.data.list[0]!.problems[0]!.photos[0]).toMatchObject({ file_id: photo, name: 'crack.jpg' });
      const sorted = await get<Page<Inspection>>('supervise/getListPage', {
        sortField: 'inspectionDate',
        sortOrder: 'ascend',
      });
      expect(sorted.data.list.map((x) => x.inspectionDate)).toEqual([day(-3), day(-1)]);
    });

    it('shares the rectification rules of tailings supervision: completion date required, not in the future', async () => {
      const noDate = await post('supervise/edit', { id, ...inspection({ state: 'completed' }) });
      expect(noDate).toMatchObject({ status: Status.invalid, info: 'Please enter the completion date' });
      const future = await post('supervise/setRectified', { id, completedDate: day(2) });
      expect(future).toMatchObject({ status: Status.invalid, info: 'The completion date cannot be in the future' });
      expect(await post('supervise/setRectified', { id, completedDate: day(0), result: 'Sealed' })).toMatchObject({
        status: 0,
      });
      const again = await post('supervise/setRectified', { id, completedDate: day(0) });
      expect(again).toMatchObject({ status: Status.invalid, info: 'The rectification is already completed' });
    });

    it('refuses bad input with a clear message and saves nothing', async () => {
      const before = await count('archive_inspections');
      const cases: [Record<string, unknown>, string][] = [
        [inspection({ deadline: day(-5) }), 'The rectification deadline cannot be before the inspection date'],
        [inspection({ inspectionDate: day(3), deadline: day(5) }), 'The inspection date cannot be in the future'],
        [inspection({ requirement: '' }), 'A problem was found: please enter the rectification required'],
        [inspection({ deadline: '' }), 'A problem was found: please enter the rectification deadline'],
        [
          inspection({ items: [{ name: 'Wall', result: 'problem' }] }),
          'Item "Wall" has a problem: please say what was found',
        ],
      ];
      for (const [body, info] of cases)
        expect(await post('supervise/add', body)).toMatchObject({ status: Status.invalid, info });
      const missing = await post('supervise/add', inspection({ inspector: '' }));
      expect(missing.status).toBe(Status.invalid);
      expect(missing.info).toMatch(/inspector/);
      const noItems = await post('supervise/add', inspection({ items: [] }));
      expect(noItems.info).toMatch(/items/);
      const doc = await file(siteA, 'report.pdf', pdf());
      const notPhoto = await post('supervise/add', inspection({ problems: [{ description: 'x', photos: [doc] }] }));
      expect(notPhoto.info).toBe('report.pdf is not a photo: problem photos must be jpg, png, gif or bmp images');
      const foreignPhoto = await file(siteB, 'b.jpg', jpeg(), admin);
      const otherSite = await post(
        'supervise/add',
        inspection({ problems: [{ description: 'x', photos: [foreignPhoto] }] }),
      );
      expect(otherSite.status).toBe(Status.invalid);
      expect(await count('archive_inspections')).toBe(before);
    });

    it("shows a user his sites' inspections only; a foreign id answers like a missing one", async () => {
      expect((await get<Page<Inspection>>('supervise/getListPage', {}, other)).data.total).toBe(0);
      expect(
        (await get<Page<Inspection>>('supervise/getListPage', { platformId: String(siteA) }, other)).data.total,
      ).toBe(0);
      await sameAsMissing((x) => post('supervise/edit', { id: x, ...inspection({ platformId: siteB }) }, other), id);
      await sameAsMissing((x) => post('supervise/delete', { id: x }, other), id);
      await sameAsMissing((x) => post('supervise/setRectified', { id: x, completedDate: day(0) }, other), id);
      const add = await post('supervise/add', inspection(), other);
      expect(add.status).toBe(Status.notFound);
    });
  });

  describe('plan management', () => {
    let plan: number;
    it('adds a plan and versions; refuses an end before the start; keeps old versions readable', async () => {
      const before = await count('archive_plans');
      const bad = await post('plan/add', {
        platformId: siteA,
        kind: 'emergency',
        name: 'Flood plan',
        validFrom: day(0),
        validTo: day(-1),
      });
      expect(bad).toMatchObject({
        status: Status.invalid,
        info: 'The end of the validity period cannot be before its start',
      });
      const missing = await post('plan/add', {
        platformId: siteA,
        kind: 'emergency',
        validFrom: day(0),
        validTo: day(10),
      });
      expect(missing.info).toMatch(/name/);
      expect(await count('archive_plans')).toBe(before);
      const doc = await file(siteA, 'plan-v1.pdf', pdf());
      const r = await post('plan/add', {
        platformId: siteA,
        kind: 'emergency',
        name: 'Flood plan',
        validFrom: day(-300),
        validTo: day(60),
        files: [doc],
      });
      expect(r.status).toBe(0);
      plan = r.data!.id;
      const v2 = await post('plan/addVersion', {
        planId: plan,
        validFrom: day(0),
        validTo: day(365),
        summary: 'New contacts',
      });
      expect(v2.status).toBe(0);
      const d = await get<PlanDetail>('plan/getDetail', { id: String(plan) });
      expect(d.data.versions.map((v) => v.version)).toEqual([2, 1]);
      expect(d.data.versions[1]!.files[0]).toMatchObject({ name: 'plan-v1.pdf' });
      expect(d.data).toMatchObject({ status: 'draft', version: null, latestVersion: 2, pendingVersions: 2 });
    });

    it('approves a version exactly once under 100 parallel requests, recording who and when', async () => {
      const d = await get<PlanDetail>('plan/getDetail', { id: String(plan) });
      const v1 = d.data.versions.find((v) => v.version === 1)!;
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => post<{ approvedBy: string }>('plan/approveVersion', { versionId: v1.id })),
      );
      expect(answers.filter((a) => a.status === 0)).toHaveLength(1);
      const refused = answers.filter((a) => a.status !== 0);
      expect(refused).toHaveLength(99);
      for (const a of refused)
        expect(a).toMatchObject({ status: Status.invalid, info: 'Version 1 was already approved by safetyA' });
      const after = await get<PlanDetail>('plan/getDetail', { id: String(plan) });
      expect(after.data).toMatchObject({ status: 'valid', version: 1, approvedBy: 'safetyA', validTo: day(60) });
      expect(after.data.approvedAt).toBeTruthy();
    });

    it('records drills; lists plans by status; a foreign plan answers like a missing one', async () => {
      const before = await count('archive_plan_drills');
      const future = await post('plan/addDrill', { planId: plan, drillDate: day(3), participants: 'Team A' });
      expect(future).toMatchObject({ status: Status.invalid, info: 'The drill date cannot be in the future' });
      expect(await count('archive_plan_drills')).toBe(before);
      expect(
        (
          await post('plan/addDrill', {
            planId: plan,
            drillDate: day(-2),
            participants: 'Team A, village',
            participantCount: 40,
          })
        ).status,
      ).toBe(0);
      const list = await get<Page<Plan>>('plan/getListPage', { status: 'valid' });
      expect(list.data.list.map((p) => p.id)).toEqual([plan]);
      expect(list.data.list[0]).toMatchObject({ drills: 1, lastDrill: day(-2) });
      expect((await get<Page<Plan>>('plan/getListPage', {}, other)).data.total).toBe(0);
      await sameAsMissing((x) => get('plan/getDetail', { id: String(x) }, other), plan);
      await sameAsMissing(
        (x) => post('plan/addVersion', { planId: x, validFrom: day(0), validTo: day(1) }, other),
        plan,
      );
      await sameAsMissing(
        (x) => post('plan/addDrill', { planId: x, drillDate: day(0), participants: 'x' }, other),
        plan,
      );
      await sameAsMissing((x) => post('plan/delete', { id: x }, other), plan);
      const d = await get<PlanDetail>('plan/getDetail', { id: String(plan) });
      await sameAsMissing(
        (x) => post('plan/approveVersion', { versionId: x === 2_000_000_000 ? x : d.data.versions[0]!.id }, other),
        0,
      );
    });
  });

  describe('plan versions superseded', () => {
    it('refuses to approve a version older than an approved one, and changes nothing', async () => {
      const p = await post('plan/add', {
        platformId: siteA,
        kind: 'prevention',
        name: 'Slope plan',
        validFrom: day(0),
        validTo: day(90),
      });
      const v2 = await post('plan/addVersion', { planId: p.data!.id, validFrom: day(0), validTo: day(400) });
      expect((await post('plan/approveVersion', { versionId: v2.data!.id })).status).toBe(0);
      const d = await get<PlanDetail>('plan/getDetail', { id: String(p.data!.id) });
      const v1 = d.data.versions.find((v) => v.version === 1)!;
      const late = await post('plan/approveVersion', { versionId: v1.id });
      expect(late).toMatchObject({
        status: Status.invalid,
        info: 'A newer version is approved already: version 1 can no longer be approved',
      });
      const after = await get<PlanDetail>('plan/getDetail', { id: String(p.data!.id) });
      expect(after.data.versions.find((v) => v.version === 1)!.approvedAt).toBeNull();
      expect(after.data).toMatchObject({ version: 2, pendingVersions: 0 });
    });
  });

  describe('security files', () => {
    let doc: number;
    let fileId: string;
    it('files an upload in a folder with its type and expiry; adds a version; lists the newest', async () => {
      const folder = await post('safety/addFolder', { platformId: siteA, name: 'Certificates' });
      expect(folder.status).toBe(0);
      const dup = await post('safety/addFolder', { platformId: siteA, name: 'certificates' });
      expect(dup).toMatchObject({ status: Status.invalid, info: 'A folder named certificates exists here already' });
      fileId = await file(siteA, 'safety-licence.pdf', pdf());
      const before = await count('archive_documents');
      const noExpiry = await post('safety/add', {
        platformId: siteA,
        folderId: folder.data!.id,
        name: 'Licence',
        docType: 'licence',
        fileId,
      });
      expect(noExpiry).toMatchObject({
        status: Status.invalid,
        info: 'A certificate or licence needs its expiry date',
      });
      const noFile = await post('safety/add', { platformId: siteA, name: 'Licence', docType: 'other' });
      expect(noFile.info).toMatch(/fileId/);
      expect(await count('archive_documents')).toBe(before);
      const r = await post('safety/add', {
        platformId: siteA,
        folderId: folder.data!.id,
        name: 'Safety production licence',
        docType: 'licence',
        expiresOn: day(20),
        fileId,
      });
      expect(r.status).toBe(0);
      doc = r.data!.id;
      const v2 = await file(siteA, 'safety-licence-2.pdf', pdf());
      expect((await post('safety/addVersion', { documentId: doc, fileId: v2, note: 'Renewed' })).status).toBe(0);
      const list = await get<Page<SafetyDocument>>('safety/getListPage', { folderId: String(folder.data!.id) });
      expect(list.data.list[0]).toMatchObject({
        id: doc,
        version: 2,
        expiry: 'expiring',
        uploadedBy: 'safetyA',
        folderName: 'Certificates',
      });
      expect(list.data.list[0]!.file.name).toBe('safety-licence-2.pdf');
      const versions = await get<SafetyDocumentVersion[]>('safety/getVersions', { id: String(doc) });
      expect(versions.data.map((v) => v.file.name)).toEqual(['safety-licence-2.pdf', 'safety-licence.pdf']);
      const notEmpty = await post('safety/deleteFolder', { id: folder.data!.id });
      expect(notEmpty.info).toBe('The folder is not empty: move or delete its files and folders first');
    });

    it('refuses a file of a wrong type at upload, and a file of another site', async () => {
      const exe = await upload(t, mine, { kind: 'attachment', platformId: String(siteA) }, [
        { filename: 'tool.exe', data: Buffer.from('MZ\x90\x00 not a document') },
      ]);
      expect(exe.status).not.toBe(0);
      expect(exe.info).toMatch(/Word|PDF|jpg/i);
      const b = await file(siteB, 'b.pdf', pdf(), admin);
      // One who sees both sites is told the file is another site's; one who sees only A, that it does not exist.
      const r = await post('safety/add', { platformId: siteA, name: 'x', docType: 'other', fileId: b }, admin);
      expect(r).toMatchObject({ status: Status.invalid, info: 'File b.pdf was uploaded for another site' });
      const hidden = await post('safety/add', { platformId: siteA, name: 'x', docType: 'other', fileId: b });
      expect(hidden).toMatchObject({
        status: Status.invalid,
        info: `File ${b} does not exist, please upload it again`,
      });
    });

    it("shows a user his sites' files only; foreign ids and downloads answer like missing ones", async () => {
      expect((await get<Page<SafetyDocument>>('safety/getListPage', {}, other)).data.total).toBe(0);
      await sameAsMissing((x) => get('safety/getVersions', { id: String(x) }, other), doc);
      await sameAsMissing((x) => post('safety/addVersion', { documentId: x, fileId }, other), doc);
      await sameAsMissing((x) => post('safety/delete', { id: x }, other), doc);
      const foreign = await get('safety/getFolders', { platformId: String(siteA) }, other);
      expect(foreign.status).toBe(Status.notFound);
      const dl = (id: string) => t.raw('GET', `/api/v2/file/download?file_id=${id}`, { token: other });
      const a = await dl(fileId);
      const missing = await dl('0'.repeat(32));
      expect(a.statusCode).toBe(missing.statusCode);
      expect(a.body).toBe(missing.body);
      expect((await t.raw('GET', `/api/v2/file/download?file_id=${fileId}`, { token: mine })).statusCode).toBe(200);
    });
  });

  describe('reminders', () => {
    it("mails a plan and a certificate reminder exactly once per end date, in the contact's language", async () => {
      const c = await t.api<{ id: number }>('POST', '/api/v2/data/alert/contract/add', {
        token: admin,
        body: { name: 'Zhang Min', email: 'zhang@example.com', language: 'zh' },
      });
      expect(c.status).toBe(0);
      const p = await post('plan/add', {
        platformId: siteA,
        kind: 'prevention',
        name: '滑坡防治预案',
        contactId: c.data!.id,
        remindDays: 30,
        validFrom: day(-100),
        validTo: day(10),
      });
      const d = await get<PlanDetail>('plan/getDetail', { id: String(p.data!.id) });
      await post('plan/approveVersion', { versionId: d.data.versions[0]!.id });
      // Not due: the end is further than the reminder days.
      const far = await post('plan/add', {
        platformId: siteA,
        kind: 'emergency',
        name: 'Far plan',
        contactId: c.data!.id,
        validFrom: day(0),
        validTo: day(200),
      });
      const fd = await get<PlanDetail>('plan/getDetail', { id: String(far.data!.id) });
      await post('plan/approveVersion', { versionId: fd.data.versions[0]!.id });
      const f = await file(siteA, 'cert.pdf', pdf());
      await post('safety/add', {
        platformId: siteA,
        name: 'Blasting certificate',
        docType: 'certificate',
        expiresOn: day(5),
        contactId: c.data!.id,
        fileId: f,
      });

      const outbox = () =>
        sql<{ subject: string; body: string; language: string }>`
          select subject, body, language from notification_outbox where recipient = 'zhang@example.com' order by id`.execute(
          t.db.k,
        );
      const runs = await Promise.all(Array.from({ length: 8 }, () => t.built.archiveReminders.check()));
      expect(runs.reduce((a, b) => a + b, 0)).toBe(2);
      expect(await t.built.archiveReminders.check()).toBe(0);
      const rows = (await outbox()).rows;
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.language === 'zh')).toBe(true);
      expect(rows.map((r) => r.subject).sort()).toEqual([
        '【证书即将到期】Archive slope A：Blasting certificate',
        '【预案即将到期】Archive slope A：滑坡防治预案',
      ]);
      expect(rows.find((r) => r.subject.includes('预案'))!.body).toContain(day(10));
      // A new end date (a new approved version) is reminded again, once.
      const v = await post('plan/addVersion', { planId: p.data!.id, validFrom: day(0), validTo: day(20) });
      await post('plan/approveVersion', { versionId: v.data!.id });
      expect(await t.built.archiveReminders.check()).toBe(1);
      expect(await t.built.archiveReminders.check()).toBe(0);
    });
  });
  it('every change of an inspection, plan, folder or file writes an audit record; a refused one writes none', async () => {
    const first = Number(
      (await sql<{ n: number }>`select coalesce(max(id), 0)::int as n from audit_log`.execute(t.db.k)).rows[0]!.n,
    );
    const ok = async (path: string, body: Record<string, unknown>): Promise<number> => {
      const r = await post(path, body);
      expect(r.status, `${path}: ${r.info}`).toBe(0);
      return (r.data as { id?: number } | null)?.id ?? 0;
    };
    const insp = await ok('supervise/add', inspection());
    await ok('supervise/edit', { id: insp, ...inspection({ inspector: 'Zhang Min' }) });
    await ok('supervise/setRectified', { id: insp, completedDate: day(0), result: 'Sealed' });
    await ok('supervise/delete', { id: insp });
    const plan = await ok('plan/add', {
      platformId: siteA,
      kind: 'prevention',
      name: 'Slide plan',
      validFrom: day(-10),
      validTo: day(300),
    });
    await ok('plan/edit', { id: plan, kind: 'prevention', name: 'Slide prevention plan' });
    await ok('plan/addVersion', { planId: plan, validFrom: day(0), validTo: day(400) });
    const v = (await get<PlanDetail>('plan/getDetail', { id: String(plan) })).data.versions[0]!;
    await ok('plan/approveVersion', { versionId: v.id });
    expect((await post('plan/approveVersion', { versionId: v.id })).status).toBe(Status.invalid);
    const drill = await ok('plan/addDrill', { planId: plan, drillDate: day(-1), participants: 'Team B' });
    await ok('plan/deleteDrill', { id: drill });
    await ok('plan/delete', { id: plan });
    const folder = await ok('safety/addFolder', { platformId: siteA, name: 'Audited folder' });
    const f1 = await file(siteA, 'permit.pdf', pdf());
    const docId = await ok('safety/add', {
      platformId: siteA,
      folderId: folder,
      name: 'Permit',
      docType: 'other',
      fileId: f1,
    });
    await ok('safety/edit', { id: docId, folderId: folder, name: 'Blasting permit', docType: 'other' });
    await ok('safety/addVersion', { documentId: docId, fileId: await file(siteA, 'permit-2.pdf', pdf()) });
    await ok('safety/delete', { id: docId });
    await ok('safety/deleteFolder', { id: folder });
    const rows = await t.db.k
      .selectFrom('audit_log')
      .select(['action', 'account', 'target', 'detail', 'ip'])
      .where('id', '>', first)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, r.target])).toEqual([
      ['inspection.add', `inspection:${insp}`],
      ['inspection.edit', `inspection:${insp}`],
      ['inspection.rectify', `inspection:${insp}`],
      ['inspection.delete', `inspection:${insp}`],
      ['plan.add', `plan:${plan}`],
      ['plan.edit', `plan:${plan}`],
      ['plan.version', `plan:${plan}`],
      ['plan.approve', `plan:${plan}`],
      ['plan.drillAdd', `plan:${plan}`],
      ['plan.drillDelete', `plan:${plan}`],
      ['plan.delete', `plan:${plan}`],
      ['safetyFolder.add', `safetyFolder:${folder}`],
      ['safetyDocument.add', `safetyDocument:${docId}`],
      ['safetyDocument.edit', `safetyDocument:${docId}`],
      ['safetyDocument.version', `safetyDocument:${docId}`],
      ['safetyDocument.delete', `safetyDocument:${docId}`],
      ['safetyFolder.delete', `safetyFolder:${folder}`],
    ]);
    expect(rows.every((r) => r.account === 'safetyA' && r.ip)).toBe(true);
    const detail = (action: string) => {
      const d = rows.find((r) => r.action === action)!.detail as unknown;
      return (typeof d === 'string' ? JSON.parse(d) : d) as Record<string, unknown>;
    };
    expect(detail('inspection.add')).toEqual({ site: 'Archive slope A', inspectionDate: day(-3), state: 'incomplete' });
    expect(detail('plan.edit')).toEqual({
      site: 'Archive slope A',
      name: { from: 'Slide plan', to: 'Slide prevention plan' },
    });
    expect(detail('plan.approve')).toEqual({ site: 'Archive slope A', name: 'Slide prevention plan', version: 2 });
    expect(detail('safetyDocument.version')).toEqual({ site: 'Archive slope A', name: 'Blasting permit', version: 2 });
  });
});
