import { sql } from 'kysely';
import type { Db } from '../../platform/db/db.ts';

export interface UserAuthRow {
  id: number;
  account: string;
  enabled: boolean;
  key_enc: string;
  /** The user's own time zone (login answers it); only findUserByAccount reads it. */
  time_zone?: string | null;
}

export async function findUserByAccount(db: Db, account: string): Promise<UserAuthRow | undefined> {
  return db.k
    .selectFrom('users')
    .select(['id', 'account', 'enabled', 'key_enc', 'time_zone'])
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
  /** False while the lock was set by an attempt whose password is still being checked. */
  settled: boolean;
}

/** Lockout rules as the reservation statement needs them. */
export interface LockRules {
  maxFails: number;
  shortMs: number;
  dayMs: number;
}

/**
 * Reserves one password evaluation for an account, in one statement, before the password is checked:
 * parallel attempts each get their own count. `fails` counts the attempts since the last right password
 * (a right password deletes the row: clearAttempts). The attempt that reaches maxFails sets the 10-minute
 * lock, and the first attempt after an expired lock of the same day sets the day lock, at once and
 * provisionally (settled = false, see settleLock): an attempt made meanwhile finds the account locked. A row of an earlier day that is not locked starts
 * over. Undefined when the account is locked (nothing is reserved).
 */
export async function reserveAttempt(
  db: Db,
  account: string,
  today: string,
  rules: LockRules,
): Promise<AttemptRow | undefined> {
  const stale = sql`a.day <> excluded.day`;
  const r = await sql<AttemptRow>`
    insert into login_attempts as a (account, day, fails, stage, locked_until)
    values (${account}, ${today}::date, 1, 0, null)
    on conflict (account) do update set
      day = excluded.day,
      fails = case when ${stale} then 1 else a.fails + 1 end,
      stage = case when ${stale} then 0 when a.stage >= 1 then 2
                   when a.fails + 1 >= ${rules.maxFails}::int then 1 else 0 end,
      locked_until = case when ${stale} then null
                   when a.stage >= 1 then now() + ${rules.dayMs}::float8 * interval '1 millisecond'
                   when a.fails + 1 >= ${rules.maxFails}::int then now() + ${rules.shortMs}::float8 * interval '1 millisecond'
                   else null end,
      settled = case when ${stale} then true when a.stage >= 1 then false
                   when a.fails + 1 >= ${rules.maxFails}::int then false else true end
    where a.locked_until is null or a.locked_until <= now()
    returning account, day::text as day, fails, stage, locked_until, settled`.execute(db.k);
  return r.rows[0];
}

export async function getAttempts(db: Db, account: string): Promise<AttemptRow | undefined> {
  const r =
    await sql<AttemptRow>`select account, day::text as day, fails, stage, locked_until, settled from login_attempts where account = ${account}`.execute(
      db.k,
    );
  return r.rows[0];
}

/** The password of the attempt that set the lock was wrong: the lock stands. */
export async function settleLock(db: Db, account: string): Promise<void> {
  await sql`update login_attempts set settled = true where account = ${account}`.execute(db.k);
}

export async function clearAttempts(db: Db, account: string): Promise<void> {
  await db.k.deleteFrom('login_attempts').where('account', '=', account).execute();
}

/**
 * Takes one token from a client address's bucket (perMinute tokens, refilled at perMinute a minute), in one
 * statement, so parallel requests and several server nodes agree. False when the bucket is empty.
 */
export async function takeLoginToken(db: Db, ip: string, perMinute: number): Promise<boolean> {
  const refill = sql`least(${perMinute}::float8, r.tokens + greatest(0, extract(epoch from now() - r.at)::float8) * ${perMinute / 60}::float8)`;
  const r = await sql<{ granted: boolean }>`
    insert into login_rate as r (ip, tokens, at, granted) values (${ip}, ${perMinute - 1}::float8, now(), true)
    on conflict (ip) do update set
      tokens = case when ${refill} >= 1 then ${refill} - 1 else ${refill} end,
      granted = ${refill} >= 1,
      at = greatest(r.at, now())
    returning granted`.execute(db.k);
  return r.rows[0]?.granted === true;
}

/** Gives a token back (the attempt was a right password: only failures use up an address's budget). */
export async function returnLoginToken(db: Db, ip: string, perMinute: number): Promise<void> {
  await sql`update login_rate set tokens = least(${perMinute}::float8, tokens + 1) where ip = ${ip}`.execute(db.k);
}

export type OpenSession =
  { elsewhere: true } | { elsewhere: false; sessionId: number; ended: number[]; kicked: number };

/**
 * Opens a session for a user whose password was right, keeping one open session per account under
 * concurrency: one transaction locks the user's row, ends the user's open sessions that are idle or past
 * their lifetime, then either answers "elsewhere" (another session is active and takeOver is false) or
 * ends the active one ("kicked") and inserts the new one. `ended` lists every session ended (their sockets
 * close), `kicked` counts the active ones among them.
 */
export async function openSession(
  db: Db,
  s: {
    tokenHash: string;
    userId: number;
    ip: string;
    userAgent: string;
    idleMs: number;
    maxMs: number;
    takeOver: boolean;
  },
): Promise<OpenSession> {
  return db.k.transaction().execute(async (trx) => {
    await sql`select id from users where id = ${s.userId} for no key update`.execute(trx);
    const idle = `${Math.round(s.idleMs / 1000)} seconds`;
    const stale = await sql<{ id: number }>`
      update sessions set ended_at = now(),
        end_reason = case when expires_at <= now() then 'expired' else 'idle' end
      where user_id = ${s.userId} and ended_at is null
        and (last_seen_at <= now() - ${idle}::interval or expires_at <= now())
      returning id`.execute(trx);
    const ended = stale.rows.map((r) => r.id);
    const active = await trx
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', s.userId)
      .where('ended_at', 'is', null)
      .execute();
    let kickedCount = 0;
    if (active.length > 0) {
      if (!s.takeOver) return { elsewhere: true };
      const kicked = await trx
        .updateTable('sessions')
        .set({ ended_at: new Date(), end_reason: 'kicked' })
        .where('user_id', '=', s.userId)
        .where('ended_at', 'is', null)
        .returning('id')
        .execute();
      ended.push(...kicked.map((r) => r.id));
      kickedCount = kicked.length;
    }
    const r = await sql<{ id: number }>`
      insert into sessions (token_hash, user_id, ip, user_agent, expires_at)
      values (${s.tokenHash}, ${s.userId}, ${s.ip}, ${s.userAgent}, now() + ${s.maxMs}::float8 * interval '1 millisecond')
      returning id`.execute(trx);
    await trx.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', s.userId).execute();
    return { elsewhere: false, sessionId: r.rows[0]!.id, ended, kicked: kickedCount };
  });
}

/** Inserts a session without the login rules (the demo seed's own session); see openSession. */
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
  // A bucket untouched for 10 minutes is full again: its row can go.
  await sql`delete from login_rate where at < now() - interval '10 minutes'`.execute(db.k);
}
