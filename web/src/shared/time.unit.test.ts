import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import {
  allTimeZones,
  currentZoneName,
  datesRange,
  formatInZone,
  offsetMinutes,
  periodRange,
  pickedDaysIso,
  startOfDate,
  todayRange,
  wallToInstant,
  zoneLabel,
  type Instants,
} from './time.ts';
import { fmtPeriod, resolveRange } from '../features/monitor/shared/timeRange.ts';

// The process's own zone is none of the zones below: a range computed in the browser's (here the process's)
// zone, or in UTC, cannot pass by accident.
(globalThis as unknown as { process: { env: Record<string, string> } }).process.env.TZ = 'America/Sao_Paulo';

const iso = (r: Instants) => [new Date(r.start).toISOString(), new Date(r.end).toISOString()];
const hours = (r: Instants) => (r.end - r.start) / 3_600_000;

describe('calendar periods in the user zone', () => {
  it('1 January in Asia/Shanghai is 16:00Z to 16:00Z', () => {
    expect(iso(periodRange('day', '2026-01-01', 'Asia/Shanghai'))).toEqual([
      '2025-12-31T16:00:00.000Z',
      '2026-01-01T16:00:00.000Z',
    ]);
  });

  it('Europe/Berlin: the spring-forward day has 23 hours, the fall-back day 25', () => {
    const spring = periodRange('day', '2026-03-29', 'Europe/Berlin');
    expect(iso(spring)).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(hours(spring)).toBe(23);
    const autumn = periodRange('day', '2026-10-25', 'Europe/Berlin');
    expect(iso(autumn)).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
    expect(hours(autumn)).toBe(25);
    expect(hours(periodRange('day', '2026-03-28', 'Europe/Berlin'))).toBe(24);
  });

  it('Asia/Kolkata (UTC+05:30)', () => {
    expect(iso(periodRange('day', '2026-01-01', 'Asia/Kolkata'))).toEqual([
      '2025-12-31T18:30:00.000Z',
      '2026-01-01T18:30:00.000Z',
    ]);
  });

  it('weeks start on Monday, whatever day is picked', () => {
    // 1 January 2026 is a Thursday; its week runs Monday 29 December to Monday 5 January.
    const want = ['2025-12-28T16:00:00.000Z', '2026-01-04T16:00:00.000Z'];
    for (const d of ['2025-12-29', '2026-01-01', '2026-01-04'])
      expect(iso(periodRange('week', d, 'Asia/Shanghai'))).toEqual(want);
    expect(iso(periodRange('week', '2026-01-05', 'Asia/Shanghai'))[0]).toBe('2026-01-04T16:00:00.000Z');
    // The week of the spring-forward Sunday in Berlin is 167 hours long.
    expect(hours(periodRange('week', '2026-03-25', 'Europe/Berlin'))).toBe(167);
  });

  it('months and years', () => {
    expect(iso(periodRange('month', '2026-02-14', 'Europe/Berlin'))).toEqual([
      '2026-01-31T23:00:00.000Z',
      '2026-02-28T23:00:00.000Z',
    ]);
    expect(iso(periodRange('year', '2026-07-01', 'Asia/Kolkata'))).toEqual([
      '2025-12-31T18:30:00.000Z',
      '2026-12-31T18:30:00.000Z',
    ]);
  });

  it('a range of picked dates runs from the first 00:00 to the 24:00 of the last, in either order', () => {
    expect(iso(datesRange('2026-01-03', '2026-01-01', 'Asia/Shanghai'))).toEqual([
      '2025-12-31T16:00:00.000Z',
      '2026-01-03T16:00:00.000Z',
    ]);
    expect(iso(datesRange('2026-01-01', '2026-01-31', 'Asia/Shanghai', 'week'))).toEqual([
      '2025-12-28T16:00:00.000Z',
      '2026-02-01T16:00:00.000Z',
    ]);
  });

  it('a date filter of picked days ends at the last millisecond of the last day in the zone', () => {
    expect(pickedDaysIso(dayjs('2026-01-01'), dayjs('2026-01-02'), 'Asia/Shanghai')).toEqual({
      startTime: '2025-12-31T16:00:00.000Z',
      endTime: '2026-01-02T15:59:59.999Z',
    });
    expect(pickedDaysIso(null, undefined, 'Asia/Shanghai')).toEqual({ startTime: undefined, endTime: undefined });
  });

  it('today starts at 00:00 in the zone, not in UTC or the browser', () => {
    const now = Date.parse('2026-01-01T01:00:00Z'); // 09:00 in Shanghai, 17:00 the day before in Los Angeles
    expect(iso(todayRange('Asia/Shanghai', now))).toEqual(['2025-12-31T16:00:00.000Z', '2026-01-01T01:00:00.000Z']);
    expect(iso(todayRange('America/Los_Angeles', now))[0]).toBe('2025-12-31T08:00:00.000Z');
  });
});

