import type { FastifyInstance } from 'fastify';
import { auditRoutes } from '@geosentry/contract';
import { defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { listAudit } from './audit.repository.ts';

export function registerAudit(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, auditRoutes.list, async ({ query }) => {
    const r = await listAudit(ctx.db, query);
    return { data: { ...r, pageNum: query.pageNum, pageSize: query.pageSize } };
  });
}
