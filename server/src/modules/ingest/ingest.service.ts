import { parseReadingPayload, quantityKeysOf, type IngestStats, type RejectReason } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { authenticateTerminal } from '../terminals/index.ts';
import * as repo from './ingest.repository.ts';
import { ReadingWriter } from './ingest.writer.ts';

/** What one message or request came to. */
export type IngestOutcome =
  | { ok: true; stored: number; duplicates: number }
  | { ok: false; reason: RejectReason; detail: string; retryAfterSeconds?: number };

/** The terminal a connection or request authenticated as. */
export interface TerminalIdentity {
  terminalId: number;
  deviceNumbers: ReadonlySet<string>;
}

/** A committed reading as listeners (socket push, alert evaluation) see it. */
export interface CommittedReading {
  deviceId: number;
  platformId: number | null;
  ts: number;
  values: Record<string, number>;
}

export type ReadingsListener = (readings: CommittedReading[]) => void | Promise<void>;

/**
 * A consumer of committed readings that works behind the writer (the alert engine): while it is `behind()`,
 * ingest holds producers back (MQTT acks wait for `room()`, HTTP answers 503) instead of letting its queue
 * grow without bound.
 */
export interface ReadingsBacklog {
  behind(): boolean;
  /** Resolves once the consumer has room again. */
  room(): Promise<void>;
}
/** A device state change made by ingest: offline (sweep) or back online ('normal'). */
export interface DeviceStateChange {
  deviceId: number;
  platformId: number | null;
  state: 'offline' | 'normal';
}
export type DeviceStateListener = (changes: DeviceStateChange[]) => void | Promise<void>;

const CACHE_MS = 5_000;
/** How long a cached device may still be used while its refresh runs (the database is slow or down). */
const STALE_MS = 30_000;

class TokenBucket {
  tokens: number;
  at: number;
  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
    this.at = Date.now();
  }
  /** Takes n tokens; returns 0 when allowed, else the seconds to wait. */
  take(n: number): number {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens >= n) {
      this.tokens -= n;
      return 0;
    }
    return (n - this.tokens) / this.rate;
  }
}

/**
 * Device ingest, shared by MQTT and HTTP: checks the terminal and the payload, rate-limits per device,
 * hands readings to the single writer and settles only after commit; after commit it pushes readings
 * and state changes to the browser sockets of each site and to the registered listeners.
 */
export class IngestService {
  readonly writer: ReadingWriter;
  private devices = new Map<string, { at: number; dev: repo.DeviceRecord | undefined }>();
  private loading = new Map<string, Promise<repo.DeviceRecord | undefined>>();
  private terminals = new Map<string, { at: number; id: TerminalIdentity | null }>();
  private buckets = new Map<number, TokenBucket>();
  private rejected = new Map<RejectReason, number>();
  private unsavedRejections = new Map<string, number>();
  private listeners: ReadingsListener[] = [];
  private backlogs: ReadingsBacklog[] = [];
  private editedListeners: ((deviceIds: number[]) => void)[] = [];
  private stateListeners: DeviceStateListener[] = [];
  private platformOfDevice = new Map<number, number | null>();
  private timers: NodeJS.Timeout[] = [];
  /** Counts device changes heard: a lookup that ran across one does not cache its (maybe older) answer. */
  private deviceGeneration = 0;
  /**
   * Numbers the registry changed since start: a terminal's device list is read when it authenticates (and kept
   * for an MQTT connection's life), so a number added since is looked up although the list lacks it.
   */
  private changedNumbers = new Set<string>();

  constructor(private readonly ctx: AppContext) {
    this.writer = new ReadingWriter(ctx.db, {
      maxBatch: 5000,
      concurrency: ctx.db.kind === 'postgres' ? 3 : 1,
      maxQueue: ctx.config.ingestMaxQueue,
      onCommit: (r) => this.afterCommit(r),
    });
  }

  /**
   * Device numbers added, bound, moved, unbound or deleted: their cached records (also "unknown") go, so the
   * next reading looks them up (a device added a moment ago is accepted at once). Called by the device registry
   * after its change committed (wired in buildApp). Another server process on the same database does not hear
   * it; there the cache entry expires (a few seconds).
   */
  forgetDevices(numbers: readonly string[]): void {
    this.deviceGeneration++;
    if (this.changedNumbers.size + numbers.length > 100_000) this.changedNumbers.clear();
    for (const n of numbers) {
      this.devices.delete(n);
      this.loading.delete(n);
      this.changedNumbers.add(n);
    }
  }

