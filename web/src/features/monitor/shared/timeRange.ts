import dayjs, { type Dayjs } from 'dayjs';

/** Time ranges of the data screens (spec §9). */
export const TIME_RANGES = ['today', '24h', '3d', '7d', '1m', '3m', 'custom'] as const;
export type TimeRangeKind = (typeof TIME_RANGES)[number];

/** Date aggregation (spec §9): original readings, or by hour, day, week, month, year. */
export const AGGREGATIONS = ['original', 'hour', 'day', 'week', 'month', 'year'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export interface TimeRange {
  kind: TimeRangeKind;
  /** The custom range (inclusive days), used when kind is 'custom'. */
  custom?: [Dayjs, Dayjs] | null;
}

/** The start and end of a range at `now` (custom ranges run from the first day's start to the last day's end). */
export function resolveRange(r: TimeRange, now: Dayjs = dayjs()): { start: Dayjs; end: Dayjs } {
  switch (r.kind) {
    case 'today':
      return { start: now.startOf('day'), end: now };
    case '24h':
      return { start: now.subtract(24, 'hour'), end: now };
    case '3d':
      return { start: now.subtract(3, 'day'), end: now };
    case '7d':
      return { start: now.subtract(7, 'day'), end: now };
    case '1m':
      return { start: now.subtract(30, 'day'), end: now };
    case '3m':
      return { start: now.subtract(90, 'day'), end: now };
    case 'custom': {
      const [a, b] = r.custom ?? [now.startOf('day'), now];
      return { start: a.startOf('day'), end: b.endOf('day') };
    }
  }
}

/** A custom range is complete when both ends are chosen (spec §5: "a complete data range must be filled in"). */
export const isRangeComplete = (r: TimeRange): boolean =>
  r.kind !== 'custom' || (Array.isArray(r.custom) && r.custom.length === 2 && !!r.custom[0] && !!r.custom[1]);

/** The aggregation a range suggests: raw readings up to a week, hourly up to three months, else daily. */
export function suggestedAggregation(r: TimeRange): Aggregation {
  const { start, end } = resolveRange(r);
  const days = end.diff(start, 'day', true);
  if (days <= 7.01) return 'original';
  if (days <= 93) return 'hour';
  return 'day';
}

/** Time as the data screens show it. */
export const fmtTime = (t: string | number | Date | null | undefined): string =>
  t === null || t === undefined ? '-' : dayjs(t).format('YYYY-MM-DD HH:mm:ss');

/** Date format of the spec (§9: yyyy-MM-dd). */
export const fmtDate = (t: Dayjs): string => t.format('YYYY-MM-DD');
