import type { z } from 'zod';

/** Who may call a route: anyone, any signed-in user, or holders of a permission code. */
export type RoutePermission = { public: true } | { login: true } | { code: string };
export const PUBLIC: RoutePermission = { public: true };
export const LOGIN: RoutePermission = { login: true };
export const perm = (code: string): RoutePermission => ({ code });

export interface RouteDef {
  method: 'GET' | 'POST';
  path: string;
  permission: RoutePermission;
  summary: string;
  tags: string[];
  query?: z.ZodType;
  body?: z.ZodType;
}

export type RouteTable = Record<string, RouteDef>;

export function routeTable<T extends RouteTable>(t: T): T {
  return t;
}
