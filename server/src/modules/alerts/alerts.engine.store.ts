import {
  ALERT_LEVEL_COLOURS,
  OFFLINE_ALERT_LEVEL,
  type AlertChannel,
  type AlertEvent,
  type AlertEvidence,
  type AlertLevel,
  type AlertSocketMessage,
  type AlertValueType,
} from '@geosentry/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { AlertEvents } from './alerts.events.ts';
import type { LateMark } from './alerts.engine.window.ts';
import * as rulesRepo from './alerts.rules.repository.ts';
import * as evalRepo from './alerts.engine.repository.ts';

type Tx = Kysely<Database>;

export type StateChange = { deviceId: number; platformId: number | null; state: string };

/** A decision to store: one family of one device fired at one reading. */
export interface Decision {
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

/** Decisions waiting for the store at most before evaluation waits (back-pressure). */
const MAX_PENDING_DECISIONS = 20_000;

/**
 * A device's decisions of one pass, and its late mark when the pass had late readings (its open alerts record
 * the late reading even when nothing fires again).
 */
export interface StoreItem {
  device: evalRepo.EvalDevice;
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

/**
 * The store of the alert engine: writes the decisions of evaluation passes in group-committed transactions (in
 * pass order), raises offline alerts, refreshes device states, and announces each stored alert on the sockets
 * and the alert event bus.
 */
export class AlertStore {
  /** Decisions waiting for the next store (see storeInOrder), and the store being written. */
  private pending_: StoreBatch = newStoreBatch();
  /** The store being written (evaluation waits on it before device state changes, and when idle). */
  storeLoop: Promise<void> | null = null;
  /** Stored decisions (bench and tests). */
  decisions = 0;

  constructor(
    private readonly ctx: AppContext,
    private readonly bus: AlertEvents,
  ) {}

  private readonly listenerFailed = (e: unknown): void =>
    this.ctx.log.error({ err: e }, 'alert event listener failed (the alert is stored; its listener work is not)');

  /**
   * Stores a pass's decisions without holding up the next pass (group commit): while one transaction is being
   * written, the decisions of the passes evaluated meanwhile gather and go into the next transaction together,
   * in pass order (so each device's alerts are still written in order). However fast passes come, one store
   * takes all that waited. Answers the promise of the transaction holding this pass's decisions. A pass waits
   * (back-pressure) while MAX_PENDING_DECISIONS are already waiting.
   */
  async storeInOrder(toStore: StoreItem[]): Promise<{ stored: Promise<void> }> {
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
      const lates: evalRepo.LateReading[] = [];
      for (const x of items) if (x.late) lates.push({ deviceId: x.device.id, at: x.late.at });
      if (lates.length) await evalRepo.markLateReadings(tx, lates);
      const { done, open } = await evalRepo.storedHitsAndOpenAlerts(tx, all);
      const hits: evalRepo.NewHit[] = [];
      const actions: evalRepo.NewAction[] = [];
      /**
       * Hits folded into open alerts (by alert id): how many, the last hit's values, and the values of the last
       * hit that escalated the alert (a later, lower hit of the store updates the alert without lowering it).
       */
      const folds = new Map<
        number,
        { n: number; last: evalRepo.FoldValues; lastAt: number; esc: evalRepo.FoldValues | null }
      >();
      /** Alerts raised in this store, written together after the loop: until then their ids are placeholders (< 0). */
      const raised: { placeholder: number; row: evalRepo.NewAlert }[] = [];
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
      const newIds = await evalRepo.insertAlerts(
        tx,
        raised.map((x) => x.row),
      );
      raised.forEach((x, i) => idOf.set(x.placeholder, newIds[i]!));
      const real = (id: number): number => (id < 0 ? idOf.get(id)! : id);
      await evalRepo.foldIntoAlerts(
        tx,
        [...folds].map(([id, f]) => ({ id: real(id), ...f })),
      );
      for (const x of actions) x.alertId = real(x.alertId);
      for (const x of hits) x.alertId = real(x.alertId);
      for (const x of events) x.alertId = real(x.alertId);
      // The listeners (the notification outbox) read the alerts: they run once everything is written.
      await bus.emitTxMany(tx, events, this.listenerFailed);
      await evalRepo.insertActionsAndHits(tx, actions, hits);
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

  refreshStates(ids: readonly number[]): Promise<void> {
    this.states = this.states.then(async () => {
      try {
        for (const c of await evalRepo.refreshDeviceStates(this.ctx.db.k, ids)) this.announce([], c, c.deviceId);
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
  async deviceStates(changes: readonly StateChange[]): Promise<void> {
    // After the alerts of the readings before them (rare: offline sweeps and devices coming back).
    while (this.storeLoop) await this.storeLoop;
    const devices = await evalRepo.evalDevices(
      this.ctx.db,
      changes.map((c) => c.deviceId),
    );
    for (const c of changes) {
      const device = devices.get(c.deviceId);
      if (!device || device.platformId === null) continue;
      if (c.state !== 'offline') {
        const change = await evalRepo.refreshDeviceState(this.ctx.db, device.id);
        this.announce([], change, device.id);
        continue;
      }
      const now = Date.now();
      const events: AlertEvent[] = [];
      await this.ctx.db.k.transaction().execute(async (tx: Tx) => {
        const notify = await rulesRepo.notifyRuleOf(tx, device.id);
        const open = await evalRepo.openAlertForUpdate(tx, device.id, 'offline');
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
          await evalRepo.foldIntoAlerts(tx, [{ id: open.id, n: 1, last: values, lastAt: now, esc: null }]);
          return;
        }
        const alertId = await evalRepo.insertAlert(tx, {
          ...values,
          platform_id: device.platformId!,
          device_id: device.id,
          quantity: null,
          kind: 'offline',
          family: 'offline',
        });
        await evalRepo.insertAction(tx, {
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
