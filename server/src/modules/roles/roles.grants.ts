import { sql } from 'kysely';
import { Status, SUPER_ADMIN_ROLE } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { AppError } from '../../platform/http/errors.ts';
import { isSuperAdmin, type SessionUser } from '../../platform/auth/access.ts';

/**
 * Issue 15, finding 1: nobody grants a role, a permission or a data scope beyond what they hold
 * themselves, and only a super administrator manages super administrators. These checks are shared
 * by user, role and permission administration; a super administrator passes all of them.
 */

/** What a role lets its holders do: its code and its permission codes. */
export interface RoleReach {
  id: number;
  code: string;
  permissions: string[];
}

/** The reach of a role, or undefined when it does not exist. */
export async function roleReach(db: Db, roleId: number): Promise<RoleReach | undefined> {
  const r = await sql<{ id: number; code: string; permissions: string[] | null }>`
    select r.id, r.code,
      (select array_agg(p.code order by p.code) from role_permissions rp join permissions p on p.id = rp.permission_id
       where rp.role_id = r.id) as permissions
    from roles r where r.id = ${roleId}`.execute(db.k);
  const row = r.rows[0];
  return row ? { id: row.id, code: row.code, permissions: row.permissions ?? [] } : undefined;
}

/** The codes of permission ids, with the parents that granting them adds (see setRolePermissions). */
export async function permissionCodesOf(db: Db, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const r = await sql<{ code: string }>`
    select code from permissions where id = any(${[...ids]}::int[])
    union select p.code from permissions c join permissions p on p.id = c.parent_id where c.id = any(${[...ids]}::int[])`.execute(
    db.k,
  );
  return r.rows.map((x) => x.code);
}

/** The codes among `codes` that the actor does not hold (none for a super administrator). */
export function beyond(actor: SessionUser, codes: readonly string[]): string[] {
  if (isSuperAdmin(actor)) return [];
  return codes.filter((c) => !actor.permissions.has(c));
}

const listed = (codes: string[]): string => {
  const shown = codes.slice(0, 5).join(', ');
  return codes.length > 5 ? `${shown}, … (+${codes.length - 5})` : shown;
};

/** Refuses to give (bind) a role that reaches beyond the actor: the super administrator role, or permissions not held. */
export function assertMayGrantRole(actor: SessionUser, role: RoleReach): void {
  if (isSuperAdmin(actor)) return;
  if (role.code === SUPER_ADMIN_ROLE) throw new AppError(Status.forbidden, 'superAdminRoleOnly');
  const missing = beyond(actor, role.permissions);
  if (missing.length) throw new AppError(Status.forbidden, 'roleBeyondOwn', { codes: listed(missing) });
}

/** Refuses to manage (edit, delete, set permissions of) a role that reaches beyond the actor. */
export function assertMayManageRole(actor: SessionUser, role: RoleReach): void {
  if (isSuperAdmin(actor)) return;
  if (role.code === SUPER_ADMIN_ROLE) throw new AppError(Status.forbidden, 'superAdminRoleOnly');
  const missing = beyond(actor, role.permissions);
  if (missing.length) throw new AppError(Status.forbidden, 'roleManageBeyondOwn', { codes: listed(missing) });
}

/** Refuses to give a role permissions the actor does not hold. */
export function assertMayGrantPermissions(actor: SessionUser, codes: readonly string[]): void {
  const missing = beyond(actor, codes);
  if (missing.length) throw new AppError(Status.forbidden, 'permissionBeyondOwn', { codes: listed(missing) });
}

/** A data scope: every site, or the listed sites. */
export interface Scope {
  scopeAll: boolean;
  platformIds: readonly number[];
}

/** Whether `inner` is within `outer` (every site `inner` sees, `outer` sees too). */
export function scopeWithin(inner: Scope, outer: Scope): boolean {
  if (outer.scopeAll) return true;
  if (inner.scopeAll) return false;
  const o = new Set(outer.platformIds);
  return inner.platformIds.every((id) => o.has(id));
}

export function actorScope(actor: SessionUser): Scope {
  if (isSuperAdmin(actor) || actor.scope.all) return { scopeAll: true, platformIds: [] };
  return { scopeAll: false, platformIds: actor.scope.platformIds };
}

export function sameScope(a: Scope, b: Scope): boolean {
  if (a.scopeAll || b.scopeAll) return a.scopeAll === b.scopeAll;
  const x = new Set(a.platformIds);
  const y = new Set(b.platformIds);
  return x.size === y.size && [...x].every((id) => y.has(id));
}

/**
 * Refuses a data-scope change that gives sites beyond the actor's own scope. Only what is added is
 * checked: an administrator may take away sites they do not see themselves.
 */
export function assertMayGrantScope(actor: SessionUser, before: Scope, after: Scope): void {
  const mine = actorScope(actor);
  if (mine.scopeAll) return;
  if (after.scopeAll && !before.scopeAll) throw new AppError(Status.forbidden, 'scopeBeyondOwn');
  if (after.scopeAll) return;
  const had = new Set(before.scopeAll ? [] : before.platformIds);
  const added = after.platformIds.filter((id) => !had.has(id));
  if (!scopeWithin({ scopeAll: false, platformIds: added }, mine))
    throw new AppError(Status.forbidden, 'scopeBeyondOwn');
}

/** The user a management call is about: their role's reach and their data scope. */
export interface UserReach extends Scope {
  id: number;
  role: RoleReach;
}

/**
 * Refuses to manage (edit, reset the password of, delete, enable or disable, bind, set the scope of,
 * unlock) a user who reaches beyond the actor: a super administrator (only super administrators manage
 * them), or a user whose role holds permissions, or whose scope holds sites, that the actor does not.
 * Taking over such an account (a password reset) would be a way to gain what the actor lacks.
 */
export function assertMayManageUser(actor: SessionUser, target: UserReach): void {
  if (isSuperAdmin(actor)) return;
  if (target.role.code === SUPER_ADMIN_ROLE) throw new AppError(Status.forbidden, 'superAdminManagedBySuperAdmin');
  const missing = beyond(actor, target.role.permissions);
  if (missing.length) throw new AppError(Status.forbidden, 'userBeyondOwn', { codes: listed(missing) });
  if (!scopeWithin(target, actorScope(actor))) throw new AppError(Status.forbidden, 'userScopeBeyondOwn');
}
