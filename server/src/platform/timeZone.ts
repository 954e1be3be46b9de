// The time zone a request's calendar follows: the request's `timeZone`, else the user's own (user info),
// else the server's TIME_ZONE. Used by every call with day/week/month/year buckets or "today".
import { sql } from 'kysely';
import { Status, isTimeZone } from '@geosentry/contract';
import type { AppContext } from './context.ts';
import type { Db } from './db/db.ts';
import { AppError } from './http/errors.ts';

/** The name if it is an IANA time zone, else the translated "not a time zone" error. */
export function checkTimeZone(name: string): string {
  if (!isTimeZone(name)) throw new AppError(Status.invalid, 'badTimeZone', { timeZone: name.slice(0, 64) });
  return name;
}

/** The user's own time zone, if set (and still known to the engine). */
export async function userTimeZone(db: Db, userId: number): Promise<string | null> {
  const r = await sql<{ tz: string | null }>`select time_zone as tz from users where id = ${userId}`.execute(db.k);
  const tz = r.rows[0]?.tz ?? null;
  return tz && isTimeZone(tz) ? tz : null;
}

/** The zone of a request: `asked` (checked), else the user's, else TIME_ZONE. */
export async function requestTimeZone(
  ctx: Pick<AppContext, 'db' | 'config'>,
  userId: number,
  asked: string | undefined,
): Promise<string> {
  if (asked !== undefined && asked !== '') return checkTimeZone(asked);
  return (await userTimeZone(ctx.db, userId)) ?? ctx.config.timeZone;
}
