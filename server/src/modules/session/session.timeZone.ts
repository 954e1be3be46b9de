// The signed-in user's own time zone (user info): the calendar of their history, statistics, reports and
// alert counts, and the zone of {time} in the alert messages they receive as a contact.
import type { UpdateUserInfoResult } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { checkTimeZone } from '../../platform/timeZone.ts';

/** Sets (an IANA name, checked) or clears (null / empty) the user's time zone. A bad name changes nothing. */
export async function updateOwnTimeZone(
  ctx: Pick<AppContext, 'db'>,
  user: SessionUser,
  timeZone: string | null,
): Promise<UpdateUserInfoResult> {
  const tz = timeZone === null || timeZone === '' ? null : checkTimeZone(timeZone);
  await ctx.db.k
    .updateTable('users')
    .set({ time_zone: tz, updated_at: new Date() })
    .where('id', '=', user.id)
    .execute();
  return { timeZone: tz };
}
