import { sql } from 'kysely';
import type { UserRow, UserSortField } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { likePattern as like } from '../../platform/db/sql.ts';

const SORTABLE: Record<string, string> = {
  account: 'u.account',
  name: 'u.name',
  createdAt: 'u.created_at',
  lastLoginAt: 'u.last_login_at',
  roleName: 'r.name',
  enabled: 'u.enabled',
} satisfies Record<UserSortField, string>;

export interface UserListFilter {
  pageNum: number;
  pageSize: number;
  keyword?: string | undefined;
  roleId?: number | undefined;
  enabled?: boolean | undefined;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

function selectUsers(db: Db) {
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
      'u.role_id',
      'r.name as role_name',
      'r.code as role_code',
      'u.enabled',
      'u.scope_all',
      'u.created_at',
      'u.last_login_at',
      sql<
        number[] | null
      >`(select array_agg(up.platform_id order by up.platform_id) from user_platforms up where up.user_id = u.id)`.as(
        'platform_ids',
      ),
      // Locked out by failed sign-ins (login_attempts is keyed by the account as typed, so any case).
      sql<boolean>`exists (select 1 from login_attempts la where lower(la.account) = lower(u.account) and la.locked_until > now())`.as(
        'locked',
      ),
    ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectUsers>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): UserRow => ({
  id: r.id,
  account: r.account,
  name: r.name,
  phone: r.phone,
  email: r.email,
  area: r.area,
  roleId: r.role_id,
  roleName: r.role_name,
  roleCode: r.role_code,
  enabled: r.enabled,
  scopeAll: r.scope_all,
  platformIds: r.platform_ids ?? [],
  createdAt: new Date(r.created_at).toISOString(),
  lastLoginAt: r.last_login_at ? new Date(r.last_login_at).toISOString() : null,
  locked: Boolean(r.locked),
});

export async function listUsers(db: Db, f: UserListFilter): Promise<{ list: UserRow[]; total: number }> {
  let q = selectUsers(db);
  let c = db.k.selectFrom('users as u');
  if (f.keyword) {
    const k = like(f.keyword);
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(u.account)`, 'like', k),
        eb(sql`lower(u.name)`, 'like', k),
        eb(sql`lower(coalesce(u.phone, ''))`, 'like', k),
      ]),
    );
    c = c.where((eb) =>
      eb.or([
        eb(sql`lower(u.account)`, 'like', k),
        eb(sql`lower(u.name)`, 'like', k),
        eb(sql`lower(coalesce(u.phone, ''))`, 'like', k),
      ]),
    );
  }
  if (f.roleId !== undefined) {
    q = q.where('u.role_id', '=', f.roleId);
    c = c.where('u.role_id', '=', f.roleId);
  }
  if (f.enabled !== undefined) {
    q = q.where('u.enabled', '=', f.enabled);
    c = c.where('u.enabled', '=', f.enabled);
  }
  const col = SORTABLE[f.sortField ?? ''] ?? 'u.id';
  const dir = f.sortOrder === 'descend' ? sql`desc` : sql`asc`;
  const [rows, total] = await Promise.all([
    q
      .orderBy(sql`${sql.raw(col)} ${dir} nulls last`)
      .orderBy('u.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

export async function getUser(db: Db, id: number): Promise<UserRow | undefined> {
  const r = await selectUsers(db).where('u.id', '=', id).executeTakeFirst();
  return r ? present(r) : undefined;
}

export interface UserWrite {
  name: string;
  roleId: number;
  phone?: string | undefined;
  email?: string | undefined;
  area?: string | undefined;
  scopeAll: boolean;
}

export async function insertUser(db: Db, u: UserWrite & { account: string; keyEnc: string }): Promise<number> {
  const r = await db.k
    .insertInto('users')
    .values({
      account: u.account,
      name: u.name,
      role_id: u.roleId,
      phone: u.phone ?? null,
      email: u.email ?? null,
      area: u.area ?? null,
      scope_all: u.scopeAll,
      key_enc: u.keyEnc,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateUser(db: Db, id: number, u: UserWrite): Promise<void> {
  await db.k
    .updateTable('users')
    .set({
      name: u.name,
      role_id: u.roleId,
      phone: u.phone ?? null,
      email: u.email ?? null,
      area: u.area ?? null,
      scope_all: u.scopeAll,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function setScope(db: Db, userId: number, scopeAll: boolean, platformIds: number[]): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ scope_all: scopeAll, updated_at: new Date() })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('user_platforms').where('user_id', '=', userId).execute();
    const ids = [...new Set(platformIds)];
    if (!scopeAll && ids.length) {
      const existing = await trx.selectFrom('platforms').select('id').where('id', 'in', ids).execute();
      if (existing.length)
        await trx
          .insertInto('user_platforms')
          .values(existing.map((p) => ({ user_id: userId, platform_id: p.id })))
          .execute();
    }
  });
}

export async function setEnabled(db: Db, id: number, enabled: boolean): Promise<void> {
  await db.k.updateTable('users').set({ enabled, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function setRole(db: Db, id: number, roleId: number): Promise<void> {
  await db.k.updateTable('users').set({ role_id: roleId, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('users').where('id', '=', id).execute();
}

export async function setKey(db: Db, id: number, keyEnc: string): Promise<void> {
  await db.k.updateTable('users').set({ key_enc: keyEnc, updated_at: new Date() }).where('id', '=', id).execute();
}

export async function roleExists(db: Db, roleId: number): Promise<boolean> {
  return (await db.k.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst()) !== undefined;
}

/**
 * Clears an account's failed-login state (finding 7: an administrator's unlock). The lockout rows are
 * keyed by the account as typed at sign-in, so every spelling of the account in any case goes.
 * Answers how many rows were deleted.
 */
export async function clearLoginAttempts(db: Db, account: string): Promise<number> {
  const r = await sql`delete from login_attempts where lower(account) = lower(${account})`.execute(db.k);
  return Number(r.numAffectedRows ?? 0);
}
