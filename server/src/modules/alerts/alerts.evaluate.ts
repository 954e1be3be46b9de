import {
  RAINFALL_WINDOWS_HOURS,
  WINDOW_UNIT_MS,
  type AlertDirection,
  type AlertLevel,
  type AlertValueType,
  type WindowUnit,
  round2,
} from '@geosentry/contract';

/**
 * Pure alert evaluation (no I/O): the derived values of spec §9 and the decision of each rule at a reading.
 * A series is one quantity of one device, oldest first.
 */
export interface Point {
  ts: number;
  v: number;
}

/**
 * A series as two columns, times and values (index i is the i-th reading): no object per reading. The engine
 * keeps days of readings per device in these; as point objects (an object and two boxed numbers each) they were
 * most of the server's live heap, and each major garbage collection paused ingest for 100-400 ms marking and
 * moving them.
 */
export interface Series {
  readonly ts: readonly number[];
  readonly v: readonly number[];
}

/** The columns of a list of points. */
export function columns(points: readonly Point[]): { ts: number[]; v: number[] } {
  const ts = new Array<number>(points.length);
  const v = new Array<number>(points.length);
  for (let i = 0; i < points.length; i++) {
    ts[i] = points[i]!.ts;
    v[i] = points[i]!.v;
  }
  return { ts, v };
}

/** The part of a rule the evaluation needs. */
export interface EvalRule {
  id: number;
  level: AlertLevel;
  valueType: AlertValueType;
  value: number;
  rateValue: number | null;
  direction: AlertDirection;
  windowN: number | null;
  windowUnit: WindowUnit | null;
  ratio: number | null;
}

/** Everything computed at one reading for one rule. */
export interface Computed {
  /** The value compared with the alert value (null: not computable, e.g. the first reading for a rate). */
  metric: number | null;
  pass: boolean;
  base: number | null;
  change: number | null;
  rate: number | null;
  acceleration: number | null;
}

/** Spec §9's 2 decimals on decimal values, half away from zero: the contract's one `round2`, as in history. */
export { round2 };
/** Removes float noise (0.1 + 0.2) from derived values without changing their meaning. */
export const tidy = (x: number): number => Math.round(x * 1e9) / 1e9;

export function windowMs(r: Pick<EvalRule, 'windowN' | 'windowUnit'>): number | null {
  return r.windowN && r.windowUnit ? r.windowN * WINDOW_UNIT_MS[r.windowUnit] : null;
}

/** How far back before the first new reading a rule needs stored readings (ms), and how many readings before. */
export function lookbackOf(r: EvalRule): { ms: number; points: number } {
  const w = windowMs(r) ?? 0;
  switch (r.valueType) {
    case 'threshold':
      return { ms: r.ratio ? w : 0, points: 0 };
    case 'cumulativeChange':
      return { ms: r.ratio ? w : 0, points: 0 };
    case 'currentChange':
    case 'increment':
      return { ms: w * (r.ratio ? 2 : 1), points: 0 };
    case 'rate':
    case 'thresholdRate':
      return { ms: r.ratio ? w : 0, points: r.ratio ? 500 : 1 };
    case 'acceleration':
      return { ms: r.ratio ? w : 0, points: r.ratio ? 500 : 2 };
    case 'rainfallIntensity':
      return { ms: Math.max(...RAINFALL_WINDOWS_HOURS) * 3_600_000 * (r.ratio ? 2 : 1), points: 0 };
  }
}

/**
 * How far a reading's effect reaches forward under a rule: adding a reading at index L (a late one) can change
 * the decision at the next `points` readings and at every later reading up to `ms` after the last of those.
 * The mirror of lookbackOf: a decision at t depends on the readings of (t - window, t] (twice the window when
 * a ratio counts readings whose own values look back a window), and rate / acceleration on the one / two
 * readings before. cumulativeChange's base is the device's initial value (or its first stored reading: a late
 * reading older than every stored one is not followed through the whole history).
 */
export function reachOf(r: EvalRule): { ms: number; points: number } {
  const w = windowMs(r) ?? 0;
  const ratio = r.ratio ? w : 0;
  switch (r.valueType) {
    case 'threshold':
    case 'cumulativeChange':
      return { ms: ratio, points: 0 };
    case 'currentChange':
    case 'increment':
      return { ms: w + ratio, points: 0 };
    case 'rate':
    case 'thresholdRate':
      return { ms: ratio, points: 1 };
    case 'acceleration':
      return { ms: ratio, points: 2 };
    case 'rainfallIntensity':
      return { ms: Math.max(...RAINFALL_WINDOWS_HOURS) * 3_600_000 + ratio, points: 0 };
  }
}

