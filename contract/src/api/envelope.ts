/** The response envelope every API call answers with (spec §7, §8). */
export interface Envelope<T = unknown> {
  status: number;
  info: string;
  data: T;
}

/** Status values of the envelope's `status` field (spec §8). */
export const Status = {
  ok: 0,
  okAlt: 5,
  warn: 2,
  warnPartial: 3,
  warnOther: 4,
  created: 201,
  queued: 202,
  deleted: 204,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  notAcceptable: 406,
  conflict: 409,
  gone: 410,
  tooLarge: 413,
  invalid: 422,
  tooMany: 429,
  serverError: 500,
  badGateway: 502,
  unavailable: 503,
  gatewayTimeout: 504,
  notLoggedIn: 1000,
  loginExpired: 1001,
  tokenExpired: 1002,
  noPermission: 1003,
  notCertified: 1004,
  switchDatabaseFailed: 3306,
  loggedOutElsewhere: 40004,
} as const;

export const SUCCESS_STATUSES: readonly number[] = [Status.ok, Status.okAlt];
export const WARNING_STATUSES: readonly number[] = [Status.warn, Status.warnPartial, Status.warnOther];
/** A response with one of these statuses ends the session on the client: storage cleared, back to /login. */
export const SESSION_END_STATUSES: readonly number[] = [1000, 1001, 1002, 1003, 1004, 40004];

export type StatusKind = 'success' | 'warning' | 'sessionEnd' | 'error';
export function statusKind(status: number): StatusKind {
  if (SUCCESS_STATUSES.includes(status)) return 'success';
  if (WARNING_STATUSES.includes(status)) return 'warning';
  if (SESSION_END_STATUSES.includes(status)) return 'sessionEnd';
  return 'error';
}

/** A page of a server-side paged list. */
export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export const LANGUAGES = ['en', 'zh', 'ko'] as const;
export type Language = (typeof LANGUAGES)[number];
