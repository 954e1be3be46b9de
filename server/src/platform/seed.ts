import crypto from 'node:crypto';
import {
  PERMISSION_CATALOGUE,
  SUPER_ADMIN_ROLE,
  USER_ROLE,
  USER_ROLE_SEED_CODES,
  passwordKey,
  type PermissionSeed,
} from '@geosentry/contract';
import type { Db } from './db/db.ts';
import { encrypt } from './auth/crypto.ts';

/**
 * Seeds what every installation needs: the permission catalogue (missing codes only, so administrator
 * edits survive), the built-in roles, and the first super administrator when there is no user yet.
 * Returns the generated admin password when one was made (printed once by main).
 */
export async function seed(
  db: Db,
  secret: Buffer,
  admin: { account: string; password: string | null },
): Promise<{ generatedPassword: string | null; created: boolean }> {
  const existing = new Set((await db.k.selectFrom('permissions').select('code').execute()).map((r) => r.code));
  const insert = async (p: PermissionSeed, parentId: number | null, sort: number): Promise<void> => {
    let id: number | undefined;
    if (!existing.has(p.code)) {
      const r = await db.k
        .insertInto('permissions')
        .values({
          name: p.name,
          code: p.code,
          type: p.type,
          path: p.path ?? null,
          parent_id: parentId,
          level: parentId === null ? 1 : 2,
          sort,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = r.id;
    } else {
      id = (await db.k.selectFrom('permissions').select('id').where('code', '=', p.code).executeTakeFirstOrThrow()).id;
    }
    let i = 0;
    for (const c of p.children ?? []) await insert(c, id, i++);
  };
  let i = 0;
  for (const p of PERMISSION_CATALOGUE) await insert(p, null, i++);

  const roles = new Set((await db.k.selectFrom('roles').select('code').execute()).map((r) => r.code));
  if (!roles.has(SUPER_ADMIN_ROLE)) {
    await db.k
      .insertInto('roles')
      .values({
        name: 'Super Administrator',
        code: SUPER_ADMIN_ROLE,
        description: 'Holds every permission and sees every site',
        builtin: true,
        parent_id: null,
        role_file_id: null,
      })
      .execute();
  }
  if (!roles.has(USER_ROLE)) {
    const r = await db.k
      .insertInto('roles')
      .values({
        name: 'User',
        code: USER_ROLE,
        description: 'Ordinary user',
        builtin: true,
        parent_id: null,
        role_file_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const perms = await db.k.selectFrom('permissions').select('id').where('code', 'in', USER_ROLE_SEED_CODES).execute();
    if (perms.length)
      await db.k
        .insertInto('role_permissions')
        .values(perms.map((p) => ({ role_id: r.id, permission_id: p.id })))
        .execute();
  }

  const anyUser = await db.k.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return { generatedPassword: null, created: false };
  const superRole = await db.k
    .selectFrom('roles')
    .select('id')
    .where('code', '=', SUPER_ADMIN_ROLE)
    .executeTakeFirstOrThrow();
  const generated = admin.password ? null : crypto.randomBytes(12).toString('base64url');
  const password = admin.password ?? generated!;
  await db.k
    .insertInto('users')
    .values({
      account: admin.account,
      name: 'Super Administrator',
      role_id: superRole.id,
      scope_all: true,
      key_enc: encrypt(secret, passwordKey(password)),
    })
    .execute();
  return { generatedPassword: generated, created: true };
}
