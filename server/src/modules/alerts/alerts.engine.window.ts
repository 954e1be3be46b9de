import type { AlertEvidence, AlertLevel, AlertValueType, WindowUnit } from '@geosentry/contract';
import {
  accelerationAt,
  rateAt,
  timeIndex,
  windowMs,
  type EvalRule,
  type Firing,
  type Series,
  type PrefixSums,
} from './alerts.evaluate.ts';
import * as rulesRepo from './alerts.rules.repository.ts';
import * as relationsRepo from './alerts.relations.repository.ts';
import * as evalRepo from './alerts.engine.repository.ts';

/**
 * The alert engine's pure parts: per-device readings windows (times, values and running sums per quantity), the
 * rules of a device arranged for evaluation, and the evidence of a firing.
 */

/**
 * A device's readings window is read again from the database after this long (plus up to as much again, so
 * the windows of devices loaded together do not all expire together). Edits and deletions of stored readings
 * drop the window at once (forgetReadings); this is a safety net.
 */
export const WINDOW_TTL_MS = 30 * 60_000;
/** Devices whose readings window is kept (beyond that the windows are dropped and rebuilt when needed). */
export const MAX_WINDOWS = 20_000;
/** Readings kept per window at most (a window needing more is read from the database each pass). */
export const MAX_WINDOW_ROWS = 20_000;
export const FAR_FUTURE_MS = Date.UTC(9999, 0, 1);

export type Row = { ts: number; vals: Record<string, number> };
/** One quantity of a window: its times and values (a Series), running sums and negative values (PrefixSums). */
export interface QuantitySeries extends Series, PrefixSums {
  ts: number[];
  v: number[];
  sums: number[];
  negatives: number;
}
/**
 * Stored readings of one device, oldest first: every stored reading with ts >= `complete` is in the window.
 * The readings themselves are not kept, only their times and, per quantity, times, values and running sums,
 * appended as readings arrive and dropped from the front as they age out, so a pass costs what its new readings
 * cost. Plain numbers in arrays are not objects the garbage collector marks: windows of a few thousand readings
 * per device stay cheap to keep (keeping each reading's row and values object made the heap's live objects, and
 * so each major collection, several times larger; its marking stalled ingest for 200-300 ms in the alerts bench).
 */
export interface DeviceWindow {
  /** Times of the window's readings (binary searches over plain numbers stay in a few cache lines). */
  times: number[];
  complete: number;
  expiresAt: number;
  series: Map<string, QuantitySeries>;
}
/** A window of readings (oldest first), with a series for every quantity they carry. */
export function windowOf(rows: readonly Row[], complete: number, expiresAt: number): DeviceWindow {
  const w: DeviceWindow = { times: [], complete, expiresAt, series: new Map() };
  for (const r of rows) addRow(w, r);
  return w;
}

/** Adds a committed reading to a window in time order (the same time again replaces its values). */
export function addRow(w: DeviceWindow, r: Row): void {
  const newest = w.times.length === 0 || w.times[w.times.length - 1]! < r.ts;
  if (newest) w.times.push(r.ts);
  else {
    const i = timeIndex(w.times, r.ts);
    if (w.times[i] !== r.ts) w.times.splice(i, 0, r.ts);
  }
  for (const q in r.vals) {
    const v = r.vals[q];
    if (typeof v !== 'number') continue;
    let x = w.series.get(q);
    if (!x) w.series.set(q, (x = { ts: [], v: [], sums: [], negatives: 0 }));
    if (v < 0) x.negatives++;
    const n = x.ts.length;
    if (n === 0 || x.ts[n - 1]! < r.ts) {
      x.ts.push(r.ts);
      x.v.push(v);
      x.sums.push((n ? x.sums[n - 1]! : 0) + v);
      continue;
    }
    // Late reading: into its place, and the running sums from there on moved by what it adds (a late reading
    // lands near the end of the window, so this walks the readings after it, not the whole window).
    const i = timeIndex(x.ts, r.ts);
    let delta = v;
    if (x.ts[i] === r.ts) {
      if (x.v[i]! < 0) x.negatives--;
      delta = v - x.v[i]!;
      x.v[i] = v;
    } else {
      // The running sum before it: its predecessor's, or before the first reading the constant C (sums[0] -
      // v[0], which dropping old readings leaves behind).
      const before = i > 0 ? x.sums[i - 1]! : x.sums[0]! - x.v[0]!;
      x.ts.splice(i, 0, r.ts);
      x.v.splice(i, 0, v);
      x.sums.splice(i, 0, before + v);
      for (let k = i + 1; k < x.sums.length; k++) x.sums[k]! += delta;
      continue;
    }
    for (let k = i; k < x.sums.length; k++) x.sums[k]! += delta;
  }
}

