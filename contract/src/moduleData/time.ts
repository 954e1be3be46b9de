/**
 * Local time in an IANA time zone, shared by the server and the web (pure, no I/O; the zone data is the
 * JavaScript engine's, Intl).
 *
 * Convention: instants travel as UTC (ISO strings / epoch ms). Calendar buckets (day, ISO week starting
 * Monday, month, year) and "today" are the local calendar of a zone: the user's own zone, else the system's
 * (TIME_ZONE). A bucket is labelled by its local start as an instant. Hour buckets are the hours of the local
 * clock (in a whole-hour zone the UTC hours). A local day may be 23 or 25 hours long (daylight saving).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type CalendarUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

let supported: Set<string> | null = null;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * An IANA time zone name the engine knows: one of `Intl.supportedValuesOf('timeZone')`, `UTC`, or another
 * IANA name the engine accepts (links such as Asia/Kolkata, which the list gives as Asia/Calcutta).
 * Offsets (`+08:00`) and abbreviations (`CST`) are not time zone names.
 */
export function isTimeZone(name: unknown): boolean {
  if (typeof name !== 'string' || name.length === 0 || name.length > 64) return false;
  if (name === 'UTC') return true;
  if (!supported) {
    const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
    supported = new Set(intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : []);
  }
  if (supported.has(name)) return true;
  if (!/^[A-Z][A-Za-z_-]*(\/[A-Z0-9][A-Za-z0-9_+-]*){1,2}$/.test(name)) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone every instant of which is UTC (UTC itself and its links): buckets are plain UTC arithmetic. */
export function isUtcZone(timeZone: string): boolean {
  return /^(Etc\/)?(UTC|UCT|Universal|Zulu|GMT|GMT[+-]?0|Greenwich)$/.test(timeZone);
}

/** The zone's offset at instant t (whole seconds) straight from Intl: a few microseconds per call. */
function intlOffset(t: number, timeZone: string): number {
  const s = Math.floor(t / 1000) * 1000;
  const p = formatter(timeZone).formatToParts(new Date(s));
  let y = 0;
  let mo = 0;
  let d = 0;
  let h = 0;
  let mi = 0;
  let se = 0;
  for (const x of p) {
    if (x.type === 'year') y = Number(x.value);
    else if (x.type === 'month') mo = Number(x.value);
    else if (x.type === 'day') d = Number(x.value);
    else if (x.type === 'hour') h = Number(x.value) % 24;
    else if (x.type === 'minute') mi = Number(x.value);
    else if (x.type === 'second') se = Number(x.value);
  }
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, se, 0);
  return date.getTime() - s;
}

/** A zone's offsets over one UTC year: `offsets[i]` holds from `starts[i]` until the next start. */
interface YearSpans {
  starts: number[];
  offsets: number[];
}
const spansCache = new Map<string, YearSpans>();
const WEEK = 7 * DAY;

/**
 * The offset changes of a zone in a UTC year, found once and kept: the offset sampled weekly, a week whose
 * ends differ walked by day, and each change bisected to the second (offsets change at whole seconds, and
 * no zone changes twice within a day). After that an offset is a lookup, not an Intl call.
 */
function yearSpans(timeZone: string, year: number): YearSpans {
  const key = `${timeZone}|${year}`;
  const cached = spansCache.get(key);
  if (cached) return cached;
  const a = Date.UTC(year, 0, 1);
  const b = Date.UTC(year + 1, 0, 1);
  const spans: YearSpans = { starts: [a], offsets: [intlOffset(a, timeZone)] };
  // The offset at lo differs from `to`, the offset at hi: bisect to the first second of `to`.
  const change = (lo: number, hi: number, to: number): void => {
    while (hi - lo > 1000) {
      const mid = Math.floor((lo + hi) / 2000) * 1000;
      if (mid <= lo || mid >= hi) break;
      if (intlOffset(mid, timeZone) === to) hi = mid;
      else lo = mid;
    }
    spans.starts.push(hi);
    spans.offsets.push(to);
  };
  let prev = a;
  let prevOffset = spans.offsets[0]!;
  while (prev < b) {
    const next = Math.min(prev + WEEK, b - 1000);
    const o = intlOffset(next, timeZone);
    if (o !== prevOffset) {
      let dPrev = prev;
      let dOffset = prevOffset;
      for (let d = prev + DAY; ; d += DAY) {
        const at = Math.min(d, next);
        const od = at === next ? o : intlOffset(at, timeZone);
        if (od !== dOffset) change(dPrev, at, od);
        dPrev = at;
        dOffset = od;
        if (at === next) break;
      }
    }
    prev = next === b - 1000 ? b : next;
    prevOffset = o;
  }
  if (spansCache.size > 20_000) spansCache.clear();
  spansCache.set(key, spans);
  return spans;
}

