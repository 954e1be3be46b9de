import type { FastifyInstance } from 'fastify';
import {
  enterprisesRoutes,
  enterpriseTypeParam,
  tailingsEnterprisesRoutes,
  type EnterpriseVariant,
} from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { EnterprisesService } from './enterprises.service.ts';

export function registerEnterprises(app: FastifyInstance, ctx: AppContext): void {
  const svc = new EnterprisesService(ctx);
  const sets: [typeof enterprisesRoutes, EnterpriseVariant][] = [
    [enterprisesRoutes, 'general'],
    [tailingsEnterprisesRoutes, 'tailings'],
  ];
  for (const [routes, variant] of sets) {
    // The general routes take {enterpriseType} from the path: check it is one they serve.
    const check = (params: Record<string, string>): void => {
      if (variant === 'general') enterpriseTypeParam.parse(params);
    };
    defineRoute(app, ctx, routes.list, async (c) => {
      check(c.params);
      const r = await svc.list(caller(c), variant, c.query);
      return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
    });
    defineRoute(app, ctx, routes.all, async (c) => {
      check(c.params);
      return { data: await svc.all(variant) };
    });
    defineRoute(app, ctx, routes.add, async (c) => {
      check(c.params);
      return { key: 'created', data: { enterpriseId: await svc.add(variant, c.body) } };
    });
    defineRoute(app, ctx, routes.edit, async (c) => {
      check(c.params);
      await svc.edit(caller(c), variant, c.body.enterpriseId, c.body);
      return { key: 'modified' };
    });
    defineRoute(app, ctx, routes.delete, async (c) => {
      check(c.params);
      await svc.remove(caller(c), variant, c.body.enterpriseId);
      return { key: 'deleted' };
    });
    defineRoute(app, ctx, routes.bind, async (c) => {
      check(c.params);
      await svc.bind(caller(c), variant, c.body.enterpriseId, c.body.platformId);
      return { key: 'setOk' };
    });
    defineRoute(app, ctx, routes.unbind, async (c) => {
      check(c.params);
      await svc.unbind(caller(c), variant, c.body.enterpriseId, c.body.platformId);
      return { key: 'setOk' };
    });
  }
}
