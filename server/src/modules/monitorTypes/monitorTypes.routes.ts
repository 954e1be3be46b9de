import type { FastifyInstance } from 'fastify';
import { MONITOR_TYPES, monitorTypesRoutes, multiStatisticsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { MonitorTypesService } from './monitorTypes.service.ts';

export function registerMonitorTypes(app: FastifyInstance, ctx: AppContext): void {
  const svc = new MonitorTypesService(ctx);
  defineRoute(app, ctx, monitorTypesRoutes.getAllModules, async () => ({ data: MONITOR_TYPES }));
  defineRoute(app, ctx, monitorTypesRoutes.getModules, async (c) => ({
    data: await svc.modulesOf(caller(c), c.query.platformId),
  }));
  defineRoute(app, ctx, monitorTypesRoutes.getModuleListPage, async (c) => {
    const r = await svc.siteTypeList(caller(c), c.lang, c.query);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, monitorTypesRoutes.bindModules, async (c) => {
    await svc.bind(caller(c), c.body.platformId, c.body.moduleId);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, monitorTypesRoutes.unbindModule, async (c) => {
    await svc.unbind(caller(c), c.body.platformId, c.body.moduleId);
    return { key: 'deviceUnbound' };
  });

  defineRoute(app, ctx, multiStatisticsRoutes.list, async (c) => {
    const r = await svc.list(caller(c), c.query);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, multiStatisticsRoutes.names, async (c) => ({
    data: await svc.names(caller(c), c.query.platformId),
  }));
  defineRoute(app, ctx, multiStatisticsRoutes.get, async (c) => ({ data: await svc.get(caller(c), c.query.sid) }));
  defineRoute(app, ctx, multiStatisticsRoutes.add, async (c) => ({
    key: 'created',
    data: { sid: await svc.add(caller(c), c.body) },
  }));
  defineRoute(app, ctx, multiStatisticsRoutes.edit, async (c) => {
    const { sid, ...w } = c.body;
    await svc.edit(caller(c), sid, w);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, multiStatisticsRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.sid);
    return { key: 'deleted' };
  });
}
