import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type GeneralReport } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addSite, roleWith, scopedUser } from '../platforms/platforms.testkit.ts';

const B = '/api/v2/data/report/general';
// 2026-10-05 00:00 in Asia/Shanghai is 2026-10-04 16:00 UTC; the report day is 24 hours.
const D0 = Date.UTC(2026, 9, 4, 16, 0, 0);
const H = 3_600_000;

describe('general report', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let other: number;
  let hourly: number;
  let halfHourly: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await addSite(t, admin, 'reservoir', { name: 'North dam' });
    other = await addSite(t, admin, 'disaster', { name: 'Other slope' });
    hourly = await addDevice(t, site, 36, 'Crest logger');
    halfHourly = await addDevice(t, site, 36, 'Toe logger');
    const foreign = await addDevice(t, other, 36, 'Foreign logger');
    await sql`update devices set params = '{"reportingIntervalMinutes":30}'::jsonb where id = ${halfHourly}`.execute(
      t.db.k,
    );
    const w = t.built.ingest.writer;
    // Crest: 18 hourly readings of 24 expected (75 %), velocity 1.0 -> 4.5 (change 3.5).
    await w.submit(
      Array.from({ length: 18 }, (_, i) => ({
        deviceId: hourly,
        ts: D0 + i * H,
        values: { velocity: i === 17 ? 4.5 : 1 + i * 0.1, frequency: 10 },
      })),
    );
    // Toe: 12 readings of 48 expected (25 %), velocity 10 -> 8.8 (change -1.2); one reading the day before.
    await w.submit([
      { deviceId: halfHourly, ts: D0 - H, values: { velocity: 100 } },
      ...Array.from({ length: 12 }, (_, i) => ({
        deviceId: halfHourly,
        ts: D0 + i * H,
        values: { velocity: i === 11 ? 8.8 : 10 },
      })),
    ]);
    await w.submit([{ deviceId: foreign, ts: D0, values: { velocity: 50 } }]);
    const alert = async (device: number, platform: number, first: number, last: number, level: number) =>
      (
        await sql<{ id: number }>`insert into alerts (platform_id, device_id, quantity, kind, family, value_type, level,
          first_level, status, last_value, first_at, last_at, evidence)
          values (${platform}, ${device}, 'velocity', 'single', ${`single:velocity:${first}`}, 'original', ${level},
          ${level}, 'processed', 4.5, ${new Date(first).toISOString()}, ${new Date(last).toISOString()}, '{}'::jsonb)
          returning id`.execute(t.db.k)
      ).rows[0]!.id;
    const inPeriod = await alert(hourly, site, D0 + 17 * H, D0 + 17 * H, 3);
    await sql`insert into alert_actions (alert_id, at, action, user_name)
      values (${inPeriod}, ${new Date(D0 + 18 * H).toISOString()}, 'processed', 'Engineer Li')`.execute(t.db.k);
    await alert(hourly, site, D0 - 3 * H, D0 - 2 * H, 1); // before the period: not listed
    await alert(foreign, other, D0 + H, D0 + H, 2); // another site: not listed
  });
  afterAll(() => t.close());

  const q = { startTime: '2026-10-05', endTime: '2026-10-05', timeZone: 'Asia/Shanghai' };
  const get = <T = GeneralReport>(
    query: Record<string, string | number>,
    token = admin,
    lang = 'en',
    p = 'getGeneralReport',
  ) =>
    t.api<T>('GET', `${B}/${p}`, {
      token,
      lang,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });

  it('completeness, alerts and largest changes of a known day, by hand', async () => {
    const r = await get({ ...q, platformId: site, conclusions: 'Stable. <b>no</b> action' });
    expect(r.status).toBe(0);
    expect(r.data.from).toBe(new Date(D0).toISOString());
    expect(r.data.to).toBe(new Date(D0 + 24 * H).toISOString());
    expect(
      r.data.devices.map((d) => [d.deviceName, d.intervalMinutes, d.received, d.expected, d.completeness]),
    ).toEqual([
      ['Crest logger', 60, 18, 24, 75],
      ['Toe logger', 30, 12, 48, 25],
    ]);
    expect(r.data.alerts).toHaveLength(1);
    expect(r.data.alerts[0]).toMatchObject({
      deviceName: 'Crest logger',
      level: 3,
      status: 'processed',
      actions: [{ at: new Date(D0 + 18 * H).toISOString(), action: 'processed', userName: 'Engineer Li' }],
    });
    expect(r.data.changes.map((c) => [c.deviceName, c.quantity, c.first, c.last, c.change])).toEqual([
      ['Crest logger', 'velocity', 1, 4.5, 3.5],
      ['Toe logger', 'velocity', 10, 8.8, -1.2],
      ['Crest logger', 'frequency', 10, 10, 0],
    ]);
    const doc = r.data.document;
    expect(doc.meta).toContainEqual({
      label: 'Period',
      value: '2026-10-05 00:00:00 – 2026-10-06 00:00:00 (Asia/Shanghai)',
    });
    const last = doc.sections[doc.sections.length - 1]!;
    expect(last.blocks).toEqual([{ kind: 'paragraph', text: 'Stable. <b>no</b> action' }]);
  });

  it('downloads xlsx, PDF and Word (Chinese title extracted, charts drawn)', async () => {
    const qs = new URLSearchParams({ ...q, platformId: String(site), format: 'xlsx' });
    const x = await t.raw('GET', `${B}/getGeneralReportFile?${qs.toString()}`, {
      token: admin,
      headers: { language: 'en' },
    });
    expect(x.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const cells = wb.worksheets.flatMap((ws) => {
      const out: unknown[] = [];
      ws.eachRow((row) => row.eachCell((c) => out.push(c.value)));
      return out;
    });
    expect(cells).toContain('Toe logger');
    expect(cells).toContain(75);
    qs.set('format', 'pdf');
    const p = await t.raw('GET', `${B}/getGeneralReportFile?${qs.toString()}`, {
      token: admin,
      headers: { language: 'zh' },
    });
    expect(p.statusCode).toBe(200);
    const file = path.join(os.tmpdir(), `general-${process.pid}.pdf`);
    fs.writeFileSync(file, p.rawPayload);
    try {
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('North dam 监测报告');
      expect(text).toContain('数据完整率');
      expect(text).toContain('处理完成'); // the handling record's action by its label, not its code
    } finally {
      fs.rmSync(file, { force: true });
    }
    qs.set('format', 'docx');
    const d = await t.raw('GET', `${B}/getGeneralReportFile?${qs.toString()}`, {
      token: admin,
      headers: { language: 'zh' },
    });
    expect(d.statusCode).toBe(200);
    expect(d.headers['content-type']).toContain('wordprocessingml');
    const zip = await JSZip.loadAsync(d.rawPayload);
    const xml = await zip.file('word/document.xml')!.async('string');
    expect(xml).toContain('North dam 监测报告');
    expect(xml).toContain('数据完整率');
    // The charts are pictures in the file (drawn on the server).
    expect(Object.keys(zip.files).some((f) => /^word\/media\/.+\.png$/.test(f))).toBe(true);
  });

  it('refuses bad input with a clear message', async () => {
    const empty = await get({ ...q, platformId: site, startTime: '2026-10-05', endTime: '2026-10-04' });
    expect(empty).toMatchObject({ status: Status.invalid, info: expect.stringContaining('time range is invalid') });
    const long = await get({ ...q, platformId: site, startTime: '2026-01-01', endTime: '2026-10-04' });
    expect(long).toMatchObject({
      status: Status.invalid,
      info: 'The period is too long: a report covers at most 92 days',
    });
    expect((await get({ ...q, platformId: 'abc' })).status).toBe(Status.invalid);
    expect((await get({ ...q, platformId: site, format: 'odt' })).status).toBe(Status.invalid);
    expect((await get({ ...q, platformId: site, startTime: '2026-13-45' })).status).toBe(Status.invalid);
  });

  it('a user outside the site gets nothing of it, in any format; without the permission nothing at all', async () => {
    await roleWith(t, admin, 'generalViewer', ['monitor:generalReport']);
    const outsider = await scopedUser(t, admin, 'general-outsider', 'generalViewer', [other]);
    const foreign = await get({ ...q, platformId: site }, outsider);
    const missing = await get({ ...q, platformId: 999999 }, outsider);
    expect(foreign).toEqual(missing);
    expect(foreign.status).toBe(Status.notFound);
    for (const format of ['json', 'xlsx', 'pdf', 'docx'])
      expect((await get({ ...q, platformId: site, format }, outsider, 'en', 'getGeneralReportFile')).status).toBe(
        Status.notFound,
      );
    const own = await get({ ...q, platformId: other }, outsider);
    expect(own.data.devices.map((d) => d.deviceName)).toEqual(['Foreign logger']);
    await roleWith(t, admin, 'noGeneral', ['monitor:report']);
    const plain = await scopedUser(t, admin, 'general-none', 'noGeneral', [site]);
    expect((await get({ ...q, platformId: site }, plain)).status).toBe(Status.noPermission);
  });
});
