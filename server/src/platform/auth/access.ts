import { SUPER_ADMIN_ROLE, permissionCodes, type RoutePermission } from '@geosentry/contract';
import type { SelectQueryBuilder } from 'kysely';

/**
 * The caller's data scope: every site, or a list of site ids. Every repository read of site data
 * takes one. (A per-user tenant database, spec §3 "Database", would add its db handle here.)
 */
export type DataScope = { all: true } | { all: false; platformIds: readonly number[] };

export const FULL_SCOPE: DataScope = { all: true };

export interface SessionUser {
  id: number;
  account: string;
  name: string;
  roleId: number;
  roleCode: string;
  permissions: ReadonlySet<string>;
  scope: DataScope;
  sessionId: number;
}

export function isSuperAdmin(u: SessionUser): boolean {
  return u.roleCode === SUPER_ADMIN_ROLE;
}

/**
 * The one access decision (deny by default): may this user call a route with this permission?
 * A code may name route parameters in braces, e.g. information:platform:{type}. A route that lists
 * several codes is allowed to holders of any one of them.
 */
export function mayCall(user: SessionUser | null, p: RoutePermission, params: Record<string, string> = {}): boolean {
  if ('public' in p) return true;
  if (!user) return false;
  if ('login' in p) return true;
  if (isSuperAdmin(user)) return true;
  return permissionCodes(p).some((c) =>
    user.permissions.has(c.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? '')),
  );
}

/** May this scope see this site? */
export function inScope(scope: DataScope, platformId: number): boolean {
  return scope.all || scope.platformIds.includes(platformId);
}

/** Limits a query to the sites of a scope, on the given site-id column. */
export function whereInScope<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  scope: DataScope,
  column: string,
): SelectQueryBuilder<DB, TB, O> {
  if (scope.all) return qb;
  if (scope.platformIds.length === 0) return qb.where((eb) => eb.val(false));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return qb.where(column as any, 'in', scope.platformIds as any);
}
