/**
 * Pure helpers of the monitoring query API shared by the server and the web: time ranges, aggregation
 * names, wind direction names, tilt resultant. No I/O.
 */
import type { Language } from '../api/envelope.ts';
import { bucketStart, instantOfWall, nextBucket, wallTime } from './time.ts';

type Labels = Record<Language, string>;

/** Time ranges of history screens (spec §9). Dates are local to the request's time zone (see time.ts). */
export const TIME_RANGES = ['today', '24h', '3d', '7d', '1m', '3m', 'custom'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
export const TIME_RANGE_LABELS: Record<TimeRange, Labels> = {
  today: { en: 'Today', zh: '今天', ko: '오늘' },
  '24h': { en: 'Last 24 hours', zh: '最近24小时', ko: '최근 24시간' },
  '3d': { en: 'Last 3 days', zh: '最近3天', ko: '최근 3일' },
  '7d': { en: 'Last 7 days', zh: '最近7天', ko: '최근 7일' },
  '1m': { en: 'Last month', zh: '最近1个月', ko: '최근 1개월' },
  '3m': { en: 'Last 3 months', zh: '最近3个月', ko: '최근 3개월' },
  custom: { en: 'Custom', zh: '自定义', ko: '사용자 지정' },
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Length of each relative range (1m = 30 days, 3m = 90 days). */
export const RANGE_SPAN_MS: Record<Exclude<TimeRange, 'today' | 'custom'>, number> = {
  '24h': DAY,
  '3d': 3 * DAY,
  '7d': 7 * DAY,
  '1m': 30 * DAY,
  '3m': 90 * DAY,
};

/** Date aggregation (spec §9): raw readings, or buckets by local hour, day, ISO week (Monday), month, year. */
export const AGGREGATIONS = ['original', 'hour', 'day', 'week', 'month', 'year'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const AGGREGATION_LABELS: Record<Aggregation, Labels> = {
  original: { en: 'Original', zh: '原始数据', ko: '원본' },
  hour: { en: 'By hour', zh: '按小时', ko: '시간별' },
  day: { en: 'By day', zh: '按天', ko: '일별' },
  week: { en: 'By week', zh: '按周', ko: '주별' },
  month: { en: 'By month', zh: '按月', ko: '월별' },
  year: { en: 'By year', zh: '按年', ko: '연별' },
};

/** Report periods (spec §9 date aggregations): each reading, or calendar hours, days, weeks, months, years. */
export const STATISTICS_TYPES = AGGREGATIONS;
export type StatisticsType = (typeof STATISTICS_TYPES)[number];
/** The longest period a module report covers, by its statistics type (days). */
export const MODULE_REPORT_MAX_DAYS: Record<StatisticsType, number> = {
  original: 31,
  hour: 92,
  day: 1830,
  week: 3660,
  month: 3660,
  year: 3660,
};

/**
 * Report templates A to E (spec §9): which statistics the report columns show per quantity.
 * A: all; B: average; C: maximum and minimum; D: change; E: first, last and change.
 */
export const REPORT_TEMPLATES = ['A', 'B', 'C', 'D', 'E'] as const;
export type ReportTemplate = (typeof REPORT_TEMPLATES)[number];
/** `sum` replaces `avg` in the columns of a report whose quantities are all accumulated (rainfall). */
export const REPORT_STATS = ['max', 'min', 'avg', 'first', 'last', 'change', 'count', 'sum'] as const;
export type ReportStat = (typeof REPORT_STATS)[number];
export const REPORT_TEMPLATE_COLUMNS: Record<ReportTemplate, readonly ReportStat[]> = {
  A: ['max', 'min', 'avg', 'change'],
  B: ['avg'],
  C: ['max', 'min'],
  D: ['change'],
  E: ['first', 'last', 'change'],
};
export const REPORT_STAT_LABELS: Record<ReportStat, Labels> = {
  max: { en: 'Max', zh: '最大值', ko: '최대값' },
  min: { en: 'Min', zh: '最小值', ko: '최소값' },
  avg: { en: 'Average', zh: '平均值', ko: '평균' },
  first: { en: 'First', zh: '首值', ko: '첫 값' },
  last: { en: 'Last', zh: '末值', ko: '마지막 값' },
  change: { en: 'Change', zh: '变化量', ko: '변화량' },
  count: { en: 'Readings', zh: '数据条数', ko: '데이터 수' },
  sum: { en: 'Total', zh: '累计值', ko: '합계' },
};

/** Rainfall windows in hours (spec §9). */
export const RAIN_WINDOWS_HOURS = [1, 3, 6, 12, 24, 48] as const;

/** Smoothing methods of data processing (centred window of `window` readings, odd, 3..101). */
export const SMOOTH_METHODS = ['movingAverage', 'median'] as const;
export type SmoothMethod = (typeof SMOOTH_METHODS)[number];

/** Limits of the history calls. */
export const MODULE_DATA_LIMITS = {
  defaultMaxPoints: 2000,
  maxPoints: 5000,
  /** Devices in one comparison (deviceIds). */
  maxCompareDevices: 10,
  /** Raw readings one `original` query may read before downsampling; above it, ask for an aggregation. */
  maxRawReadings: 1_000_000,
  /** Readings one smoothing preview or smoothing run may touch. */
  maxSmoothReadings: 50_000,
  minSmoothWindow: 3,
  maxSmoothWindow: 101,
  /** Timestamps in one deleteData call. */
  maxDeleteTimestamps: 1000,
} as const;

/**
 * Parses a time given as yyyy-MM-dd (midnight), yyyy-MM-dd HH:mm[:ss] (a local reading), ISO 8601 (with or
 * without zone; without = a local reading) or epoch milliseconds. Local readings are read in `timeZone`
 * (default UTC). Returns epoch ms, or null when it is not a time.
 */
export function parseTime(v: unknown, timeZone = 'UTC'): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (/^\d{10,14}$/.test(s)) return Number(s);
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) {
    const day = utc(+m[1]!, +m[2]!, +m[3]!, 0, 0, 0, 0);
    return day === null ? null : instantOfWall(day, timeZone);
  }
  m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!m) return null;
  const ms = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  const base = utc(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, m[6] ? +m[6] : 0, ms);
  if (base === null) return null;
  const z = m[8];
  if (!z) return instantOfWall(base, timeZone);
  if (z === 'Z') return base;
  const sign = z.startsWith('-') ? -1 : 1;
  const digits = z.slice(1).replace(':', '');
  const off = (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  return base - sign * off;
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number): number | null {
  const t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const dt = new Date(t);
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null;
  if (h > 23 || mi > 59 || s > 59) return null;
  return t;
}

/** A date-only string (yyyy-MM-dd): as an end time it means the end of that day. */
export function isDateOnly(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim());
}