  /** Starts the offline sweep, the retention job and the rejection counter flush. */
  start(): void {
    const every = (ms: number, fn: () => Promise<unknown>): void => {
      const t = setInterval(
        () => void fn().catch((e: unknown) => this.ctx.log.warn({ err: e }, 'ingest job failed')),
        ms,
      );
      t.unref();
      this.timers.push(t);
    };
    every(60_000, () => this.sweepOffline());
    every(6 * 3600_000, () => this.applyRetention());
    every(10_000, () => this.flushRejections());
  }

  onReadings(fn: ReadingsListener): void {
    this.listeners.push(fn);
  }

  /** A consumer whose backlog holds producers back (see ReadingsBacklog). */
  addBacklog(b: ReadingsBacklog): void {
    this.backlogs.push(b);
  }

  /** The writer's queue is full or a consumer of committed readings is behind: HTTP ingest answers 503. */
  isOverloaded(): boolean {
    return this.writer.isOverloaded() || this.backlogs.some((b) => b.behind());
  }

  /** Listeners of stored readings changed after the fact (edited, smoothed, deleted by an operator). */
  onReadingsEdited(fn: (deviceIds: number[]) => void): void {
    this.editedListeners.push(fn);
  }

  /** Says that stored readings of these devices changed (called after the change committed). */
  readingsEdited(deviceIds: number[]): void {
    for (const fn of this.editedListeners)
      try {
        fn(deviceIds);
      } catch (e) {
        this.ctx.log.error({ err: e }, 'readings-edited listener failed');
      }
  }

  /** Listeners of the state changes ingest makes (offline sweep, back online): offline alerts. */
  onDeviceState(fn: DeviceStateListener): void {
    this.stateListeners.push(fn);
  }

  private emitStates(changes: DeviceStateChange[]): void {
    if (changes.length === 0) return;
    for (const fn of this.stateListeners)
      Promise.resolve()
        .then(() => fn(changes))
        .catch((e: unknown) => this.ctx.log.error({ err: e }, 'device state listener failed'));
  }

  stats(): IngestStats {
    return {
      accepted: this.writer.stored,
      duplicates: this.writer.duplicates,
      rejected: Object.fromEntries(this.rejected),
      queued: this.writer.queueLength(),
      batches: this.writer.batches,
    };
  }

  /** Authenticates a terminal by id and key (cached briefly; a rotated key stops working within seconds). */
  async terminal(terminalId: string, key: string): Promise<TerminalIdentity | null> {
    const k = `${terminalId}\u0000${key}`;
    const hit = this.terminals.get(k);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.id;
    const id = await authenticateTerminal(this.ctx.db, terminalId, key);
    if (this.terminals.size > 10_000) this.terminals.clear();
    this.terminals.set(k, { at: Date.now(), id });
    return id;
  }

  /**
   * The device of a number, cached for CACHE_MS; an unknown number is cached too ("no such device"), so a
   * flooding unknown device costs one query per CACHE_MS, not one per reading. A registry change of the number
   * drops its entry at once (forgetDevices). When the entry is older, one refresh runs for all
   * readings of that device (no query per reading), and a known device keeps flowing on the cached
   * record while it runs. The refreshes wanted in one turn of the event loop go to the database as one
   * statement (a terminal's 200 devices expire together: one query, not 200 queued in the pool ahead of
   * the writer's batches). Answers synchronously on a hit (no promise per reading).
   */
  private device(number: string): repo.DeviceRecord | undefined | Promise<repo.DeviceRecord | undefined> {
    const hit = this.devices.get(number);
    const now = Date.now();
    if (hit && now - hit.at < CACHE_MS) return hit.dev;
    let p = this.loading.get(number);
    if (!p) {
      p = this.lookupBatch(number).then((found) => found.get(number));
      // A caller may not wait for it (served stale, or its message refused at a later reading): a failed lookup
      // must not become an unhandled rejection. Callers that wait still get the failure.
      p.catch(() => undefined);
      this.loading.set(number, p);
    }
    if (hit?.dev && now - hit.at < STALE_MS) return hit.dev;
    return p;
  }

  /** The numbers to look up in the next statement, and its answer. */
  private lookup: { numbers: string[]; found: Promise<Map<string, repo.DeviceRecord>> } | null = null;

