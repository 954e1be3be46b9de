import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import {
  Status,
  round2,
  type ClinometerAvg,
  type ClinometerRealTime,
  type DeviceStatusData,
  type GnssRealTime,
  type HistoricalData,
  type IonosphereLatest,
  type MaxMinAvgData,
  type ModuleReport,
  type RainLatest,
  type RealTimeDevice,
  type SatelliteInfo,
  type SmoothPreview,
} from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';
import { rollupRows } from './moduleData.repository.ts';

const M = '/api/v2/data/module';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const JAN1 = Date.UTC(2026, 0, 1);
const iso = (t: number) => new Date(t).toISOString();
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** The water level dataset: every 30 minutes from 2026-01-01 for 90 days, with one spike and one dip. */
const WL: { ts: number; v: number }[] = Array.from({ length: 90 * 48 }, (_, i) => ({
  ts: JAN1 + i * 30 * 60_000,
  v: Math.round((10 + 2 * Math.sin(i / 50) + (i % 7) * 0.01) * 1000) / 1000,
}));
WL[1000]!.v = 25;
WL[3000]!.v = -5;

type Rollup = {
  quantity: string;
  t: number;
  n: number;
  total: number;
  min: number;
  max: number;
  first: number;
  last: number;
};

/** Hour or day rollups recomputed in the test from raw readings. */
function recompute(raw: { ts: number; vals: Record<string, number> }[], span: number): Rollup[] {
  const m = new Map<string, { ts: number; v: number }[]>();
  for (const r of raw)
    for (const [q, v] of Object.entries(r.vals)) {
      const key = `${q}|${Math.floor(r.ts / span) * span}`;
      (m.get(key) ?? m.set(key, []).get(key)!).push({ ts: r.ts, v });
    }
  return [...m.entries()]
    .map(([k, xs]) => {
      const [quantity, t] = k.split('|');
      xs.sort((a, b) => a.ts - b.ts);
      const vs = xs.map((x) => x.v);
      return {
        quantity: quantity!,
        t: Number(t),
        n: xs.length,
        total: vs.reduce((s, x) => s + x, 0),
        min: Math.min(...vs),
        max: Math.max(...vs),
        first: vs[0]!,
        last: vs[vs.length - 1]!,
      };
    })
    .sort((a, b) => (a.quantity === b.quantity ? a.t - b.t : a.quantity < b.quantity ? -1 : 1));
}

