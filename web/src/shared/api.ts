import { statusKind, type Envelope, type RouteData, type RouteParams } from '@geosentry/contract';
import { clearSession, getToken } from './storage.ts';
import { fillPath } from './routePath.ts';
import i18n, { currentLanguage } from './i18n.ts';

/** Request timeout (spec §7, §9). */
export const REQUEST_TIMEOUT_MS = 300_000;

/** A failed call: an error status from the server, a timeout, or a network error. */
export class ApiError extends Error {
  constructor(
    readonly status: number | 'ECONNABORTED' | 'network',
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

type Params = Record<string, unknown>;

/** HTTP statuses of spec §8 with a message of their own (common:error.http.<status>). */
const HTTP_MESSAGES = new Set([400, 401, 403, 404, 406, 410, 422, 500, 502, 503, 504]);

/** The translated spec §8 message of an HTTP status that is not an API answer (e.g. a proxy's 502 page). */
export function httpErrorMessage(status: number): string {
  return HTTP_MESSAGES.has(status)
    ? i18n.t(`common:error.http.${status}`)
    : i18n.t('common:error.http.other', { status });
}

/**
 * Reads the envelope of an answer. Every API answer is a 2xx JSON envelope (spec §8); anything else (a proxy's
 * 502/503/504 page, an HTML error page, a cut-off body) is an error with the translated message of its HTTP status.
 */
async function readEnvelope<T>(res: Response): Promise<Envelope<T>> {
  const json = /\bjson\b/i.test(res.headers.get('content-type') ?? '');
  if (!res.ok || !json) {
    await res.body?.cancel().catch(() => undefined);
    throw new ApiError(res.status, res.ok ? i18n.t('common:error.http.unreadable') : httpErrorMessage(res.status));
  }
  let env: unknown;
  try {
    env = await res.json();
  } catch {
    throw new ApiError(res.status, i18n.t('common:error.http.unreadable'));
  }
  if (typeof env !== 'object' || env === null || typeof (env as { status?: unknown }).status !== 'number')
    throw new ApiError(res.status, i18n.t('common:error.http.unreadable'));
  return env as Envelope<T>;
}

/** Listeners the shell installs: warnings shown as messages, errors shown as messages, session end. */
export const apiEvents = {
  onWarning: (_info: string): void => undefined,
  onError: (_info: string): void => undefined,
  onSessionEnd: (_info: string): void => undefined,
  onLoading: (_pending: number): void => undefined,
};

const inflight = new Map<string, AbortController>();
let pending = 0;

function encodeForm(body: Params): URLSearchParams {
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const x of v) f.append(k, String(x));
    else f.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return f;
}

/** An answer web/public/preload.js asked for at the start, with the headers it sent. */
interface EarlyAnswer {
  headers: Record<string, string | null>;
  response: Promise<Response>;
}
/** How long after the start an early answer may stand in for a request: later, the page asks afresh. */
const EARLY_MS = 10_000;

/**
 * The answer preload.js asked for at the start for this URL, taken once, when the headers are the ones this
 * request sends (same token and language) and the page is young; else undefined and the request is made.
 */
function takeEarly(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  const early = (window as { __gsEarly?: Map<string, EarlyAnswer> }).__gsEarly;
  const found = early?.get(url);
  if (!early || !found) return undefined;
  early.delete(url);
  const same = found.headers.token === (headers.token ?? null) && found.headers.language === headers.language;
  return same && performance.now() < EARLY_MS ? found.response : undefined;
}

function query(params: Params = {}): string {
  const f = encodeForm(params).toString();
  return f ? `?${f}` : '';
}

export interface RequestOptions {
  /** Show the loading overlay (spec §7: elements with ajax-load). */
  loading?: boolean;
  /** Keep an earlier identical request alive instead of cancelling it. */
  keepEarlier?: boolean;
  /** Do not show errors as messages (the caller handles them). */
  silent?: boolean;
}

/**
 * Calls the API: token and language headers, POST bodies form-encoded, 300 s timeout, a new request
 * to the same URL cancels the earlier one (cancelled requests are silent), warnings are shown but
 * their data returned, session-ending statuses clear storage and go to /login.
 */
export async function request<T>(
  method: 'GET' | 'POST',
  path: string,
  params: Params = {},
  opts: RequestOptions = {},
): Promise<T> {
  const url = method === 'GET' ? path + query(params) : path;
  const key = `${method} ${path}`;
  if (!opts.keepEarlier) inflight.get(key)?.abort();
  const ctrl = new AbortController();
  inflight.set(key, ctrl);
  const timer = setTimeout(() => ctrl.abort('timeout'), REQUEST_TIMEOUT_MS);
  if (opts.loading) apiEvents.onLoading(++pending);
  try {
    const headers: Record<string, string> = { language: currentLanguage() };
    const token = getToken();
    if (token) headers.token = token;
    let res: Response;
    try {
      const early = method === 'GET' ? takeEarly(url, headers) : undefined;
      res = await (early ??
        fetch(url, {
          method,
          headers:
            method === 'POST'
              ? { ...headers, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' }
              : headers,
          body: method === 'POST' ? encodeForm(params) : undefined,
          signal: ctrl.signal,
        }));
      if (ctrl.signal.aborted) throw new DOMException('cancelled', 'AbortError');
    } catch (e) {
      if (ctrl.signal.aborted && ctrl.signal.reason === 'timeout') {
        const err = new ApiError('ECONNABORTED', i18n.t('common:error.timeout'));
        if (!opts.silent) apiEvents.onError(err.message);
        throw err;
      }
      if (ctrl.signal.aborted) throw new DOMException('cancelled', 'AbortError');
      const err = new ApiError('network', i18n.t('common:error.network', { detail: (e as Error).message }));
      if (!opts.silent) apiEvents.onError(err.message);
      throw err;
    }
    let env: Envelope<T>;
    try {
      env = await readEnvelope<T>(res);
    } catch (e) {
      // Cancelled or timed out while the body was read: as above.
      if (ctrl.signal.aborted && ctrl.signal.reason !== 'timeout') throw new DOMException('cancelled', 'AbortError');
      const err = ctrl.signal.aborted ? new ApiError('ECONNABORTED', i18n.t('common:error.timeout')) : e;
      if (!opts.silent && err instanceof ApiError) apiEvents.onError(err.message);
      throw err;
    }
    switch (statusKind(env.status)) {
      case 'success':
        return env.data;
      case 'warning':
        apiEvents.onWarning(env.info);
        return env.data;
      case 'sessionEnd':
        clearSession();
        apiEvents.onSessionEnd(env.info);
        throw new ApiError(env.status, env.info, env.data);
      default: {
        if (!opts.silent) apiEvents.onError(env.info);
        throw new ApiError(env.status, env.info, env.data);
      }
    }
  } finally {
    clearTimeout(timer);
    if (inflight.get(key) === ctrl) inflight.delete(key);
    if (opts.loading) apiEvents.onLoading(--pending);
  }
}

/**
 * Calls the API and returns the whole envelope (for callers that act on warning statuses, like login); an answer
 * that is not an envelope (non-2xx, not JSON) throws an ApiError with the translated message of its status.
 */
export async function requestEnvelope<T>(
  method: 'GET' | 'POST',
  path: string,
  params: Params = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = { language: currentLanguage() };
  const token = getToken();
  if (token) headers.token = token;
  const url = method === 'GET' ? path + query(params) : path;
  const res = await fetch(url, {
    method,
    headers:
      method === 'POST' ? { ...headers, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' } : headers,
    body: method === 'POST' ? encodeForm(params) : undefined,
  });
  return readEnvelope<T>(res);
}

export const isCancel = (e: unknown): boolean => e instanceof DOMException && e.name === 'AbortError';

/**
 * Calls a route of the contract's route table. Its parameters are the route's query (GET) or body (POST) input and
 * its answer is the output of the route's response schema: a change of the server's answer in the contract is a
 * compile error here, not a surprise at run time.
 */
export function call<R extends { method: 'GET' | 'POST'; path: string }>(
  route: R,
  params?: RouteParams<R>,
  opts: RequestOptions = {},
): Promise<RouteData<R>> {
  return request<RouteData<R>>(route.method, route.path, (params ?? {}) as Params, opts);
}

/** `call()` for a route whose path holds parameters (`/platform/:type/add`): see `fillPath`. */
export function callAt<R extends { method: 'GET' | 'POST'; path: string }>(
  route: R,
  pathParams: Readonly<Record<string, string>>,
  params?: RouteParams<R>,
  opts: RequestOptions = {},
): Promise<RouteData<R>> {
  return request<RouteData<R>>(route.method, fillPath(route.path, pathParams), (params ?? {}) as Params, opts);
}