/** A resolved time range: `from` inclusive, `to` exclusive, epoch ms. */
export interface TimeWindow {
  from: number;
  to: number;
}

/**
 * Resolves a range name (or custom start/end) to [from, to). Relative ranges end now; `today` starts at
 * local midnight of `timeZone` (default UTC). Custom: startTime required; endTime defaults to now; a
 * date-only endTime includes that local day (23 or 25 hours on a daylight-saving day). Local readings
 * are read in `timeZone`. Returns null when custom times are missing or invalid or the window is empty.
 */
export function resolveRange(
  range: TimeRange | undefined,
  startTime: string | number | undefined,
  endTime: string | number | undefined,
  now: number = Date.now(),
  timeZone = 'UTC',
): TimeWindow | null {
  const r: TimeRange = range ?? (startTime !== undefined ? 'custom' : '24h');
  if (r === 'today') return { from: bucketStart(now, 'day', timeZone), to: now };
  if (r !== 'custom') return { from: now - RANGE_SPAN_MS[r], to: now };
  const from = parseTime(startTime, timeZone);
  if (from === null) return null;
  let to = endTime === undefined || endTime === '' ? now : parseTime(endTime, timeZone);
  if (to === null) return null;
  if (isDateOnly(endTime)) to = nextBucket(to, 'day', timeZone);
  return to > from ? { from, to } : null;
}

