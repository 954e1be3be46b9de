import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

export interface UserAuthRow {
  id: number;
  account: string;
  enabled: boolean;
  key_enc: string;
}

export async function findUserByAccount(db: Db, account: string): Promise<UserAuthRow | undefined> {
  return db.k
    .selectFrom('users')
    .select(['id', 'account', 'enabled', 'key_enc'])
    .where(sql`lower(account)`, '=', account.toLowerCase())
    .executeTakeFirst();
}

export async function findUserKey(db: Db, userId: number): Promise<UserAuthRow | undefined> {
  return db.k
    .selectFrom('users')
    .select(['id', 'account', 'enabled', 'key_enc'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function saveCaptcha(db: Db, id: string, answerHash: string, ttlMs: number): Promise<void> {
  await db.k
    .insertInto('captchas')
    .values({ id, answer_hash: answerHash, expires_at: new Date(Date.now() + ttlMs) })
    .execute();
}

/** Takes a captcha out (single use): it is deleted whether or not the answer is right. */
export async function takeCaptcha(db: Db, id: string): Promise<{ answer_hash: string; expires_at: Date } | undefined> {
  return db.k.deleteFrom('captchas').where('id', '=', id).returning(['answer_hash', 'expires_at']).executeTakeFirst();
}

export async function saveTicket(db: Db, hash: string, userId: number, ttlMs: number): Promise<void> {
  await db.k
    .insertInto('login_tickets')
    .values({ hash, user_id: userId, expires_at: new Date(Date.now() + ttlMs) })
    .execute();
}

export async function takeTicket(db: Db, hash: string): Promise<{ user_id: number; expires_at: Date } | undefined> {
  return db.k
    .deleteFrom('login_tickets')
    .where('hash', '=', hash)
    .returning(['user_id', 'expires_at'])
    .executeTakeFirst();
}

/** Records a signature as used; false when it was used before (a replay). */
export async function useSignature(db: Db, hash: string, ttlMs: number): Promise<boolean> {
  const r = await db.k
    .insertInto('used_signatures')
    .values({ hash, expires_at: new Date(Date.now() + ttlMs) })
    .onConflict((oc) => oc.column('hash').doNothing())
    .returning('hash')
    .executeTakeFirst();
  return r !== undefined;
}

export interface AttemptRow {
  account: string;
  day: string;
  fails: number;
  stage: number;
  locked_until: Date | null;
}

export async function getAttempts(db: Db, account: string): Promise<AttemptRow | undefined> {
  const r =
    await sql<AttemptRow>`select account, day::text as day, fails, stage, locked_until from login_attempts where account = ${account}`.execute(
      db.k,
    );
  return r.rows[0];
}

export async function saveAttempts(db: Db, a: AttemptRow): Promise<void> {
  await db.k
    .insertInto('login_attempts')
    .values(a)
    .onConflict((oc) =>
      oc.column('account').doUpdateSet({ day: a.day, fails: a.fails, stage: a.stage, locked_until: a.locked_until }),
    )
    .execute();
}

export async function clearAttempts(db: Db, account: string): Promise<void> {
  await db.k.deleteFrom('login_attempts').where('account', '=', account).execute();
}

export async function activeSessionIds(db: Db, userId: number, idleMs: number): Promise<number[]> {
  const rows = await db.k
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('last_seen_at', '>', new Date(Date.now() - idleMs))
    .execute();
  return rows.map((r) => r.id);
}

export async function createSession(
  db: Db,
  s: { tokenHash: string; userId: number; ip: string; userAgent: string },
): Promise<number> {
  const r = await db.k
    .insertInto('sessions')
    .values({ token_hash: s.tokenHash, user_id: s.userId, ip: s.ip, user_agent: s.userAgent })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.k.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', s.userId).execute();
  return r.id;
}

export async function setUserKey(db: Db, userId: number, keyEnc: string): Promise<void> {
  await db.k.updateTable('users').set({ key_enc: keyEnc, updated_at: new Date() }).where('id', '=', userId).execute();
}

export interface UserInfoRow {
  id: number;
  account: string;
  name: string;
  phone: string | null;
  email: string | null;
  area: string | null;
  scope_all: boolean;
  time_zone: string | null;
  role_id: number;
  role_code: string;
  role_name: string;
  role_file_id: string | null;
}

export async function loadUserInfo(db: Db, userId: number): Promise<UserInfoRow | undefined> {
  return db.k
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id',
      'u.account',
      'u.name',
      'u.phone',
      'u.email',
      'u.area',
      'u.scope_all',
      'u.time_zone',
      'u.role_id',
      'r.code as role_code',
      'r.name as role_name',
      'r.role_file_id',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export async function allPermissionCodes(db: Db): Promise<string[]> {
  return (await db.k.selectFrom('permissions').select('code').orderBy('id').execute()).map((r) => r.code);
}

/** Deletes expired captchas, tickets and used signatures. */
export async function purgeExpired(db: Db): Promise<void> {
  const now = new Date();
  await db.k.deleteFrom('captchas').where('expires_at', '<', now).execute();
  await db.k.deleteFrom('login_tickets').where('expires_at', '<', now).execute();
  await db.k.deleteFrom('used_signatures').where('expires_at', '<', now).execute();
}