/** Readings a window may keep beyond what evaluation needs before they are dropped (dropping shifts the arrays). */
const DROP_SLACK = 512;

/**
 * Drops the window's oldest `n` readings (and their values) once there are DROP_SLACK of them: evaluation only
 * looks back from a reading, so older readings change no decision, and dropping in chunks keeps it O(1) per
 * reading.
 */
export function dropOldest(w: DeviceWindow, n: number): void {
  if (n < DROP_SLACK) return;
  w.times.splice(0, n);
  w.complete = w.times[0] ?? w.complete;
  for (const x of w.series.values()) {
    const k = w.times.length ? timeIndex(x.ts, w.times[0]!) : x.ts.length;
    if (x.negatives) for (let j = 0; j < k; j++) if (x.v[j]! < 0) x.negatives--;
    x.ts.splice(0, k);
    x.v.splice(0, k);
    x.sums.splice(0, k);
  }
}

const NO_SERIES: QuantitySeries = { ts: [], v: [], sums: [], negatives: 0 };

/** One quantity of a window (times, values and running sums); empty when none of its readings carries it. */
export function seriesOf(w: DeviceWindow, q: string): QuantitySeries {
  return w.series.get(q) ?? NO_SERIES;
}

/** Whether a window holds all a request needs: everything from `from` on and `before` readings before it. */
export function covers(w: DeviceWindow, q: evalRepo.SeriesRequest): boolean {
  if (w.complete > q.from) return false;
  return w.complete === -Infinity || timeIndex(w.times, q.from) >= q.before;
}

/** The distinct times of a device's readings in a pass, in order (they usually come in order already). */
export function timesOf(rs: readonly { ts: number }[]): number[] {
  const out = new Array<number>(rs.length);
  let ordered = true;
  for (let i = 0; i < rs.length; i++) {
    out[i] = rs[i]!.ts;
    if (i > 0 && out[i]! <= out[i - 1]!) ordered = false;
  }
  return ordered ? out : [...new Set(out)].sort((a, b) => a - b);
}

/**
 * Where the given times (sorted, distinct) are among a series' times (sorted): their indices, for those present.
 * A pass's readings are usually the newest, side by side, so after one search the rest is a walk.
 */
export function indicesOf(ts: readonly number[], times: readonly number[]): number[] {
  const out: number[] = [];
  if (times.length === 0) return out;
  // Usually a single reading, the newest one (just added): no search at all.
  let j = ts[ts.length - 1] === times[0] ? ts.length - 1 : timeIndex(ts, times[0]!);
  for (const t of times) {
    while (j < ts.length && ts[j]! < t) j++;
    if (j === ts.length) break;
    if (ts[j] === t) out.push(j);
  }
  return out;
}

