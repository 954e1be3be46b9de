import type { FastifyInstance } from 'fastify';
import { monitorViewsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { MonitorViewsService } from './monitorViews.service.ts';

export function registerMonitorViews(app: FastifyInstance, ctx: AppContext): void {
  const svc = new MonitorViewsService(ctx);
  const r = monitorViewsRoutes;
  defineRoute(app, ctx, r.platforms, async (c) => ({ data: await svc.sites(caller(c), c.query.type) }));
  defineRoute(app, ctx, r.overview, async (c) => ({
    data: await svc.overview(caller(c), c.query.platformId, c.lang),
  }));
  defineRoute(app, ctx, r.positions, async (c) => ({ data: await svc.positions(caller(c), c.query.platformId) }));
  defineRoute(app, ctx, r.updatePosition, async (c) => {
    await svc.updatePosition(caller(c), c.body);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, r.reservoirSection, async (c) => ({
    data: await svc.reservoirSection(caller(c), c.query.platformId, c.query.segmentId),
  }));
}