  /** Joins the lookup of this turn of the event loop (see device()); it caches what it finds and what it does not. */
  private lookupBatch(number: string): Promise<Map<string, repo.DeviceRecord>> {
    if (this.lookup) {
      this.lookup.numbers.push(number);
      return this.lookup.found;
    }
    const numbers = [number];
    let generation = 0;
    const found = new Promise<void>((r) => setImmediate(r))
      .then(() => {
        this.lookup = null;
        generation = this.deviceGeneration;
        return repo.devicesByNumber(this.ctx.db, numbers);
      })
      .then((m) => {
        // A device changed while the query ran: its answer may predate the change, so it is not kept.
        if (generation !== this.deviceGeneration) return m;
        if (this.devices.size + numbers.length > 100_000) this.devices.clear();
        const at = Date.now();
        for (const n of numbers) {
          const dev = m.get(n);
          this.devices.set(n, { at, dev });
          if (dev) this.platformOfDevice.set(dev.id, dev.platformId);
        }
        return m;
      })
      .finally(() => {
        for (const n of numbers) this.loading.delete(n);
      });
    this.lookup = { numbers, found };
    return found;
  }

  reject(reason: RejectReason, detail: string, source: string): IngestOutcome {
    this.rejected.set(reason, (this.rejected.get(reason) ?? 0) + 1);
    this.unsavedRejections.set(reason, (this.unsavedRejections.get(reason) ?? 0) + 1);
    this.ctx.log.warn({ source, reason, detail: detail.slice(0, 200) }, 'reading rejected');
    return { ok: false, reason, detail };
  }

  /**
   * Ingests one message: `body` is the decoded JSON (or a Buffer/string to decode), `deviceNumber`
   * the topic's or header's device (items may name their own when allowDeviceField). Waits for rate
   * limits up to `maxWaitSeconds` (MQTT: slower acks), then refuses.
   */
  async ingest(
    who: TerminalIdentity | null,
    deviceNumber: string | null,
    raw: unknown,
    opts: { source: string; allowDeviceField?: boolean; maxWaitSeconds?: number; trustBroker?: boolean },
  ): Promise<IngestOutcome> {
    let body = raw;
    if (Buffer.isBuffer(raw) || typeof raw === 'string') {
      try {
        body = JSON.parse(raw.toString());
      } catch {
        return this.reject('badJson', 'payload is not JSON', opts.source);
      }
    }
    const parsed = parseReadingPayload(body, { now: Date.now(), allowDeviceField: opts.allowDeviceField });
    if (!parsed.ok) return this.reject(parsed.reason, parsed.detail, opts.source);
    // The devices first: those not cached are looked up together (one statement for the whole message).
    const found: (repo.DeviceRecord | undefined | Promise<repo.DeviceRecord | undefined>)[] = [];
    let waiting = false;
    for (const r of parsed.readings) {
      const number = r.device ?? deviceNumber;
      if (!number) return this.reject('badShape', 'no device number', opts.source);
      // A number neither in the terminal's list nor changed since is refused without a query (a terminal
      // sending made-up numbers costs no database work).
      if (!opts.trustBroker && !(who?.deviceNumbers.has(number) || this.changedNumbers.has(number)))
        return this.reject('notYourDevice', `device ${number}`, opts.source);
      const f = this.device(number);
      if (f instanceof Promise) waiting = true;
      found.push(f);
    }
    const devs = waiting ? await Promise.all(found) : (found as (repo.DeviceRecord | undefined)[]);
    const rows: repo.ReadingRow[] = [];
    const perDevice = new Map<number, number>();
    for (const [i, r] of parsed.readings.entries()) {
      const dev = devs[i];
      const number = r.device ?? deviceNumber;
      // The terminal's own bound devices, from the device record (current within the cache time, and at once
      // after a registry change), not from the device list read when the terminal connected. A device of
      // another terminal and an unknown device get the same answer.
      if (!opts.trustBroker && (!dev || dev.platformId === null || dev.terminalId !== who?.terminalId))
        return this.reject('notYourDevice', `device ${number}`, opts.source);
      if (!dev || dev.platformId === null) return this.reject('unknownDevice', `device ${number}`, opts.source);
      const allowed = quantityKeysOf(dev.moduleId);
      for (const k in r.values)
        if (!allowed.has(k)) return this.reject('unknownQuantity', `device ${number}: ${k}`, opts.source);
      rows.push({ deviceId: dev.id, ts: r.ts, values: r.values });
      perDevice.set(dev.id, (perDevice.get(dev.id) ?? 0) + 1);
    }
    for (const [id, n] of perDevice) {
      let b = this.buckets.get(id);
      if (!b) {
        const rate = this.ctx.config.ingestDeviceRate;
        this.buckets.set(id, (b = new TokenBucket(rate, Math.max(rate * 10, INGEST_MAX_MESSAGE))));
      }
      const wait = b.take(n);
      if (wait > 0) {
        if (wait <= (opts.maxWaitSeconds ?? 0)) {
          await new Promise((r) => setTimeout(r, wait * 1000));
          b.take(n);
        } else {
          const out = this.reject('rateLimited', `device ${id}: ${n} readings`, opts.source);
          return { ...out, retryAfterSeconds: Math.ceil(wait) } as IngestOutcome;
        }
      }
    }
    // A consumer far behind (alert evaluation) holds the acknowledgement back: producers slow down.
    for (const b of this.backlogs) if (b.behind()) await b.room();
    const r = await this.writer.submit(rows);
    return { ok: true, ...r };
  }

