import { SUPER_ADMIN_ROLE } from '@geosentry/contract';
import { KEYS, readJson } from './storage.ts';

/** Who is signed in, as the shell keeps it in local storage ('userInfo' JSON); fields are null when unknown. */
export interface CurrentUser {
  id: number | null;
  roleId: number | null;
  /** Whether the signed-in user is a super administrator (only they manage super administrators). */
  superAdmin: boolean;
  /** Permission codes, or null when the browser does not know them. */
  permissions: string[] | null;
}

interface StoredUserInfo {
  user?: { id?: unknown };
  role?: { id?: unknown; code?: unknown };
  permissions?: unknown;
}

const asId = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null;
const asCodes = (v: unknown): string[] | null =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;

export function readCurrentUser(): CurrentUser {
  const info = readJson<StoredUserInfo>(KEYS.userInfo);
  const permissions = asCodes(info?.permissions) ?? asCodes(readJson<unknown>(KEYS.permissions));
  return {
    id: asId(info?.user?.id),
    roleId: asId(info?.role?.id),
    superAdmin: info?.role?.code === SUPER_ADMIN_ROLE,
    permissions,
  };
}

/** Whether the signed-in user holds a permission; true when the browser does not know (the server decides). */
export function mayUse(user: CurrentUser, code: string): boolean {
  return user.superAdmin || user.permissions === null || user.permissions.includes(code);
}
