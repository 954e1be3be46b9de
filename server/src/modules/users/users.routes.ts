import type { FastifyInstance } from 'fastify';
import { usersRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { UsersService } from './users.service.ts';

export function registerUsers(app: FastifyInstance, ctx: AppContext): void {
  const svc = new UsersService(ctx);
  defineRoute(app, ctx, usersRoutes.list, async ({ query }) => {
    const r = await svc.list(query);
    return { data: { ...r, pageNum: query.pageNum, pageSize: query.pageSize } };
  });
  defineRoute(app, ctx, usersRoutes.add, async (c) => ({
    key: 'created',
    data: { id: await svc.add(caller(c), c.body, c) },
  }));
  defineRoute(app, ctx, usersRoutes.edit, async (c) => {
    await svc.edit(caller(c), c.body.id, c.body, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, usersRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.id, c);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, usersRoutes.enable, async (c) => {
    await svc.enable(caller(c), c.body.id, c.body.enabled, c);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, usersRoutes.resetPassword, async (c) => {
    await svc.resetPassword(caller(c), c.body.id, c.body.password, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, usersRoutes.bindRole, async (c) => {
    await svc.bindRole(caller(c), c.body.userId, c.body.roleId, c);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, usersRoutes.unlock, async (c) => {
    await svc.unlock(caller(c), c.body.id, c);
    return { key: 'accountUnlocked' };
  });
  defineRoute(app, ctx, usersRoutes.setScope, async (c) => {
    await svc.setScope(caller(c), c.body.userId, c.body.scopeAll, c.body.platformIds, c);
    return { key: 'setOk' };
  });
}
