// Time in the user's own clock (issue 14): day, week, month and year buckets, "today" and dates in requests
// follow an IANA time zone (the request's, else the user's, else TIME_ZONE); rainfall buckets are sums.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  bucketStart,
  type AlertCounts,
  type Envelope,
  type LoginResult,
  type HistoricalData,
  type MaxMinAvgData,
  type ModuleReport,
  type RainLatest,
  type UserInfo,
} from '@geosentry/contract';
import { ADMIN_PASSWORD, buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody } from '../devices/testkit.ts';
import { sumOver } from './moduleData.repository.ts';

const M = '/api/v2/data/module';
const MIN = 60_000;
const HOUR = 60 * MIN;
const iso = (t: number) => new Date(t).toISOString();

describe('time zones of history, statistics, reports and counts', () => {
  let t: TestApp;
  let admin: string;
  let wl: number;
  let rain: number;
  let rainNow: number;
  /** Water level: one reading every 10 minutes, 2026-03-20 .. 2026-04-05 and 2026-10-20 .. 2026-11-05 (UTC). */
  const readings: { ts: number; v: number }[] = [];
  for (const [a, b] of [
    [Date.UTC(2026, 2, 20), Date.UTC(2026, 3, 5)],
    [Date.UTC(2026, 9, 20), Date.UTC(2026, 10, 5)],
  ] as const)
    for (let ts = a; ts < b; ts += 10 * MIN) readings.push({ ts, v: ((ts / (10 * MIN)) % 17) + 0.25 });
  /** Rainfall: 0.5 mm every 30 minutes over 2026-03-26 .. 2026-03-31 (UTC). */
  const rainRows: { ts: number; v: number }[] = [];
  for (let ts = Date.UTC(2026, 2, 26); ts < Date.UTC(2026, 2, 31); ts += 30 * MIN)
    rainRows.push({ ts, v: 0.5 + ((ts / (30 * MIN)) % 3) * 0.25 });

  const get = <T>(path: string, query: Record<string, string | number>, token = admin) =>
    t.api<T>('GET', path.startsWith('/api') ? path : `${M}${path}`, {
      token,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
  const submit = async (deviceId: number, rows: { ts: number; values: Record<string, number> }[]) => {
    for (let i = 0; i < rows.length; i += 2000)
      await t.built.ingest.writer.submit(rows.slice(i, i + 2000).map((r) => ({ deviceId, ...r })));
  };
  /** Count and sum of the raw readings in [a, b). */
  const rawIn = (rows: { ts: number; v: number }[], a: number, b: number) => {
    const xs = rows.filter((r) => r.ts >= a && r.ts < b);
    return { n: xs.length, sum: xs.reduce((s, r) => s + r.v, 0) };
  };
  const dayHistory = (deviceId: number, startTime: string, endTime: string, timeZone: string, aggregation = 'day') =>
    get<HistoricalData>('/getHistoricalData', { deviceId, startTime, endTime, timeZone, aggregation });

  beforeAll(async () => {
    // The system zone is UTC here, whatever the machine's: the defaults below are the user's zone or UTC.
    t = await testApp({ timeZone: 'UTC' });
    admin = await t.token();
    const site = await buildPlatform(t, { type: 'disaster', name: 'TZ site' });
    const term = await addTerminal(t, admin, site, 'TZ-1');
    wl = await addDevice(t, admin, deviceBody(site, term.terminalId, 'tz-wl', { moduleId: 3 }));
    rain = await addDevice(t, admin, deviceBody(site, term.terminalId, 'tz-rain', { moduleId: 2 }));
    rainNow = await addDevice(t, admin, deviceBody(site, term.terminalId, 'tz-rain-now', { moduleId: 2 }));
    await submit(
      wl,
      readings.map((r) => ({ ts: r.ts, values: { waterLevel: r.v } })),
    );
    await submit(
      rain,
      rainRows.map((r) => ({ ts: r.ts, values: { rainfall: r.v } })),
    );
  });
  afterAll(() => t.close());

  it('a day in Asia/Shanghai starts at 16:00 UTC the day before; the answer names its zone', async () => {
    const r = await dayHistory(wl, '2026-03-25', '2026-03-26', 'Asia/Shanghai');
    expect(r.status).toBe(Status.ok);
    expect(r.data.timeZone).toBe('Asia/Shanghai');
    expect(r.data.from).toBe('2026-03-24T16:00:00.000Z');
    expect(r.data.to).toBe('2026-03-26T16:00:00.000Z');
    const pts = r.data.devices[0]!.series[0]!.points;
    expect(pts.map((p) => p.ts)).toEqual(['2026-03-24T16:00:00.000Z', '2026-03-25T16:00:00.000Z']);
    const want = rawIn(readings, Date.UTC(2026, 2, 24, 16), Date.UTC(2026, 2, 25, 16));
    expect(pts[0]!.count).toBe(want.n);
    expect(pts[0]!.sum).toBeCloseTo(want.sum, 6);
    // Without timeZone the user's zone applies (none set: TIME_ZONE, UTC here).
    const utc = await get<HistoricalData>('/getHistoricalData', {
      deviceId: wl,
      startTime: '2026-03-25',
      endTime: '2026-03-25',
      aggregation: 'day',
    });
    expect(utc.data.timeZone).toBe('UTC');
    expect(utc.data.devices[0]!.series[0]!.points.map((p) => p.ts)).toEqual(['2026-03-25T00:00:00.000Z']);
  });

  it('Europe/Berlin: 2026-03-29 has 23 hours and 2026-10-25 has 25; counts and sums match the raw readings', async () => {
    for (const [day, start, end, hours] of [
      ['2026-03-29', Date.UTC(2026, 2, 28, 23), Date.UTC(2026, 2, 29, 22), 23],
      ['2026-10-25', Date.UTC(2026, 9, 24, 22), Date.UTC(2026, 9, 25, 23), 25],
    ] as const) {
      const r = await dayHistory(wl, day, day, 'Europe/Berlin');
      expect(r.status).toBe(Status.ok);
      expect([r.data.from, r.data.to]).toEqual([iso(start), iso(end)]);
      expect((end - start) / HOUR).toBe(hours);
      const [p] = r.data.devices[0]!.series[0]!.points;
      const want = rawIn(readings, start, end);
      expect(p!.ts).toBe(iso(start));
      expect(p!.count).toBe(want.n);
      expect(want.n).toBe(hours * 6);
      expect(p!.sum).toBeCloseTo(want.sum, 6);
      // Statistics over the same local day agree.
      const s = await get<MaxMinAvgData>('/getMaxMinAvgData', {
        deviceId: wl,
        startTime: day,
        endTime: day,
        timeZone: 'Europe/Berlin',
      });
      expect(s.data.timeZone).toBe('Europe/Berlin');
      expect(s.data.stats[0]!.count).toBe(want.n);
      expect(s.data.stats[0]!.sum).toBeCloseTo(want.sum, 6);
    }
    // A week of days across the change: each bucket matches the raw readings of its local day.
    const week = await dayHistory(wl, '2026-03-27', '2026-03-31', 'Europe/Berlin');
    const pts = week.data.devices[0]!.series[0]!.points;
    expect(pts.map((p) => p.ts)).toEqual([
      '2026-03-26T23:00:00.000Z',
      '2026-03-27T23:00:00.000Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
      '2026-03-30T22:00:00.000Z',
    ]);
    pts.forEach((p, i) => {
      const end = i + 1 < pts.length ? Date.parse(pts[i + 1]!.ts) : Date.UTC(2026, 2, 31, 22);
      expect(p.count).toBe(rawIn(readings, Date.parse(p.ts), end).n);
    });
  });

  it('Asia/Kolkata (UTC+5:30): day and hour buckets start at the half hour and match the raw readings', async () => {
    const r = await dayHistory(wl, '2026-03-22', '2026-03-23', 'Asia/Kolkata');
    expect(r.status).toBe(Status.ok);
    const pts = r.data.devices[0]!.series[0]!.points;
    expect(pts.map((p) => p.ts)).toEqual(['2026-03-21T18:30:00.000Z', '2026-03-22T18:30:00.000Z']);
    for (const p of pts) {
      const a = Date.parse(p.ts);
      const want = rawIn(readings, a, a + 24 * HOUR);
      expect(p.count).toBe(want.n);
      expect(p.sum).toBeCloseTo(want.sum, 6);
      const vals = readings.filter((x) => x.ts >= a && x.ts < a + 24 * HOUR).map((x) => x.v);
      expect([p.min, p.max]).toEqual([Math.min(...vals), Math.max(...vals)]);
    }
    const h = await get<HistoricalData>('/getHistoricalData', {
      deviceId: wl,
      startTime: '2026-03-22 10:00',
      endTime: '2026-03-22 13:00',
      timeZone: 'Asia/Kolkata',
      aggregation: 'hour',
    });
    const hp = h.data.devices[0]!.series[0]!.points;
    expect(hp.map((p) => p.ts)).toEqual([
      '2026-03-22T04:30:00.000Z',
      '2026-03-22T05:30:00.000Z',
      '2026-03-22T06:30:00.000Z',
    ]);
    for (const p of hp) expect(p.count).toBe(rawIn(readings, Date.parse(p.ts), Date.parse(p.ts) + HOUR).n);
  });

  it('weeks start on Monday local time; months follow the local calendar', async () => {
    // 2026-03-30 is a Monday: in Shanghai its week starts 2026-03-29 16:00 UTC.
    const r = await get<HistoricalData>('/getHistoricalData', {
      deviceId: wl,
      startTime: '2026-03-25',
      endTime: '2026-04-02',
      timeZone: 'Asia/Shanghai',
      aggregation: 'week',
    });
    const pts = r.data.devices[0]!.series[0]!.points;
    expect(pts.map((p) => p.ts)).toEqual(['2026-03-22T16:00:00.000Z', '2026-03-29T16:00:00.000Z']);
    expect(pts[1]!.count).toBe(rawIn(readings, Date.UTC(2026, 2, 29, 16), Date.UTC(2026, 3, 5, 16)).n);
    const m = await get<HistoricalData>('/getHistoricalData', {
      deviceId: wl,
      startTime: '2026-03-25',
      endTime: '2026-04-02',
      timeZone: 'America/New_York',
      aggregation: 'month',
    });
    const mp = m.data.devices[0]!.series[0]!.points;
    expect(mp.map((p) => p.ts)).toEqual(['2026-03-01T05:00:00.000Z', '2026-04-01T04:00:00.000Z']);
    expect(mp[0]!.count).toBe(rawIn(readings, Date.UTC(2026, 2, 1, 5), Date.UTC(2026, 3, 1, 4)).n);
    // The report by week: local periods and labels.
    const rep = await get<ModuleReport>('/api/v2/data/report/module/getModuleData', {
      platformId: (
        await t.db.k.selectFrom('devices').select('platform_id').where('id', '=', wl).executeTakeFirstOrThrow()
      ).platform_id!,
      moduleId: 3,
      startTime: '2026-03-30',
      endTime: '2026-04-03',
      timeZone: 'Asia/Shanghai',
      statisticsType: 'week',
    });
    expect(rep.status).toBe(Status.ok);
    expect(rep.data.timeZone).toBe('Asia/Shanghai');
    const rows = rep.data.devices.find((d) => d.deviceId === wl)!.rows;
    expect(rows.map((x) => [x.period, x.label])).toEqual([['2026-03-29T16:00:00.000Z', '2026-03-30']]);
    expect(rows[0]!.values.waterLevel!.count).toBe(
      rawIn(readings, Date.UTC(2026, 2, 29, 16), Date.UTC(2026, 3, 3, 16)).n,
    );
  });

  it('rainfall is a total: day buckets answer sums, statistics the sum, the report a Total column', async () => {
    const r = await dayHistory(rain, '2026-03-27', '2026-03-28', 'Asia/Shanghai');
    const s = r.data.devices[0]!.series[0]!;
    expect(s.aggregate).toBe('sum');
    expect(s.points.map((p) => p.ts)).toEqual(['2026-03-26T16:00:00.000Z', '2026-03-27T16:00:00.000Z']);
    for (const p of s.points) {
      const want = rawIn(rainRows, Date.parse(p.ts), Date.parse(p.ts) + 24 * HOUR);
      expect(p.value).toBeCloseTo(want.sum, 6);
      expect(p.sum).toBeCloseTo(want.sum, 6);
    }
    // A non-accumulated quantity stays an average.
    const w = await dayHistory(wl, '2026-03-27', '2026-03-27', 'Asia/Shanghai');
    expect(w.data.devices[0]!.series[0]!.aggregate).toBe('avg');
    const p = w.data.devices[0]!.series[0]!.points[0]!;
    expect(p.value).toBeCloseTo(p.sum! / p.count!, 6);
    const st = await get<MaxMinAvgData>('/getMaxMinAvgData', {
      deviceId: rain,
      startTime: '2026-03-27',
      endTime: '2026-03-27',
      timeZone: 'Asia/Shanghai',
    });
    expect(st.data.stats[0]!.aggregate).toBe('sum');
    expect(st.data.stats[0]!.sum).toBeCloseTo(
      rawIn(rainRows, Date.UTC(2026, 2, 26, 16), Date.UTC(2026, 2, 27, 16)).sum,
      6,
    );
    const platformId = (
      await t.db.k.selectFrom('devices').select('platform_id').where('id', '=', rain).executeTakeFirstOrThrow()
    ).platform_id!;
    const rep = await get<ModuleReport>('/api/v2/data/report/module/getModuleData', {
      platformId,
      moduleId: 2,
      startTime: '2026-03-27',
      endTime: '2026-03-28',
      timeZone: 'Asia/Shanghai',
      statisticsType: 'day',
    });
    expect(rep.data.columns).toContain('sum');
    expect(rep.data.columns).not.toContain('avg');
    expect(rep.data.quantities[0]!.aggregate).toBe('sum');
    const row = rep.data.devices.find((d) => d.deviceId === rain)!.rows[0]!;
    expect(row.label).toBe('2026-03-27');
    expect(row.values.rainfall!.sum).toBeCloseTo(
      rawIn(rainRows, Date.UTC(2026, 2, 26, 16), Date.UTC(2026, 2, 27, 16)).sum,
      6,
    );
  });

  it('rainfall window sums are over (t - w, t]: a reading exactly w old is out, one at t is in', async () => {
    const T = Date.UTC(2026, 5, 1, 12); // on the hour: the whole hours in between come from the hourly rollups
    await submit(rainNow, [
      { ts: T, values: { rainfall: 100 } },
      { ts: T + 30 * MIN, values: { rainfall: 1 } },
      { ts: T + HOUR, values: { rainfall: 2 } },
      { ts: T + 2 * HOUR, values: { rainfall: 4 } },
      { ts: T + 3 * HOUR, values: { rainfall: 8 } },
    ]);
    const sum = async (from: number, to: number) => (await sumOver(t.db, [rainNow], 'rainfall', from, to)).get(rainNow);
    expect(await sum(T, T + HOUR)).toBe(3);
    expect(await sum(T, T + 3 * HOUR)).toBe(15);
    expect(await sum(T + 30 * MIN, T + 3 * HOUR)).toBe(14);
    expect(await sum(T - 1, T)).toBe(100);
    expect(await sum(T, T + 1)).toBeUndefined();
  });

  it('latest rainfall windows are (t - w, t]', async () => {
    // A reading exactly one hour old is outside the 1-hour window; one at (almost) now is inside.
    const now = Date.now();
    await submit(rainNow, [
      { ts: now - HOUR - 1000, values: { rainfall: 100 } },
      { ts: now - 1000, values: { rainfall: 1 } },
    ]);
    const r = await get<RainLatest[]>('/rain/getLatestHoursData', { deviceId: rainNow, timeZone: 'Asia/Shanghai' });
    expect(r.status).toBe(Status.ok);
    const w = Object.fromEntries(r.data[0]!.windows.map((x) => [x.hours, x.rainfall]));
    expect(w[1]).toBe(1);
    expect(w[3]).toBe(101);
  });

  it('alert counts: "today" and the 7 days are local days of the zone', async () => {
    const now = Date.now();
    const shanghaiToday = bucketStart(now, 'day', 'Asia/Shanghai');
    const dev = await t.db.k
      .selectFrom('devices')
      .select(['id', 'platform_id'])
      .where('id', '=', wl)
      .executeTakeFirstOrThrow();
    // One alert a minute after local midnight in Shanghai, one a minute before it.
    for (const at of [shanghaiToday + MIN, shanghaiToday - MIN])
      await t.db.k
        .insertInto('alerts')
        .values({
          platform_id: dev.platform_id!,
          device_id: dev.id,
          quantity: 'waterLevel',
          kind: 'single',
          family: `single:waterLevel:threshold:${at}`,
          value_type: 'threshold',
          level: 1,
          first_level: 1,
          threshold: 1,
          first_value: 2,
          last_value: 2,
          first_at: iso(at),
          last_at: iso(at),
          evidence: '{}',
          group_id: null,
          channels: [],
          push_interval_minutes: 0,
        })
        .execute();
    const c = await get<AlertCounts>('/api/v2/data/alert/getCounts', { timeZone: 'Asia/Shanghai' });
    expect(c.status).toBe(Status.ok);
    expect(c.data.timeZone).toBe('Asia/Shanghai');
    const local = (t0: number) => new Date(t0 + 8 * HOUR).toISOString().slice(0, 10);
    expect(c.data.daily.map((d) => d.day).at(-1)).toBe(local(shanghaiToday));
    expect(c.data.today).toBe(1);
    expect(c.data.daily.at(-2)!.count).toBe(1);
    expect(c.data.last7Days).toBe(2);
    const bad = await get('/api/v2/data/alert/getCounts', { timeZone: 'Nowhere/Land' });
    expect(bad.status).toBe(Status.invalid);
  });

  it('the user time zone: set, answered in user info, used by default, cleared; an invalid zone is refused', async () => {
    const info = () => get<UserInfo>('/api/v2/manage/user/getUserInfo', {});
    const set = (timeZone: string) =>
      t.api<{ timeZone: string | null }>('POST', '/api/v2/manage/user/updateUserInfo', {
        token: admin,
        body: { timeZone },
        form: true,
      });
    expect((await info()).data.user.timeZone).toBeNull();
    expect((await info()).data.systemTimeZone).toBe('UTC');
    const ok = await set('Asia/Shanghai');
    expect(ok.status).toBe(Status.ok);
    expect(ok.data.timeZone).toBe('Asia/Shanghai');
    expect((await info()).data.user.timeZone).toBe('Asia/Shanghai');
    // The user's zone is the default of every call.
    const h = await get<HistoricalData>('/getHistoricalData', {
      deviceId: wl,
      startTime: '2026-03-25',
      endTime: '2026-03-25',
      aggregation: 'day',
    });
    expect(h.data.timeZone).toBe('Asia/Shanghai');
    expect(h.data.from).toBe('2026-03-24T16:00:00.000Z');
    const c = await get<AlertCounts>('/api/v2/data/alert/getCounts', {});
    if (c.status === Status.ok) expect(c.data.timeZone).toBe('Asia/Shanghai');
    // Link names (Asia/Kolkata is Asia/Calcutta in Intl's list) are accepted.
    expect((await set('Asia/Kolkata')).status).toBe(Status.ok);
    // Invalid: refused with a translated message, nothing changed.
    for (const bad of ['Mars/Olympus', '+08:00', 'CST', 'asia/shanghai']) {
      const r = await set(bad);
      expect(r.status, bad).toBe(Status.invalid);
      expect(r.info).toContain('IANA');
    }
    const zh = await t.api('POST', '/api/v2/manage/user/updateUserInfo', {
      token: admin,
      lang: 'zh',
      body: { timeZone: 'Nowhere/Land' },
      form: true,
    });
    expect(zh.info).toContain('时区');
    expect((await info()).data.user.timeZone).toBe('Asia/Kolkata');
    // The login answer carries the user's zone and the system's.
    const login = (await t.login('admin', ADMIN_PASSWORD, { flag: 1 })) as Envelope<LoginResult>;
    expect([login.data.timeZone, login.data.systemTimeZone]).toEqual(['Asia/Kolkata', 'UTC']);
    admin = login.data.token;
    const badQuery = await get('/getHistoricalData', { deviceId: wl, timeZone: 'Nowhere/Land' });
    expect(badQuery.status).toBe(Status.invalid);
    expect((await set('')).data.timeZone).toBeNull();
    expect((await info()).data.user.timeZone).toBeNull();
  });
});
