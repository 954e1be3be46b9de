import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { Status, threeDRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { sendStored } from '../../platform/http/stored.ts';
import { auditCall } from '../../platform/audit.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { AppContext } from '../../platform/context.ts';
import { ThreeDService } from './threeD.service.ts';
import { readSingleUpload } from '../../platform/files/upload.ts';
import type { Extent, ExtentImage } from '../maps/index.ts';

type MapImagery = { imagery(e: Extent): Promise<ExtentImage | null> };

export function registerThreeD(app: FastifyInstance, ctx: AppContext, maps?: MapImagery): void {
  const svc = new ThreeDService(ctx, maps);
  const max = ctx.config.threeDMaxModelBytes;
  const tooLarge = () =>
    new AppError(Status.tooLarge, 'threeDModelTooLarge', { max: Math.round((max / 1024 / 1024) * 10) / 10 });
  app.register(async (scoped) => {
    if (!scoped.hasContentTypeParser('multipart/form-data'))
      await scoped.register(multipart, { limits: { fileSize: max, files: 2 } });
    defineRoute(scoped, ctx, threeDRoutes.uploadModel, async (c) => {
      const data = await svc.upload(caller(c), c.lang, await readSingleUpload(c.req, max, tooLarge));
      await auditCall(ctx.db, c, 'threeD.model', `threeD:${data.platformId}`, {
        name: data.name,
        triangles: data.triangles,
      });
      return { key: 'uploaded', data };
    });
  });
  defineRoute(app, ctx, threeDRoutes.sites, async (c) => ({ data: await svc.sites(caller(c)) }));
  defineRoute(app, ctx, threeDRoutes.scene, async (c) => ({
    data: await svc.scene(caller(c), c.query.platformId),
  }));
  defineRoute(app, ctx, threeDRoutes.modelFile, async (c) => {
    const f = await svc.openModel(caller(c), c.query.platformId, c.query.detail);
    const name = c.query.detail === 'preview' ? 'model-preview' : 'model';
    await sendStored(
      c.reply,
      { body: f.stream, size: f.size, type: 'model/gltf-binary' },
      86_400,
      `attachment; filename="${name}.glb"`,
    );
  });
  defineRoute(app, ctx, threeDRoutes.tilesets, async () => ({ data: await svc.listTilesets() }));
  defineRoute(app, ctx, threeDRoutes.setTileset, async (c) => {
    await svc.setTileset(caller(c), c.body.platformId, c.body.name);
    await auditCall(ctx.db, c, 'threeD.tileset', `threeD:${c.body.platformId}`, { name: c.body.name || null });
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, threeDRoutes.tileFile, async (c) => {
    const platformId = Number(c.params.platformId);
    if (!Number.isInteger(platformId) || platformId <= 0) throw new AppError(Status.notFound, 'threeDTileNotFound');
    const tile = await svc.openTile(caller(c), platformId, c.params['*'] ?? '');
    await sendStored(c.reply, { body: tile.stream, size: tile.size, type: tile.type }, 3_600);
  });
  defineRoute(app, ctx, threeDRoutes.recent, async (c) => ({
    data: await svc.recent(caller(c), c.query.deviceId),
  }));
  defineRoute(app, ctx, threeDRoutes.deleteModel, async (c) => {
    await svc.deleteModel(caller(c), c.body.platformId);
    await auditCall(ctx.db, c, 'threeD.modelDelete', `threeD:${c.body.platformId}`);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, threeDRoutes.savePlacements, async (c) => {
    await svc.savePlacements(caller(c), c.body.platformId, c.body.placements);
    await auditCall(ctx.db, c, 'threeD.placements', `threeD:${c.body.platformId}`, { count: c.body.placements.length });
    return { key: 'setOk' };
  });
}
