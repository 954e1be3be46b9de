import type { Db } from '../../platform/db/db.ts';
import { ensurePartition, partitionOf, writeBatch, type BatchResult, type ReadingRow } from './ingest.repository.ts';

interface Job {
  rows: ReadingRow[];
  /** Rows of this job not yet taken into a batch. */
  next: number;
  stored: number;
  failed: unknown;
  pending: number;
  resolve: (r: { stored: number; duplicates: number }) => void;
  reject: (e: unknown) => void;
}

export interface WriterOptions {
  /** Readings per transaction. */
  maxBatch: number;
  /** Readings waiting at most; submit() waits for room beyond this (back-pressure). */
  maxQueue: number;
  /**
   * Batches written at the same time (PostgreSQL: 3, so batches are inserted while another takes the shared
   * rollup and device rows and commits; PGlite has one connection: 1). Lock order inside a batch is fixed,
   * so they do not deadlock.
   */
  concurrency?: number;
  /** Called after each commit with what was inserted (never throws into the writer). */
  onCommit?: (r: BatchResult) => void;
}

/**
 * The single writer of readings. Producers (MQTT, HTTP) submit readings and get a promise that
 * settles after the transaction holding them has committed: that is when an MQTT PUBACK or an HTTP
 * 2xx may go out. Readings of many producers share one transaction (group commit), so the rate is
 * bounded by the database, not by round trips. The queue is bounded: beyond maxQueue, submit()
 * waits (MQTT acks slow down) and isOverloaded() says so (HTTP answers 503).
 */
export class ReadingWriter {
  private queue: Job[] = [];
  private queued = 0;
  private inFlight = 0;
  private scheduled = false;
  private closed = false;
  private waiters: (() => void)[] = [];
  private partitions = new Set<string>();
  private creating = new Map<string, Promise<void>>();
  /** The last batch held repeats of stored readings: write the next one on the path that skips them. */
  private repeating = false;
  batches = 0;
  stored = 0;
  duplicates = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: WriterOptions,
  ) {}

  queueLength(): number {
    return this.queued;
  }

  isOverloaded(): boolean {
    return this.queued >= this.opts.maxQueue;
  }

  /** Stores readings; resolves after commit with how many were new and how many were repeats. */
  async submit(rows: ReadingRow[]): Promise<{ stored: number; duplicates: number }> {
    if (this.closed) throw new Error('writer closed');
    if (rows.length === 0) return { stored: 0, duplicates: 0 };
    while (this.queued >= this.opts.maxQueue && !this.closed) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    if (this.closed) throw new Error('writer closed');
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, next: 0, stored: 0, failed: null, pending: rows.length, resolve, reject });
      this.queued += rows.length;
      this.schedule();
    });
  }

  /** Starts a batch on the next turn of the event loop, so readings submitted in the same turn share it. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.run();
    });
  }

  /** Starts batches while there is work and fewer than `concurrency` are being written. */
  private run(): void {
    while (this.queue.length > 0 && this.inFlight < (this.opts.concurrency ?? 1)) {
      // Take up to maxBatch readings across the waiting jobs.
      const batch: ReadingRow[] = [];
      const parts: { job: Job; n: number }[] = [];
      for (const job of this.queue) {
        if (batch.length >= this.opts.maxBatch) break;
        const n = Math.min(job.rows.length - job.next, this.opts.maxBatch - batch.length);
        if (n <= 0) continue;
        for (let i = job.next; i < job.next + n; i++) batch.push(job.rows[i]!);
        job.next += n;
        parts.push({ job, n });
      }
      this.queue = this.queue.filter((j) => j.next < j.rows.length);
      this.queued -= batch.length;
      this.wake();
      this.inFlight++;
      void this.write(batch, parts).finally(() => {
        this.inFlight--;
        this.run();
      });
    }
  }

  private async write(batch: ReadingRow[], parts: { job: Job; n: number }[]): Promise<void> {
    let result: BatchResult | null = null;
    let error: unknown = null;
    try {
      await this.ensurePartitions(batch);
      const rows = dedupe(batch);
      result = await writeBatch(this.db, rows, { expectRepeats: this.repeating });
      this.repeating = result.inserted.length < rows.length;
    } catch (e) {
      error = e;
    }
    if (result) {
      this.batches++;
      this.stored += result.inserted.length;
      this.duplicates += batch.length - result.inserted.length;
      try {
        this.opts.onCommit?.(result);
      } catch {
        /* a listener's failure never stops the writer */
      }
    }
    // Credit each job with the rows of its own that were inserted (writeBatch answers the batch's row objects).
    const inserted = result ? new Set<ReadingRow>(result.inserted) : null;
    let offset = 0;
    for (const { job, n } of parts) {
      if (error) job.failed = error;
      else for (let i = offset; i < offset + n; i++) if (inserted!.has(batch[i]!)) job.stored++;
      offset += n;
      job.pending -= n;
      if (job.pending === 0) {
        if (job.failed) job.reject(job.failed);
        else job.resolve({ stored: job.stored, duplicates: job.rows.length - job.stored });
      }
    }
  }

  private wake(): void {
    while (this.waiters.length > 0 && this.queued < this.opts.maxQueue) this.waiters.shift()!();
  }

  private async ensurePartitions(batch: readonly ReadingRow[]): Promise<void> {
    const months = new Map<string, number>();
    let lo = Infinity;
    let hi = -Infinity;
    for (const r of batch) {
      // Most readings fall in the month of the previous one: test the known range first.
      if (r.ts >= lo && r.ts < hi) continue;
      const p = partitionOf(r.ts);
      if (this.partitions.has(p.name)) {
        lo = Date.parse(p.from);
        hi = Date.parse(p.to);
      } else if (!months.has(p.name)) months.set(p.name, r.ts);
    }
    for (const [name, ts] of months) {
      // One creation per partition even with batches in parallel.
      let p = this.creating.get(name);
      if (!p) {
        p = ensurePartition(this.db, ts).then(() => {
          this.partitions.add(name);
        });
        this.creating.set(name, p);
        void p.catch(() => undefined).finally(() => this.creating.delete(name));
      }
      await p;
    }
  }

  /** Forgets the known partitions (after retention dropped some). */
  forgetPartitions(): void {
    this.partitions.clear();
  }

  /** Lets queued work finish, then refuses new work. */
  async close(): Promise<void> {
    while (this.inFlight > 0 || this.queue.length > 0 || this.scheduled) await new Promise((r) => setTimeout(r, 10));
    this.closed = true;
    for (const w of this.waiters.splice(0)) w();
  }
}

/**
 * Keeps the first of readings with the same (device, ts) inside one batch, in (device, ts) order, so
 * batches written at the same time take their row locks in the same order.
 */
function dedupe(batch: ReadingRow[]): ReadingRow[] {
  // A stable sort keeps the first of equal keys first; then equal keys are neighbours.
  const sorted = [...batch].sort((a, b) => a.deviceId - b.deviceId || a.ts - b.ts);
  const out: ReadingRow[] = [];
  let last: ReadingRow | undefined;
  for (const r of sorted) {
    if (last && last.deviceId === r.deviceId && last.ts === r.ts) continue;
    out.push(r);
    last = r;
  }
  return out;
}
