import type { FastifyInstance } from 'fastify';
import { externalFilesRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { ExternalFilesService } from './externalFiles.service.ts';

export function registerExternalFiles(app: FastifyInstance, ctx: AppContext): void {
  const svc = new ExternalFilesService(ctx);
  defineRoute(app, ctx, externalFilesRoutes.list, async (c) => {
    const r = await svc.list(c.query);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, externalFilesRoutes.listByRole, async (c) => ({
    data: await svc.byRole(caller(c), c.query.roleId),
  }));
  defineRoute(app, ctx, externalFilesRoutes.add, async (c) => ({
    key: 'created',
    data: { id: await svc.add(caller(c), c.body) },
  }));
  defineRoute(app, ctx, externalFilesRoutes.edit, async (c) => {
    const { id, ...input } = c.body;
    await svc.edit(caller(c), id, input);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, externalFilesRoutes.delete, async (c) => {
    await svc.remove(c.body.id);
    return { key: 'deleted' };
  });
}