/** The zone's offset from UTC at instant t, ms (UTC+8 = +28,800,000). */
export function zoneOffset(t: number, timeZone: string): number {
  if (isUtcZone(timeZone)) return 0;
  const s = yearSpans(timeZone, new Date(t).getUTCFullYear());
  let i = s.starts.length - 1;
  while (i > 0 && s.starts[i]! > t) i--;
  return s.offsets[i]!;
}

/** The local wall clock of instant t in the zone, as epoch ms of the same calendar reading in UTC. */
export function wallTime(t: number, timeZone: string): number {
  return isUtcZone(timeZone) ? t : t + zoneOffset(t, timeZone);
}

/**
 * The first instant whose local clock reads `wall` or later: the start of a local period beginning at
 * `wall` (where daylight saving skips that reading, the instant the clock jumps past it).
 */
export function instantOfWall(wall: number, timeZone: string): number {
  if (isUtcZone(timeZone)) return wall;
  const before = zoneOffset(wall - 14 * HOUR, timeZone);
  const after = zoneOffset(wall + 14 * HOUR, timeZone);
  if (before === after) return wall - before;
  let best = Number.POSITIVE_INFINITY;
  for (const o of [before, after]) {
    const t = wall - o;
    if (wallTime(t, timeZone) >= wall && t < best) best = t;
  }
  if (!Number.isFinite(best)) return wall - before;
  // Inside a daylight-saving gap the candidate reads later than `wall`: the clock jumped past it at an
  // instant before the candidate, found by bisection (transitions fall on whole seconds).
  const over = wallTime(best, timeZone) - wall;
  if (over > 0) {
    let lo = best - over;
    let hi = best;
    while (hi - lo > 1000) {
      const mid = Math.floor((lo + hi) / 2000) * 1000;
      if (mid <= lo) break;
      if (wallTime(mid, timeZone) >= wall) hi = mid;
      else lo = mid;
    }
    best = hi;
  }
  return best;
}

const mod = (a: number, b: number): number => ((a % b) + b) % b;

/** Start of the calendar bucket (day, Monday week, month, year) holding the wall time w, as a wall time. */
function wallBucket(w: number, unit: Exclude<CalendarUnit, 'hour'>): number {
  const day = Math.floor(w / DAY) * DAY;
  const d = new Date(day);
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      return day - ((d.getUTCDay() + 6) % 7) * DAY;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

function wallNext(w: number, unit: Exclude<CalendarUnit, 'hour'>): number {
  const d = new Date(w);
  switch (unit) {
    case 'day':
      return w + DAY;
    case 'week':
      return w + 7 * DAY;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    case 'year':
      return Date.UTC(d.getUTCFullYear() + 1, 0, 1);
  }
}

/** Start (an instant) of the local bucket holding instant t. */
export function bucketStart(t: number, unit: CalendarUnit, timeZone: string): number {
  if (unit === 'hour') return t - mod(t + (isUtcZone(timeZone) ? 0 : zoneOffset(t, timeZone)), HOUR);
  const w = wallBucket(wallTime(t, timeZone), unit);
  const s = instantOfWall(w, timeZone);
  return s <= t ? s : instantOfWall(wallBucket(w - 1, unit), timeZone);
}

/** Start of the local bucket after the one starting at `start`. */
export function nextBucket(start: number, unit: CalendarUnit, timeZone: string): number {
  if (unit === 'hour') {
    if (isUtcZone(timeZone)) return start + HOUR;
    const n = start + HOUR;
    let m = n - mod(n + zoneOffset(n, timeZone), HOUR);
    if (m <= start) m += HOUR;
    return m;
  }
  const w = wallBucket(wallTime(start, timeZone), unit);
  return instantOfWall(wallNext(w, unit), timeZone);
}

/**
 * The local bucket starts covering [from, to): b[0] = start of the bucket holding `from`, then each next
 * start, the last one the first at or after `to` (so there are b.length - 1 whole buckets).
 */
export function bucketBounds(from: number, to: number, unit: CalendarUnit, timeZone: string): number[] {
  const out = [bucketStart(from, unit, timeZone)];
  while (out[out.length - 1]! < to) out.push(nextBucket(out[out.length - 1]!, unit, timeZone));
  if (out.length === 1) out.push(nextBucket(out[0]!, unit, timeZone));
  return out;
}

/** The local calendar reading of instant t: yyyy-MM-dd HH:mm:ss. */
export function formatLocal(t: number, timeZone: string): string {
  return new Date(wallTime(t, timeZone)).toISOString().slice(0, 19).replace('T', ' ');
}
