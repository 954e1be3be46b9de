import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type VibrationReport } from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addSite, roleWith, scopedUser } from '../platforms/platforms.testkit.ts';

const B = '/api/v2/data/report/vibration';
const T0 = Date.UTC(2026, 9, 5, 2, 0, 0); // 2026-10-05 10:00 in Asia/Shanghai

describe('vibration report', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let other: number;
  let wave: number;
  let logger: number;
  let foreignDevice: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await addSite(t, admin, 'disaster', { name: 'Quarry slope' });
    other = await addSite(t, admin, 'disaster', { name: 'Other slope' });
    wave = await addDevice(t, site, 36, 'Blast seismograph');
    logger = await addDevice(t, site, 36, 'Deck logger');
    foreignDevice = await addDevice(t, other, 36, 'Other logger');
    const w = t.built.ingest.writer;
    // A 3-axis waveform at 500 Hz for one second: x 10 Hz 5 mm/s, y 25 Hz 3 mm/s, z 10 Hz 4 mm/s a quarter period late.
    const rows = Array.from({ length: 500 }, (_, i) => {
      const s = i / 500;
      return {
        deviceId: wave,
        ts: T0 + i * 2,
        values: {
          velocityX: 5 * Math.sin(2 * Math.PI * 10 * s),
          velocityY: 3 * Math.sin(2 * Math.PI * 25 * s),
          velocityZ: 4 * Math.cos(2 * Math.PI * 10 * s),
        },
      };
    });
    await w.submit(rows);
    // A summary logger: one reading a minute (velocity and its own frequency), three events.
    const quiet = (m: number) => ({ deviceId: logger, ts: T0 + m * 60_000, values: { velocity: 0.05, frequency: 15 } });
    const ev = (m: number, v: number, f: number) => ({
      deviceId: logger,
      ts: T0 + m * 60_000,
      values: { velocity: v, frequency: f },
    });
    await w.submit([quiet(0), ev(1, 12.3456, 8), quiet(2), ev(3, 22, 22), quiet(4), ev(5, 31, 60), quiet(6)]);
    await w.submit([{ deviceId: foreignDevice, ts: T0, values: { velocity: 9, frequency: 9 } }]);
  });
  afterAll(() => t.close());

  const get = <T = VibrationReport>(
    query: Record<string, string | number>,
    token = admin,
    lang = 'en',
    path = 'getVibrationReport',
  ) =>
    t.api<T>('GET', `${B}/${path}`, {
      token,
      lang,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
  const q = {
    platformId: 0,
    startTime: '2026-10-05',
    endTime: '2026-10-05',
    timeZone: 'Asia/Shanghai',
  };

  it('a waveform: PPV per axis, vector sum as the peak resultant, FFT frequency, verdict', async () => {
    const r = await get({ ...q, platformId: site, deviceId: wave, trigger: 0.5, gapSeconds: 1 });
    expect(r.status).toBe(0);
    expect(r.data.events).toHaveLength(1);
    const e = r.data.events[0]!;
    expect(e.samples).toBe(500);
    expect(e.axes.map((a) => a.axis)).toEqual(['velocityX', 'velocityY', 'velocityZ']);
    // Sampled peaks: 10 Hz at 500 Hz is 50 samples a period; the largest sample of each axis, computed directly.
    const sampledPeak = (amp: number, f: number, phase = 0) =>
      Math.max(...Array.from({ length: 500 }, (_, i) => Math.abs(amp * Math.sin(2 * Math.PI * f * (i / 500) + phase))));
    expect(e.axes[0]!.ppv).toBe(Math.round(sampledPeak(5, 10) * 1000) / 1000);
    expect(e.axes[1]!.ppv).toBe(3);
    expect(e.axes[2]!.ppv).toBe(4);
    expect(e.axes.map((a) => a.frequency)).toEqual([10, 25, 10]);
    expect(e.axes.every((a) => a.frequencyMethod === 'fft')).toBe(true);
    expect(e.ppv).toBe(e.axes[0]!.ppv);
    // x and z are a quarter period apart: sqrt(x² + z²) of 5 and 4 in quadrature peaks at 5 (when z = 0), with y
    // adding at most 3: under sqrt(50) = 7.07, far from the sum of peaks 12.
    expect(e.vectorSum).toBeGreaterThan(5);
    expect(e.vectorSum).toBeLessThan(7.08);
    // GB 6722 civil buildings, f = 10 Hz is the low band: 15–20 mm/s.
    expect(e.allowable).toEqual({ lower: 15, upper: 20 });
    expect(e.verdict).toBe('pass');
  });

  it('a summary logger: events by trigger and gap, the logger frequency, verdicts across the bands', async () => {
    const r = await get({ ...q, platformId: site, deviceId: logger, curve: 'gb6722-civil' });
    expect(r.status).toBe(0);
    expect(r.data.events.map((e) => [e.ppv, e.frequency, e.verdict])).toEqual([
      [12.346, 8, 'pass'], // 8 Hz: 15–20
      [22, 22, 'range'], // 22 Hz: 20–25
      [31, 60, 'exceed'], // 60 Hz: 25–30
    ]);
    expect(r.data.events[0]!.axes[0]!.frequencyMethod).toBe('device');
    const din = await get({ ...q, platformId: site, deviceId: logger, curve: 'din4150-2' });
    // DIN 4150-3 line 2: 5 at 8 Hz; 5 + 10·12/40 = 8 at 22 Hz; 15 + 5·10/50 = 16 at 60 Hz.
    expect(din.data.events.map((e) => [e.allowable?.lower, e.verdict])).toEqual([
      [5, 'exceed'],
      [8, 'exceed'],
      [16, 'exceed'],
    ]);
  });

  it('builds the report document: meta with the zone, chart on log axes with the curve, tables', async () => {
    const r = await get({ ...q, platformId: site }, admin, 'zh');
    const doc = r.data.document;
    expect(doc.title).toBe('振动监测报告');
    expect(doc.timeZone).toBe('Asia/Shanghai');
    expect(doc.meta.find((m) => m.label.startsWith('时间范围'))).toEqual({
      label: '时间范围',
      value: '2026-10-05 00:00 – 2026-10-06 00:00',
    });
    const chart = doc.sections[0]!.blocks.find((b) => b.kind === 'chart');
    expect(chart?.kind === 'chart' && chart.chart.x.scale).toBe('log');
    expect(chart?.kind === 'chart' && chart.chart.y.scale).toBe('log');
    expect(chart?.kind === 'chart' && chart.chart.series[0]!.points.slice(0, 3)).toEqual([
      [1, 15],
      [10, 15],
      [10, 20],
    ]);
    const table = doc.sections[1]!.blocks[0]!;
    expect(table.kind === 'table' && table.rows.length).toBe(4);
    expect(doc.fileName).toBe(`vibration-${site}-2026-10-05-2026-10-05`);
  });

  it('downloads the report as xlsx and PDF (Chinese text extracted), under a given name', async () => {
    const qs = new URLSearchParams({
      platformId: String(site),
      startTime: '2026-10-05',
      endTime: '2026-10-05',
      timeZone: 'Asia/Shanghai',
      format: 'xlsx',
    });
    const x = await t.raw('GET', `${B}/getVibrationReportFile?${qs.toString()}`, {
      token: admin,
      headers: { language: 'en' },
    });
    expect(x.statusCode).toBe(200);
    expect(x.headers['content-disposition']).toContain(`vibration-${site}-2026-10-05-2026-10-05.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as unknown as ArrayBuffer);
    const cells = wb.worksheets.flatMap((ws) => {
      const out: unknown[] = [];
      ws.eachRow((r) => r.eachCell((c) => out.push(c.value)));
      return out;
    });
    expect(cells).toContain('Deck logger');
    expect(cells).toContain(31);
    expect(cells).toContain('Exceeds the limit');
    qs.set('format', 'pdf');
    qs.set('fileName', '振动 报告');
    const p = await t.raw('GET', `${B}/getVibrationReportFile?${qs.toString()}`, {
      token: admin,
      headers: { language: 'zh' },
    });
    expect(p.statusCode).toBe(200);
    expect(p.headers['content-disposition']).toContain(encodeURIComponent('振动 报告.pdf'));
    const file = path.join(os.tmpdir(), `vibration-${process.pid}.pdf`);
    fs.writeFileSync(file, p.rawPayload);
    try {
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('振动监测报告');
      expect(text).toContain('超过限值');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const empty = await get({ ...q, platformId: site, startTime: '2026-10-05', endTime: '2026-10-04' });
    expect(empty).toMatchObject({ status: Status.invalid, info: expect.stringContaining('time range is invalid') });
    const long = await get({ ...q, platformId: site, startTime: '2026-01-01', endTime: '2026-10-04' });
    expect(long).toMatchObject({
      status: Status.invalid,
      info: 'The period is too long: a report covers at most 92 days',
    });
    const longKo = await get({ ...q, platformId: site, startTime: '2026-01-01', endTime: '2026-10-04' }, admin, 'ko');
    expect(longKo.info).toBe('기간이 너무 깁니다: 보고서는 최대 92일입니다');
    expect((await get({ ...q, platformId: site, curve: 'nonsense' })).status).toBe(Status.invalid);
    expect((await get({ ...q, platformId: site, trigger: 'abc' })).status).toBe(Status.invalid);
    expect((await get({ ...q, platformId: site, startTime: '2026-13-45' })).status).toBe(Status.invalid);
    const noDevice = await get({ ...q, platformId: site, deviceId: 999999 });
    expect(noDevice).toMatchObject({ status: Status.notFound, info: 'The device does not exist' });
    // A device of another site is not a device of this one.
    expect((await get({ ...q, platformId: site, deviceId: foreignDevice })).status).toBe(Status.notFound);
  });

  it('a user outside the site gets nothing of it; without the permission nothing at all', async () => {
    await roleWith(t, admin, 'vibrationViewer', ['monitor:vibrationReport']);
    const outsider = await scopedUser(t, admin, 'vibration-outsider', 'vibrationViewer', [other]);
    const foreign = await get({ ...q, platformId: site }, outsider);
    const missing = await get({ ...q, platformId: 999999 }, outsider);
    expect(foreign).toEqual(missing);
    expect(foreign.status).toBe(Status.notFound);
    for (const format of ['json', 'xlsx', 'pdf'])
      expect((await get({ ...q, platformId: site, format }, outsider, 'en', 'getVibrationReportFile')).status).toBe(
        Status.notFound,
      );
    const own = await get({ ...q, platformId: other }, outsider);
    expect(own.data.events.map((e) => e.deviceName)).toEqual(['Other logger']);
    await roleWith(t, admin, 'noVibration', ['monitor:report']);
    const plain = await scopedUser(t, admin, 'vibration-none', 'noVibration', [site]);
    expect((await get({ ...q, platformId: site }, plain)).status).toBe(Status.noPermission);
  });
});
