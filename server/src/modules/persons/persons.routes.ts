import type { FastifyInstance } from 'fastify';
import { personsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { PersonsService } from './persons.service.ts';

export function registerPersons(app: FastifyInstance, ctx: AppContext): void {
  const svc = new PersonsService(ctx);
  defineRoute(app, ctx, personsRoutes.list, async (c) => {
    const r = await svc.list(caller(c), c.query);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, personsRoutes.listByRole, async (c) => ({ data: await svc.byRole(caller(c), c.query.roleId) }));
  defineRoute(app, ctx, personsRoutes.add, async (c) => ({
    key: 'created',
    data: { id: await svc.add(caller(c), c.body) },
  }));
  defineRoute(app, ctx, personsRoutes.edit, async (c) => {
    const { id, ...input } = c.body;
    await svc.edit(caller(c), id, input);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, personsRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.id);
    return { key: 'deleted' };
  });
}
