import type { FastifyInstance } from 'fastify';
import { Status, ingestRoutes, type IngestAnswer } from '@geosentry/contract';
import { defineRoute, type Answer } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import type { IngestService } from './ingest.service.ts';

const header = (v: unknown): string => (Array.isArray(v) ? String(v[0] ?? '') : typeof v === 'string' ? v : '');

/**
 * HTTP ingest. Unlike the console API, the HTTP status carries the outcome (loggers and gateways act
 * on it): 200 stored (after commit), 400 refused payload, 401 bad terminal credentials, 403 a device
 * not bound to the terminal, 429 device rate limit, 503 overloaded; 429/503 carry Retry-After.
 */
export function registerIngest(app: FastifyInstance, ctx: AppContext, ingest: IngestService): void {
  // Payloads up to 1000 readings: allow a larger body on this route only.
  app.register(async (scoped) => {
    scoped.addHook('onRoute', (r) => {
      r.bodyLimit = 4 * 1024 * 1024;
    });
    // The body is decoded by the ingest service, so a malformed one is refused with 400 and counted.
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    defineRoute(scoped, ctx, ingestRoutes.ingestReadings, async ({ req, reply }): Promise<Answer<IngestAnswer>> => {
      if (ingest.isOverloaded()) {
        ingest.reject('overloaded', 'queue full or alert evaluation behind', 'http');
        reply.code(503).header('retry-after', '1');
        return {
          status: Status.serverError,
          key: 'ingestOverloaded',
          params: { seconds: 1 },
          data: { reason: 'overloaded' as const },
        };
      }
      const who = await ingest.terminal(header(req.headers['x-terminal-id']), header(req.headers['x-terminal-key']));
      if (!who) {
        ingest.reject('badCredentials', 'http', 'http');
        reply.code(401);
        return { status: Status.notLoggedIn, key: 'ingestBadCredentials', data: { reason: 'badCredentials' as const } };
      }
      const device =
        header(req.headers['x-device-number']) || header((req.query as Record<string, unknown>).deviceNumber);
      const r = await ingest.ingest(who, device || null, req.body, { source: 'http', allowDeviceField: true });
      if (r.ok) {
        return { key: 'ingestStored', params: { stored: r.stored, duplicates: r.duplicates }, data: r };
      }
      const data = { reason: r.reason, detail: r.detail };
      switch (r.reason) {
        case 'notYourDevice':
          reply.code(403);
          return { status: Status.noPermission, key: 'ingestNotYourDevice', params: { detail: r.detail }, data };
        case 'rateLimited':
          reply.code(429).header('retry-after', String(r.retryAfterSeconds ?? 1));
          return {
            status: Status.badRequest,
            key: 'ingestRateLimited',
            params: { seconds: r.retryAfterSeconds ?? 1 },
            data,
          };
        default:
          reply.code(400);
          return { status: Status.badRequest, key: 'ingestBadPayload', params: { detail: r.detail }, data };
      }
    });
  });
  defineRoute(app, ctx, ingestRoutes.ingestStats, async () => ({ data: ingest.stats() }));
}
