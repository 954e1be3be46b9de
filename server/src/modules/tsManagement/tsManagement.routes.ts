import type { FastifyInstance } from 'fastify';
import { tsManagementRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { TsManagementService } from './tsManagement.service.ts';

export function registerTsManagement(app: FastifyInstance, ctx: AppContext): void {
  const svc = new TsManagementService(ctx);
  const r = tsManagementRoutes;
  defineRoute(app, ctx, r.list, async (c) => {
    const page = await svc.list(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.sites, async (c) => ({ data: await svc.sites(caller(c)) }));
  defineRoute(app, ctx, r.persons, async (c) => ({ data: await svc.persons(caller(c), c.query.platformId) }));
  defineRoute(app, ctx, r.add, async (c) => ({ key: 'created', data: { id: await svc.add(caller(c), c.body) } }));
  defineRoute(app, ctx, r.edit, async (c) => {
    const { id, ...input } = c.body;
    await svc.edit(caller(c), id, input);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.delete, async (c) => {
    await svc.remove(caller(c), c.body.id);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, r.setRectified, async (c) => {
    const { id, ...rectification } = c.body;
    await svc.setRectified(caller(c), id, rectification);
    return { key: 'setOk' };
  });
}
