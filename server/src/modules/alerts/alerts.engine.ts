import {
  ALERT_LEVEL_COLOURS,
  OFFLINE_ALERT_LEVEL,
  type AlertChannel,
  type AlertEvent,
  type AlertEvidence,
  type AlertLevel,
  type AlertSocketMessage,
  type AlertValueType,
  type WindowUnit,
} from '@geosentry/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { CommittedReading } from '../ingest/ingest.service.ts';
import type { AlertEvents } from './alerts.events.ts';
import {
  accelerationAt,
  combineMembers,
  evaluateFamily,
  firstAtOrAfter,
  judgeIndices,
  lookbackOf,
  rateAt,
  reachOfAll,
  timeIndex,
  windowMs,
  type EvalRule,
  type Firing,
  type Series,
  type PrefixSums,
} from './alerts.evaluate.ts';
import * as repo from './alerts.repository.ts';

type Tx = Kysely<Database>;
type StateChange = { deviceId: number; platformId: number | null; state: string };

/** A decision to store: one family of one device fired at one reading. */
interface Decision {
  deviceId: number;
  ts: number;
  quantity: string;
  family: string;
  ruleKey: string;
  kind: 'single' | 'multi';
  level: AlertLevel;
  value: number;
  metric: number | null;
  threshold: number | null;
  ruleId: number | null;
  relationId: number | null;
  valueType: AlertValueType;
  groupId: number | null;
  channels: string[];
  pushIntervalMinutes: number;
  evidence: AlertEvidence;
}

const BASE_TTL_MS = 60_000;
/**
 * A device's readings window is read again from the database after this long (plus up to as much again, so
 * the windows of devices loaded together do not all expire together). Edits and deletions of stored readings
 * drop the window at once (forgetReadings); this is a safety net.
 */
const WINDOW_TTL_MS = 30 * 60_000;
/** Devices whose readings window is kept (beyond that the windows are dropped and rebuilt when needed). */
const MAX_WINDOWS = 20_000;
/** Readings kept per window at most (a window needing more is read from the database each pass). */
const MAX_WINDOW_ROWS = 20_000;
const FAR_FUTURE_MS = Date.UTC(9999, 0, 1);

