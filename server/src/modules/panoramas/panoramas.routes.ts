import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { Status, panoramasRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { sendStored } from '../../platform/http/stored.ts';
import { auditCall } from '../../platform/audit.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { AppContext } from '../../platform/context.ts';
import { readSingleUpload } from '../../platform/files/upload.ts';
import { PanoramasService } from './panoramas.service.ts';

export function registerPanoramas(app: FastifyInstance, ctx: AppContext): void {
  const svc = new PanoramasService(ctx);
  const max = ctx.config.panoramaMaxBytes;
  const tooLarge = () =>
    new AppError(Status.tooLarge, 'panoramaTooLarge', { max: Math.round((max / 1024 / 1024) * 10) / 10 });
  app.register(async (scoped) => {
    if (!scoped.hasContentTypeParser('multipart/form-data'))
      await scoped.register(multipart, { limits: { fileSize: max, files: 2 } });
    defineRoute(scoped, ctx, panoramasRoutes.upload, async (c) => {
      const data = await svc.upload(caller(c), await readSingleUpload(c.req, max, tooLarge));
      await auditCall(ctx.db, c, 'panorama.add', `panorama:${data.id}`, { name: data.name, site: data.platformId });
      return { key: 'uploaded', data };
    });
  });
  defineRoute(app, ctx, panoramasRoutes.list, async (c) => {
    const r = await svc.list(caller(c), c.query);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, panoramasRoutes.detail, async (c) => ({ data: await svc.detail(caller(c), c.query.id) }));
  defineRoute(app, ctx, panoramasRoutes.image, async (c) => {
    const f = await svc.openImage(caller(c), c.query.id);
    await sendStored(c.reply, { body: f.stream, size: f.size, type: f.mime }, 86_400);
  });
  defineRoute(app, ctx, panoramasRoutes.edit, async (c) => {
    await svc.rename(caller(c), c.body.id, c.body.name);
    await auditCall(ctx.db, c, 'panorama.edit', `panorama:${c.body.id}`, { name: c.body.name });
    return { key: 'modified' };
  });
  defineRoute(app, ctx, panoramasRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.id);
    await auditCall(ctx.db, c, 'panorama.delete', `panorama:${c.body.id}`);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, panoramasRoutes.devices, async (c) => ({
    data: await svc.devices(caller(c), c.query.platformId),
  }));
  defineRoute(app, ctx, panoramasRoutes.saveHotspots, async (c) => {
    await svc.saveHotspots(caller(c), c.body.id, c.body.hotspots);
    await auditCall(ctx.db, c, 'panorama.hotspots', `panorama:${c.body.id}`, { count: c.body.hotspots.length });
    return { key: 'setOk' };
  });
}