/** The widest reach of a list of rules (reachOf). */
export function reachOfAll(rules: readonly EvalRule[]): { ms: number; points: number } {
  let ms = 0;
  let points = 0;
  for (const r of rules) {
    const x = reachOf(r);
    if (x.ms > ms) ms = x.ms;
    if (x.points > points) points = x.points;
  }
  return { ms, points };
}

/**
 * The readings to judge in a pass: the new ones (`idx`, indices into `ts`, sorted) and, when some of them are
 * late (before `judgedUpTo`, the newest reading already judged for the device), every later reading within
 * their reach (reachOf), whose rate, acceleration, window sum or base the late reading changed. Answers `idx`
 * itself when nothing is late (the usual case: no allocation, no walk).
 */
export function judgeIndices(
  ts: readonly number[],
  idx: readonly number[],
  judgedUpTo: number,
  reach: { ms: number; points: number },
): readonly number[] {
  if (idx.length === 0 || ts[idx[0]!]! >= judgedUpTo || (reach.ms === 0 && reach.points === 0)) return idx;
  const out: number[] = [];
  let k = 0;
  let untilIndex = -1;
  let untilTs = -Infinity;
  for (let i = idx[0]!; i < ts.length; i++) {
    const fresh = k < idx.length && idx[k] === i;
    if (fresh) k++;
    else if (i > untilIndex && ts[i]! > untilTs) {
      // Beyond every late reading's reach: on to the next new reading, if any.
      if (k === idx.length) break;
      i = idx[k]! - 1;
      continue;
    }
    out.push(i);
    if (fresh && ts[i]! < judgedUpTo) {
      const last = Math.min(i + reach.points, ts.length - 1);
      if (last > untilIndex) untilIndex = last;
      if (ts[last]! + reach.ms > untilTs) untilTs = ts[last]! + reach.ms;
    }
  }
  return out;
}

export function compare(x: number, value: number, direction: AlertDirection): boolean {
  if (direction === 'above') return x >= value;
  if (direction === 'below') return x <= value;
  return Math.abs(x) >= Math.abs(value);
}

/**
 * Rate at i: difference of consecutive readings to 2 decimals (spec §9); null for the first reading or a gap.
 * The rule's window is here the longest gap allowed (a previous reading at most `maxGapMs` before), not a
 * window of readings: with readings every 10 minutes a 10-minute window still has a rate.
 */
export function rateAt(s: Series, i: number, maxGapMs: number | null = null): number | null {
  if (i < 1) return null;
  if (maxGapMs !== null && s.ts[i]! - s.ts[i - 1]! > maxGapMs) return null;
  return round2(s.v[i]!, s.v[i - 1]!);
}

/** Acceleration at i: difference of the rates at i and i-1, to 2 decimals (spec §9). */
export function accelerationAt(s: Series, i: number, maxGapMs: number | null = null): number | null {
  const r1 = rateAt(s, i, maxGapMs);
  const r0 = rateAt(s, i - 1, maxGapMs);
  return r1 === null || r0 === null ? null : round2(r1, r0);
}