type Row = { ts: number; vals: Record<string, number> };
/** One quantity of a window: its times and values (a Series), running sums and negative values (PrefixSums). */
interface QuantitySeries extends Series, PrefixSums {
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
interface DeviceWindow {
  /** Times of the window's readings (binary searches over plain numbers stay in a few cache lines). */
  times: number[];
  complete: number;
  expiresAt: number;
  series: Map<string, QuantitySeries>;
}
/** Devices whose newest judged reading is kept (beyond that they are forgotten and found again: newestBefore). */
const MAX_JUDGED = 200_000;
/** Most readings evaluated in one pass. */
const MAX_PASS = 20_000;
/**
 * Readings waiting for evaluation at most before ingest holds producers back (ReadingsBacklog), and the level
 * it waits for: evaluation may fall behind for a while (a slow store), but never by an unbounded amount.
 */
export const MAX_EVAL_BACKLOG = 100_000;
const RESUME_EVAL_BACKLOG = MAX_EVAL_BACKLOG / 2;
const EVIDENCE_BEFORE = 20;
const DEFAULT_RELATION_WINDOW_MS = 3_600_000;
const NOTHING_STORED = { stored: Promise.resolve() };
/** Decisions waiting for the store at most before evaluation waits (back-pressure). */
const MAX_PENDING_DECISIONS = 20_000;

/**
 * A device's decisions of one pass, and its late mark when the pass had late readings (its open alerts record
 * the late reading even when nothing fires again).
 */
interface StoreItem {
  device: repo.EvalDevice;
  decisions: Decision[];
  late?: LateMark | null;
}

/** Decisions of the passes waiting for one store, and the promise settled when it is written. */
interface StoreBatch {
  items: StoreItem[];
  decisions: number;
  done: Promise<void>;
  resolve: () => void;
}

function newStoreBatch(): StoreBatch {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  return { items: [], decisions: 0, done, resolve };
}
/** Devices' site and names for a pass are re-read after this long. */
const DEVICE_TTL_MS = 5_000;

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
function dropOldest(w: DeviceWindow, n: number): void {
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
function seriesOf(w: DeviceWindow, q: string): QuantitySeries {
  return w.series.get(q) ?? NO_SERIES;
}

/** Whether a window holds all a request needs: everything from `from` on and `before` readings before it. */
function covers(w: DeviceWindow, q: repo.SeriesRequest): boolean {
  if (w.complete > q.from) return false;
  return w.complete === -Infinity || timeIndex(w.times, q.from) >= q.before;
}

/** The distinct times of a device's readings in a pass, in order (they usually come in order already). */
function timesOf(rs: readonly { ts: number }[]): number[] {
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
interface DevicePlan {
  quantities: {
    quantity: string;
    /**
     * Single-device rules by value type, highest level first, and how far a late reading's effect reaches
     * under them (reachOf: the later readings to judge again).
     */
    families: {
      valueType: string;
      records: repo.RuleRecord[];
      rules: EvalRule[];
      reach: { ms: number; points: number };
    }[];
    relations: { relation: repo.RelationRecord; rules: EvalRule[]; reach: { ms: number; points: number } }[];
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
interface LateMark {
  at: string;
  upTo: number;
}

/**
 * The evidence of a firing. `late`: set when the pass had late readings; a firing at a reading judged (again)
 * with them records the earliest late reading's time.
 */
function evidenceOf(s: Series, f: Firing, relationId: number | null, late: LateMark | null): AlertEvidence {
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
function relationRules(x: repo.RelationRecord): EvalRule[] {
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

/**
 * Alert evaluation: listens to committed readings, evaluates each device's enabled rules in time order over
 * the stored readings they need, and stores raised / escalated / updated alerts with their evidence. Batches
 * are handled in passes, one at a time. Offline alerts come from the ingest's device state changes.
 */
export class AlertEngine {
  private rulesByDevice: Map<number, repo.RuleRecord[]> | null = null;
  private relationsByDevice: Map<number, repo.RelationRecord[]> = new Map();
  private bases = new Map<number, { at: number; values: Record<string, number> }>();
  /** Multi-device rules: each member's latest level (by relation, then "deviceId:quantity"). */
  private members = new Map<number, Map<string, { level: number; metric: number | null; ts: number }>>();
  /**
   * The rolling window of stored readings per device, kept from pass to pass: each pass adds the readings it
   * evaluates (they are committed) and trims what no rule needs any more, so a pass reads from the database
   * only the devices whose window is missing, too short or expired (WINDOW_TTL_MS); a window whose readings an
   * operator edited or deleted is dropped at once (forgetReadings).
   */
  private windows = new Map<number, DeviceWindow>();
  /**
   * The newest reading time judged per device: a reading before it is late, and the readings after it within
   * the rules' reach are judged again (a number per device; kept when windows are dropped).
   */
  private judgedUpTo = new Map<number, number>();
  private deviceCache = new Map<number, { at: number; device: repo.EvalDevice }>();
  /** Decisions waiting for the next store (see storeInOrder), and the store being written. */
  private pending_: StoreBatch = newStoreBatch();
  private storeLoop: Promise<void> | null = null;
  /** Each device's rules arranged for evaluation (built on first use after the rules are loaded). */
  private plans = new Map<number, DevicePlan>();
  private queue: ({ kind: 'readings'; items: CommittedReading[] } | { kind: 'states'; items: StateChange[] })[] = [];
  private running: Promise<void> | null = null;
  /** Readings waiting for evaluation. */
  pending = 0;
  /** Ingest waiting for the backlog to shrink (see behind()). */
  private roomWaiters: (() => void)[] = [];
  private loading: Promise<void> | null = null;
  /** Evaluated batches and stored decisions (bench and tests). */
  batches = 0;
  decisions = 0;

  constructor(
    private readonly ctx: AppContext,
    /** The alert event bus: stored alerts are emitted on it (in their transaction, then after commit). */
    private readonly bus: AlertEvents,
  ) {}

  private readonly listenerFailed = (e: unknown): void =>
    this.ctx.log.error({ err: e }, 'alert event listener failed (the alert is stored; its listener work is not)');

  /** Stored readings of these devices were edited or deleted: their windows are read again when next needed. */
  forgetReadings(deviceIds: readonly number[]): void {
    for (const id of deviceIds) {
      this.windows.delete(id);
      this.bases.delete(id);
    }
  }

  /** Rules changed: reload before the next batch. */
  invalidate(): void {
    this.rulesByDevice = null;
    this.loading = null;
    // Devices without rules had their readings dropped meanwhile: their windows may miss some.
    this.windows.clear();
    this.deviceCache.clear();
  }

  /**
   * Queues committed readings. Evaluation runs one pass at a time, in arrival order; readings that queued up
   * meanwhile are evaluated together in the next pass (fewer, larger queries), so evaluation keeps up with
   * ingest. Readings of devices without rules are dropped here.
   */
  onReadings(readings: readonly CommittedReading[]): Promise<void> {
    const rules = this.rulesByDevice;
    const items = rules
      ? readings.filter((r) => rules.has(r.deviceId) || this.relationsByDevice.has(r.deviceId))
      : [...readings];
    if (items.length === 0) return this.running ?? Promise.resolve();
    const last = this.queue.at(-1);
    if (last?.kind === 'readings') for (const r of items) last.items.push(r);
    else this.queue.push({ kind: 'readings', items });
    this.pending += items.length;
    return this.kick();
  }

  /** Evaluation is MAX_EVAL_BACKLOG readings behind: ingest holds producers back until room(). */
  behind(): boolean {
    return this.pending >= MAX_EVAL_BACKLOG;
  }

  /** Resolves once the readings waiting for evaluation are down to half the limit. */
  room(): Promise<void> {
    if (this.pending < RESUME_EVAL_BACKLOG) return Promise.resolve();
    return new Promise((r) => this.roomWaiters.push(r));
  }

  private wakeRoom(): void {
    if (this.pending < RESUME_EVAL_BACKLOG) for (const w of this.roomWaiters.splice(0)) w();
  }

  /** Queues device state changes from ingest (offline sweep, back online), in order with the readings. */
  onDeviceState(changes: readonly StateChange[]): Promise<void> {
    this.queue.push({ kind: 'states', items: [...changes] });
    return this.kick();
  }

  /** Resolves when everything queued so far is evaluated. */
  async idle(): Promise<void> {
    while (this.running || this.queue.length || this.storeLoop) {
      if (this.running || this.queue.length) await (this.running ?? this.kick());
      else await this.storeLoop;
    }
  }

  /**
   * Re-evaluates the readings received in the last `windowMs` (run at start): readings committed just before a
   * stop, whose evaluation was lost, are evaluated now. Readings evaluated before add nothing (hits are keyed
   * by rule and reading).
   */
  async catchUp(windowMs = 15 * 60_000): Promise<number> {
    await this.load();
    // Device states a stop between an alert store and its state refresh left behind.
    await this.refreshStates(await repo.devicesWithAlertState(this.ctx.db));
    const ids = [...new Set([...this.rulesByDevice!.keys(), ...this.relationsByDevice.keys()])];
    const rows = await repo.receivedSince(this.ctx.db, ids, new Date(Date.now() - windowMs));
    if (rows.length) await this.onReadings(rows.map((r) => ({ ...r, platformId: null })));
    return rows.length;
  }

  private kick(): Promise<void> {
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = null;
        if (this.queue.length) void this.kick();
      });
    }
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const item = this.queue[0]!;
      if (item.kind === 'readings') {
        // Socket reads and database answers waiting now go first (a pass runs as one stretch of microtasks):
        // the acknowledgements of ingest are not held up by evaluation, which only has to keep up.
        await new Promise<void>((r) => setImmediate(r));
        const take = item.items.splice(0, MAX_PASS);
        if (item.items.length === 0) this.queue.shift();
        this.pending -= take.length;
        this.wakeRoom();
        try {
          // The pass only has to be evaluated before the next one; its store logs its own errors.
          await this.evaluatePass(take);
        } catch (e) {
          this.ctx.log.error({ err: e }, 'alert evaluation failed');
        }
      } else {
        this.queue.shift();
        try {
          await this.deviceStates(item.items);
        } catch (e) {
          this.ctx.log.error({ err: e }, 'offline alert failed');
        }
      }
    }
  }

  private async load(): Promise<void> {
    if (this.rulesByDevice) return;
    this.loading ??= (async () => {
      const [rules, relations] = await Promise.all([
        repo.enabledRules(this.ctx.db),
        repo.enabledRelations(this.ctx.db),
      ]);
      const byDevice = new Map<number, repo.RuleRecord[]>();
      for (const r of rules) {
        let l = byDevice.get(r.deviceId);
        if (!l) byDevice.set(r.deviceId, (l = []));
        l.push(r);
      }
      const rel = new Map<number, repo.RelationRecord[]>();
      for (const x of relations)
        for (const m of x.members) {
          let l = rel.get(m.deviceId);
          if (!l) rel.set(m.deviceId, (l = []));
          if (!l.includes(x)) l.push(x);
        }
      for (const id of [...this.members.keys()]) if (!relations.some((x) => x.id === id)) this.members.delete(id);
      this.relationsByDevice = rel;
      this.rulesByDevice = byDevice;
      this.plans.clear();
    })();
    const p = this.loading;
    await p;
    if (this.loading === p) this.loading = null;
  }

  private async baseOf(device: repo.EvalDevice, quantity: string): Promise<number | null> {
    const initial = device.initialValues[quantity];
    if (typeof initial === 'number') return initial;
    let hit = this.bases.get(device.id);
    if (!hit || Date.now() - hit.at > BASE_TTL_MS || hit.values[quantity] === undefined) {
      hit = { at: Date.now(), values: await repo.firstValues(this.ctx.db, device.id) };
      if (this.bases.size > 50_000) this.bases.clear();
      this.bases.set(device.id, hit);
    }
    return hit.values[quantity] ?? null;
  }

  /** A device's rules by quantity and value type (highest level first), and how far back they look. */
  private planOf(deviceId: number): DevicePlan {
    let plan = this.plans.get(deviceId);
    if (plan) return plan;
    const singles = this.rulesByDevice?.get(deviceId) ?? [];
    const relations = this.relationsByDevice.get(deviceId) ?? [];
    const byQuantity = new Map<string, DevicePlan['quantities'][number]>();
    const quantity = (q: string): DevicePlan['quantities'][number] => {
      let x = byQuantity.get(q);
      if (!x) byQuantity.set(q, (x = { quantity: q, families: [], relations: [] }));
      return x;
    };
    const all: EvalRule[] = [];
    for (const r of singles) {
      const x = quantity(r.quantity);
      let fam = x.families.find((f) => f.valueType === r.valueType);
      if (!fam)
        x.families.push((fam = { valueType: r.valueType, records: [], rules: [], reach: { ms: 0, points: 0 } }));
      const rule = toEvalRule(r);
      fam.records.push(r);
      fam.rules.push(rule);
      all.push(rule);
    }
    for (const x of relations)
      for (const m of x.members) {
        if (m.deviceId !== deviceId) continue;
        const q = quantity(m.quantity);
        if (q.relations.some((y) => y.relation === x)) continue;
        const rules = relationRules(x);
        q.relations.push({ relation: x, rules, reach: reachOfAll(rules) });
        all.push(...rules);
      }
    for (const x of byQuantity.values())
      for (const f of x.families) {
        f.rules.sort((a, b) => b.level - a.level);
        f.reach = reachOfAll(f.rules);
      }
    // The evidence keeps the readings before a firing one (and its rate and acceleration).
    let lookbackMs = 0;
    let lookbackPoints = EVIDENCE_BEFORE;
    for (const rule of all) {
      const lb = lookbackOf(rule);
      lookbackMs = Math.max(lookbackMs, lb.ms);
      lookbackPoints = Math.max(lookbackPoints, lb.points);
    }
    plan = { quantities: [...byQuantity.values()], lookbackMs, lookbackPoints };
    this.plans.set(deviceId, plan);
    return plan;
  }

  /** Evaluates one committed batch; resolves when its alerts are stored. */
  async evaluate(readings: readonly CommittedReading[]): Promise<void> {
    await (
      await this.evaluatePass(readings)
    ).stored;
  }

  /**
   * Evaluates one committed batch: resolves once evaluated, with the promise of its store (see storeInOrder),
   * so the next pass can be evaluated while this one is written. (Wrapped: an async function would wait for it.)
   */
  private async evaluatePass(readings: readonly CommittedReading[]): Promise<{ stored: Promise<void> }> {
    await this.load();
    const rules = this.rulesByDevice!;
    const byDevice = new Map<number, CommittedReading[]>();
    for (const r of readings) {
      if (!rules.has(r.deviceId) && !this.relationsByDevice.has(r.deviceId)) continue;
      let l = byDevice.get(r.deviceId);
      if (!l) byDevice.set(r.deviceId, (l = []));
      l.push(r);
    }
    if (byDevice.size === 0) return NOTHING_STORED;
    this.batches++;
    const devices = await this.evalDevices([...byDevice.keys()]);

    // What each device needs of the stored readings.
    const reqs: repo.SeriesRequest[] = [];
    for (const [deviceId, rs] of byDevice) {
      const plan = this.planOf(deviceId);
      let min = Infinity;
      let max = -Infinity;
      for (const r of rs) {
        min = Math.min(min, r.ts);
        max = Math.max(max, r.ts);
      }
      reqs.push({ deviceId, from: min - plan.lookbackMs, to: max, before: plan.lookbackPoints });
    }
    const windowOf = await this.series(reqs, byDevice);
    const toStore: StoreItem[] = [];
    for (const [deviceId, rs] of byDevice) {
      const device = devices.get(deviceId);
      if (!device || device.platformId === null) continue;
      const win = windowOf.get(deviceId)!;
      const newTs = timesOf(rs);
      // The newest reading judged before this pass: a reading before it arrived late (a logger resending its
      // buffer after an outage), and the later readings within its reach are judged again with it.
      const judgedUpTo = this.judgedUpTo.get(deviceId) ?? newestBefore(win.times, newTs);
      if (this.judgedUpTo.size > MAX_JUDGED) this.judgedUpTo.clear();
      this.judgedUpTo.set(deviceId, Math.max(judgedUpTo, newTs[newTs.length - 1]!));
      const late = newTs[0]! < judgedUpTo ? { at: new Date(newTs[0]!).toISOString(), upTo: judgedUpTo } : null;
      const decisions: Decision[] = [];
      for (const { quantity: q, families, relations } of this.planOf(deviceId).quantities) {
        // The whole window of the quantity (kept from pass to pass) and where this pass's readings are in it.
        // The series carries its running sums: it is both the Series and the PrefixSums of the evaluation.
        const s = seriesOf(win, q);
        const idx = indicesOf(s.ts, newTs);
        if (idx.length === 0) continue;
        for (const { valueType, records, rules: evalRules, reach } of families) {
          const base = valueType === 'cumulativeChange' ? await this.baseOf(device, q) : null;
          const judge = late === null ? idx : judgeIndices(s.ts, idx, judgedUpTo, reach);
          for (const f of evaluateFamily(s, judge, evalRules, base, s)) {
            const rec = records.find((r) => r.id === f.rule.id)!;
            decisions.push({
              deviceId,
              ts: f.ts,
              quantity: q,
              family: `single:${q}:${valueType}`,
              ruleKey: `r:${rec.id}`,
              kind: 'single',
              level: f.rule.level,
              value: f.value,
              metric: f.computed.metric,
              threshold: rec.value,
              ruleId: rec.id,
              relationId: null,
              valueType: f.rule.valueType,
              groupId: rec.groupId,
              channels: rec.channels,
              pushIntervalMinutes: rec.pushIntervalMinutes,
              evidence: evidenceOf(s, f, null, late),
            });
          }
        }
        for (const x of relations) {
          const judge = late === null ? idx : judgeIndices(s.ts, idx, judgedUpTo, x.reach);
          decisions.push(...(await this.relationDecisions(x.relation, x.rules, device, q, s, judge, late)));
        }
      }
      if (decisions.length || late) {
        decisions.sort((a, b) => a.ts - b.ts);
        toStore.push({ device, decisions, late });
      }
    }
    if (!toStore.length) return NOTHING_STORED;
    return this.storeInOrder(toStore);
  }

  /**
   * Stores a pass's decisions without holding up the next pass (group commit): while one transaction is being
   * written, the decisions of the passes evaluated meanwhile gather and go into the next transaction together,
   * in pass order (so each device's alerts are still written in order). However fast passes come, one store
   * takes all that waited. Answers the promise of the transaction holding this pass's decisions. A pass waits
   * (back-pressure) while MAX_PENDING_DECISIONS are already waiting.
   */
  private async storeInOrder(toStore: StoreItem[]): Promise<{ stored: Promise<void> }> {
    while (this.pending_.decisions >= MAX_PENDING_DECISIONS && this.storeLoop) await this.storeLoop;
    const batch = this.pending_;
    for (const x of toStore) {
      batch.items.push(x);
      batch.decisions += x.decisions.length;
    }
    this.storeLoop ??= this.runStores();
    return { stored: batch.done };
  }

  /** Writes the gathered batches, one transaction each, until none is waiting. */
  private async runStores(): Promise<void> {
    try {
      while (this.pending_.items.length) {
        const batch = this.pending_;
        this.pending_ = newStoreBatch();
        await this.storeOrSplit(batch.items);
        // The batch counts as stored once its device states are written too; the next store does not wait.
        void this.states.then(() => batch.resolve());
      }
    } finally {
      this.storeLoop = null;
    }
  }

  /** The pass's decisions in one transaction; when that fails, each device again on its own. */
  private async storeOrSplit(toStore: StoreItem[]): Promise<void> {
    try {
      await this.store(toStore);
    } catch (e) {
      // One device's failure must not cost the others.
      this.ctx.log.warn({ err: e }, 'alert pass store failed, storing device by device');
      for (const x of toStore)
        try {
          await this.store([x]);
        } catch (err) {
          this.ctx.log.error({ err, deviceId: x.device.id }, 'alert store failed');
        }
    }
  }

  /**
   * Makes each device's rolling window hold what its request needs ([from, to] plus `before` readings before
   * `from`) and answers the windows: the pass's readings are added to windows kept from earlier passes; windows
   * missing, too short or stale are read from the database (one query for all of them). What no later pass
   * needs (readings before this pass's) is dropped.
   */
  private async series(
    reqs: readonly repo.SeriesRequest[],
    fresh: ReadonlyMap<number, readonly CommittedReading[]>,
  ): Promise<Map<number, DeviceWindow>> {
    const now = Date.now();
    const load: repo.SeriesRequest[] = [];
    for (const q of reqs) {
      const w = this.windows.get(q.deviceId);
      if (w && now <= w.expiresAt) {
        for (const r of fresh.get(q.deviceId) ?? []) if (r.ts >= w.complete) addRow(w, { ts: r.ts, vals: r.values });
        if (covers(w, q)) continue;
      }
      load.push({ deviceId: q.deviceId, from: q.from, to: FAR_FUTURE_MS, before: q.before });
    }
    if (load.length) {
      const got = new Map<number, Row[]>(load.map((q) => [q.deviceId, []]));
      for (const r of await repo.readingsFor(this.ctx.db, load)) got.get(r.deviceId)!.push(r);
      if (this.windows.size + load.length > MAX_WINDOWS) this.windows.clear();
      for (const q of load) {
        const rows = got.get(q.deviceId)!;
        const before = firstAtOrAfter(rows, q.from);
        // All readings from the first one read on are here; with fewer than asked before `from`, all of them.
        this.windows.set(
          q.deviceId,
          windowOf(
            rows,
            before < q.before || rows.length === 0 ? -Infinity : rows[0]!.ts,
            now + WINDOW_TTL_MS * (1 + Math.random()),
          ),
        );
      }
    }
    const out = new Map<number, DeviceWindow>();
    for (const q of reqs) {
      const w = this.windows.get(q.deviceId)!;
      out.set(q.deviceId, w);
      // Drop what neither this pass nor a later one (readings at or after this one's) needs.
      dropOldest(w, timeIndex(w.times, q.from) - q.before);
      if (w.times.length > MAX_WINDOW_ROWS) this.windows.delete(q.deviceId);
    }
    return out;
  }

  /** The pass's devices (site, names, initial values), kept DEVICE_TTL_MS. */
  private async evalDevices(ids: readonly number[]): Promise<Map<number, repo.EvalDevice>> {
    const now = Date.now();
    const out = new Map<number, repo.EvalDevice>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.deviceCache.get(id);
      if (hit && now - hit.at <= DEVICE_TTL_MS) out.set(id, hit.device);
      else missing.push(id);
    }
    if (missing.length) {
      if (this.deviceCache.size > MAX_WINDOWS) this.deviceCache.clear();
      for (const [id, device] of await repo.evalDevices(this.ctx.db, missing)) {
        this.deviceCache.set(id, { at: now, device });
        out.set(id, device);
      }
    }
    return out;
  }

  private async relationDecisions(
    x: repo.RelationRecord,
    levelRules: readonly EvalRule[],
    device: repo.EvalDevice,
    q: string,
    s: QuantitySeries,
    idx: readonly number[],
    late: LateMark | null,
  ): Promise<Decision[]> {
    const base = x.valueType === 'cumulativeChange' ? await this.baseOf(device, q) : null;
    const firings = new Map(evaluateFamily(s, idx, levelRules, base, s).map((f) => [f.index, f]));
    let state = this.members.get(x.id);
    if (!state) this.members.set(x.id, (state = new Map()));
    const key = `${device.id}:${q}`;
    const span = windowMs(levelRules[0]!) ?? DEFAULT_RELATION_WINDOW_MS;
    const out: Decision[] = [];
    for (const i of idx) {
      const f = firings.get(i);
      // A member's current level is that of its newest reading (a reading judged again does not replace it).
      const had = state.get(key);
      if (!had || had.ts <= s.ts[i]!)
        state.set(key, { level: f?.rule.level ?? 0, metric: f?.computed.metric ?? null, ts: s.ts[i]! });
      if (!f) continue;
      const now = s.ts[i]!;
      const current = [...state.entries()].filter(([, m]) => Math.abs(now - m.ts) <= span);
      const level = combineMembers(
        current.map(([, m]) => m.level),
        x.mode === 'twoAgree' ? 'twoAgree' : 'any',
      );
      if (level === 0) continue;
      const evidence = evidenceOf(s, f, x.id, late);
      evidence.threshold = x.levels.find((l) => l.level === level)?.value ?? f.rule.value;
      evidence.members = current.map(([k, m]) => {
        const [d, qq] = k.split(':');
        return {
          deviceId: Number(d),
          quantity: qq!,
          level: m.level,
          metric: m.metric ?? 0,
          ts: new Date(m.ts).toISOString(),
        };
      });
      out.push({
        deviceId: device.id,
        ts: f.ts,
        quantity: q,
        family: `multi:${x.id}`,
        ruleKey: `m:${x.id}`,
        kind: 'multi',
        level: level as AlertLevel,
        value: f.value,
        metric: f.computed.metric,
        threshold: evidence.threshold,
        ruleId: null,
        relationId: x.id,
        valueType: x.valueType as AlertValueType,
        groupId: x.groupId,
        channels: x.channels,
        pushIntervalMinutes: x.pushIntervalMinutes,
        evidence,
      });
    }
    return out;
  }

  /**
   * Stores a pass's decisions (devices in order, each device's oldest first) in one transaction, set-based where
   * the outcome allows, in a fixed number of round trips (each one is paid under load): the firing keys already
   * stored and the open alerts are read in one statement, the raised alerts written in one, the folds into open
   * alerts in one (written before any event of that alert, whose listeners read it), the notification outbox in
   * three under its savepoint, the actions and hits in one. Then pushes sockets and notifies listeners, in order.
   */
  private async store(items: readonly StoreItem[]): Promise<void> {
    const events: AlertEvent[] = [];
    const bus = this.bus;
    const all = items.flatMap((x) => x.decisions);
    let stored = 0;
    const changes = await this.ctx.db.k.transaction().execute(async (tx: Tx) => {
      // An alert already raised stays raised; a late reading before its latest hit is recorded in its evidence
      // (before this store's own writes, whose evidence carries its own mark).
      const lates: repo.LateReading[] = [];
      for (const x of items) if (x.late) lates.push({ deviceId: x.device.id, at: x.late.at });
      if (lates.length) await repo.markLateReadings(tx, lates);
      const { done, open } = await repo.storedHitsAndOpenAlerts(tx, all);
      const hits: repo.NewHit[] = [];
      const actions: repo.NewAction[] = [];
      /**
       * Hits folded into open alerts (by alert id): how many, the last hit's values, and the values of the last
       * hit that escalated the alert (a later, lower hit of the store updates the alert without lowering it).
       */
      const folds = new Map<
        number,
        { n: number; last: repo.FoldValues; lastAt: number; esc: repo.FoldValues | null }
      >();
      /** Alerts raised in this store, written together after the loop: until then their ids are placeholders (< 0). */
      const raised: { placeholder: number; row: repo.NewAlert }[] = [];
      for (const { device, decisions } of items) {
        const platformId = device.platformId!;
        for (const d of decisions) {
          const hitKey = `${d.ruleKey}|${d.deviceId}|${d.ts}`;
          if (done.has(hitKey)) continue;
          done.add(hitKey);
          // Multi-device alerts are kept under the site's rule, on the device that tipped it.
          const openKey = d.family.startsWith('multi:') ? `*|${d.family}` : `${d.deviceId}|${d.family}`;
          const o = open.get(openKey);
          const values = {
            rule_id: d.ruleId,
            relation_id: d.relationId,
            value_type: d.valueType,
            level: d.level,
            threshold: d.threshold,
            value: d.value,
            metric: d.metric,
            at: d.ts,
            evidence: d.evidence,
            group_id: d.groupId,
            channels: d.channels,
            push_interval_minutes: d.pushIntervalMinutes,
          };
          let alertId: number;
          let kind: AlertEvent['kind'] | null = null;
          let previous: AlertLevel | null = null;
          if (!o) {
            alertId = -(raised.length + 1);
            raised.push({
              placeholder: alertId,
              row: {
                ...values,
                platform_id: platformId,
                device_id: d.deviceId,
                quantity: d.quantity,
                kind: d.kind,
                family: d.family,
              },
            });
            open.set(openKey, { id: alertId, level: d.level, count: 1 });
            kind = 'raised';
            actions.push({
              alertId,
              action: 'raised',
              userId: null,
              userName: null,
              level: d.level,
              detail: { value: d.value, metric: d.metric, threshold: d.threshold, ts: new Date(d.ts).toISOString() },
            });
          } else {
            alertId = o.id;
            const escalate = d.level > o.level;
            const f = folds.get(alertId);
            if (f) {
              f.n++;
              // The latest values are the newest reading's (a late reading judged again is older).
              if (d.ts >= f.lastAt) f.last = values;
              f.lastAt = Math.max(f.lastAt, d.ts);
              if (escalate) f.esc = values;
            } else folds.set(alertId, { n: 1, last: values, lastAt: d.ts, esc: escalate ? values : null });
            if (escalate) {
              kind = 'escalated';
              previous = o.level as AlertLevel;
              o.level = d.level;
              actions.push({
                alertId,
                action: 'escalated',
                userId: null,
                userName: null,
                level: d.level,
                detail: {
                  from: previous,
                  value: d.value,
                  metric: d.metric,
                  threshold: d.threshold,
                  ts: new Date(d.ts).toISOString(),
                },
              });
            }
          }
          hits.push({
            ruleKey: d.ruleKey,
            deviceId: d.deviceId,
            ts: d.ts,
            alertId,
            level: d.level,
            value: d.value,
            metric: d.metric,
          });
          stored++;
          if (kind) {
            const ev: AlertEvent = {
              alertId,
              kind,
              level: d.level,
              previousLevel: previous,
              platformId,
              platformName: device.platformName,
              deviceId: device.id,
              deviceName: device.name,
              deviceNumber: device.number,
              quantity: d.quantity,
              ruleId: d.ruleId,
              relationId: d.relationId,
              groupId: d.groupId,
              channels: d.channels as AlertChannel[],
              pushIntervalMinutes: d.pushIntervalMinutes,
              valueType: d.valueType,
              value: d.value,
              metric: d.metric,
              threshold: d.threshold,
              at: new Date(d.ts).toISOString(),
            };
            events.push(ev);
          }
        }
      }
      // Set-based writes: the raised alerts in one statement, then every fold in one statement.
      const idOf = new Map<number, number>();
      const newIds = await repo.insertAlerts(
        tx,
        raised.map((x) => x.row),
      );
      raised.forEach((x, i) => idOf.set(x.placeholder, newIds[i]!));
      const real = (id: number): number => (id < 0 ? idOf.get(id)! : id);
      await repo.foldIntoAlerts(
        tx,
        [...folds].map(([id, f]) => ({ id: real(id), ...f })),
      );
      for (const x of actions) x.alertId = real(x.alertId);
      for (const x of hits) x.alertId = real(x.alertId);
      for (const x of events) x.alertId = real(x.alertId);
      // The listeners (the notification outbox) read the alerts: they run once everything is written.
      await bus.emitTxMany(tx, events, this.listenerFailed);
      await repo.insertActionsAndHits(tx, actions, hits);
      // One announcement per device (a store may hold several passes of the same device).
      return [...new Set(items.filter((x) => x.decisions.length).map(({ device }) => device.id))];
    });
    this.decisions += stored;
    const byDevice = new Map<number, AlertEvent[]>();
    for (const ev of events) {
      let l = byDevice.get(ev.deviceId);
      if (!l) byDevice.set(ev.deviceId, (l = []));
      l.push(ev);
    }
    for (const id of changes) this.announce(byDevice.get(id) ?? [], null, id);
    // The device states follow in a statement of their own: a state change locks the device's row, which the
    // ingest batch being written holds; inside this transaction that wait held up the alerts (200-300 ms under
    // load in the alerts bench). The states are derived from the open alerts, so a later refresh (or the one
    // at start, catchUp) puts right what a crash in between would leave.
    this.refreshStates(changes);
  }

  /** Device-state refreshes after stores, one at a time; `evaluate` callers wait for them (runStores). */
  private states: Promise<void> = Promise.resolve();

  private refreshStates(ids: readonly number[]): Promise<void> {
    this.states = this.states.then(async () => {
      try {
        for (const c of await repo.refreshDeviceStates(this.ctx.db.k, ids)) this.announce([], c, c.deviceId);
      } catch (e) {
        this.ctx.log.error({ err: e }, 'device state refresh failed');
      }
    });
    return this.states;
  }

  private announce(
    events: readonly AlertEvent[],
    stateChange: { platformId: number | null; state: string } | null,
    deviceId: number,
  ): void {
    const hub = this.ctx.hub;
    const bus = this.bus;
    for (const ev of events) {
      const msg: AlertSocketMessage = {
        type: 'alert',
        kind: ev.kind,
        alertId: ev.alertId,
        level: ev.level,
        colour: ALERT_LEVEL_COLOURS[ev.level].hex,
        platformId: ev.platformId,
        platformName: ev.platformName,
        deviceId: ev.deviceId,
        deviceName: ev.deviceName,
        quantity: ev.quantity,
        valueType: ev.valueType,
        value: ev.value,
        threshold: ev.threshold,
        at: ev.at,
      };
      hub.publish(ev.platformId, msg, { everyone: true });
      bus.emit(this.ctx, ev);
    }
    if (stateChange?.platformId != null)
      hub.publish(stateChange.platformId, {
        type: 'deviceState',
        platformId: stateChange.platformId,
        deviceId,
        state: stateChange.state,
      });
  }

  /** Offline: raise (or update) the device's offline alert. Back online: restore its alert/alarm state. */
  private async deviceStates(changes: readonly StateChange[]): Promise<void> {
    // After the alerts of the readings before them (rare: offline sweeps and devices coming back).
    while (this.storeLoop) await this.storeLoop;
    const devices = await repo.evalDevices(
      this.ctx.db,
      changes.map((c) => c.deviceId),
    );
    for (const c of changes) {
      const device = devices.get(c.deviceId);
      if (!device || device.platformId === null) continue;
      if (c.state !== 'offline') {
        const change = await repo.refreshDeviceState(this.ctx.db, device.id);
        this.announce([], change, device.id);
        continue;
      }
      const now = Date.now();
      const events: AlertEvent[] = [];
      await this.ctx.db.k.transaction().execute(async (tx: Tx) => {
        const notify = await repo.notifyRuleOf(tx, device.id);
        const open = await repo.openAlertForUpdate(tx, device.id, 'offline');
        const evidence: AlertEvidence = {
          ruleId: null,
          relationId: null,
          valueType: 'offline',
          direction: null,
          threshold: device.offlineHours ?? this.ctx.config.defaultOfflineHours,
          rateValue: null,
          windowN: null,
          windowUnit: null,
          ratio: null,
          ts: new Date(now).toISOString(),
          value: null,
          metric: null,
          base: null,
          change: null,
          rate: null,
          acceleration: null,
          readings: [],
          lastSeenAt: device.lastSeenAt,
          offlineHours: device.offlineHours ?? this.ctx.config.defaultOfflineHours,
        };
        const values = {
          rule_id: null,
          relation_id: null,
          value_type: 'offline',
          level: OFFLINE_ALERT_LEVEL,
          threshold: evidence.threshold,
          value: null,
          metric: null,
          at: now,
          evidence,
          group_id: notify?.groupId ?? null,
          channels: notify?.channels ?? [],
          push_interval_minutes: notify?.pushIntervalMinutes ?? 0,
        };
        if (open) {
          await repo.foldIntoAlerts(tx, [{ id: open.id, n: 1, last: values, lastAt: now, esc: null }]);
          return;
        }
        const alertId = await repo.insertAlert(tx, {
          ...values,
          platform_id: device.platformId!,
          device_id: device.id,
          quantity: null,
          kind: 'offline',
          family: 'offline',
        });
        await repo.insertAction(tx, {
          alertId,
          action: 'raised',
          userId: null,
          userName: null,
          level: OFFLINE_ALERT_LEVEL,
          detail: { lastSeenAt: device.lastSeenAt, offlineHours: evidence.offlineHours },
        });
        const ev: AlertEvent = {
          alertId,
          kind: 'offline',
          level: OFFLINE_ALERT_LEVEL,
          previousLevel: null,
          platformId: device.platformId!,
          platformName: device.platformName,
          deviceId: device.id,
          deviceName: device.name,
          deviceNumber: device.number,
          quantity: null,
          ruleId: null,
          relationId: null,
          groupId: values.group_id,
          channels: values.channels as AlertChannel[],
          pushIntervalMinutes: values.push_interval_minutes,
          valueType: 'offline',
          value: null,
          metric: null,
          threshold: evidence.threshold,
          at: evidence.ts,
        };
        await this.bus.emitTx(tx, ev, this.listenerFailed);
        events.push(ev);
      });
      this.announce(events, null, device.id);
    }
  }
}
