import { sql, type Kysely } from 'kysely';
import type { AlertEvent } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/schema.ts';

/** Runs inside the transaction that stores the alert: what it writes (an outbox row) commits with the alert. */
export type AlertTxListener = (tx: Kysely<Database>, event: AlertEvent) => Promise<void>;
/** An AlertTxListener taking the events of one store at once (one statement for many alerts). */
export type AlertTxBatchListener = (tx: Kysely<Database>, events: readonly AlertEvent[]) => Promise<void>;
/** Runs after the alert is committed (fire and forget; errors are logged). */
export type AlertListener = (event: AlertEvent) => void | Promise<void>;

/**
 * The alert event bus of one app, built by buildApp (app.ts) and handed to the alert engine (which emits) and to
 * the notifications feature, which subscribes with `onEventsTx(...)` (write its outbox in the same transaction
 * as the alert, so a notification is never lost) and/or `onEvent(...)` (after commit, e.g. to wake its sender).
 */
export class AlertEvents {
  private tx: AlertTxBatchListener[] = [];
  private after: AlertListener[] = [];

  onEventTx(fn: AlertTxListener): void {
    this.tx.push(async (tx, events) => {
      for (const event of events) await fn(tx, event);
    });
  }

  /** onEventTx for a listener that takes a store's events at once. */
  onEventsTx(fn: AlertTxBatchListener): void {
    this.tx.push(fn);
  }

  onEvent(fn: AlertListener): void {
    this.after.push(fn);
  }

  /**
   * Called by the alerts service inside its transaction. Each listener runs under a savepoint: a failing
   * listener is rolled back alone (and reported to `onError`), so the alert itself is still stored.
   */
  async emitTx(tx: Kysely<Database>, event: AlertEvent, onError?: (e: unknown) => void): Promise<void> {
    for (const fn of this.tx) await underSavepoint(tx, () => fn(tx, [event]), onError);
  }

  /**
   * `emitTx` for the events of one evaluation pass, in order: each listener takes them all under ONE savepoint
   * (a pass raising twenty alerts costs two statements more, not forty). When the listener fails, that is rolled
   * back and the events are given to it again one by one, each under its own savepoint, so only the failing
   * event's work is lost (and reported to `onError`).
   */
  async emitTxMany(tx: Kysely<Database>, events: readonly AlertEvent[], onError?: (e: unknown) => void): Promise<void> {
    if (events.length <= 1) {
      if (events[0]) await this.emitTx(tx, events[0], onError);
      return;
    }
    for (const fn of this.tx) {
      const failed = await underSavepoint(
        tx,
        () => fn(tx, events),
        () => undefined,
      );
      if (failed) for (const event of events) await underSavepoint(tx, () => fn(tx, [event]), onError);
    }
  }

  /** Called by the alerts service after commit. */
  emit(ctx: AppContext, event: AlertEvent): void {
    for (const fn of this.after)
      Promise.resolve()
        .then(() => fn(event))
        .catch((e: unknown) => ctx.log.error({ err: e }, 'alert listener failed'));
  }
}

/**
 * Runs `work` under a savepoint: on failure rolls back to it and reports to `onError` (rethrows without one).
 * Answers whether it failed.
 */
async function underSavepoint(
  tx: Kysely<Database>,
  work: () => Promise<void>,
  onError: ((e: unknown) => void) | undefined,
): Promise<boolean> {
  await sql`savepoint alert_event_listener`.execute(tx);
  try {
    await work();
    await sql`release savepoint alert_event_listener`.execute(tx);
    return false;
  } catch (e) {
    await sql`rollback to savepoint alert_event_listener`.execute(tx);
    if (!onError) throw e;
    onError(e);
    return true;
  }
}
