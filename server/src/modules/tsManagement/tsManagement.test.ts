import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type Page, type TsPerson, type TsRecord, type TsSite, type UploadAnswer } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { ENTERPRISE, addSite, snapshot } from '../platforms/platforms.testkit.ts';
import { roleWith, userToken } from '../devices/testkit.ts';
import { docx, jpeg, pdf, png, upload } from '../files/files.testkit.ts';

const TS = '/api/v2/data/information/tsManagement';

const OK_ITEMS = {
  damCrestSlopes: { result: 'ok' },
  dryBeachLength: { result: 'ok' },
  seepageDrainage: { result: 'ok' },
  floodDischarge: { result: 'ok' },
  monitoringFacilities: { result: 'ok' },
};
const PROBLEM_ITEMS = {
  ...OK_ITEMS,
  seepageDrainage: { result: 'problem', note: 'Seepage at the toe of the initial dam, turbid' },
  monitoringFacilities: { result: 'problem', note: 'Piezometer P3 offline since June' },
};

/** A date n days from today (UTC), yyyy-MM-dd. */
const dayFromToday = (n: number): string => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('tailings supervision records (TS management)', () => {
  let t: TestApp;
  let admin: string;
  let pond: number;
  let pond2: number;
  let reservoir: number;
  let first: number;
  let enterprise: number;
  /** Responsible persons: of the first pond, of the second pond, and bound to no site. */
  let sunHao: number;
  let heMin: number;
  let anyone: number;

  const post = (path: string, body: Record<string, unknown>, token = admin, lang = 'en') =>
    t.api<{ id: number } | null>('POST', `${TS}/${path}`, { token, body, lang });
  const list = (query: Record<string, string> = {}, token = admin) =>
    t.api<Page<TsRecord>>('GET', `${TS}/getListPage`, { token, query });
  const attach = async (platformId: number, filename: string, data: Buffer): Promise<string> => {
    const r = await upload<UploadAnswer>(t, admin, { kind: 'attachment', platformId: String(platformId) }, [
      { filename, data },
    ]);
    if (r.status !== 0) throw new Error(`upload failed: ${r.info}`);
    return r.data.fileId;
  };
  const body = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    platformId: pond,
    inspectionDate: dayFromToday(-20),
    inspector: 'Zhao Lei',
    problemType: 'seepage',
    items: PROBLEM_ITEMS,
    dryBeachLength: 86.5,
    findings: 'Seepage at the toe; one piezometer offline.',
    requirement: 'Repair the drainage filter; restore P3.',
    deadline: dayFromToday(-5),
    responsiblePersonId: sunHao,
    regulatoryPerson: 'Wang Jian (county emergency bureau)',
    state: 'incomplete',
    ...extra,
  });
  const addPerson = async (name: string, phone: string, platformIds: number[]): Promise<number> => {
    const r = await t.api<{ id: number }>('POST', '/api/v2/data/information/responsible/add', {
      token: admin,
      body: { name, phone, title: 'Safety officer', platformIds },
    });
    if (r.status !== 0) throw new Error(`add person failed: ${r.info}`);
    return r.data.id;
  };

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    const ent = await t.api<{ enterpriseId: number }>('POST', `${ENTERPRISE}/tailings/add`, {
      token: admin,
      body: { name: 'Panzhihua Mining Co.', code: 'PZH-M' },
    });
    enterprise = ent.data.enterpriseId;
    pond = await addSite(t, admin, 'tailings', {
      name: 'Panzhihua tailings pond',
      enterpriseId: enterprise,
      details: { tailingsType: 'valley', status: 'inUse' },
    });
    pond2 = await addSite(t, admin, 'tailings', { name: 'Jinsha tailings pond', details: { tailingsType: 'flat' } });
    reservoir = await addSite(t, admin, 'reservoir', { name: 'TS reservoir' });
    sunHao = await addPerson('Sun Hao', '13900000001', [pond]);
    heMin = await addPerson('He Min', '13900000002', [pond2]);
    anyone = await addPerson('Anne Duty', '13900000003', []);
  });
  afterAll(() => t.close());

  it('adds a record with its inspected items, documents and result documents, and lists it', async () => {
    const report = await attach(pond, 'inspection-report.pdf', pdf());
    const photo = await attach(pond, 'seepage.jpg', jpeg());
    const r = await post('add', body({ attachments: [report, photo] }));
    expect(r).toMatchObject({ status: 0, info: 'Added successfully' });
    first = r.data!.id;
    const resultDoc = await attach(pond2, 'acceptance.docx', docx());
    // A form-encoded client sends the items as JSON text and the attachments comma-separated.
    const form = await t.api<{ id: number }>('POST', `${TS}/add`, {
      token: admin,
      form: true,
      body: {
        platformId: String(pond2),
        inspectionDate: dayFromToday(-3),
        inspector: 'Qian Jun',
        problemType: '',
        items: JSON.stringify(OK_ITEMS),
        responsiblePersonId: '',
        regulatoryPerson: '',
        state: 'completed',
        completedDate: dayFromToday(-1),
        result: 'Nothing to rectify',
        attachments: '',
        resultAttachments: resultDoc,
      },
    });
    expect(form.status, form.info).toBe(0);

    const all = await list();
    expect(all.data).toMatchObject({ total: 2, pageNum: 1, pageSize: 10 });
    // Newest inspection first by default.
    expect(all.data.list.map((x) => x.id)).toEqual([form.data.id, first]);
    const rec = all.data.list[1]!;
    expect(rec).toMatchObject({
      platformId: pond,
      // Pond name, affiliated enterprise and pond status are the site's.
      platformName: 'Panzhihua tailings pond',
      enterpriseId: enterprise,
      enterpriseName: 'Panzhihua Mining Co.',
      pondStatus: 'inUse',
      inspectionDate: dayFromToday(-20),
      inspector: 'Zhao Lei',
      problemType: 'seepage',
      responsiblePersonId: sunHao,
      responsiblePerson: 'Sun Hao',
      responsiblePhone: '13900000001',
      regulatoryPerson: 'Wang Jian (county emergency bureau)',
      problems: 2,
      dryBeachLength: 86.5,
      deadline: dayFromToday(-5),
      state: 'incomplete',
      overdue: true,
      completedDate: null,
      result: null,
      createdBy: expect.any(String),
      attachments: [
        { file_id: report, name: 'inspection-report.pdf', mime: 'application/pdf' },
        { file_id: photo, name: 'seepage.jpg', mime: 'image/jpeg' },
      ],
      resultAttachments: [],
    });
    expect(rec.items.seepageDrainage).toEqual({
      result: 'problem',
      note: 'Seepage at the toe of the initial dam, turbid',
    });
    expect(rec.items.damCrestSlopes).toEqual({ result: 'ok' });
    expect(all.data.list[0]).toMatchObject({
      platformName: 'Jinsha tailings pond',
      enterpriseId: null,
      enterpriseName: null,
      pondStatus: null,
      problemType: null,
      responsiblePersonId: null,
      responsiblePerson: null,
      regulatoryPerson: null,
      state: 'completed',
      overdue: false,
      problems: 0,
      result: 'Nothing to rectify',
      attachments: [],
      resultAttachments: [{ file_id: resultDoc, name: 'acceptance.docx' }],
    });
  });

  it('refuses bad records with a translated message and stores nothing', async () => {
    const before = await snapshot(t, 'ts_records');
    const foreignFile = await attach(pond2, 'other-pond.png', png());
    const files = await Promise.all([1, 2, 3, 4].map((i) => attach(pond, `doc-${i}.docx`, docx())));
    const cases: [Record<string, unknown>, string][] = [
      [{ platformId: reservoir }, 'Supervision records are kept only for tailings sites'],
      [{ platformId: 999999 }, 'The site does not exist'],
      [{ inspectionDate: dayFromToday(2) }, 'The inspection date cannot be in the future'],
      [
        { items: { ...OK_ITEMS, floodDischarge: { result: 'problem' } } },
        'Describe the problem of every item marked as a problem',
      ],
      [{ problemType: '' }, 'A problem was found: choose the problem type'],
      [{ requirement: '' }, 'A problem was found: enter the rectification content'],
      // A problem type alone is a problem too (management problems have no inspected item).
      [
        { items: OK_ITEMS, problemType: 'management', requirement: undefined },
        'A problem was found: enter the rectification content',
      ],
      [{ deadline: '' }, 'A problem was found: enter the rectification deadline'],
      [{ deadline: dayFromToday(-30) }, 'The rectification deadline cannot be before the inspection date'],
      [{ state: 'completed' }, 'Enter the completion date of the rectification'],
      [
        { state: 'completed', completedDate: dayFromToday(-25) },
        'The completion date cannot be before the inspection date',
      ],
      [{ state: 'completed', completedDate: dayFromToday(3) }, 'The completion date cannot be in the future'],
      [{ attachments: files }, 'At most 3 documents'],
      [{ resultAttachments: files }, 'At most 3 result documents'],
      [{ resultAttachments: [foreignFile] }, 'Attachment other-pond.png belongs to another site'],
      [{ responsiblePersonId: heMin }, 'The responsible person is not a responsible person of this site'],
      [{ responsiblePersonId: 999999 }, 'The responsible person is not a responsible person of this site'],
      [
        { attachments: ['0123456789abcdef0123456789abcdef'] },
        'Attachment 0123456789abcdef0123456789abcdef does not exist',
      ],
      [{ attachments: [foreignFile] }, 'Attachment other-pond.png belongs to another site'],
    ];
    for (const [extra, info] of cases) {
      const r = await post('add', body(extra));
      expect(r.info, info).toBe(info);
      expect(r.status).not.toBe(0);
    }
    // Shape errors: missing inspector, an unknown state, a missing item, a malformed date.
    for (const extra of [
      { inspector: '' },
      { state: 'done' },
      { items: { ...OK_ITEMS, damCrestSlopes: undefined } },
      { inspectionDate: '2025-13-01' },
      { dryBeachLength: -1 },
      { problemType: 'cracks' },
      { responsiblePersonId: 'Sun Hao' },
    ]) {
      expect((await post('add', body(extra))).status, JSON.stringify(extra)).toBe(Status.invalid);
    }
    const zh = await post('add', body({ platformId: reservoir }), admin, 'zh');
    expect(zh.info).toBe('只有尾矿库可以添加监管记录');
    const ko = await post('add', body({ deadline: dayFromToday(-30) }), admin, 'ko');
    expect(ko.info).toBe('시정 기한은 점검일보다 이를 수 없습니다');
    expect((await post('add', body({ problemType: '' }), admin, 'zh')).info).toBe('存在问题，请选择问题类型');
    expect((await post('add', body({ responsiblePersonId: heMin }), admin, 'ko')).info).toBe(
      '이 담당자는 이 현장의 담당자가 아닙니다',
    );
    expect(await snapshot(t, 'ts_records')).toEqual(before);
  });

  it('filters by site, state, problem type, responsible person, inspection dates, keyword and overdue; sorts and pages on the server', async () => {
    for (const [i, d] of [-40, -35, -30].entries()) {
      const r = await post(
        'add',
        body({
          inspectionDate: dayFromToday(d),
          inspector: `Inspector ${i}`,
          deadline: dayFromToday(i === 2 ? 30 : d + 10),
          ...(i === 1 ? { problemType: 'dryBeach', responsiblePersonId: anyone } : {}),
        }),
      );
      expect(r.status).toBe(0);
    }
    const bySite = await list({ platformId: String(pond2) });
    expect(bySite.data.list.map((x) => x.platformName)).toEqual(['Jinsha tailings pond']);
    expect((await list({ state: 'completed' })).data.total).toBe(1);
    expect((await list({ state: 'incomplete' })).data.total).toBe(4);
    const range = await list({ startDate: dayFromToday(-36), endDate: dayFromToday(-20) });
    expect(range.data.list.map((x) => x.inspector).sort()).toEqual(['Inspector 1', 'Inspector 2', 'Zhao Lei']);
    expect((await list({ keyword: 'inspector 0' })).data.list.map((x) => x.inspector)).toEqual(['Inspector 0']);
    expect((await list({ keyword: 'JINSHA' })).data.total).toBe(1);
    const overdue = await list({ overdue: 'true' });
    expect(overdue.data.list.every((x) => x.overdue && x.state === 'incomplete')).toBe(true);
    expect(overdue.data.total).toBe(3);
    expect((await list({ overdue: 'false' })).data.total).toBe(2);
    const sorted = await list({ sortField: 'inspectionDate', sortOrder: 'ascend', pageSize: '2', pageNum: '2' });
    expect(sorted.data.total).toBe(5);
    expect(sorted.data.list.map((x) => x.inspector)).toEqual(['Inspector 2', 'Zhao Lei']);
    const byDeadline = await list({ sortField: 'deadline', sortOrder: 'descend' });
    expect(byDeadline.data.list[0]!.inspector).toBe('Inspector 2');
    const byType = await list({ problemType: 'dryBeach' });
    expect(byType.data.list.map((x) => x.inspector)).toEqual(['Inspector 1']);
    expect((await list({ problemType: 'seepage' })).data.total).toBe(3);
    const byPerson = await list({ responsiblePersonId: String(sunHao) });
    expect(byPerson.data.list.map((x) => x.inspector).sort()).toEqual(['Inspector 0', 'Inspector 2', 'Zhao Lei']);
    expect((await list({ responsiblePersonId: String(anyone) })).data.list[0]!.responsiblePerson).toBe('Anne Duty');
    expect((await list({ keyword: 'anne' })).data.total).toBe(1);
    expect((await list({ keyword: 'emergency bureau' })).data.total).toBe(4);
    const byName = await list({ sortField: 'responsiblePerson', sortOrder: 'ascend' });
    expect(byName.data.list.map((x) => x.responsiblePerson)).toEqual([
      'Anne Duty',
      'Sun Hao',
      'Sun Hao',
      'Sun Hao',
      null,
    ]);
    const byProblem = await list({ sortField: 'problemType', sortOrder: 'ascend' });
    expect(byProblem.data.list.map((x) => x.problemType)).toEqual(['dryBeach', 'seepage', 'seepage', 'seepage', null]);
    expect((await list({ problemType: 'cracks' })).status).toBe(Status.invalid);
    expect((await list({ state: 'open' })).status).toBe(Status.invalid);
    expect((await list({ startDate: 'last week' })).status).toBe(Status.invalid);
  });

  it('edits a record keeping documents left out, and marks it rectified with its result and result documents', async () => {
    const r = await post('edit', body({ id: first, findings: 'Seepage at the toe, clear water after repair.' }));
    expect(r).toMatchObject({ status: 0, info: 'Modified successfully' });
    let rec = (await list({ keyword: 'clear water' })).data.list[0]!;
    expect(rec.id).toBe(first);
    expect(rec.attachments).toHaveLength(2);
    const acceptance = await attach(pond, 'acceptance-report.pdf', pdf());
    const tooMany = await Promise.all([1, 2, 3, 4].map((i) => attach(pond, `after-${i}.png`, png())));

    const before = await snapshot(t, 'ts_records');
    const early = await post('setRectified', { id: first, completedDate: dayFromToday(-21) });
    expect(early.info).toBe('The completion date cannot be before the inspection date');
    expect((await post('setRectified', { id: first })).status).toBe(Status.invalid);
    const many = await post('setRectified', { id: first, completedDate: dayFromToday(-2), resultAttachments: tooMany });
    expect(many.info).toBe('At most 3 result documents');
    expect(await snapshot(t, 'ts_records')).toEqual(before);
    const done = await post('setRectified', {
      id: first,
      completedDate: dayFromToday(-2),
      result: 'Filter rebuilt; P3 replaced',
      resultAttachments: [acceptance],
    });
    expect(done.status).toBe(0);
    rec = (await list({ keyword: 'clear water' })).data.list[0]!;
    expect(rec).toMatchObject({
      state: 'completed',
      overdue: false,
      completedDate: dayFromToday(-2),
      result: 'Filter rebuilt; P3 replaced',
      resultAttachments: [{ file_id: acceptance, name: 'acceptance-report.pdf', mime: 'application/pdf' }],
    });
    expect(rec.attachments).toHaveLength(2);
    const again = await post('setRectified', { id: first, completedDate: dayFromToday(-1) });
    expect(again).toEqual({
      status: Status.invalid,
      info: 'The rectification of this record is already completed',
      data: null,
    });
    // Back to incomplete through edit clears the completion date; documents can be emptied, and result
    // documents left out are kept.
    expect((await post('edit', body({ id: first, attachments: [] }))).status).toBe(0);
    rec = (await list({ keyword: 'zhao' })).data.list[0]!;
    expect(rec).toMatchObject({ state: 'incomplete', completedDate: null, attachments: [] });
    expect(rec.resultAttachments.map((a) => a.file_id)).toEqual([acceptance]);
    // A person unbound from the site since may stay on the record; a responsible person removed leaves none.
    await t.api('POST', '/api/v2/data/information/responsible/edit', {
      token: admin,
      body: { id: anyone, name: 'Anne Duty', phone: '13900000003', platformIds: [pond2] },
    });
    const annes = (await list({ responsiblePersonId: String(anyone) })).data.list[0]!;
    expect(
      (await post('edit', body({ id: annes.id, responsiblePersonId: anyone, problemType: 'dryBeach' }))).status,
    ).toBe(0);
    expect((await post('add', body({ responsiblePersonId: anyone }))).info).toBe(
      'The responsible person is not a responsible person of this site',
    );
    const extra = await addPerson('Temp Person', '13900000009', [pond]);
    expect(
      (await post('edit', body({ id: annes.id, responsiblePersonId: extra, problemType: 'dryBeach' }))).status,
    ).toBe(0);
    expect(
      (await t.api('POST', '/api/v2/data/information/responsible/delete', { token: admin, body: { id: extra } }))
        .status,
    ).toBe(0);
    expect((await list()).data.list.find((x) => x.id === annes.id)).toMatchObject({
      responsiblePersonId: null,
      responsiblePerson: null,
    });
    expect((await post('edit', body({ id: 999999 }))).info).toBe('The supervision record does not exist');
  });

  it('keeps users to their data scope: foreign records answer like missing ones and stay unchanged', async () => {
    await roleWith(t, admin, 'tsKeeper', ['information', 'information:TSManagement']);
    const tok = await userToken(t, admin, { account: 'tskeeper', roleCode: 'tsKeeper', platformIds: [pond2] });
    const sites = await t.api<TsSite[]>('GET', `${TS}/getSites`, { token: tok });
    expect(sites.data).toEqual([
      { platformId: pond2, name: 'Jinsha tailings pond', enterpriseId: null, enterpriseName: null, pondStatus: null },
    ]);
    const allSites = await t.api<TsSite[]>('GET', `${TS}/getSites`, { token: admin });
    expect(allSites.data).toEqual([
      expect.objectContaining({ name: 'Jinsha tailings pond' }),
      {
        platformId: pond,
        name: 'Panzhihua tailings pond',
        enterpriseId: enterprise,
        enterpriseName: 'Panzhihua Mining Co.',
        pondStatus: 'inUse',
      },
    ]);
    // Persons to choose: the site's and those bound to no site; a foreign site answers like a missing one.
    const persons = (query: Record<string, string>, token = admin) =>
      t.api<TsPerson[]>('GET', `${TS}/getPersons`, { token, query });
    expect((await persons({ platformId: String(pond) })).data.map((p) => p.name)).toEqual(['Sun Hao']);
    expect((await persons({ platformId: String(pond2) }, tok)).data.map((p) => p.name)).toEqual([
      'Anne Duty',
      'He Min',
    ]);
    expect((await persons({}, tok)).data.map((p) => p.name)).toEqual(['Anne Duty', 'He Min']);
    expect((await persons({})).data.map((p) => p.name)).toEqual(['Anne Duty', 'He Min', 'Sun Hao']);
    const foreignSite = await persons({ platformId: String(pond) }, tok);
    expect(foreignSite).toEqual(await persons({ platformId: '999999' }, tok));
    expect(foreignSite.status).toBe(Status.notFound);
    expect((await persons({ platformId: String(reservoir) })).status).toBe(Status.invalid);
    const mine = await list({}, tok);
    expect(mine.data.list.map((x) => x.platformName)).toEqual(['Jinsha tailings pond']);
    expect(mine.data.total).toBe(1);
    expect((await list({ platformId: String(pond) }, tok)).data.total).toBe(0);
    const before = await snapshot(t, 'ts_records');
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['edit', body({ id: first, platformId: pond2 }), body({ id: 999999, platformId: pond2 })],
      ['delete', { id: first }, { id: 999999 }],
      ['setRectified', { id: first, completedDate: dayFromToday(-1) }, { id: 999999, completedDate: dayFromToday(-1) }],
      ['add', body({ platformId: pond }), body({ platformId: 999999 })],
    ];
    for (const [path, foreign, missing] of cases) {
      const a = await post(path, foreign, tok);
      expect(a, path).toEqual(await post(path, missing, tok));
      expect(a.status, path).toBe(Status.notFound);
    }
    expect(await snapshot(t, 'ts_records')).toEqual(before);
    // Their own site works, with their own upload.
    const own = await upload<UploadAnswer>(t, tok, { kind: 'attachment', platformId: String(pond2) }, [
      { filename: 'photo.png', data: png() },
    ]);
    expect(own.status).toBe(0);
    const added = await post(
      'add',
      body({ platformId: pond2, responsiblePersonId: heMin, attachments: [own.data.fileId] }),
      tok,
    );
    expect(added.status).toBe(0);
    expect((await list({}, tok)).data.list.find((x) => x.id === added.data!.id)!.attachments[0]!.name).toBe(
      'photo.png',
    );
  });

  it('needs the TS management permission, and deletes records', async () => {
    await roleWith(t, admin, 'tsOutsider', ['information', 'information:terminal']);
    const tok = await userToken(t, admin, { account: 'tsoutsider', roleCode: 'tsOutsider', scopeAll: true });
    expect((await list({}, tok)).status).toBe(Status.noPermission);
    expect((await post('delete', { id: first }, tok)).status).toBe(Status.noPermission);
    expect((await post('delete', { id: first })).status).toBe(0);
    expect((await post('delete', { id: first })).status).toBe(Status.notFound);
    expect((await list()).data.list.map((x) => x.id)).not.toContain(first);
  });
});
