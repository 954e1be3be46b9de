import type { FastifyInstance } from 'fastify';
import { terminalsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { TerminalsService } from './terminals.service.ts';

export function registerTerminals(app: FastifyInstance, ctx: AppContext): void {
  const svc = new TerminalsService(ctx);
  defineRoute(app, ctx, terminalsRoutes.list, async (c) => {
    const r = await svc.list(caller(c), c.query);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, terminalsRoutes.all, async (c) => ({ data: await svc.all(caller(c), c.query.platformId) }));
  // The spec lists terminals "by role id": the caller's data scope decides; roleId is accepted and ignored.
  defineRoute(app, ctx, terminalsRoutes.listByRole, async (c) => ({ data: await svc.all(caller(c)) }));
  defineRoute(app, ctx, terminalsRoutes.add, async (c) => ({ key: 'created', data: await svc.add(caller(c), c.body) }));
  defineRoute(app, ctx, terminalsRoutes.edit, async (c) => {
    const { terminalId, ...w } = c.body;
    await svc.edit(caller(c), terminalId, w);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, terminalsRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.terminalId);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, terminalsRoutes.rotateKey, async (c) => ({
    key: 'terminalKeyIssued',
    data: await svc.rotateKey(caller(c), c.body.terminalId),
  }));
}