/** Index of the first item with ts >= from (binary search; s is sorted by ts). */
export function firstAtOrAfter(s: readonly { ts: number }[], from: number): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]!.ts < from) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Running sums of a series, for window sums in O(log n) instead of a walk over the window (a 48 h rainfall
 * window of one-minute readings is 2,880 points): `sums[i]` = C + v[0] + ... + v[i] for some constant C (C
 * changes when the series' oldest points are dropped; differences stay exact), and `ts` the series' times (the
 * engine passes its series, which carries both).
 */
export interface PrefixSums {
  readonly ts: readonly number[];
  readonly sums: readonly number[];
  /**
   * How many of the series' values are negative, when known. With none, window sums grow with the window, so the
   * intensity check can rule a reading out from the longest window's sum alone (intensityPasses).
   */
  readonly negatives?: number;
}

/** Running sums of a series, from scratch (the engine keeps them up to date as readings arrive). */
export function prefixSums(s: Series): { ts: number[]; sums: number[]; negatives: number } {
  const ts = new Array<number>(s.ts.length);
  const sums = new Array<number>(s.ts.length);
  let total = 0;
  let negatives = 0;
  for (let i = 0; i < s.ts.length; i++) {
    ts[i] = s.ts[i]!;
    sums[i] = total += s.v[i]!;
    if (s.v[i]! < 0) negatives++;
  }
  return { ts, sums, negatives };
}

/** Index of the first time >= t among ts[start..end] (end + 1 when none; sorted times). */
export function timeIndex(ts: readonly number[], t: number, end = ts.length - 1, start = 0): number {
  let lo = start;
  let hi = end + 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Index of the first reading of the window ending at reading i: the window is (t_i - ms, t_i] (open at its
 * start, closed at its end), the one convention of every window of the engine (current change, ratio,
 * increment, rainfall intensity). A reading exactly `ms` before t_i is outside. Times are whole milliseconds.
 */
export function windowStart(ts: readonly number[], i: number, ms: number): number {
  return timeIndex(ts, Math.floor(ts[i]! - ms) + 1, i);
}

/** Sum of the values in (t_i - ms, t_i]; with running sums in O(log n). */
export function sumOver(s: Series, i: number, ms: number, ps?: PrefixSums): number {
  const from = s.ts[i]! - ms;
  if (ps) {
    // j: the first point with ts > from (times are whole milliseconds).
    return sumFrom(ps, s, timeIndex(ps.ts, Math.floor(from) + 1, i), i);
  }
  let total = 0;
  for (let j = i; j >= 0 && s.ts[j]! > from; j--) total += s.v[j]!;
  return tidy(total);
}

/** The intensity thresholds of each rainfall window, and whether all of them are above 0. */
interface IntensityThresholds {
  at: number[];
  positive: boolean;
}

const thresholdCache = new Map<number, Map<number, IntensityThresholds>>();

/** The intensity thresholds a·D^(-b) of each rainfall window D (computed once per (a, b)). */
function intensityThresholds(a: number, b: number): IntensityThresholds {
  let byB = thresholdCache.get(a);
  if (!byB) {
    if (thresholdCache.size > 1000) thresholdCache.clear();
    thresholdCache.set(a, (byB = new Map()));
  }
  let t = byB.get(b);
  if (!t) {
    const at = RAINFALL_WINDOWS_HOURS.map((d) => tidy(a * Math.pow(d, -b)));
    byB.set(b, (t = { at, positive: at.every((y) => y > 0) }));
  }
  return t;
}

/** Window sum from running sums: the values after index lo - 1 up to i (0 when lo > i). */
function sumFrom(sums: PrefixSums, s: Series, lo: number, i: number): number {
  return lo > i ? 0 : tidy(sums.sums[i]! - (lo > 0 ? sums.sums[lo - 1]! : sums.sums[0]! - s.v[0]!));
}

/**
 * Rainfall intensity-duration check: for each window D (h) the mean intensity I = sum/D (mm/h) against
 * a·D^(-b). Answers the intensity and the window with the largest I / threshold.
 */
export function intensityAt(
  s: Series,
  i: number,
  a: number,
  b: number,
  sums?: PrefixSums,
): { intensity: number; hours: number; threshold: number; pass: boolean } {
  const totals: number[] = [];
  if (sums) {
    for (const d of RAINFALL_WINDOWS_HOURS) totals.push(sumOver(s, i, d * 3_600_000, sums));
  } else {
    // One backward pass: the sums over 1, 3, 6, 12, 24 and 48 hours are taken as the pass crosses each bound.
    const t = s.ts[i]!;
    let total = 0;
    let j = i;
    for (const d of RAINFALL_WINDOWS_HOURS) {
      const from = t - d * 3_600_000;
      for (; j >= 0 && s.ts[j]! > from; j--) total += s.v[j]!;
      totals.push(tidy(total));
    }
  }
  const thresholds = intensityThresholds(a, b).at;
  let best = { intensity: 0, hours: RAINFALL_WINDOWS_HOURS[0] as number, threshold: a, pass: false };
  let bestRatio = -1;
  for (let k = 0; k < RAINFALL_WINDOWS_HOURS.length; k++) {
    const d = RAINFALL_WINDOWS_HOURS[k]!;
    const intensity = tidy(totals[k]! / d);
    const threshold = thresholds[k]!;
    const ratio = threshold > 0 ? intensity / threshold : 0;
    if (ratio > bestRatio) {
      bestRatio = ratio;
      best = { intensity, hours: d, threshold, pass: intensity >= threshold };
    }
  }
  return best;
}

/** Whether the intensity check fires: exactly `intensityAt(...).pass`, without its arrays and records. */
function intensityPasses(s: Series, i: number, a: number, b: number, sums?: PrefixSums): boolean {
  const { at: thresholds, positive } = intensityThresholds(a, b);
  const t = s.ts[i]!;
  if (sums && sums.negatives === 0 && positive) {
    // With all thresholds above 0 the check fires exactly when some window reaches its threshold (the window
    // with the largest I / threshold then has a ratio of at least 1). With no negative values a window's sum is
    // at most that of any longer window (prefix sums only grow; float subtraction, tidy and division by D keep
    // that order). So: windows from the longest down, each one searched for only when the last sum computed,
    // spread over its D, could reach its threshold. Usually that rules out most windows without a search.
    let bound = Infinity;
    let lo = 0;
    for (let k = RAINFALL_WINDOWS_HOURS.length - 1; k >= 0; k--) {
      const d = RAINFALL_WINDOWS_HOURS[k]!;
      if (bound !== Infinity && tidy(bound / d) < thresholds[k]!) continue;
      // The first point after t - D: at or after the longer window's first point.
      lo = timeIndex(sums.ts, Math.floor(t - d * 3_600_000) + 1, i, lo);
      const total = sumFrom(sums, s, lo, i);
      if (tidy(total / d) >= thresholds[k]!) return true;
      bound = total;
    }
    return false;
  }
  let total = 0;
  let j = i;
  // With running sums: each longer window starts at or before the previous one's start, so its search
  // stops there (sumOver's search, narrowed).
  let hi = i + 1;
  let bestRatio = -1;
  let pass = false;
  for (let k = 0; k < RAINFALL_WINDOWS_HOURS.length; k++) {
    const d = RAINFALL_WINDOWS_HOURS[k]!;
    let windowTotal: number;
    if (sums) {
      hi = timeIndex(sums.ts, Math.floor(t - d * 3_600_000) + 1, hi - 1);
      windowTotal = sumFrom(sums, s, hi, i);
    } else {
      const from = t - d * 3_600_000;
      for (; j >= 0 && s.ts[j]! > from; j--) total += s.v[j]!;
      windowTotal = tidy(total);
    }
    const intensity = tidy(windowTotal / d);
    const threshold = thresholds[k]!;
    const ratio = threshold > 0 ? intensity / threshold : 0;
    if (ratio > bestRatio) {
      bestRatio = ratio;
      pass = intensity >= threshold;
    }
  }
  return pass;
}

/** Computes a rule at reading i of a series (no ratio applied). `base` is the cumulative-change origin. */
export function computeAt(s: Series, i: number, r: EvalRule, base: number | null, sums?: PrefixSums): Computed {
  const pv = s.v[i]!;
  const w = windowMs(r);
  const out: Computed = { metric: null, pass: false, base: null, change: null, rate: null, acceleration: null };
  switch (r.valueType) {
    case 'threshold':
      out.metric = pv;
      break;
    case 'cumulativeChange': {
      const b = base ?? s.v[0] ?? null;
      out.base = b;
      out.change = b === null ? null : tidy(pv - b);
      out.metric = out.change;
      break;
    }
    case 'currentChange': {
      if (w === null) break;
      const j = windowStart(s.ts, i, w);
      out.base = s.v[j]!;
      out.change = tidy(pv - s.v[j]!);
      out.metric = out.change;
      break;
    }
    case 'rate':
      out.rate = rateAt(s, i, w);
      out.metric = out.rate;
      break;
    case 'thresholdRate': {
      out.rate = rateAt(s, i, w);
      out.metric = pv;
      out.pass =
        out.rate !== null &&
        r.rateValue !== null &&
        compare(pv, r.value, r.direction) &&
        compare(out.rate, r.rateValue, r.direction);
      return out;
    }
    case 'acceleration':
      out.rate = rateAt(s, i, w);
      out.acceleration = accelerationAt(s, i, w);
      out.metric = out.acceleration;
      break;
    case 'increment':
      if (w === null) break;
      out.metric = sumOver(s, i, w, sums);
      out.change = out.metric;
      break;
    case 'rainfallIntensity': {
      const x = intensityAt(s, i, r.value, r.rateValue ?? 0, sums);
      out.metric = x.intensity;
      out.change = x.threshold;
      out.pass = x.pass;
      return out;
    }
  }
  out.pass = out.metric !== null && compare(out.metric, r.value, r.direction);
  return out;
}

/**
 * Whether a rule fires at reading i (no ratio applied): exactly `computeAt(...).pass`, without building the
 * computed record. Evaluation asks this of every rule at every reading and almost always hears no, so the
 * record (and the intensity windows' arrays) are built only for the rules that fire.
 */
export function passesAt(s: Series, i: number, r: EvalRule, base: number | null, sums?: PrefixSums): boolean {
  const pv = s.v[i]!;
  let metric: number | null = null;
  switch (r.valueType) {
    case 'threshold':
      metric = pv;
      break;
    case 'cumulativeChange': {
      const b = base ?? s.v[0] ?? null;
      metric = b === null ? null : tidy(pv - b);
      break;
    }
    case 'currentChange': {
      const w = windowMs(r);
      if (w === null) break;
      const j = windowStart(s.ts, i, w);
      metric = tidy(pv - s.v[j]!);
      break;
    }
    case 'rate':
      metric = rateAt(s, i, windowMs(r));
      break;
    case 'acceleration':
      metric = accelerationAt(s, i, windowMs(r));
      break;
    case 'increment': {
      const w = windowMs(r);
      if (w === null) break;
      metric = sumOver(s, i, w, sums);
      break;
    }
    case 'thresholdRate':
      return computeAt(s, i, r, base, sums).pass;
    case 'rainfallIntensity':
      return intensityPasses(s, i, r.value, r.rateValue ?? 0, sums);
  }
  return metric !== null && compare(metric, r.value, r.direction);
}

/**
 * The decision of a rule at reading i: the reading itself must meet the rule and, with a ratio and a window,
 * at least that share of the window's readings (t_i - window, t_i] must meet it too.
 */
export function decideAt(s: Series, i: number, r: EvalRule, base: number | null, sums?: PrefixSums): Computed {
  const c = computeAt(s, i, r, base, sums);
  if (!c.pass || !r.ratio) return c;
  const w = windowMs(r);
  if (w === null) return c;
  const from = Math.max(windowStart(s.ts, i, w), i - 500);
  let met = 0;
  let n = 0;
  for (let j = from; j <= i; j++) {
    n++;
    if (j === i || computeAt(s, j, r, base, sums).pass) met++;
  }
  return { ...c, pass: met / n >= r.ratio };
}

/** A firing: the highest level among a family's rules that fire at a reading. */
export interface Firing {
  index: number;
  ts: number;
  value: number;
  rule: EvalRule;
  computed: Computed;
}

/**
 * Evaluates a family of rules (same device, quantity and value type) at the given reading indices, oldest
 * first; at each reading the highest firing level wins. `sums` (running sums of `s`) make window sums O(log n).
 */
export function evaluateFamily(
  s: Series,
  indices: readonly number[],
  rules: readonly EvalRule[],
  base: number | null,
  sums?: PrefixSums,
): Firing[] {
  // The engine's plans hold their rules highest level first already.
  let sorted = true;
  for (let k = 1; k < rules.length; k++) if (rules[k]!.level > rules[k - 1]!.level) sorted = false;
  const byLevel = sorted ? rules : [...rules].sort((a, b) => b.level - a.level);
  let out: Firing[] | null = null;
  for (const i of indices) {
    for (const r of byLevel) {
      if (!passesAt(s, i, r, base, sums)) continue;
      const c = decideAt(s, i, r, base, sums);
      if (c.pass) {
        (out ??= []).push({ index: i, ts: s.ts[i]!, value: s.v[i]!, rule: r, computed: c });
        break;
      }
    }
  }
  return out ?? [];
}

/**
 * Multi-device rules: combines the members' current levels. In `twoAgree` mode orange and red need two
 * members at that level or above; otherwise the alert is capped one step lower (at most yellow).
 */
export function combineMembers(levels: readonly number[], mode: 'any' | 'twoAgree'): number {
  const sorted = levels.filter((l) => l > 0).sort((a, b) => b - a);
  if (sorted.length === 0) return 0;
  if (mode === 'any') return sorted[0]!;
  // The highest level L such that (L <= 2 and one member reaches it) or (two members reach it).
  const top = sorted[0]!;
  const second = sorted[1] ?? 0;
  if (top <= 2) return top;
  if (second >= 3) return Math.min(top, second);
  return 2;
}
