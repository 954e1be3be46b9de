import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  storageAt,
  type ComprehensiveReport,
  type ManualWaterRow,
  type Page,
  type WaterHis,
  type WaterInfo,
} from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { SEGMENT, addDevice, addSite, roleWith, scopedUser, snapshot } from '../platforms/platforms.testkit.ts';

const R = '/api/v2/data/reservoir';
const D = '/api/v2/data/information/device';
const INFO = '/api/v2/data/information/platform/model/base/water/getInfo';
const TZ = 'Asia/Shanghai';
/** Local (Asia/Shanghai, +08:00) wall time to epoch ms. */
const sh = (s: string) => Date.parse(`${s.replace(' ', 'T')}:00+08:00`);
const TABLE = [
  { index: 1, waterLevelElevation: 100, waterVolume: 1000 },
  { index: 2, waterLevelElevation: 105, waterVolume: 1500 },
  { index: 3, waterLevelElevation: 110, waterVolume: 2200 },
];

describe('storage from the capacity table', () => {
  it('interpolates linearly between rows, exact on rows, nothing outside the table', () => {
    // Hand: 102 m is 2/5 of the way from 100 to 105: 1000 + 500·2/5 = 1200; 107.5: 1500 + 700·2.5/5 = 1850.
    expect(storageAt(TABLE, 102)).toBe(1200);
    expect(storageAt(TABLE, 107.5)).toBe(1850);
    expect(storageAt(TABLE, 100)).toBe(1000);
    expect(storageAt(TABLE, 105)).toBe(1500);
    expect(storageAt(TABLE, 110)).toBe(2200);
    expect(storageAt(TABLE, 99.99)).toBeNull();
    expect(storageAt(TABLE, 110.01)).toBeNull();
    expect(storageAt([], 102)).toBeNull();
    expect(storageAt([...TABLE].reverse(), 102)).toBe(1200);
  });
});

