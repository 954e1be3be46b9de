// The module report templates A to E (moduleData.report.ts) against numbers computed by hand from a known series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { ModuleReport, ReportBlock } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';

const at = (s: string) => Date.parse(`${s}Z`);
/**
 * One water-level device (m). Before the report: 10.00 (its first reading ever: the initial value) and 10.50 (the
 * last reading before the period). In it (2026-04-01 to 04-03, UTC): two readings a day.
 */
const SERIES: [string, number][] = [
  ['2026-03-30T12:00:00', 10.0],
  ['2026-03-31T23:30:00', 10.5],
  ['2026-04-01T06:00:00', 10.7],
  ['2026-04-01T18:00:00', 10.65],
  ['2026-04-02T03:15:00', 11.205],
  ['2026-04-02T20:00:00', 10.9],
  ['2026-04-03T09:45:00', 9.8],
  ['2026-04-03T21:00:00', 10.12],
];

type Table = Extract<ReportBlock, { kind: 'table' }>;
const tables = (r: ModuleReport): Table[] =>
  r.document.sections.flatMap((s) => s.blocks.filter((b): b is Table => b.kind === 'table'));

describe('module report templates', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let dev: number;
  const report = async (template: string, extra: Record<string, string> = {}, lang = 'en') =>
    t.api<ModuleReport>('GET', '/api/v2/data/report/module/getModuleData', {
      token: admin,
      lang,
      query: {
        platformId: String(site),
        moduleId: '3',
        startTime: '2026-04-01',
        endTime: '2026-04-03',
        statisticsType: 'day',
        timeZone: 'UTC',
        template,
        ...extra,
      },
    });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await buildPlatform(t, { type: 'reservoir', name: 'Template dam' });
    const term = await addTerminal(t, admin, site, 'TPL-1');
    dev = await addDevice(t, admin, deviceBody(site, term.terminalId, 'wl-t', { moduleId: 3 }));
    await t.built.ingest.writer.submit(
      SERIES.map(([ts, v]) => ({ deviceId: dev, ts: at(ts), values: { waterLevel: v } })),
    );
    // One alert first raised in the period (and one before it, which the report leaves out).
    for (const [first, level] of [
      ['2026-04-02T03:15:00', 3],
      ['2026-03-31T23:30:00', 1],
    ] as const)
      await t.db.k
        .insertInto('alerts')
        .values({
          platform_id: site,
          device_id: dev,
          quantity: 'waterLevel',
          kind: 'single',
          family: `single:waterLevel:${first}`,
          value_type: 'measured',
          level,
          first_level: level,
          status: 'untreated',
          threshold: 11,
          first_value: 11.205,
          last_value: 11.205,
          first_at: new Date(at(first)),
          last_at: new Date(at(first)),
          evidence: JSON.stringify({}),
        } as never)
        .execute();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('A: statistics per period, computed values rounded as decimals', async () => {
    const r = await report('A');
    expect(r.status).toBe(0);
    const [tab] = tables(r.data);
    expect(tab!.rows).toEqual([
      // max, min, average, change (last − first of the day)
      ['2026-04-01', 10.7, 10.65, 10.68, -0.05],
      ['2026-04-02', 11.205, 10.9, 11.05, -0.31],
      ['2026-04-03', 10.12, 9.8, 9.96, 0.32],
      // the whole range: average 63.375 / 6 = 10.5625, change 10.12 − 10.70
      ['Whole range', 11.205, 9.8, 10.56, -0.58],
    ]);
  });

  it('B: closing value, current and cumulative change and rate per day', async () => {
    const r = await report('B');
    const [tab] = tables(r.data);
    expect(tab!.rows).toEqual([
      // current against the last reading before the report (10.50); cumulative against the first ever (10.00)
      ['2026-04-01', 10.65, 0.15, 0.65, 0.15],
      ['2026-04-02', 10.9, 0.25, 0.9, 0.25],
      ['2026-04-03', 10.12, -0.78, 0.12, -0.78],
    ]);
    const initial = r.data.document.sections[0]!.blocks[0]!;
    expect(initial).toMatchObject({ kind: 'fields' });
    expect(JSON.stringify(initial)).toContain('10 m (2026-03-30 12:00:00)');
  });

  it('C: extremes with the time they were read, and the alerts raised in the period', async () => {
    const r = await report('C');
    const [ext, alerts] = tables(r.data);
    expect(ext!.rows).toEqual([
      [
        'Device wl-t',
        'DEV-wl-t',
        11.205,
        '2026-04-02T03:15:00.000Z',
        9.8,
        '2026-04-03T09:45:00.000Z',
        // 11.205 − 9.8 = 1.405, half away from zero on the decimal value
        1.41,
        10.56,
        6,
        1,
      ],
    ]);
    expect(alerts!.rows).toEqual([
      ['2026-04-02T03:15:00.000Z', 'Device wl-t', 'Water level', 'Level 3 (orange)', 11.205, 11, 'Untreated'],
    ]);
  });

  it('D: a chart and a table of the period averages per quantity', async () => {
    const r = await report('D');
    const blocks = r.data.document.sections[0]!.blocks;
    const chart = blocks.find((b) => b.kind === 'chart');
    expect(chart && chart.kind === 'chart' && chart.chart.series[0]!.points).toEqual([
      [at('2026-04-01T00:00:00'), 10.68],
      [at('2026-04-02T00:00:00'), 11.05],
      [at('2026-04-03T00:00:00'), 9.96],
    ]);
    expect(tables(r.data)[0]!.rows).toEqual([
      ['2026-04-01', 10.68],
      ['2026-04-02', 11.05],
      ['2026-04-03', 9.96],
    ]);
  });

  it('E: the observation form in the caller’s language, with its signature block', async () => {
    const r = await report('E', {}, 'zh');
    const { state } = await t.db.k
      .selectFrom('devices')
      .select('state')
      .where('id', '=', dev)
      .executeTakeFirstOrThrow();
    const stateLabel = { normal: '正常', alert: '告警', alarm: '报警', abnormal: '异常', offline: '离线' }[state];
    expect(r.data.document.title).toContain('大坝安全监测记录表');
    expect(tables(r.data)[0]!.rows).toEqual([
      // previous 10.50, current 10.12: change −0.38; cumulative 10.12 − 10.00
      [1, 'Device wl-t', 'DEV-wl-t', 10.5, 10.12, -0.38, 0.12, 11.205, 9.8, stateLabel, ''],
    ]);
    const last = r.data.document.sections[r.data.document.sections.length - 1]!;
    expect(JSON.stringify(last)).toContain('校核');
  });

  it('statistics by hour and each reading; refuses a period longer than its type allows', async () => {
    const hour = await report('A', { statisticsType: 'hour' });
    expect(
      tables(hour.data)[0]!
        .rows.slice(0, 2)
        .map((x) => x[0]),
    ).toEqual(['2026-04-01 06:00', '2026-04-01 18:00']);
    const each = await report('A', { statisticsType: 'original' });
    expect(tables(each.data)[0]!.rows).toHaveLength(7);
    const long = await report('A', { statisticsType: 'original', startTime: '2026-01-01', endTime: '2026-03-01' });
    expect(long.status).toBe(422);
    expect(long.info).toBe('The period is too long: a report covers at most 31 days');
  });

  it('downloads by POST with the token in the body, saved under the given name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/data/report/module/getModuleDataReport',
      headers: { 'content-type': 'application/x-www-form-urlencoded', language: 'en' },
      payload: new URLSearchParams({
        token: admin,
        platformId: String(site),
        moduleId: '3',
        startTime: '2026-04-01',
        endTime: '2026-04-03',
        timeZone: 'UTC',
        template: 'B',
        format: 'xlsx',
        fileName: 'April changes',
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('filename="April changes.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const values = wb.worksheets[0]!.getSheetValues().flat();
    expect(values).toContain(-0.78);
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/api/v2/data/report/module/getModuleDataReport',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `platformId=${site}&moduleId=3&startTime=2026-04-01&endTime=2026-04-03&format=xlsx`,
    });
    const getNoToken = await t.app.inject({
      method: 'GET',
      url: `/api/v2/data/report/module/getModuleDataReport?platformId=${site}&moduleId=3&startTime=2026-04-01&endTime=2026-04-03&format=xlsx`,
    });
    // Answered as a GET without a session is: the envelope of "not signed in", never a file.
    expect(noToken.headers['content-type']).toMatch(/json/);
    expect(noToken.json()).toEqual(getNoToken.json());
    expect(noToken.json().status).not.toBe(0);
  });
});
