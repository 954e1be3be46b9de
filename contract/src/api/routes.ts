import type { z } from 'zod';

/**
 * Who may call a route: anyone, any signed-in user, or holders of a permission code. `code` may list several
 * codes: holding any one of them is enough (a call several screens make, each screen's role key allows it).
 */
export type RoutePermission = { public: true } | { login: true } | { code: string | readonly string[] };
export const PUBLIC: RoutePermission = { public: true };
export const LOGIN: RoutePermission = { login: true };
/** A permission of one code, or of any of several codes (`perm('monitor:history', 'monitor:comparison')`). */
export const perm = (code: string, ...orCodes: string[]): RoutePermission =>
  orCodes.length ? { code: [code, ...orCodes] } : { code };
/** The codes of a permission (none for public and login-only routes). */
export const permissionCodes = (p: RoutePermission): readonly string[] =>
  'code' in p ? (typeof p.code === 'string' ? [p.code] : p.code) : [];

export interface RouteDef {
  method: 'GET' | 'POST';
  path: string;
  permission: RoutePermission;
  summary: string;
  tags: string[];
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * The session token may come as `?token=` (downloads and images opened by <img src> or a link, where no header
   * can be sent). Every other route takes it from the `token` header only: a token in a URL ends up in logs,
   * history and Referer headers.
   */
  tokenInQuery?: true;
}

export type RouteTable = Record<string, RouteDef>;

export function routeTable<T extends RouteTable>(t: T): T {
  return t;
}
