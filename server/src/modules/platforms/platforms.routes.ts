import type { FastifyInstance } from 'fastify';
import { platformsRoutes, platformTypeParam } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { PlatformsService } from './platforms.service.ts';

export function registerPlatforms(app: FastifyInstance, ctx: AppContext): void {
  const svc = new PlatformsService(ctx);
  const kind = (params: Record<string, string>) => platformTypeParam.parse(params).type;
  defineRoute(app, ctx, platformsRoutes.list, async (c) => {
    const r = await svc.list(caller(c), kind(c.params), c.query, c.lang);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, platformsRoutes.get, async (c) => ({
    data: await svc.get(caller(c), c.query.platformId, c.lang),
  }));
  defineRoute(app, ctx, platformsRoutes.selectable, async (c) => ({
    data: await svc.selectable(caller(c), c.lang),
  }));
  defineRoute(app, ctx, platformsRoutes.options, async () => ({ data: await svc.options() }));
  defineRoute(app, ctx, platformsRoutes.add, async (c) => ({
    key: 'created',
    data: { platformId: await svc.add(caller(c), kind(c.params), c.body) },
  }));
  defineRoute(app, ctx, platformsRoutes.edit, async (c) => {
    await svc.edit(caller(c), kind(c.params), c.body.platformId, c.body);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, platformsRoutes.delete, async (c) => {
    await svc.remove(caller(c), kind(c.params), c.body.platformId);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, platformsRoutes.roadSegments, async (c) => ({ data: await svc.roadSegments(caller(c)) }));
}
