import { sql } from 'kysely';
import { Status } from '@geosentry/contract';
import type { Db } from '../db/db.ts';
import { AppError } from '../http/errors.ts';
import { sha256hex } from './crypto.ts';
import type { SessionUser } from './access.ts';

interface ActiveRow {
  session_id: number;
  user_id: number;
  account: string;
  name: string;
  role_id: number;
  role_code: string;
  scope_all: boolean;
  enabled: boolean;
  permissions: string[] | null;
  platform_ids: number[] | null;
}

/**
 * Resolves a session token to its user, touching the session's last-seen time, in one statement.
 * (The touch is skipped when it happened in the last 30 s: idle expiry is exact to 30 s.)
 * A session idle for longer than idleMs, or past its absolute lifetime (`expires_at`, set at login from
 * SESSION_MAX_HOURS), has ended. Raises the spec's session-ending statuses.
 */
export async function resolveSession(db: Db, token: string | undefined, idleMs: number): Promise<SessionUser> {
  if (!token) throw new AppError(Status.notLoggedIn, 'notLoggedIn');
  const hash = sha256hex(token);
  const idle = `${Math.round(idleMs / 1000)} seconds`;
  const r = await sql<ActiveRow>`
    with s as (
      select id, user_id, last_seen_at from sessions
      where token_hash = ${hash} and ended_at is null and last_seen_at > now() - ${idle}::interval
        and expires_at > now()
    ), touch as (
      -- Touch at most every 30 s, so concurrent requests of one session do not queue on its row lock.
      update sessions set last_seen_at = now() from s
      where sessions.id = s.id and s.last_seen_at < now() - interval '30 seconds'
      returning sessions.id
    )
    select s.id as session_id, u.id as user_id, u.account, u.name, u.role_id, r.code as role_code, u.scope_all, u.enabled,
      (select array_agg(p.code) from role_permissions rp join permissions p on p.id = rp.permission_id where rp.role_id = u.role_id) as permissions,
      (select array_agg(up.platform_id) from user_platforms up where up.user_id = u.id) as platform_ids
    from s join users u on u.id = s.user_id join roles r on r.id = u.role_id`.execute(db.k);
  const row = r.rows[0];
  if (row && row.enabled) {
    return {
      id: row.user_id,
      account: row.account,
      name: row.name,
      roleId: row.role_id,
      roleCode: row.role_code,
      permissions: new Set(row.permissions ?? []),
      scope: row.scope_all ? { all: true } : { all: false, platformIds: row.platform_ids ?? [] },
      sessionId: row.session_id,
    };
  }
  if (row && !row.enabled) throw new AppError(Status.notCertified, 'userDisabled');
  // Why not: tell an ended session apart from an idle-expired, a lifetime-expired or an unknown token.
  const s = (
    await sql<{ ended_at: Date | null; end_reason: string | null; expired: boolean }>`
      select ended_at, end_reason, expires_at <= now() as expired from sessions where token_hash = ${hash}`.execute(
      db.k,
    )
  ).rows[0];
  if (!s) throw new AppError(Status.tokenExpired, 'tokenExpired');
  if (s.end_reason === 'kicked') throw new AppError(Status.loggedOutElsewhere, 'loggedOutElsewhere');
  if (!s.ended_at) await endSessions(db, { sessionIds: [], tokenHash: hash }, s.expired ? 'expired' : 'idle');
  throw new AppError(Status.loginExpired, 'loginExpired');
}

/** Ends sessions; returns the ids ended (so their sockets can be closed). */
export async function endSessions(
  db: Db,
  which: { userId?: number; sessionIds?: number[]; tokenHash?: string; exceptSessionId?: number },
  reason: 'logout' | 'kicked' | 'password' | 'disabled' | 'deleted' | 'idle' | 'expired',
): Promise<number[]> {
  let q = db.k.updateTable('sessions').set({ ended_at: new Date(), end_reason: reason }).where('ended_at', 'is', null);
  if (which.userId !== undefined) q = q.where('user_id', '=', which.userId);
  if (which.sessionIds?.length) q = q.where('id', 'in', which.sessionIds);
  if (which.tokenHash) q = q.where('token_hash', '=', which.tokenHash);
  if (which.exceptSessionId !== undefined) q = q.where('id', '!=', which.exceptSessionId);
  if (which.userId === undefined && !which.sessionIds?.length && !which.tokenHash) return [];
  const rows = await q.returning('id').execute();
  return rows.map((r) => r.id);
}
