import type { FastifyInstance } from 'fastify';
import { rolesRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { RolesService } from './roles.service.ts';

export function registerRoles(app: FastifyInstance, ctx: AppContext): void {
  const svc = new RolesService(ctx);
  defineRoute(app, ctx, rolesRoutes.list, async ({ query }) => ({
    data: { ...(await svc.list(query)), pageNum: query.pageNum, pageSize: query.pageSize },
  }));
  defineRoute(app, ctx, rolesRoutes.all, async () => ({ data: await svc.all() }));
  defineRoute(app, ctx, rolesRoutes.add, async (c) => ({
    key: 'created',
    data: { id: await svc.add(caller(c), c.body, c) },
  }));
  defineRoute(app, ctx, rolesRoutes.edit, async (c) => {
    await svc.edit(caller(c), c.body.id, c.body, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, rolesRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, rolesRoutes.getPermissions, async ({ query }) => ({
    data: await svc.permissions(query.roleId),
  }));
  defineRoute(app, ctx, rolesRoutes.setPermissions, async (c) => {
    await svc.setPermissions(caller(c), c.body.roleId, c.body.permissionIds, c);
    return { key: 'setOk' };
  });
}