describe('module data (monitoring query API)', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  let wl: number;
  let wl2: number;
  let rain: number;
  let tilt: number;
  let gnss: number;
  let rainB: number;
  let outsider: string;
  let viewer: string;

  const get = <T>(path: string, query: Record<string, string | number>, token = admin, lang = 'en') =>
    t.api<T>('GET', `${M}${path}`, {
      token,
      lang,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
  const post = <T>(path: string, body: Record<string, unknown>, token = admin) =>
    t.api<T>('POST', `${M}${path}`, { token, body, form: true });
  const submit = async (deviceId: number, rows: { ts: number; values: Record<string, number> }[]) => {
    for (let i = 0; i < rows.length; i += 2000)
      await t.built.ingest.writer.submit(rows.slice(i, i + 2000).map((r) => ({ deviceId, ...r })));
  };
  const rawOf = async (deviceId: number) =>
    (
      await t.db.k
        .selectFrom('readings')
        .select(['ts', 'vals'])
        .where('device_id', '=', deviceId)
        .orderBy('ts')
        .execute()
    ).map((r) => ({
      ts: new Date(r.ts).getTime(),
      vals: (typeof r.vals === 'string' ? JSON.parse(r.vals) : r.vals) as Record<string, number>,
    }));
  const expectRollupsExact = async (deviceId: number) => {
    const raw = await rawOf(deviceId);
    for (const [table, span] of [
      ['readings_hourly', HOUR],
      ['readings_daily', DAY],
    ] as const) {
      const stored = await rollupRows(t.db, table, deviceId);
      const want = recompute(raw, span);
      expect(stored.length, table).toBe(want.length);
      stored.forEach((s, i) => {
        const w = want[i]!;
        expect([s.quantity, s.t, s.n, s.min, s.max, s.first, s.last]).toEqual([
          w.quantity,
          w.t,
          w.n,
          w.min,
          w.max,
          w.first,
          w.last,
        ]);
        expect(s.total).toBeCloseTo(w.total, 6);
      });
    }
  };

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'Data A' });
    siteB = await buildPlatform(t, { type: 'disaster', name: 'Data B' });
    const termA = await addTerminal(t, admin, siteA, 'MD-A');
    const termB = await addTerminal(t, admin, siteB, 'MD-B');
    wl = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'wl', { moduleId: 3 }));
    wl2 = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'wl2', { moduleId: 3 }));
    rain = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'rain', { moduleId: 2 }));
    tilt = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'tilt', { moduleId: 9 }));
    gnss = await addDevice(t, admin, deviceBody(siteA, termA.terminalId, 'gnss', { moduleId: 1 }));
    rainB = await addDevice(t, admin, deviceBody(siteB, termB.terminalId, 'rainB', { moduleId: 2 }));

    await submit(
      wl,
      WL.map((r, i) => ({
        ts: r.ts,
        values: (i % 48 === 0 ? { waterLevel: r.v, battery: 90 } : { waterLevel: r.v }) as Record<string, number>,
      })),
    );
    // wl2: every 30 minutes through February and March 1 (the data processing target).
    await submit(
      wl2,
      Array.from({ length: 29 * 48 + 1 }, (_, i) => ({
        ts: Date.UTC(2026, 1, 1) + i * 30 * 60_000,
        values: { waterLevel: 5 + (i % 5) * 0.5 },
      })),
    );
    const now = Date.now();
    // Rain: 0.1 to 0.5 mm every 10 minutes over the last 50 hours (offset 5 minutes from any window edge).
    await submit(
      rain,
      Array.from({ length: 300 }, (_, k) => ({
        ts: now - 5 * 60_000 - k * 10 * 60_000,
        values: { rainfall: ((k % 5) + 1) / 10 },
      })),
    );
    await submit(rainB, [{ ts: now - 60_000, values: { rainfall: 3 } }]);
    await submit(
      tilt,
      Array.from({ length: 10 }, (_, k) => ({
        ts: Date.UTC(2026, 0, 10) + k * HOUR,
        values: { tiltX: 1 + k * 0.1, tiltY: -0.5 + k * 0.05 },
      })),
    );
    await submit(
      gnss,
      Array.from({ length: 30 }, (_, k) => ({
        ts: now - (29 - k) * 30 * 60_000,
        values: { dN: k * 0.1, dE: 3, dH: -4, sats: 12 + (k % 3), pdop: 1.5 + (k % 2) * 0.5, fix: k % 4 === 0 ? 0 : 1 },
      })),
    );

    const historyRole = await roleWith(t, admin, 'md-viewer', [
      'monitor',
      'monitor:realtime',
      'monitor:history',
      'monitor:report',
    ]);
    outsider = await userToken(t, admin, { account: 'md-outsider', roleCode: historyRole, platformIds: [siteB] });
    const realtimeOnly = await roleWith(t, admin, 'md-realtime', ['monitor', 'monitor:realtime']);
    viewer = await userToken(t, admin, { account: 'md-rt', roleCode: realtimeOnly, platformIds: [siteA] });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers raw history downsampled with LTTB, keeping the extremes, with rate/acceleration/variation of the raw series', async () => {
    const r = await get<HistoricalData>('/getHistoricalData', {
      deviceId: wl,
      quantity: 'waterLevel',
      range: 'custom',
      startTime: '2026-01-01',
      endTime: '2026-03-31',
      aggregation: 'original',
      maxPoints: 500,
    });
    expect(r.status).toBe(0);
    const s = r.data.devices[0]!.series[0]!;
    expect(s).toMatchObject({ quantity: 'waterLevel', unit: 'm', total: WL.length, downsampled: true });
    expect(s.points.length).toBeLessThanOrEqual(500);
    expect(s.points.length).toBeGreaterThan(400);
    const byTs = new Map(WL.map((x, i) => [iso(x.ts), i]));
    const idx = s.points.map((p) => byTs.get(p.ts)!);
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(WL.length - 1);
    expect(idx).toContain(1000);
    expect(idx).toContain(3000);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
    for (const [k, i] of idx.entries()) {
      const p = s.points[k]!;
      expect(p.value).toBe(WL[i]!.v);
      expect(p.variation).toBeCloseTo(WL[i]!.v - WL[0]!.v, 9);
      if (i === 0) expect(p.rate).toBeNull();
      else expect(p.rate).toBe(round2(WL[i]!.v, WL[i - 1]!.v));
      if (i >= 2)
        expect(p.acceleration).toBe(round2(round2(WL[i]!.v, WL[i - 1]!.v), round2(WL[i - 1]!.v, WL[i - 2]!.v)));
    }
  });

  it('answers one day raw in full, sorted by time', async () => {
    const r = await get<HistoricalData>('/getHistoricalData', {
      deviceId: wl,
      quantity: 'waterLevel',
      startTime: '2026-01-02',
      endTime: '2026-01-02',
    });
    const pts = r.data.devices[0]!.series[0]!.points;
    const day = WL.filter((x) => x.ts >= Date.UTC(2026, 0, 2) && x.ts < Date.UTC(2026, 0, 3));
    expect(pts.map((p) => [p.ts, p.value])).toEqual(day.map((x) => [iso(x.ts), x.v]));
    expect(pts[0]!.rate).toBeNull();
    expect(pts[1]!.rate).toBe(round2(day[1]!.v, day[0]!.v));
    expect(pts[1]!.acceleration).toBeNull();
    expect(pts[5]!.variation).toBeCloseTo(day[5]!.v - day[0]!.v, 9);
  });

  it('aggregates by hour and day from the rollups, by week, month and year from the daily rollups', async () => {
    const cases: { aggregation: string; bucket: (ts: number) => number }[] = [
      { aggregation: 'hour', bucket: (ts) => Math.floor(ts / HOUR) * HOUR },
      { aggregation: 'day', bucket: (ts) => Math.floor(ts / DAY) * DAY },
      {
        aggregation: 'week',
        bucket: (ts) => {
          const d = Math.floor(ts / DAY) * DAY;
          return d - ((new Date(d).getUTCDay() + 6) % 7) * DAY;
        },
      },
      { aggregation: 'month', bucket: (ts) => Date.UTC(new Date(ts).getUTCFullYear(), new Date(ts).getUTCMonth(), 1) },
      { aggregation: 'year', bucket: (ts) => Date.UTC(new Date(ts).getUTCFullYear(), 0, 1) },
    ];
    for (const c of cases) {
      const [start, end] = c.aggregation === 'hour' ? ['2026-01-05', '2026-01-06'] : ['2026-01-01', '2026-03-31'];
      const r = await get<HistoricalData>('/getHistoricalData', {
        deviceId: wl,
        startTime: start!,
        endTime: end!,
        aggregation: c.aggregation,
      });
      expect(r.status, c.aggregation).toBe(0);
      const from = Date.parse(start!);
      const to = Date.parse(end!) + DAY;
      const groups = new Map<number, number[]>();
      for (const x of WL.filter((x) => x.ts >= c.bucket(from) && x.ts < to))
        (groups.get(c.bucket(x.ts)) ?? groups.set(c.bucket(x.ts), []).get(c.bucket(x.ts))!).push(x.v);
      const want = [...groups.entries()].sort((a, b) => a[0] - b[0]);
      const s = r.data.devices[0]!.series;
      expect(s.map((x) => x.quantity)).toEqual(['waterLevel']);
      const pts = s[0]!.points;
      expect(
        pts.map((p) => p.ts),
        c.aggregation,
      ).toEqual(want.map(([b]) => iso(b)));
      pts.forEach((p, i) => {
        const vs = want[i]![1];
        expect(p.value).toBeCloseTo(mean(vs), 6);
        expect([p.min, p.max, p.count]).toEqual([Math.min(...vs), Math.max(...vs), vs.length]);
        expect(p.sum).toBeCloseTo(
          vs.reduce((a, b) => a + b, 0),
          6,
        );
        expect(p.variation).toBeCloseTo(p.value - pts[0]!.value, 6);
        if (i > 0) expect(p.rate).toBe(round2(p.value, pts[i - 1]!.value));
      });
    }
  });

  it('compares several devices; refuses more than 10 and a bad range with translated messages', async () => {
    const r = await get<HistoricalData>('/getHistoricalData', {
      deviceIds: `${wl},${wl2}`,
      startTime: '2026-02-01',
      endTime: '2026-02-01',
      aggregation: 'hour',
    });
    expect(r.data.devices.map((d) => d.deviceId)).toEqual([wl, wl2]);
    expect(r.data.devices[1]!.series[0]!.points).toHaveLength(24);
    const many = await get('/getHistoricalData', { deviceIds: Array.from({ length: 11 }, (_, i) => i + 1).join(',') });
    expect(many.status).toBe(422);
    const bad = await get(
      '/getHistoricalData',
      { deviceId: wl, startTime: '2026-02-01', endTime: '2026-01-01' },
      admin,
      'zh',
    );
    expect(bad).toMatchObject({ status: 422, info: '时间范围无效：开始时间必须早于结束时间' });
    const badTime = await get('/getHistoricalData', { deviceId: wl, startTime: 'yesterday' });
    expect(badTime.status).toBe(422);
    const badQ = await get('/getHistoricalData', { deviceId: wl, quantity: 'tiltX', startTime: '2026-01-01' });
    expect(badQ).toMatchObject({ status: 422, info: 'This device does not measure tiltX' });
  });

  it('answers max (with time), min (with time), avg, count, first, last and change over an unaligned window', async () => {
    const from = Date.UTC(2026, 0, 5, 7, 15);
    const to = Date.UTC(2026, 1, 10, 13, 45);
    const r = await get<MaxMinAvgData>('/getMaxMinAvgData', {
      deviceId: wl,
      startTime: iso(from),
      endTime: iso(to),
    });
    expect(r.status).toBe(0);
    const xs = WL.filter((x) => x.ts >= from && x.ts < to);
    const vs = xs.map((x) => x.v);
    const max = Math.max(...vs);
    const min = Math.min(...vs);
    const st = r.data.stats.find((s) => s.quantity === 'waterLevel')!;
    expect(st).toMatchObject({
      count: xs.length,
      max,
      maxTs: iso(xs.find((x) => x.v === max)!.ts),
      min,
      minTs: iso(xs.find((x) => x.v === min)!.ts),
      first: xs[0]!.v,
      firstTs: iso(xs[0]!.ts),
      last: xs[xs.length - 1]!.v,
      lastTs: iso(xs[xs.length - 1]!.ts),
    });
    expect(st.max).toBe(25);
    expect(st.avg).toBeCloseTo(mean(vs), 9);
    expect(st.change).toBeCloseTo(xs[xs.length - 1]!.v - xs[0]!.v, 9);
  });

  it('limits every read to the caller’s scope: a foreign device answers like a missing one', async () => {
    const missing = await get('/getHistoricalData', { deviceId: 999_999, startTime: '2026-01-01' }, outsider);
    const foreign = await get('/getHistoricalData', { deviceId: wl, startTime: '2026-01-01' }, outsider);
    expect(foreign).toEqual(missing);
    expect(foreign).toMatchObject({ status: 404, info: 'The device does not exist' });
    const mm = await get('/getMaxMinAvgData', { deviceId: wl, startTime: '2026-01-01' }, outsider);
    expect(mm.status).toBe(404);
    const site = await get('/getRealTimeDataByPlatformId', { platformId: siteA }, outsider);
    expect(site).toMatchObject({ status: 404, info: 'The site does not exist' });
    const all = await get<RealTimeDevice[]>('/getRealTimeData', {}, outsider);
    expect(all.data.map((d) => d.deviceId)).toEqual([rainB]);
    const rainOut = await get<RainLatest[]>('/rain/getLatestHoursData', {}, outsider);
    expect(rainOut.data.map((d) => d.deviceId)).toEqual([rainB]);
    const rep = await t.api('GET', '/api/v2/data/report/module/getModuleData', {
      token: outsider,
      query: { platformId: String(siteA), moduleId: '3', startTime: '2026-01-01', endTime: '2026-01-31' },
    });
    expect(rep.status).toBe(404);
    // Permissions: a real-time viewer reads the recent series its screens draw as trails (issue 14: a screen's key
    // allows the screen's calls), within its scope, but may not process data.
    expect((await get('/getHistoricalData', { deviceId: wl }, viewer)).status).toBe(0);
    expect((await post('/deleteData', { deviceId: wl2, ts: iso(Date.UTC(2026, 1, 1)) }, viewer)).status).toBe(
      Status.noPermission,
    );
    expect((await get('/getRealTimeData', { deviceId: wl }, viewer)).status).toBe(0);
  });

  it('answers real-time values, clinometer resultants and the site status', async () => {
    const r = await get<RealTimeDevice[]>('/getRealTimeData', { platformId: siteA, moduleId: 3 });
    expect(r.data.map((d) => d.deviceId)).toEqual([wl, wl2]);
    const w = r.data[0]!;
    expect(w).toMatchObject({
      deviceId: wl,
      platformId: siteA,
      platformName: 'Data A',
      moduleName: 'Water level',
      values: { waterLevel: WL[WL.length - 1]!.v, battery: 90 },
      battery: 90,
      voltage: null,
      lastReadingAt: iso(WL[WL.length - 1]!.ts),
      online: true,
      units: { waterLevel: 'm', voltage: 'V', battery: '%' },
    });
    const c = await get<ClinometerRealTime[]>('/getRealTimeDataForClinometer', { platformId: siteA });
    expect(c.data).toHaveLength(1);
    const tx = 1 + 9 * 0.1;
    const ty = -0.5 + 9 * 0.05;
    expect(c.data[0]!.tiltX).toBeCloseTo(tx, 9);
    const rad = Math.PI / 180;
    const res = Math.atan(Math.hypot(Math.tan(tx * rad), Math.tan(ty * rad))) / rad;
    expect(c.data[0]!.resultant).toBeCloseTo(res, 3);
    const az = (Math.atan2(Math.tan(ty * rad), Math.tan(tx * rad)) / rad + 360) % 360;
    expect(c.data[0]!.azimuth).toBeCloseTo(az, 3);
    const avg = await get<ClinometerAvg[]>('/getAvgDataForClinometer', {
      startTime: '2026-01-10',
      endTime: '2026-01-10',
    });
    expect(avg.data[0]).toMatchObject({ deviceId: tilt, count: 10 });
    expect(avg.data[0]!.tiltX).toBeCloseTo(mean(Array.from({ length: 10 }, (_, k) => 1 + k * 0.1)), 9);
    expect(avg.data[0]!.tiltY).toBeCloseTo(mean(Array.from({ length: 10 }, (_, k) => -0.5 + k * 0.05)), 9);

    await t.db.k.updateTable('devices').set({ state: 'alarm' }).where('id', '=', tilt).execute();
    const st = await t.api<DeviceStatusData>('GET', '/api/v2/data/business/module/getRealTimeDataAndDeviceStatus', {
      token: admin,
      query: { platformId: String(siteA) },
    });
    expect(st.data).toMatchObject({ platformId: siteA, total: 5, online: 5, offline: 0 });
    expect(st.data.counts).toEqual({ normal: 4, alert: 0, alarm: 1, abnormal: 0, offline: 0 });
  });

  it('sums rainfall over the last 1, 3, 6, 12, 24 and 48 hours', async () => {
    const now = Date.now();
    const r = await get<RainLatest[]>('/rain/getLatestHoursData', { platformId: siteA });
    expect(r.data.map((d) => d.deviceId)).toEqual([rain]);
    const readings = Array.from({ length: 300 }, (_, k) => ({
      ts: now - 5 * 60_000 - k * 10 * 60_000,
      v: ((k % 5) + 1) / 10,
    }));
    for (const w of r.data[0]!.windows) {
      const want = readings.filter((x) => x.ts >= now - w.hours * HOUR).reduce((s, x) => s + x.v, 0);
      expect(w.rainfall, `${w.hours}h`).toBeCloseTo(want, 6);
    }
    expect(r.data[0]!.windows.map((w) => w.hours)).toEqual([1, 3, 6, 12, 24, 48]);
    const one = await get<RainLatest[]>('/rain/getLatestHoursData', { deviceId: wl });
    expect(one.status).toBe(404);
  });

  it('answers the GNSS solution, satellite info and solution quality', async () => {
    const g = await get<GnssRealTime[]>('/gnss/getRealTimeDataAndUntie', { platformId: siteA });
    expect(g.data).toHaveLength(1);
    expect(g.data[0]).toMatchObject({ deviceId: gnss, dE: 3, dH: -4, sats: 12 + (29 % 3), pdop: 2, fix: 1 });
    expect(g.data[0]!.dN).toBeCloseTo(2.9, 9);
    expect(g.data[0]!.d2D).toBeCloseTo(Math.hypot(2.9, 3), 9);
    expect(g.data[0]!.d3D).toBeCloseTo(Math.hypot(2.9, 3, 4), 9);
    const s = await get<SatelliteInfo[]>('/satellite/getSatelliteInfo', { deviceId: gnss });
    expect(s.data[0]).toMatchObject({ fix: 1, fixLabel: 'fixed', sats: 14 });
    const io = await get<IonosphereLatest[]>('/ionosphere/getLatestTableData', {});
    expect(io.data.map((x) => x.deviceId)).toEqual([gnss]);
    const ks = Array.from({ length: 30 }, (_, k) => k);
    expect(io.data[0]!.readings24h).toBe(30);
    expect(io.data[0]!.fixedRatio24h).toBeCloseTo(mean(ks.map((k) => (k % 4 === 0 ? 0 : 1))), 9);
    expect(io.data[0]!.avgPdop24h).toBeCloseTo(mean(ks.map((k) => 1.5 + (k % 2) * 0.5)), 9);
    const h = await get<HistoricalData>('/ionosphere/getHistoricalData', { deviceId: gnss, range: '24h' });
    expect(h.data.devices[0]!.series.map((x) => [x.quantity, x.total])).toEqual([
      ['pdop', 30],
      ['sats', 30],
      ['fix', 30],
    ]);
    expect((await get('/ionosphere/getHistoricalData', { deviceId: wl })).status).toBe(404);
    const disp = await get<HistoricalData>('/getHistoricalData', { deviceId: gnss, range: '24h', aggregation: 'hour' });
    expect(disp.data.devices[0]!.series.map((x) => x.quantity)).toEqual(['dN', 'dE', 'dH']);
  });

  it('previews smoothing, then stores it: originals logged, rollups and newest values recomputed', async () => {
    const q = {
      deviceId: wl2,
      quantity: 'waterLevel',
      startTime: '2026-02-28 12:00',
      endTime: '2026-03-02',
      window: 3,
    };
    const p = await get<SmoothPreview>('/getSmoothHandleData', { ...q, method: 'movingAverage' });
    expect(p.status).toBe(0);
    const before = (await rawOf(wl2)).filter((r) => r.ts >= Date.UTC(2026, 1, 28, 12));
    const vs = before.map((r) => r.vals.waterLevel!);
    expect(p.data.points.map((x) => x.original)).toEqual(vs);
    p.data.points.forEach((x, i) => {
      const w = vs.slice(Math.max(0, i - 1), i + 2);
      expect(x.smoothed).toBeCloseTo(mean(w), 9);
    });
    // Nothing stored by the preview.
    expect((await rawOf(wl2)).filter((r) => r.ts >= Date.UTC(2026, 1, 28, 12)).map((r) => r.vals.waterLevel)).toEqual(
      vs,
    );

    const r = await post<{ changed: number }>('/smoothHandleData', { ...q, method: 'movingAverage' });
    expect(r.status).toBe(0);
    const changed = p.data.points.filter((x) => x.smoothed !== x.original).length;
    expect(r.data.changed).toBe(changed);
    const after = (await rawOf(wl2)).filter((x) => x.ts >= Date.UTC(2026, 1, 28, 12));
    after.forEach((x, i) => expect(x.vals.waterLevel).toBeCloseTo(p.data.points[i]!.smoothed, 9));
    const log = await t.db.k.selectFrom('reading_edits').selectAll().where('device_id', '=', wl2).execute();
    expect(log).toHaveLength(changed);
    expect(log.every((l) => l.action === 'smooth')).toBe(true);
    const k = p.data.points.findIndex((x) => x.smoothed !== x.original);
    const first = log.find((l) => new Date(l.ts).getTime() === before[k]!.ts)!;
    expect((typeof first.old_vals === 'string' ? JSON.parse(first.old_vals) : first.old_vals).waterLevel).toBe(vs[k]);
    await expectRollupsExact(wl2);
    const dev = await t.db.k
      .selectFrom('devices')
      .select(['last_values', 'last_reading_at'])
      .where('id', '=', wl2)
      .executeTakeFirstOrThrow();
    const lv = (typeof dev.last_values === 'string' ? JSON.parse(dev.last_values) : dev.last_values) as Record<
      string,
      number
    >;
    expect(lv.waterLevel).toBeCloseTo(after[after.length - 1]!.vals.waterLevel!, 9);
    expect(new Date(dev.last_reading_at!).getTime()).toBe(after[after.length - 1]!.ts);

    const even = await post('/smoothHandleData', { ...q, window: 4 });
    expect(even.status).toBe(422);
  });

  it('deletes readings by window and by timestamps, keeping them in the edit log and the rollups exact', async () => {
    const before = await rawOf(wl2);
    const r = await post<{ deleted: number }>('/deleteData', {
      deviceId: wl2,
      startTime: '2026-02-03 01:10',
      endTime: '2026-02-03 05:00',
    });
    const inWindow = before.filter((x) => x.ts >= Date.UTC(2026, 1, 3, 1, 10) && x.ts < Date.UTC(2026, 1, 3, 5));
    expect(r).toMatchObject({ status: 0, data: { deleted: inWindow.length } });
    expect(inWindow.length).toBe(7);
    const tss = [Date.UTC(2026, 1, 10, 0, 30), Date.UTC(2026, 1, 11, 23, 30)];
    const r2 = await t.api<{ deleted: number }>('POST', `${M}/deleteData`, {
      token: admin,
      body: { deviceId: wl2, ts: tss.map(iso) },
    });
    expect(r2.data.deleted).toBe(2);
    const after = await rawOf(wl2);
    expect(after.length).toBe(before.length - 9);
    expect(after.some((x) => tss.includes(x.ts))).toBe(false);
    const log = await t.db.k
      .selectFrom('reading_edits')
      .selectAll()
      .where('device_id', '=', wl2)
      .where('action', '=', 'delete')
      .execute();
    expect(log).toHaveLength(9);
    expect(log.every((l) => l.new_vals === null)).toBe(true);
    await expectRollupsExact(wl2);
    const none = await post('/deleteData', { deviceId: wl2 });
    expect(none.status).toBe(422);
  });

  it('edits one GNSS reading and recomputes; refuses other types and unknown times', async () => {
    const raw = await rawOf(gnss);
    const target = raw[raw.length - 1]!;
    const r = await post<{ values: Record<string, number> }>('/editGNSSData', {
      deviceId: gnss,
      ts: iso(target.ts),
      dN: 42.5,
    });
    expect(r.status).toBe(0);
    expect(r.data.values).toMatchObject({ dN: 42.5, dE: 3, dH: -4 });
    const g = await get<GnssRealTime[]>('/gnss/getRealTimeDataAndUntie', { deviceId: gnss });
    expect(g.data[0]!.dN).toBe(42.5);
    await expectRollupsExact(gnss);
    const log = await t.db.k.selectFrom('reading_edits').selectAll().where('device_id', '=', gnss).execute();
    expect(log).toHaveLength(1);
    expect(log[0]!.action).toBe('edit');
    expect(await post('/editGNSSData', { deviceId: wl, ts: iso(WL[0]!.ts), dN: 1 })).toMatchObject({ status: 404 });
    expect(await post('/editGNSSData', { deviceId: gnss, ts: '2020-01-01', dN: 1 })).toMatchObject({
      status: 404,
      info: 'The device has no reading at this time',
    });
    expect((await post('/editGNSSData', { deviceId: gnss, ts: iso(target.ts) })).status).toBe(422);
  });

  it('builds the module report by week and month and exports it as a translated workbook', async () => {
    const base = { platformId: siteA, moduleId: 3, deviceName: 'wl', startTime: '2026-01-01', endTime: '2026-02-28' };
    const r = await t.api<ModuleReport>('GET', '/api/v2/data/report/module/getModuleData', {
      token: admin,
      query: Object.fromEntries(Object.entries({ ...base, statisticsType: 'month' }).map(([k, v]) => [k, String(v)])),
    });
    expect(r.status).toBe(0);
    expect(r.data.devices.map((d) => d.deviceId)).toEqual([wl, wl2]);
    const d = r.data.devices[0]!;
    expect(d.rows.map((x) => x.label)).toEqual(['2026-01', '2026-02']);
    const jan = WL.filter((x) => x.ts < Date.UTC(2026, 1, 1)).map((x) => x.v);
    const cell = d.rows[0]!.values.waterLevel!;
    expect([cell.max, cell.min, cell.count, cell.first, cell.last]).toEqual([
      Math.max(...jan),
      Math.min(...jan),
      jan.length,
      jan[0],
      jan[jan.length - 1],
    ]);
    expect(cell.avg).toBeCloseTo(mean(jan), 9);
    expect(cell.change).toBeCloseTo(jan[jan.length - 1]! - jan[0]!, 9);
    const both = WL.filter((x) => x.ts < Date.UTC(2026, 2, 1)).map((x) => x.v);
    expect(d.summary.waterLevel!.count).toBe(both.length);
    expect(d.summary.waterLevel!.avg).toBeCloseTo(mean(both), 9);
    expect(r.data.columns).toEqual(['max', 'min', 'avg', 'change']);

    const wk = await t.api<ModuleReport>('GET', '/api/v2/data/report/module/getModuleData', {
      token: admin,
      query: {
        platformId: String(siteA),
        moduleId: '3',
        deviceName: 'Device wl2',
        startTime: '2026-02-01',
        endTime: '2026-02-14',
        statisticsType: 'week',
        template: 'b',
      },
    });
    expect(wk.data.devices.map((x) => x.deviceId)).toEqual([wl2]);
    // 2026-02-01 is a Sunday: weeks start on Monday 2026-01-26, 02-02, 02-09.
    expect(wk.data.devices[0]!.rows.map((x) => x.label)).toEqual(['2026-01-26', '2026-02-02', '2026-02-09']);
    expect(wk.data.columns).toEqual(['avg']);
    const exact = await t.api<ModuleReport>('GET', '/api/v2/data/report/module/getModuleData', {
      token: admin,
      query: {
        platformId: String(siteA),
        moduleId: '3',
        deviceName: 'device WL',
        startTime: '2026-01-01',
        endTime: '2026-01-01',
      },
    });
    expect(exact.data.devices.map((x) => x.deviceId)).toEqual([wl]);

    const q = new URLSearchParams({
      ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])),
      statisticsType: 'month',
      format: 'xlsx',
      token: admin,
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/data/report/module/getModuleDataReport?${q}`,
      headers: { language: 'zh' },
    });
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="report-\d+-waterLevel-2026-01-01-month-A\.xlsx"/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Device wl (编号 DEV-wl)');
    expect(ws.getRow(1).values).toEqual([undefined, '模块数据报表 · 水位']);
    expect(ws.getRow(3).values).toEqual([undefined, '平台', 'Data A']);
    expect(ws.getRow(7).values).toEqual([undefined, '模板', 'A · 分时段统计']);
    const header = (ws.getRow(12).values as unknown[]).slice(1);
    expect(header).toEqual(['时间', '水位 最大值 (m)', '水位 最小值 (m)', '水位 平均值 (m)', '水位 变化量 (m)']);
    const row = (ws.getRow(13).values as unknown[]).slice(1);
    // Rounded to 2 decimals as the report shows them (half away from zero on the decimal value).
    expect(row).toEqual([
      '2026-01',
      Math.max(...jan),
      Math.min(...jan),
      round2(mean(jan)),
      round2(jan[jan.length - 1]!, jan[0]!),
    ]);
  });

  it('answers the module report as a PDF in the caller’s language, and nothing of a foreign site', async () => {
    const params = {
      platformId: String(siteA),
      moduleId: '3',
      deviceName: 'wl',
      startTime: '2026-01-01',
      endTime: '2026-02-28',
      statisticsType: 'month',
      format: 'pdf',
    };
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v2/data/report/module/getModuleDataReport?${new URLSearchParams({ ...params, token: admin })}`,
      headers: { language: 'zh' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/filename="report-\d+-waterLevel-2026-01-01-month-A\.pdf"/);
    const file = path.join(os.tmpdir(), `md-report-${process.pid}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (process.env.REPORT_PREVIEW) fs.copyFileSync(file, `${process.env.REPORT_PREVIEW}/module-zh.pdf`);
    fs.rmSync(file, { force: true });
    expect(text).toContain('模块数据报表');
    expect(text).toContain('Data A');
    expect(text).toContain(Math.max(...WL.filter((x) => x.ts < Date.UTC(2026, 1, 1)).map((x) => x.v)).toFixed(2));

    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/v2/data/report/module/getModuleDataReport?${new URLSearchParams({ ...params, token: outsider })}`,
    });
    expect(foreign.headers['content-type']).toMatch(/json/);
    expect(foreign.headers['content-disposition']).toBeUndefined();
    expect(JSON.parse(foreign.body).status).not.toBe(200);
  });
});