describe('the data screens resolve their ranges in the user zone', () => {
  const now = Date.parse('2026-01-01T01:00:00Z');
  it('custom range of picked days', () => {
    const picked = [dayjs('2026-01-01'), dayjs('2026-01-01')] as [dayjs.Dayjs, dayjs.Dayjs];
    expect(iso(resolveRange({ kind: 'custom', custom: picked }, { zone: 'Asia/Shanghai', now }))).toEqual([
      '2025-12-31T16:00:00.000Z',
      '2026-01-01T16:00:00.000Z',
    ]);
    expect(
      hours(
        resolveRange({ kind: 'custom', custom: [dayjs('2026-10-25'), dayjs('2026-10-25')] }, { zone: 'Europe/Berlin' }),
      ),
    ).toBe(25);
  });
  it('today and the relative ranges', () => {
    expect(iso(resolveRange({ kind: 'today' }, { zone: 'Asia/Shanghai', now }))[0]).toBe('2025-12-31T16:00:00.000Z');
    expect(iso(resolveRange({ kind: '24h' }, { zone: 'Asia/Shanghai', now }))).toEqual([
      '2025-12-31T01:00:00.000Z',
      '2026-01-01T01:00:00.000Z',
    ]);
  });
});

describe('times shown in the zone', () => {
  it('formats instants as the zone reads them', () => {
    expect(formatInZone('2025-12-31T16:00:00Z', 'Asia/Shanghai')).toBe('2026-01-01 00:00:00');
    expect(formatInZone(Date.parse('2026-10-25T00:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25 02:30:00');
    expect(formatInZone(Date.parse('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25 02:30:00');
    expect(formatInZone('2025-12-31T18:30:00.250Z', 'Asia/Kolkata', 'YYYY-MM-DD HH:mm:ss.SSS')).toBe(
      '2026-01-01 00:00:00.250',
    );
    expect(formatInZone(null, 'UTC')).toBe('-');
    expect(formatInZone('not a time', 'UTC')).toBe('-');
  });

  it('a picked wall clock means that time in the user zone, not in the browser', () => {
    expect(new Date(wallToInstant(dayjs('2026-01-01T09:30:00'), 'Asia/Shanghai')).toISOString()).toBe(
      '2026-01-01T01:30:00.000Z',
    );
  });

  it('lists zones by their current names, with UTC', () => {
    const all = allTimeZones();
    expect(all).toContain('UTC');
    expect(all).toContain('Asia/Kolkata');
    expect(all).toContain('Europe/Kyiv');
    expect(all).not.toContain('Asia/Calcutta');
    expect(currentZoneName('Asia/Shanghai')).toBe('Asia/Shanghai');
  });

  it('labels a zone with its offset', () => {
    expect(zoneLabel('Asia/Shanghai')).toBe('UTC+08:00 Asia/Shanghai');
    expect(zoneLabel('Asia/Kolkata')).toBe('UTC+05:30 Asia/Kolkata');
    expect(zoneLabel('Europe/Berlin', Date.parse('2026-07-01T00:00:00Z'))).toBe('UTC+02:00 Europe/Berlin');
    expect(zoneLabel('America/St_Johns', Date.parse('2026-01-01T00:00:00Z'))).toBe('UTC-03:30 America/St_Johns');
    expect(offsetMinutes(Date.parse('2026-01-01T00:00:00Z'), 'UTC')).toBe(0);
  });

  it('an aggregated bucket reads as its period when it starts at midnight in the zone', () => {
    const day = startOfDate('2026-01-01', 'Asia/Shanghai');
    expect(fmtPeriod(day, 'day', 'Asia/Shanghai')).toBe('2026-01-01');
    expect(fmtPeriod(day, 'month', 'Asia/Shanghai')).toBe('2026-01');
    // A UTC day bucket seen from Shanghai starts at 08:00: shown in full, not as a date.
    expect(fmtPeriod('2026-01-01T00:00:00Z', 'day', 'Asia/Shanghai')).toBe('2026-01-01 08:00:00');
  });
});
