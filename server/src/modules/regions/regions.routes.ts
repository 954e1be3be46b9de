import type { FastifyInstance } from 'fastify';
import { regionsRoutes } from '@geosentry/contract';
import { defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { RegionsService } from './regions.service.ts';

export function registerRegions(app: FastifyInstance, ctx: AppContext): void {
  const svc = new RegionsService(ctx);
  defineRoute(app, ctx, regionsRoutes.tree, async (c) => ({ data: await svc.tree(c.lang) }));
  defineRoute(app, ctx, regionsRoutes.add, async (c) => {
    await svc.add(c.body);
    return { key: 'created', data: { code: c.body.code } };
  });
  defineRoute(app, ctx, regionsRoutes.edit, async (c) => {
    await svc.edit(c.body);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, regionsRoutes.delete, async (c) => {
    await svc.remove(c.body.code);
    return { key: 'deleted' };
  });
}