/** A device's rules arranged for evaluation. */
export interface DevicePlan {
  quantities: {
    quantity: string;
    /**
     * Single-device rules by value type, highest level first, and how far a late reading's effect reaches
     * under them (reachOf: the later readings to judge again).
     */
    families: {
      valueType: string;
      records: rulesRepo.RuleRecord[];
      rules: EvalRule[];
      reach: { ms: number; points: number };
    }[];
    relations: { relation: relationsRepo.RelationRecord; rules: EvalRule[]; reach: { ms: number; points: number } }[];
  }[];
  lookbackMs: number;
  lookbackPoints: number;
}

export const toEvalRule = (r: {
  id: number;
  level: number;
  valueType: string;
  value: number;
  rateValue: number | null;
  direction: string;
  windowN: number | null;
  windowUnit: string | null;
  ratio: number | null;
}): EvalRule => ({
  id: r.id,
  level: r.level as AlertLevel,
  valueType: r.valueType as AlertValueType,
  value: r.value,
  rateValue: r.rateValue,
  direction: r.direction as EvalRule['direction'],
  windowN: r.windowN,
  windowUnit: r.windowUnit as WindowUnit | null,
  ratio: r.ratio,
});

/** The readings window kept as evidence: the rule's window (or the last 20 readings) up to the firing one. */
export function evidenceWindow(s: Series, i: number, rule: EvalRule): { ts: string; value: number }[] {
  const w = windowMs(rule);
  let from = Math.max(0, i - 19);
  if (w !== null) while (from > 0 && s.ts[from - 1]! > s.ts[i]! - w) from--;
  from = Math.max(from, i - 199);
  const out: { ts: string; value: number }[] = [];
  for (let j = from; j <= i; j++) out.push({ ts: new Date(s.ts[j]!).toISOString(), value: s.v[j]! });
  return out;
}

/**
 * A pass with late readings: the earliest one's time (`at`), and the newest reading judged before the pass
 * (`upTo`): the readings from `at` to `upTo` were judged (again) with a late reading.
 */
export interface LateMark {
  at: string;
  upTo: number;
}

/**
 * The evidence of a firing. `late`: set when the pass had late readings; a firing at a reading judged (again)
 * with them records the earliest late reading's time.
 */
export function evidenceOf(s: Series, f: Firing, relationId: number | null, late: LateMark | null): AlertEvidence {
  const r = f.rule;
  const w = windowMs(r);
  const e: AlertEvidence = {
    ruleId: relationId === null ? r.id : null,
    relationId,
    valueType: r.valueType,
    direction: r.direction,
    threshold: r.value,
    rateValue: r.rateValue,
    windowN: r.windowN,
    windowUnit: r.windowUnit,
    ratio: r.ratio,
    ts: new Date(f.ts).toISOString(),
    value: f.value,
    metric: f.computed.metric,
    base: f.computed.base,
    change: f.computed.change,
    rate: f.computed.rate ?? rateAt(s, f.index, w),
    acceleration: f.computed.acceleration ?? accelerationAt(s, f.index, w),
    readings: evidenceWindow(s, f.index, r),
  };
  if (late !== null && late.at <= e.ts && f.ts <= late.upTo) {
    e.late = true;
    e.lateReadingAt = late.at;
  }
  return e;
}

/** The rules of a multi-device rule, one per level (no ratio). */
export function relationRules(x: relationsRepo.RelationRecord): EvalRule[] {
  return x.levels.map((l) => toEvalRule({ ...x, level: l.level, value: l.value, rateValue: null, ratio: null }));
}

/**
 * The newest reading time of a window that is not among a pass's times (sorted): the newest reading judged
 * before, when the engine has not kept it (after a start, or once forgotten). Walks back over the pass's own
 * readings only.
 */
export function newestBefore(times: readonly number[], passTimes: readonly number[]): number {
  let j = passTimes.length - 1;
  for (let i = times.length - 1; i >= 0; i--) {
    const t = times[i]!;
    while (j >= 0 && passTimes[j]! > t) j--;
    if (j >= 0 && passTimes[j] === t) continue;
    return t;
  }
  return -Infinity;
}