describe('reservoir water levels and comprehensive report', () => {
  let t: TestApp;
  let admin: string;
  let dam: number;
  let autoDam: number;
  let slope: number;
  let section: number;
  let autoGauge: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    dam = await addSite(t, admin, 'reservoir', {
      name: 'Qingshui reservoir',
      details: { floodLevel: 110, limitedFloodLevel: 105 },
    });
    autoDam = await addSite(t, admin, 'reservoir', { name: 'Auto reservoir' });
    slope = await addSite(t, admin, 'sideslope', { name: 'Not a reservoir' });
    const s = await t.api<{ segmentId: number }>('POST', `${SEGMENT}/add`, {
      token: admin,
      body: { platformId: dam, name: 'Main dam', bottomElevation: 90 },
    });
    section = s.data.segmentId;
    const cap = await t.api('POST', `${SEGMENT}/setCapacityList`, {
      token: admin,
      body: { platformId: dam, rows: TABLE },
    });
    expect(cap.status).toBe(0);
    autoGauge = await addDevice(t, autoDam, 11, 'Dam gauge');
    const rain = await addDevice(t, dam, 2, 'Rain gauge');
    const defo = await addDevice(t, dam, 5, 'Crest marker');
    const seep = await addDevice(t, dam, 12, 'Weir');
    const w = t.built.ingest.writer;
    await w.submit([
      { deviceId: autoGauge, ts: sh('2026-10-01 08:00'), values: { waterLevel: 100.004 } },
      { deviceId: autoGauge, ts: sh('2026-10-02 08:00'), values: { waterLevel: 104.996 } },
      { deviceId: rain, ts: sh('2026-10-01 10:00'), values: { rainfall: 1.5 } },
      // 03:00 local on the 2nd is 19:00 UTC on the 1st: it is rain of the 2nd in the report's zone.
      { deviceId: rain, ts: sh('2026-10-02 03:00'), values: { rainfall: 2.5 } },
      { deviceId: rain, ts: sh('2026-10-03 12:00'), values: { rainfall: 0.4 } },
      { deviceId: defo, ts: sh('2026-10-01 09:00'), values: { deformation: 1 } },
      { deviceId: defo, ts: sh('2026-10-02 09:00'), values: { deformation: 1.5 } },
      { deviceId: defo, ts: sh('2026-10-03 09:00'), values: { deformation: 2.25 } },
      { deviceId: seep, ts: sh('2026-10-01 09:00'), values: { flow: 3 } },
      { deviceId: seep, ts: sh('2026-10-01 10:00'), values: { flow: 5 } },
    ]);
  });
  afterAll(() => t.close());

  const post = <T = unknown>(path: string, body: Record<string, unknown>, token = admin, lang = 'en') =>
    t.api<T>('POST', `${D}/${path}`, { token, body, lang });
  const get = <T>(url: string, query: Record<string, string | number>, token = admin, lang = 'en') =>
    t.api<T>('GET', url, {
      token,
      lang,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
  const list = (query: Record<string, string | number> = {}, token = admin) =>
    get<Page<ManualWaterRow>>(`${D}/module/water/getListPage`, { timeZone: TZ, ...query }, token);

  it('manual water levels: add, list with storage, edit, refuse duplicates and bad values, delete', async () => {
    const a = await post<{ id: number }>('water/add', {
      segmentId: section,
      time: '2026-10-01 08:00',
      elevation: 102,
      timeZone: TZ,
    });
    expect(a).toMatchObject({ status: 0, info: 'Added successfully' });
    const l = await list({ platformId: dam });
    expect(l.data.list).toEqual([
      expect.objectContaining({ id: a.data.id, time: '2026-10-01T00:00:00.000Z', elevation: 102, storage: 1200 }),
    ]);
    const before = await snapshot(t, 'river_water_levels');
    const dupe = await post('water/add', {
      segmentId: section,
      time: '2026-10-01 08:00',
      elevation: 103,
      timeZone: TZ,
    });
    expect(dupe).toEqual({
      status: Status.conflict,
      info: 'The section already has a water elevation at this time',
      data: null,
    });
    const low = await post('water/add', { segmentId: section, time: '2026-10-01 09:00', elevation: 80, timeZone: TZ });
    expect(low).toMatchObject({
      status: Status.invalid,
      info: 'The water level must not be lower than the bottom elevation (90 m)',
    });
    expect((await post('water/add', { segmentId: section, time: 'yesterday', elevation: 100 })).status).toBe(
      Status.invalid,
    );
    expect((await post('water/add', { segmentId: section, time: '2026-10-01', elevation: 'high' })).status).toBe(
      Status.invalid,
    );
    expect((await post('water/add', { segmentId: 999999, time: '2026-10-01', elevation: 100 })).status).toBe(
      Status.notFound,
    );
    expect(await snapshot(t, 'river_water_levels')).toEqual(before);
    const e = await post('water/edit', { id: a.data.id, elevation: 107.5 });
    expect(e).toMatchObject({ status: 0, info: 'Modified successfully' });
    expect((await list({ platformId: dam })).data.list[0]).toMatchObject({ elevation: 107.5, storage: 1850 });
    expect((await post('water/edit', { id: a.data.id, elevation: 102 })).status).toBe(0);
    const d = await post('water/delete', { id: a.data.id });
    expect(d).toMatchObject({ status: 0, info: 'Deleted successfully' });
    expect((await list({ platformId: dam })).data.total).toBe(0);
    expect((await post('water/delete', { id: a.data.id })).status).toBe(Status.notFound);
  });

  it('module/water/insert: all or none', async () => {
    const levels = [
      { time: '2026-10-01 08:00', elevation: 102 },
      { time: '2026-10-01 20:00', elevation: 104 },
      { time: '2026-10-02 08:00', elevation: 106 },
      { time: '2026-10-03 08:00', elevation: 103 },
    ];
    const before = await snapshot(t, 'river_water_levels');
    const twice = await post('module/water/insert', {
      segmentId: section,
      levels: JSON.stringify([...levels, levels[1]]),
      timeZone: TZ,
    });
    expect(twice).toMatchObject({ status: Status.invalid, info: expect.stringContaining('Water level 5 repeats') });
    const bad = await post('module/water/insert', {
      segmentId: section,
      levels: JSON.stringify([levels[0], { time: 'no', elevation: 1 }]),
      timeZone: TZ,
    });
    expect(bad.info).toContain('Water level 2');
    expect(await snapshot(t, 'river_water_levels')).toEqual(before);
    const ok = await post<{ added: number }>('module/water/insert', {
      segmentId: section,
      levels: JSON.stringify(levels),
      timeZone: TZ,
    });
    expect(ok).toMatchObject({ status: 0, data: { added: 4 } });
    const again = await post('module/water/insert', {
      segmentId: section,
      levels: JSON.stringify([{ time: '2026-10-04 08:00', elevation: 101 }, levels[0]]),
      timeZone: TZ,
    });
    expect(again.status).toBe(Status.conflict);
    expect((await list({ platformId: dam })).data.total).toBe(4);
  });

  it('one manual level per section and time: 100 parallel inserts, one wins', async () => {
    const all = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post('water/add', { segmentId: section, time: '2026-11-01 00:00', elevation: 100 + i / 100, timeZone: TZ }),
      ),
    );
    expect(all.filter((r) => r.status === 0)).toHaveLength(1);
    expect(all.filter((r) => r.status === Status.conflict)).toHaveLength(99);
    const rows = (await list({ startTime: '2026-11-01', endTime: '2026-11-02' })).data.list;
    expect(rows).toHaveLength(1);
    expect((await post('water/delete', { id: rows[0]!.id })).status).toBe(0);
  });

  it('the comprehensive report of a known series, by local day', async () => {
    const r = await get<ComprehensiveReport>(`${R}/getReportComprehensiveInformation`, {
      platformId: dam,
      statisticsType: 'day',
      startTime: '2026-10-01',
      endTime: '2026-10-03',
      timeZone: TZ,
    });
    expect(r.status).toBe(0);
    const x = r.data;
    expect(x).toMatchObject({ source: 'manual', segmentName: 'Main dam', floodLevel: 110, limitedFloodLevel: 105 });
    // Day 1: 102, 104 -> avg 103, storage at the day's last level 104: 1000 + 500·4/5 = 1400.
    // Day 2: 106 -> 1500 + 700·1/5 = 1640. Day 3: 103 -> 1000 + 500·3/5 = 1300.
    expect(x.water.periods.map((p) => [p.label, p.avg, p.max, p.min, p.last, p.storage])).toEqual([
      ['2026-10-01', 103, 104, 102, 104, 1400],
      ['2026-10-02', 106, 106, 106, 106, 1640],
      ['2026-10-03', 103, 103, 103, 103, 1300],
    ]);
    expect(x.water).toMatchObject({
      first: 102,
      last: 103,
      max: 106,
      min: 102,
      storageFirst: 1200,
      storageLast: 1300,
      storageChange: 100,
      overLimitedPeriods: 1,
    });
    const group = (g: string) => x.groups.find((y) => y.group === g)!.devices;
    const rain = group('rain')[0]!;
    expect(rain.periods.map((p) => p.sum)).toEqual([1.5, 2.5, 0.4]);
    expect(rain.sum).toBe(4.4);
    const defo = group('deformation')[0]!;
    expect(defo).toMatchObject({ first: 1, last: 2.25, change: 1.25, max: 2.25 });
    const seep = group('seepage')[0]!;
    expect(seep).toMatchObject({ quantity: 'flow', avg: 4, max: 5, min: 3 });
    // The document: flood lines on the water level chart, the zone named.
    const doc = x.document;
    const chart = doc.sections[0]!.blocks.find((b) => b.kind === 'chart');
    expect(chart?.kind === 'chart' && chart.chart.lines).toEqual([
      { label: 'Flood level', value: 110, colour: '#c62828' },
      { label: 'Flood-limited level', value: 105, colour: '#f9a825' },
    ]);
    expect(doc.meta[1]).toEqual({ label: 'Period', value: '2026-10-01 00:00 – 2026-10-04 00:00' });
    const zh = await get<ComprehensiveReport>(
      `${R}/getReportComprehensiveInformation`,
      { platformId: dam, startTime: '2026-10-01', endTime: '2026-10-03', timeZone: TZ },
      admin,
      'zh',
    );
    expect(zh.data.document.title).toBe('水库综合报表');
    expect(zh.data.document.sections.map((s) => s.title)).toEqual(['水位与库容', '渗流', '变形', '降雨量']);
  });

  it('downloads the comprehensive report as xlsx and PDF (Chinese text extracted)', async () => {
    const qs = new URLSearchParams({
      platformId: String(dam),
      startTime: '2026-10-01',
      endTime: '2026-10-03',
      timeZone: TZ,
      format: 'xlsx',
    });
    const x = await t.raw('GET', `${R}/getReportComprehensiveFile?${qs.toString()}`, {
      token: admin,
      headers: { language: 'en' },
    });
    expect(x.statusCode).toBe(200);
    expect(x.headers['content-disposition']).toContain(`reservoir-${dam}-2026-10-01-2026-10-03-day.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const cells = wb.worksheets.flatMap((ws) => {
      const out: unknown[] = [];
      ws.eachRow((r) => r.eachCell((c) => out.push(c.value)));
      return out;
    });
    expect(cells).toContain(1640);
    expect(cells).toContain('Crest marker');
    qs.set('format', 'pdf');
    const p = await t.raw('GET', `${R}/getReportComprehensiveFile?${qs.toString()}`, {
      token: admin,
      headers: { language: 'zh' },
    });
    expect(p.statusCode).toBe(200);
    const file = path.join(os.tmpdir(), `reservoir-${process.pid}.pdf`);
    fs.writeFileSync(file, p.rawPayload);
    try {
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('水库综合报表');
      expect(text).toContain('汛限水位');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('auto source: the water-level device; current level and history', async () => {
    const info = await get<WaterInfo>(INFO, { platformId: autoDam });
    expect(info.data).toMatchObject({ source: 'auto', deviceName: 'Dam gauge', level: 105, storage: null });
    const his = await get<WaterHis>(`${R}/water/getHisInfo`, {
      platformId: autoDam,
      startTime: '2026-10-01',
      endTime: '2026-10-02',
      timeZone: TZ,
    });
    expect(his.data.list.map((p) => p.level)).toEqual([100, 105]);
    const manual = await get<WaterInfo>(INFO, { platformId: dam, segmentId: section });
    expect(manual.data).toMatchObject({ source: 'manual', level: 103, storage: 1300, overLimited: -2 });
  });

  it('refuses bad input and what is not a reservoir', async () => {
    const url = `${R}/getReportComprehensiveInformation`;
    const q = { platformId: dam, startTime: '2026-10-03', endTime: '2026-10-01', timeZone: TZ };
    expect((await get(url, q)).status).toBe(Status.invalid);
    const long = await get(url, { ...q, startTime: '2026-01-01', endTime: '2026-03-01', statisticsType: 'hour' });
    expect(long.info).toBe('The period is too long: a report covers at most 31 days');
    expect((await get(url, { ...q, startTime: '2026-10-01', statisticsType: 'fortnight' })).status).toBe(
      Status.invalid,
    );
    const notReservoir = await get(url, { ...q, platformId: slope, startTime: '2026-10-01' });
    expect(notReservoir).toMatchObject({ status: Status.invalid, info: 'This is kept only for reservoirs' });
    expect((await get(INFO, { platformId: dam, segmentId: 999999 })).status).toBe(Status.notFound);
    const xlsx = await get(`${R}/getReportComprehensiveFile`, { ...q, startTime: '2026-10-01', format: 'doc' });
    expect(xlsx.status).toBe(Status.invalid);
  });

  it('a user outside the reservoir gets nothing of it; permissions guard every call', async () => {
    await roleWith(t, admin, 'waterKeeper', ['information:reservoirWater', 'monitor:report']);
    const outsider = await scopedUser(t, admin, 'water-outsider', 'waterKeeper', [autoDam]);
    const rows = (await list({}, admin)).data.list;
    const id = rows[0]!.id;
    const pairs: [string, Record<string, unknown>, Record<string, unknown>][] = [
      [
        'water/add',
        { segmentId: section, time: '2026-12-01', elevation: 100 },
        { segmentId: 999999, time: '2026-12-01', elevation: 100 },
      ],
      ['water/edit', { id, elevation: 100 }, { id: 999999, elevation: 100 }],
      ['water/delete', { id }, { id: 999999 }],
      [
        'module/water/insert',
        { segmentId: section, levels: JSON.stringify([{ time: '2026-12-01', elevation: 100 }]) },
        { segmentId: 999999, levels: JSON.stringify([{ time: '2026-12-01', elevation: 100 }]) },
      ],
    ];
    const before = await snapshot(t, 'river_water_levels');
    for (const [path, foreign, missing] of pairs) {
      const a = await post(path, foreign, outsider);
      expect(a, path).toEqual(await post(path, missing, outsider));
      expect(a.status, path).toBe(Status.notFound);
    }
    expect(await snapshot(t, 'river_water_levels')).toEqual(before);
    expect((await list({}, outsider)).data.total).toBe(0);
    const q = { startTime: '2026-10-01', endTime: '2026-10-03', timeZone: TZ };
    for (const url of [
      `${R}/getReportComprehensiveInformation`,
      `${R}/water/getHisInfo`,
      INFO,
      `${R}/getReportComprehensiveFile`,
    ]) {
      const a = await get(url, { platformId: dam, ...q }, outsider);
      expect(a, url).toEqual(await get(url, { platformId: 999999, ...q }, outsider));
      expect(a.status, url).toBe(Status.notFound);
    }
    expect((await get(INFO, { platformId: autoDam }, outsider)).status).toBe(0);
    await roleWith(t, admin, 'reportOnly', ['monitor:report']);
    const reporter = await scopedUser(t, admin, 'water-reporter', 'reportOnly', [dam]);
    expect((await post('water/add', { segmentId: section, time: '2026-12-01', elevation: 100 }, reporter)).status).toBe(
      Status.noPermission,
    );
    expect((await list({}, reporter)).status).toBe(Status.noPermission);
    expect((await get(INFO, { platformId: dam }, reporter)).status).toBe(0);
    await roleWith(t, admin, 'nothingHere', ['monitor:history']);
    const none = await scopedUser(t, admin, 'water-none', 'nothingHere', [dam]);
    expect((await get(`${R}/getReportComprehensiveInformation`, { platformId: dam, ...q }, none)).status).toBe(
      Status.noPermission,
    );
  });
});
