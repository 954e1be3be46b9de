/**
 * Time in the user's own clock (issue 14): calendar days, weeks (Monday), months and years are computed in an
 * IANA time zone (the user's, else the browser's), sent to the server as instants, and every time is shown in
 * that zone. Pure: no React, no storage (the session layer tells it the user's zone with setUserTimeZone), so
 * it runs in the unit tests under node.
 */
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { zoneOffset } from '@geosentry/contract';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Calendar periods of the pickers and reports; weeks start on Monday. */
export type Period = 'day' | 'week' | 'month' | 'year';

/** An instant range [start, end) in epoch milliseconds. */
export interface Instants {
  start: number;
  end: number;
}

const MINUTE = 60_000;

/** True when the runtime knows the zone (an IANA name such as Asia/Shanghai, or UTC). */
export function isValidTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '' || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Current IANA names of zones that ICU still lists by an older name (Intl.supportedValuesOf gives Asia/Calcutta,
 * and Chromium reports it as the browser's zone): users search for and read the current one.
 */
const CURRENT_NAMES: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Europe/Kiev': 'Europe/Kyiv',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Louisville': 'America/Kentucky/Louisville',
};

/** A zone by its current IANA name when the runtime knows that name too (Asia/Calcutta -> Asia/Kolkata). */
export function currentZoneName(zone: string): string {
  const now = CURRENT_NAMES[zone];
  return now && isValidTimeZone(now) ? now : zone;
}

/** The browser's own zone, by its current name (UTC when the runtime cannot tell). */
export function browserTimeZone(): string {
  const z = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isValidTimeZone(z) ? currentZoneName(z) : 'UTC';
}

let userZone: string | null = null;

/** Set by the session layer from user info (null: the user has no zone, the browser's is used). */
export function setUserTimeZone(zone: string | null | undefined): void {
  userZone = isValidTimeZone(zone) ? zone : null;
}

/** The zone times are computed and shown in: the user's, else the browser's. */
export function userTimeZone(): string {
  return userZone ?? browserTimeZone();
}

// ------------------------------------------------------------------------------------------ offsets

/** The zone's offset from UTC at an instant, in minutes (UTC+08:00 is 480): the contract's cached offsets. */
export function offsetMinutes(t: number, zone: string): number {
  return Math.round(zoneOffset(t, zone) / MINUTE);
}

/** "UTC+08:00", "UTC-03:30", "UTC+00:00". */
export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** "UTC+08:00 Asia/Shanghai": the zone with its offset at `at` (now by default). */
export function zoneLabel(zone: string, at: number = Date.now()): string {
  return zone === 'UTC' ? 'UTC' : `${offsetText(offsetMinutes(at, zone))} ${zone}`;
}

// ------------------------------------------------------------------------------------------ display

type TimeInput = string | number | Date | Dayjs | null | undefined;

function toMs(t: TimeInput): number | null {
  if (t === null || t === undefined || t === '') return null;
  const ms = dayjs.isDayjs(t) ? t.valueOf() : typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : +t;
  return Number.isFinite(ms) ? ms : null;
}

/**
 * An instant as wall-clock text in the zone (dayjs format tokens; default "YYYY-MM-DD HH:mm:ss"), '-' when
 * missing or not a time.
 */
export function formatInZone(t: TimeInput, zone: string = userTimeZone(), pattern = 'YYYY-MM-DD HH:mm:ss'): string {
  const ms = toMs(t);
  if (ms === null) return '-';
  return dayjs.utc(ms + offsetMinutes(ms, zone) * MINUTE).format(pattern);
}

/** A timestamp as date and time in the user's zone, or '-' when missing. */
export function formatTime(t: TimeInput): string {
  return formatInZone(t);
}

/** A timestamp as a date (yyyy-MM-dd, spec §9) in the user's zone, or '-' when missing. */
export function formatDate(t: TimeInput): string {
  return formatInZone(t, userTimeZone(), 'YYYY-MM-DD');
}

/** The calendar date (yyyy-MM-dd) of an instant in the zone. */
export function calendarDate(t: number, zone: string): string {
  return formatInZone(t, zone, 'YYYY-MM-DD');
}

/** The hour of the day (0-23) of an instant in the zone. */
export function hourInZone(t: number, zone: string): number {
  return Number(formatInZone(t, zone, 'H'));
}

// ------------------------------------------------------------------------------------------ ranges

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date as yyyy-MM-dd: a date string as is, a picker value by its own calendar fields. */
export function dateOf(d: string | Dayjs): string {
  const s = typeof d === 'string' ? d : d.format('YYYY-MM-DD');
  if (!DATE_RE.test(s) || !dayjs.utc(s).isValid()) throw new Error(`not a date: ${s}`);
  return s;
}

