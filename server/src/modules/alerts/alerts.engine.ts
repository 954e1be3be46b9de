import type { AlertLevel, AlertValueType } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { CommittedReading } from '../ingest/index.ts';
import type { AlertEvents } from './alerts.events.ts';
import {
  combineMembers,
  evaluateFamily,
  firstAtOrAfter,
  judgeIndices,
  lookbackOf,
  reachOfAll,
  timeIndex,
  windowMs,
  type EvalRule,
} from './alerts.evaluate.ts';
import {
  WINDOW_TTL_MS,
  MAX_WINDOWS,
  MAX_WINDOW_ROWS,
  FAR_FUTURE_MS,
  type Row,
  type QuantitySeries,
  type DeviceWindow,
  windowOf,
  addRow,
  dropOldest,
  seriesOf,
  covers,
  timesOf,
  indicesOf,
  type DevicePlan,
  toEvalRule,
  type LateMark,
  evidenceOf,
  relationRules,
  newestBefore,
} from './alerts.engine.window.ts';
import { AlertStore, type StateChange, type Decision, type StoreItem } from './alerts.engine.store.ts';
import * as rulesRepo from './alerts.rules.repository.ts';
import * as relationsRepo from './alerts.relations.repository.ts';
import * as evalRepo from './alerts.engine.repository.ts';

const BASE_TTL_MS = 60_000;
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
/** Devices' site and names for a pass are re-read after this long. */
const DEVICE_TTL_MS = 5_000;

/**
 * Alert evaluation: listens to committed readings, evaluates each device's enabled rules in time order over
 * the stored readings they need, and stores raised / escalated / updated alerts with their evidence. Batches
 * are handled in passes, one at a time. Offline alerts come from the ingest's device state changes.
 */
export class AlertEngine {
  private rulesByDevice: Map<number, rulesRepo.RuleRecord[]> | null = null;
  private relationsByDevice: Map<number, relationsRepo.RelationRecord[]> = new Map();
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
  private deviceCache = new Map<number, { at: number; device: evalRepo.EvalDevice }>();
  /** Each device's rules arranged for evaluation (built on first use after the rules are loaded). */
  private plans = new Map<number, DevicePlan>();
  private queue: ({ kind: 'readings'; items: CommittedReading[] } | { kind: 'states'; items: StateChange[] })[] = [];
  private running: Promise<void> | null = null;
  /** Readings waiting for evaluation. */
  pending = 0;
  /** Ingest waiting for the backlog to shrink (see behind()). */
  private roomWaiters: (() => void)[] = [];
  private loading: Promise<void> | null = null;
  /** Evaluated batches (bench and tests). */
  batches = 0;
  /** Writes the decisions of the passes, raises offline alerts, and announces them (sockets, alert events). */
  private readonly alertStore: AlertStore;

  constructor(
    private readonly ctx: AppContext,
    /** The alert event bus: stored alerts are emitted on it (in their transaction, then after commit). */
    bus: AlertEvents,
  ) {
    this.alertStore = new AlertStore(ctx, bus);
  }

  /** Stored decisions (bench and tests). */
  get decisions(): number {
    return this.alertStore.decisions;
  }

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
    while (this.running || this.queue.length || this.alertStore.storeLoop) {
      if (this.running || this.queue.length) await (this.running ?? this.kick());
      else await this.alertStore.storeLoop;
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
    await this.alertStore.refreshStates(await evalRepo.devicesWithAlertState(this.ctx.db));
    const ids = [...new Set([...this.rulesByDevice!.keys(), ...this.relationsByDevice.keys()])];
    const rows = await evalRepo.receivedSince(this.ctx.db, ids, new Date(Date.now() - windowMs));
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
          await this.alertStore.deviceStates(item.items);
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
        rulesRepo.enabledRules(this.ctx.db),
        relationsRepo.enabledRelations(this.ctx.db),
      ]);
      const byDevice = new Map<number, rulesRepo.RuleRecord[]>();
      for (const r of rules) {
        let l = byDevice.get(r.deviceId);
        if (!l) byDevice.set(r.deviceId, (l = []));
        l.push(r);
      }
      const rel = new Map<number, relationsRepo.RelationRecord[]>();
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

  private async baseOf(device: evalRepo.EvalDevice, quantity: string): Promise<number | null> {
    const initial = device.initialValues[quantity];
    if (typeof initial === 'number') return initial;
    let hit = this.bases.get(device.id);
    if (!hit || Date.now() - hit.at > BASE_TTL_MS || hit.values[quantity] === undefined) {
      hit = { at: Date.now(), values: await evalRepo.firstValues(this.ctx.db, device.id) };
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
    const reqs: evalRepo.SeriesRequest[] = [];
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
    return this.alertStore.storeInOrder(toStore);
  }

  /**
   * Makes each device's rolling window hold what its request needs ([from, to] plus `before` readings before
   * `from`) and answers the windows: the pass's readings are added to windows kept from earlier passes; windows
   * missing, too short or stale are read from the database (one query for all of them). What no later pass
   * needs (readings before this pass's) is dropped.
   */
  private async series(
    reqs: readonly evalRepo.SeriesRequest[],
    fresh: ReadonlyMap<number, readonly CommittedReading[]>,
  ): Promise<Map<number, DeviceWindow>> {
    const now = Date.now();
    const load: evalRepo.SeriesRequest[] = [];
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
      for (const r of await evalRepo.readingsFor(this.ctx.db, load)) got.get(r.deviceId)!.push(r);
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
  private async evalDevices(ids: readonly number[]): Promise<Map<number, evalRepo.EvalDevice>> {
    const now = Date.now();
    const out = new Map<number, evalRepo.EvalDevice>();
    const missing: number[] = [];
    for (const id of ids) {
      const hit = this.deviceCache.get(id);
      if (hit && now - hit.at <= DEVICE_TTL_MS) out.set(id, hit.device);
      else missing.push(id);
    }
    if (missing.length) {
      if (this.deviceCache.size > MAX_WINDOWS) this.deviceCache.clear();
      for (const [id, device] of await evalRepo.evalDevices(this.ctx.db, missing)) {
        this.deviceCache.set(id, { at: now, device });
        out.set(id, device);
      }
    }
    return out;
  }

  private async relationDecisions(
    x: relationsRepo.RelationRecord,
    levelRules: readonly EvalRule[],
    device: evalRepo.EvalDevice,
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
}
