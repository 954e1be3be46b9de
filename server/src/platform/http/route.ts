import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Status, type Language, type RouteDataIn, type RouteDef } from '@geosentry/contract';
import { AppError } from './errors.ts';
import { RULES, parseLanguage, translate, type MessageKey } from './messages.ts';
import { mayCall, type SessionUser } from '../auth/access.ts';
import { resolveSession } from '../auth/sessions.ts';
import type { AppContext } from '../context.ts';

/** What a handler sees: validated input, the caller and the app's services. */
export interface Call<Q, B> {
  query: Q;
  body: B;
  params: Record<string, string>;
  user: SessionUser | null;
  lang: Language;
  ip: string;
  userAgent: string;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** A handler's answer: data plus the message key of `info` (default "ok"), or a raw reply already sent. */
export interface Answer<D = unknown> {
  data?: D;
  key?: MessageKey;
  status?: number;
  params?: Record<string, string | number>;
}

type Infer<T> = T extends z.ZodType ? z.output<T> : Record<string, never>;

/** The caller of an authenticated route: resolved by the wrapper before the handler runs. */
export function caller(c: { user: SessionUser | null }): SessionUser {
  if (!c.user) throw new AppError(Status.notLoggedIn, 'notLoggedIn');
  return c.user;
}

/** Reads the session token from the `token` header. */
export function headerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.token;
  const fromHeader = Array.isArray(h) ? h[0] : h;
  return fromHeader || undefined;
}

/**
 * Reads the session token from the `token` header, or the `token` query parameter where no header can be sent
 * (the browser socket, and routes marked `tokenInQuery`: downloads and images).
 */
export function tokenOf(req: FastifyRequest): string | undefined {
  const h = headerToken(req);
  if (h) return h;
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/**
 * The path of the first string in a request's input that no database column can hold: a NUL character
 * (PostgreSQL text refuses it) or a lone UTF-16 surrogate (not encodable as UTF-8). Checked for every route
 * before validation, so such input is a validation error, never a database error.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (s: string): boolean => s.includes('\0') || LONE_SURROGATE.test(s);

export function unstorableText(v: unknown, path: string[] = [], depth = 0): string | null {
  if (typeof v === 'string') return unstorable(v) ? path.join('.') || '(body)' : null;
  if (v === null || typeof v !== 'object' || depth > 20) return null;
  for (const [k, x] of Object.entries(v)) {
    const bad = unstorable(k) ? [...path, k].join('.') : unstorableText(x, [...path, k], depth + 1);
    if (bad !== null) return bad;
  }
  return null;
}

function refuseUnstorable(lang: Language, ...inputs: unknown[]): void {
  for (const input of inputs) {
    const field = unstorableText(input);
    if (field === null) continue;
    const message = `${field} ${RULES.text![lang]}`;
    throw new AppError(
      Status.invalid,
      'validation',
      { details: message },
      { errors: [{ field, rule: 'text', message }] },
    );
  }
}

function schemaFor(t: z.ZodType | undefined): unknown {
  if (!t) return undefined;
  try {
    return z.toJSONSchema(t, { io: 'output', unrepresentable: 'any' });
  } catch {
    return undefined;
  }
}

/** The OpenAPI shape of a successful answer: the envelope around the route's response schema. */
function envelopeSchema(response: z.ZodType): unknown {
  return {
    type: 'object',
    properties: {
      status: { type: 'integer', description: 'Status code (spec §8): 200 or 0 on success' },
      info: { type: 'string', description: "Message in the caller's language" },
      data: schemaFor(response) ?? {},
    },
  };
}

/**
 * Under CHECK_RESPONSES (tests), an answer whose data does not match its route's response schema is a server
 * error naming the first mismatch: the contract the web compiles against has drifted from what the server says.
 */
function checkResponse(def: RouteDef, data: unknown): void {
  const r = def.response!.safeParse(data);
  if (r.success) return;
  const first = r.error.issues[0]!;
  throw new Error(
    `response of ${def.method} ${def.path} does not match the contract at ${first.path.join('.') || '(data)'}: ${first.message}`,
  );
}

/**
 * Registers a route from the contract's route table: authenticate, validate, authorise, then call the
 * handler and wrap its answer in the envelope. Routes stay thin: all rules live in services.
 */
export function defineRoute<D extends RouteDef>(
  app: FastifyInstance,
  ctx: AppContext,
  def: D,
  handler: (c: Call<Infer<D['query']>, Infer<D['body']>>) => Promise<Answer<RouteDataIn<D>> | void>,
): void {
  // A download (GET with the token in the query, spec §7) may also be POSTed with its parameters and token in a
  // form or JSON body: a client that must not put them in a URL, or a form that saves the file under its name.
  const methods: ('GET' | 'POST')[] = def.method === 'GET' && def.tokenInQuery ? ['GET', 'POST'] : [def.method];
  for (const method of methods) {
    const posted = method !== def.method;
    app.route({
      method,
      url: def.path,
      config: { permission: def.permission },
      schema: {
        summary: posted ? `${def.summary} (POST: parameters and token in the body)` : def.summary,
        tags: def.tags,
        ...(def.query ? { [posted ? 'body' : 'querystring']: schemaFor(def.query) } : {}),
        ...(def.body ? { body: schemaFor(def.body) } : {}),
        ...(def.response ? { response: { 200: envelopeSchema(def.response) } } : {}),
        ...('public' in def.permission
          ? {}
          : { headers: { type: 'object', properties: { token: { type: 'string' } } } }),
      },
      handler: async (req, reply) => {
        const lang = parseLanguage(req.headers.language);
        const params = (req.params ?? {}) as Record<string, string>;
        const rawQuery = posted
          ? { ...((req.query ?? {}) as object), ...((req.body ?? {}) as object) }
          : (req.query ?? {});
        const user =
          'public' in def.permission
            ? null
            : await resolveSession(
                ctx.db,
                def.tokenInQuery ? (headerToken(req) ?? tokenIn(rawQuery)) : headerToken(req),
                ctx.config.sessionIdleMs,
              );
        if (!mayCall(user, def.permission, params)) throw new AppError(Status.noPermission, 'noPermission');
        // What the contract validates; a route without a body schema (device ingest) parses its body itself.
        refuseUnstorable(lang, def.query ? rawQuery : undefined, def.body ? req.body : undefined);
        const query = def.query ? def.query.parse(rawQuery) : {};
        const body = def.body ? def.body.parse(req.body ?? {}) : {};
        const answer = await handler({
          query: query as Infer<D['query']>,
          body: body as Infer<D['body']>,
          params,
          user,
          lang,
          ip: req.ip,
          userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
          req,
          reply,
        });
        if (reply.sent) return reply;
        const a = answer ?? {};
        if (ctx.config.checkResponses && def.response && a.data !== undefined && (a.status ?? Status.ok) === Status.ok)
          checkResponse(def, a.data);
        return { status: a.status ?? Status.ok, info: translate(lang, a.key ?? 'ok', a.params), data: a.data ?? null };
      },
    });
  }
}

/** The `token` parameter of a download's query or posted body. */
function tokenIn(input: unknown): string | undefined {
  const t = (input as Record<string, unknown> | null)?.token;
  return typeof t === 'string' && t ? t : undefined;
}
