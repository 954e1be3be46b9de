import type { Dayjs } from 'dayjs';
import type { Aggregation, TimeRange as TimeRangeKind } from '@geosentry/contract';
import {
  datesRange,
  formatInZone,
  formatTime,
  pickerValue,
  shiftDate,
  todayDate,
  todayRange,
  userTimeZone,
  type Instants,
  type Period,
} from '../../../shared/time.ts';

/** Time ranges of the data screens (spec §9) and date aggregations: the contract's. */
export { AGGREGATIONS, TIME_RANGES, type Aggregation, type TimeRange as TimeRangeKind } from '@geosentry/contract';

export interface TimeRange {
  kind: TimeRangeKind;
  /** The custom range (inclusive calendar days, weeks, months or years), used when kind is 'custom'. */
  custom?: [Dayjs, Dayjs] | null;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Length of the relative ranges (1 month = 30 days, 3 months = 90 days, as the server counts them). */
const SPAN_MS: Record<'24h' | '3d' | '7d' | '1m' | '3m', number> = {
  '24h': DAY,
  '3d': 3 * DAY,
  '7d': 7 * DAY,
  '1m': 30 * DAY,
  '3m': 90 * DAY,
};

/** The calendar period a custom range is picked in: weeks, months or years when aggregating by them, else days. */
export const periodOf = (a: Aggregation | undefined): Period =>
  a === 'week' || a === 'month' || a === 'year' ? a : 'day';

/**
 * The instants [start, end) of a range in the zone (the user's by default): "today" from 00:00 in the zone to
 * now, relative ranges back from now, a custom range from the start of its first day (week, month, year) to
 * the end of its last one, all in the zone.
 */
export function resolveRange(r: TimeRange, opts: { zone?: string; now?: number; period?: Period } = {}): Instants {
  const zone = opts.zone ?? userTimeZone();
  const now = opts.now ?? Date.now();
  switch (r.kind) {
    case 'today':
      return todayRange(zone, now);
    case 'custom': {
      const [a, b] = r.custom ?? [todayDate(zone, now), todayDate(zone, now)];
      return datesRange(a, b, zone, opts.period ?? 'day');
    }
    default:
      return { start: now - SPAN_MS[r.kind], end: now };
  }
}

/** A custom range's default: the last seven calendar days in the zone, as picker values. */
export function defaultCustom(zone: string = userTimeZone(), now: number = Date.now()): [Dayjs, Dayjs] {
  const today = todayDate(zone, now);
  return [pickerValue(shiftDate(today, -6)), pickerValue(today)];
}

/** A custom range is complete when both ends are chosen (spec §5: "a complete data range must be filled in"). */
export const isRangeComplete = (r: TimeRange): boolean =>
  r.kind !== 'custom' || (Array.isArray(r.custom) && r.custom.length === 2 && !!r.custom[0] && !!r.custom[1]);

/** The aggregation a range suggests: raw readings up to a week, hourly up to three months, else daily. */
export function suggestedAggregation(r: TimeRange): Aggregation {
  const { start, end } = resolveRange(r);
  const days = (end - start) / DAY;
  if (days <= 7.01) return 'original';
  if (days <= 93) return 'hour';
  return 'day';
}

/** Time as the data screens show it (in the user's zone). */
export const fmtTime = (t: string | number | Date | null | undefined): string => formatTime(t);

/**
 * The start of an aggregated bucket as its period reads: hour "yyyy-MM-dd HH:mm", day and week "yyyy-MM-dd",
 * month "yyyy-MM", year "yyyy"; the full time when the bucket does not start at midnight in the zone (a server
 * that buckets in another zone), so a wrong bucket never looks like a right one.
 */
export function fmtPeriod(ts: string | number, aggregation: Aggregation, zone: string = userTimeZone()): string {
  if (aggregation === 'original') return formatInZone(ts, zone);
  if (aggregation === 'hour') return formatInZone(ts, zone, 'YYYY-MM-DD HH:mm');
  const ms = typeof ts === 'number' ? ts : Date.parse(ts);
  if (formatInZone(ms, zone, 'HH:mm:ss') !== '00:00:00') return formatInZone(ms, zone);
  if (aggregation === 'month') return formatInZone(ms, zone, 'YYYY-MM');
  if (aggregation === 'year') return formatInZone(ms, zone, 'YYYY');
  return formatInZone(ms, zone, 'YYYY-MM-DD');
}

/** Date format of the spec (§9: yyyy-MM-dd) of a picker value (its own calendar date). */
export const fmtDate = (t: Dayjs): string => t.format('YYYY-MM-DD');