/** The instant 00:00 of a calendar date in the zone (the first instant of the day where midnight is skipped). */
export function startOfDate(date: string, zone: string): number {
  return dayjs.tz(`${dateOf(date)} 00:00:00`, zone).valueOf();
}

const addDays = (date: string, n: number): string => dayjs.utc(date).add(n, 'day').format('YYYY-MM-DD');

/** The first day of the period holding a calendar date: the date, its Monday, the 1st of its month or year. */
export function periodStartDate(period: Period, date: string): string {
  const d = dayjs.utc(dateOf(date));
  switch (period) {
    case 'day':
      return d.format('YYYY-MM-DD');
    case 'week':
      return d.subtract((d.day() + 6) % 7, 'day').format('YYYY-MM-DD');
    case 'month':
      return d.startOf('month').format('YYYY-MM-DD');
    case 'year':
      return d.startOf('year').format('YYYY-MM-DD');
  }
}

/** The first day after the period holding a calendar date. */
export function periodEndDate(period: Period, date: string): string {
  const first = dayjs.utc(periodStartDate(period, date));
  const next = period === 'day' ? first.add(1, 'day') : first.add(1, period === 'week' ? 'week' : period);
  return next.format('YYYY-MM-DD');
}

/**
 * The instants of the period (day, Monday-week, month, year) holding a calendar date, in the zone:
 * 1 January 2026 in Asia/Shanghai is [2025-12-31T16:00Z, 2026-01-01T16:00Z).
 */
export function periodRange(period: Period, date: string | Dayjs, zone: string): Instants {
  const d = dateOf(date);
  return { start: startOfDate(periodStartDate(period, d), zone), end: startOfDate(periodEndDate(period, d), zone) };
}

/** From the start of the first date's period to the end of the last date's period, in the zone. */
export function datesRange(
  first: string | Dayjs,
  last: string | Dayjs,
  zone: string,
  period: Period = 'day',
): Instants {
  const a = dateOf(first);
  const b = dateOf(last);
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  return { start: periodRange(period, lo, zone).start, end: periodRange(period, hi, zone).end };
}

/** Today's calendar date in the zone. */
export function todayDate(zone: string, now: number = Date.now()): string {
  return calendarDate(now, zone);
}

/** "Today" in the zone: from its 00:00 to now. */
export function todayRange(zone: string, now: number = Date.now()): Instants {
  return { start: startOfDate(todayDate(zone, now), zone), end: now };
}

/** The calendar date `n` days after (negative: before) a date. */
export function shiftDate(date: string, n: number): string {
  return addDays(dateOf(date), n);
}

/** A picker value (a Dayjs in the browser's zone) carrying a calendar date, for antd's date pickers. */
export function pickerValue(date: string): Dayjs {
  return dayjs(dateOf(date));
}

/** True when the zone is the browser's own (labels then need not name it). */
export function isBrowserZone(zone: string): boolean {
  return zone === browserTimeZone();
}

/** Every IANA zone the runtime knows (with UTC), for the time-zone picker. */
export function allTimeZones(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
  const list = intl.supportedValuesOf?.('timeZone') ?? [];
  return [...new Set(['UTC', ...list.map(currentZoneName), browserTimeZone()])].filter(isValidTimeZone).sort();
}

/**
 * The instant a picker's wall-clock value (date and time as the picker shows them) means in the zone: 09:30 on
 * 1 January picked by a user in Asia/Shanghai is 01:30Z, whatever the browser's zone.
 */
export function wallToInstant(value: Dayjs, zone: string): number {
  return dayjs.tz(value.format('YYYY-MM-DD HH:mm:ss'), zone).valueOf();
}

/** A picker value showing an instant's wall clock in the zone (the inverse of wallToInstant). */
export function instantToWall(t: number, zone: string): Dayjs {
  return dayjs(formatInZone(t, zone, 'YYYY-MM-DDTHH:mm:ss'));
}

/**
 * A date filter of picked days as ISO instants in the user's zone: the first day's 00:00 and the last
 * millisecond of the last day (for filters whose end is inclusive). A missing end stays undefined.
 */
export function pickedDaysIso(
  first: Dayjs | null | undefined,
  last: Dayjs | null | undefined,
  zone: string = userTimeZone(),
): { startTime: string | undefined; endTime: string | undefined } {
  return {
    startTime: first ? new Date(startOfDate(dateOf(first), zone)).toISOString() : undefined,
    endTime: last ? new Date(periodRange('day', last, zone).end - 1).toISOString() : undefined,
  };
}
