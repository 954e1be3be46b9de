import type { FastifyInstance } from 'fastify';
import { permissionsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { PermissionsService } from './permissions.service.ts';

export function registerPermissions(app: FastifyInstance, ctx: AppContext): void {
  const svc = new PermissionsService(ctx);
  defineRoute(app, ctx, permissionsRoutes.tree, async () => ({ data: await svc.tree() }));
  defineRoute(app, ctx, permissionsRoutes.add, async (c) => ({
    key: 'created',
    data: { id: await svc.add(caller(c), c.body, c) },
  }));
  defineRoute(app, ctx, permissionsRoutes.edit, async (c) => {
    await svc.edit(caller(c), c.body.id, c.body, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, permissionsRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });
}
