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
  /**
   * The shape of the envelope's `data` in a successful answer. The web infers its types from it (`call()`), the
   * OpenAPI document shows it, and under CHECK_RESPONSES (tests) the server checks every answer against it.
   */
  response?: z.ZodType;
}

/** The data a route answers with: its response schema's output (unknown for a route without one). */
export type RouteData<R> = R extends { response: infer S extends z.ZodType } ? z.output<S> : unknown;
/** What a handler may hand back as data: its response schema's input (anything for a route without one). */
export type RouteDataIn<R> = R extends { response: infer S extends z.ZodType } ? z.input<S> : unknown;
type InputOf<S> = S extends z.ZodType ? z.input<S> : object;
/** The parameters a client sends: the input of the route's query schema (GET) or body schema (POST). */
export type RouteParams<R> = (R extends { query: infer Q } ? InputOf<Q> : object) &
  (R extends { body: infer B } ? InputOf<B> : object);

export type RouteTable = Record<string, RouteDef>;

export function routeTable<T extends RouteTable>(t: T): T {
  return t;
}
