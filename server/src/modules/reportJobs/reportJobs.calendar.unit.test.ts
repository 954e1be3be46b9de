import { describe, expect, it } from 'vitest';
import { nextDue, periodDates } from './reportJobs.calendar.ts';

const sh = (s: string) => Date.parse(`${s}+08:00`);

describe('schedule calendar', () => {
  it('finds the next daily, weekly and monthly due time in the schedule’s zone', () => {
    const daily = {
      frequency: 'daily',
      weekday: null,
      monthDay: null,
      time: '07:30',
      timeZone: 'Asia/Shanghai',
    } as const;
    expect(nextDue(daily, sh('2026-11-02T07:00:00'))).toBe(sh('2026-11-02T07:30:00'));
    expect(nextDue(daily, sh('2026-11-02T07:30:00'))).toBe(sh('2026-11-03T07:30:00'));
    // 2026-11-02 is a Monday; weekly on Friday (5).
    const weekly = { ...daily, frequency: 'weekly', weekday: 5 } as const;
    expect(nextDue(weekly, sh('2026-11-02T12:00:00'))).toBe(sh('2026-11-06T07:30:00'));
    const monthly = { ...daily, frequency: 'monthly', monthDay: 1, time: '08:00' } as const;
    expect(nextDue(monthly, sh('2026-11-02T00:00:00'))).toBe(sh('2026-12-01T08:00:00'));
    // The 31st of a 30-day month is its last day.
    const last = { ...monthly, monthDay: 31 } as const;
    expect(nextDue(last, sh('2026-11-02T00:00:00'))).toBe(sh('2026-11-30T08:00:00'));
    expect(nextDue(last, sh('2027-02-01T00:00:00'))).toBe(sh('2027-02-28T08:00:00'));
  });

  it('follows daylight saving: 07:00 in Berlin is 06:00 UTC in winter, 05:00 in summer', () => {
    const s = { frequency: 'daily', weekday: null, monthDay: null, time: '07:00', timeZone: 'Europe/Berlin' } as const;
    expect(new Date(nextDue(s, Date.parse('2026-03-28T12:00:00Z'))).toISOString()).toBe('2026-03-29T05:00:00.000Z');
    expect(new Date(nextDue(s, Date.parse('2026-03-27T12:00:00Z'))).toISOString()).toBe('2026-03-28T06:00:00.000Z');
  });

  it('covers yesterday, the last 7 days, last week and last month before the due time', () => {
    // Due on Tuesday 2026-12-01 at 00:30 in Shanghai (still 30 November in UTC).
    const due = sh('2026-12-01T00:30:00');
    expect(periodDates('yesterday', due, 'Asia/Shanghai')).toEqual({ start: '2026-11-30', end: '2026-11-30' });
    expect(periodDates('last7Days', due, 'Asia/Shanghai')).toEqual({ start: '2026-11-24', end: '2026-11-30' });
    expect(periodDates('lastWeek', due, 'Asia/Shanghai')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(periodDates('lastMonth', due, 'Asia/Shanghai')).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    expect(periodDates('lastMonth', Date.parse('2027-01-01T08:00:00Z'), 'UTC')).toEqual({
      start: '2026-12-01',
      end: '2026-12-31',
    });
  });
});
