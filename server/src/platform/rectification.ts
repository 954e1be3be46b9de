import { sql, type RawBuilder } from 'kysely';
import { Status } from '@geosentry/contract';
import type { Db } from './db/db.ts';
import { AppError } from './http/errors.ts';
import type { MessageKey } from './http/messages.ts';

/**
 * The rectification model's server side, shared by every kind of inspection (contract/src/api/rectification.ts):
 * today by the database clock, the overdue condition in SQL, and the rules of a completion.
 */

/** Today's date by the database's clock, UTC (an SQL date). */
export const todaySql = sql<string>`(now() at time zone 'utc')::date`;

/** Today's date by the database's clock (UTC), yyyy-MM-dd: inspection and completion dates are checked against it. */
export async function todayOf(db: Db): Promise<string> {
  const r = await sql<{ d: string }>`select to_char(${todaySql}, 'YYYY-MM-DD') as d`.execute(db.k);
  return r.rows[0]!.d;
}

/** `incomplete and deadline before today` of a table alias with `state` and `deadline` columns. */
export const overdueSql = (alias: string): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(`${alias}.state`)} = 'incomplete' and ${sql.ref(`${alias}.deadline`)} is not null
    and ${sql.ref(`${alias}.deadline`)} < ${todaySql})`;

/** The messages of a feature for the completion rules. */
export interface CompletionMessages {
  required: MessageKey;
  beforeInspection: MessageKey;
  inFuture: MessageKey;
}

/** A completed rectification has its date, not before the inspection and not after today. */
export function checkCompletion(
  inspectionDate: string,
  completedDate: string | undefined,
  today: string,
  m: CompletionMessages,
): asserts completedDate is string {
  if (!completedDate) throw new AppError(Status.invalid, m.required);
  if (completedDate < inspectionDate) throw new AppError(Status.invalid, m.beforeInspection);
  if (completedDate > today) throw new AppError(Status.invalid, m.inFuture);
}