/** Spec §9's 2-decimal rate on decimal values, and float-noise removal: one implementation, in numbers.ts. */
export { clean, round2, round2Exact } from './numbers.ts';

const WIND_16: Record<Language, readonly string[]> = {
  en: [
    'North',
    'North-northeast',
    'Northeast',
    'East-northeast',
    'East',
    'East-southeast',
    'Southeast',
    'South-southeast',
    'South',
    'South-southwest',
    'Southwest',
    'West-southwest',
    'West',
    'West-northwest',
    'Northwest',
    'North-northwest',
  ],
  zh: [
    '北',
    '北东北',
    '东北',
    '东东北',
    '东',
    '东东南',
    '东南',
    '南东南',
    '南',
    '南西南',
    '西南',
    '西西南',
    '西',
    '西西北',
    '西北',
    '北西北',
  ],
  ko: [
    '북',
    '북북동',
    '북동',
    '동북동',
    '동',
    '동남동',
    '남동',
    '남남동',
    '남',
    '남남서',
    '남서',
    '서남서',
    '서',
    '서북서',
    '북서',
    '북북서',
  ],
};

/**
 * The compass name of a wind direction (degrees clockwise from north) with 4, 8 or 16 points (spec §4:
 * 8 names, 90-degree bands for one use, 16 elsewhere). '--' when the speed is 0 or the angle is not a number.
 */
export function windDirectionName(angle: number, points: 4 | 8 | 16, lang: Language, speed?: number): string {
  if (speed === 0 || !Number.isFinite(angle)) return '--';
  const a = ((angle % 360) + 360) % 360;
  const step = 360 / points;
  const i = Math.round(a / step) % points;
  return WIND_16[lang][i * (16 / points)]!;
}

/**
 * Resultant tilt of a biaxial clinometer: the angle of the tilt from vertical, atan(sqrt(tan²x + tan²y)),
 * and its azimuth, atan2(tan y, tan x) in degrees 0..360 from the X axis towards the Y axis. Both rounded
 * to 4 decimals.
 */
export function tiltResultant(tiltX: number, tiltY: number): { resultant: number; azimuth: number } {
  const rad = Math.PI / 180;
  const tx = Math.tan(tiltX * rad);
  const ty = Math.tan(tiltY * rad);
  const resultant = Math.atan(Math.hypot(tx, ty)) / rad;
  let azimuth = Math.atan2(ty, tx) / rad;
  if (azimuth < 0) azimuth += 360;
  const r4 = (v: number) => Math.round(v * 1e4) / 1e4;
  return { resultant: r4(resultant), azimuth: tx === 0 && ty === 0 ? 0 : r4(azimuth) % 360 };
}

/**
 * Period label of a report row / aggregated bucket start: day yyyy-MM-dd, week yyyy-MM-dd (Monday), month
 * yyyy-MM, year yyyy, hour yyyy-MM-dd HH:00, original yyyy-MM-dd HH:mm:ss, read on the local calendar of `timeZone` (default UTC).
 */
export function periodLabel(bucketIso: string, kind: StatisticsType, timeZone = 'UTC'): string {
  const local = timeZone === 'UTC' ? bucketIso : new Date(wallTime(Date.parse(bucketIso), timeZone)).toISOString();
  const d = local.slice(0, 10);
  switch (kind) {
    case 'original':
      return `${d} ${local.slice(11, 19)}`;
    case 'hour':
      return `${d} ${local.slice(11, 13)}:00`;
    case 'month':
      return local.slice(0, 7);
    case 'year':
      return local.slice(0, 4);
    default:
      return d;
  }
}
