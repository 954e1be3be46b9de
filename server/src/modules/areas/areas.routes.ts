import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { AREA_LIMITS, areasRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { auditCall } from '../../platform/audit.ts';
import type { AppContext } from '../../platform/context.ts';
import { uploadLimits } from '../maps/index.ts';
import { AreasService } from './areas.service.ts';

export function registerAreas(app: FastifyInstance, ctx: AppContext): void {
  const svc = new AreasService(ctx);
  defineRoute(app, ctx, R.list, async (c) => {
    const page = await svc.list(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, R.info, async (c) => ({ data: await svc.info(caller(c), c.query.id) }));
  defineRoute(app, ctx, R.add, async (c) => {
    const id = await svc.add(caller(c), c.body);
    await auditCall(ctx.db, c, 'area.add', `area:${id}`, { name: c.body.name, site: c.body.platformId });
    return { key: 'created', data: { id } };
  });
  defineRoute(app, ctx, R.edit, async (c) => {
    await svc.edit(caller(c), c.body.id, c.body);
    await auditCall(ctx.db, c, 'area.edit', `area:${c.body.id}`, { name: c.body.name });
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.delete, async (c) => {
    await svc.remove(caller(c), c.body.id);
    await auditCall(ctx.db, c, 'area.delete', `area:${c.body.id}`);
    return { key: 'deleted' };
  });
  app.register(async (scoped) => {
    if (!scoped.hasContentTypeParser('multipart/form-data'))
      await scoped.register(multipart, { limits: uploadLimits(AREA_LIMITS.maxFileBytes) });
    defineRoute(scoped, ctx, R.parseFile, async (c) => ({ data: await svc.parseFile(c.req) }));
  });
}
