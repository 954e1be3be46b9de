// The calendar of report schedules: when a schedule is due next, and the period a run covers. Pure (epoch ms,
// IANA zones through the contract's wall-clock helpers).
import { instantOfWall, wallTime, type SchedulePeriod, type ScheduleFrequency } from '@geosentry/contract';

const DAY = 86_400_000;

export interface ScheduleWhen {
  frequency: ScheduleFrequency;
  /** ISO weekday 1 (Monday) … 7 (Sunday), weekly. */
  weekday: number | null;
  /** 1–31, monthly (a shorter month: its last day). */
  monthDay: number | null;
  /** HH:mm local. */
  time: string;
  timeZone: string;
}

const isoWeekday = (wallMidnight: number): number => ((new Date(wallMidnight).getUTCDay() + 6) % 7) + 1;
const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();

function matches(s: ScheduleWhen, wallMidnight: number): boolean {
  if (s.frequency === 'daily') return true;
  if (s.frequency === 'weekly') return isoWeekday(wallMidnight) === (s.weekday ?? 1);
  const d = new Date(wallMidnight);
  const want = Math.min(s.monthDay ?? 1, daysInMonth(d.getUTCFullYear(), d.getUTCMonth()));
  return d.getUTCDate() === want;
}

/** The first due time strictly after `after` (epoch ms), on the schedule zone's calendar. */
export function nextDue(s: ScheduleWhen, after: number): number {
  const [hh, mm] = s.time.split(':').map(Number) as [number, number];
  const minutes = (hh * 60 + mm) * 60_000;
  const startDay = Math.floor(wallTime(after, s.timeZone) / DAY) * DAY;
  for (let i = 0; i < 400; i++) {
    const day = startDay + i * DAY;
    if (!matches(s, day)) continue;
    const t = instantOfWall(day + minutes, s.timeZone);
    if (t > after) return t;
  }
  throw new Error('no due time within 400 days');
}

const ymd = (wall: number): string => new Date(wall).toISOString().slice(0, 10);

/**
 * The local dates (first and last, inclusive, yyyy-MM-dd) a run due at `dueAt` covers, on the schedule zone's
 * calendar: each recipient's report reads them in his own zone.
 */
export function periodDates(period: SchedulePeriod, dueAt: number, timeZone: string): { start: string; end: string } {
  const today = Math.floor(wallTime(dueAt, timeZone) / DAY) * DAY;
  switch (period) {
    case 'yesterday':
      return { start: ymd(today - DAY), end: ymd(today - DAY) };
    case 'last7Days':
      return { start: ymd(today - 7 * DAY), end: ymd(today - DAY) };
    case 'lastWeek': {
      const monday = today - (isoWeekday(today) - 1) * DAY;
      return { start: ymd(monday - 7 * DAY), end: ymd(monday - DAY) };
    }
    case 'lastMonth': {
      const d = new Date(today);
      const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
      const last = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0);
      return { start: ymd(first), end: ymd(last) };
    }
  }
}