  private afterCommit(r: repo.BatchResult): void {
    if (r.inserted.length === 0 && r.cameOnline.length === 0) return;
    const platformOf = this.platformOfDevice;
    const committed: CommittedReading[] = r.inserted.map((x) => ({
      deviceId: x.deviceId,
      platformId: platformOf.get(x.deviceId) ?? null,
      ts: x.ts,
      values: x.values,
    }));
    const hub = this.ctx.hub;
    for (const c of committed) {
      if (c.platformId === null || !hub.hasListeners(c.platformId)) continue;
      hub.publish(c.platformId, {
        type: 'reading',
        platformId: c.platformId,
        deviceId: c.deviceId,
        ts: new Date(c.ts).toISOString(),
        values: c.values,
      });
    }
    for (const s of r.cameOnline)
      if (s.platformId !== null)
        hub.publish(s.platformId, {
          type: 'deviceState',
          platformId: s.platformId,
          deviceId: s.deviceId,
          state: 'normal',
        });
    this.emitStates(r.cameOnline.map((s) => ({ ...s, state: 'normal' as const })));
    for (const fn of this.listeners) {
      Promise.resolve()
        .then(() => fn(committed))
        .catch((e: unknown) => this.ctx.log.error({ err: e }, 'readings listener failed'));
    }
  }

  async sweepOffline(): Promise<number> {
    const gone = await repo.markOffline(this.ctx.db, this.ctx.config.defaultOfflineHours);
    for (const s of gone)
      if (s.platformId !== null)
        this.ctx.hub.publish(s.platformId, {
          type: 'deviceState',
          platformId: s.platformId,
          deviceId: s.deviceId,
          state: 'offline',
        });
    this.emitStates(gone.map((s) => ({ ...s, state: 'offline' as const })));
    return gone.length;
  }

  /** Drops raw partitions wholly older than the retention (rollups stay). */
  async applyRetention(now = Date.now()): Promise<string[]> {
    const months = this.ctx.config.retentionMonths;
    if (!months || months <= 0) return [];
    const cut = new Date(now);
    const limit = repo.partitionOf(Date.UTC(cut.getUTCFullYear(), cut.getUTCMonth() - months, 1)).name;
    const dropped: string[] = [];
    for (const p of await repo.listPartitions(this.ctx.db)) {
      if (p < limit) {
        await repo.dropPartition(this.ctx.db, p);
        dropped.push(p);
      }
    }
    if (dropped.length) {
      this.writer.forgetPartitions();
      this.ctx.log.info({ dropped }, 'readings retention applied');
    }
    return dropped;
  }

  /** Adds the rejections counted since the last flush to the ingest_rejections table (runs every 10 s). */
  async flushRejections(): Promise<void> {
    if (this.unsavedRejections.size === 0) return;
    const counts = this.unsavedRejections;
    this.unsavedRejections = new Map();
    try {
      await repo.countRejections(this.ctx.db, counts);
    } catch (e) {
      // Keep the counts for the next flush.
      for (const [k, n] of counts) this.unsavedRejections.set(k, (this.unsavedRejections.get(k) ?? 0) + n);
      throw e;
    }
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.writer.close();
    await this.flushRejections().catch(() => undefined);
  }
}

const INGEST_MAX_MESSAGE = 1000;
