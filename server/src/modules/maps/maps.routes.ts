import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { MAP_LIMITS, mapsRoutes as R } from '@geosentry/contract';
import { caller, defineRoute, type Call } from '../../platform/http/route.ts';
import { sendStored } from '../../platform/http/stored.ts';
import { auditCall } from '../../platform/audit.ts';
import type { AppContext } from '../../platform/context.ts';
import { MapsService } from './maps.service.ts';
import { uploadLimits } from './maps.upload.ts';

const sendImage = (c: Call<unknown, unknown>, img: { mime: string; data: Buffer }): Promise<void> =>
  sendStored(c.reply, { body: img.data, type: img.mime }, 86_400);

export function registerMaps(app: FastifyInstance, ctx: AppContext): MapsService {
  const svc = new MapsService(ctx);
  defineRoute(app, ctx, R.getConfig, async () => ({ data: await svc.config() }));
  defineRoute(app, ctx, R.getSettings, async () => ({ data: await svc.settings() }));
  defineRoute(app, ctx, R.setSettings, async (c) => {
    const data = await svc.setSettings(c.body);
    await auditCall(ctx.db, c, 'map.settings', null, {
      type: data.type,
      mode: data.mode,
      tileSet: data.tileSet?.name ?? null,
    });
    return { key: 'setOk', data };
  });
  defineRoute(app, ctx, R.tileSetList, async () => ({ data: await svc.listTileSets() }));
  defineRoute(app, ctx, R.tileSetDelete, async (c) => {
    await svc.deleteTileSet(c.body.id);
    await auditCall(ctx.db, c, 'map.tileSetDelete', `tileSet:${c.body.id}`);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, R.tile, async (c) =>
    sendImage(c, await svc.tile(c.query.set, c.query.z, c.query.x, c.query.y)),
  );
  defineRoute(app, ctx, R.tianditu, async (c) =>
    sendImage(c, await svc.tianditu(c.query.layer, c.query.z, c.query.x, c.query.y)),
  );
  defineRoute(app, ctx, R.layerList, async (c) => ({ data: await svc.listLayers(caller(c), c.query.platformId) }));
  defineRoute(app, ctx, R.layerGet, async (c) => ({ data: await svc.getLayer(caller(c), c.query.id) }));
  defineRoute(app, ctx, R.layerDelete, async (c) => {
    await svc.deleteLayer(caller(c), c.body.id);
    await auditCall(ctx.db, c, 'map.layerDelete', `layer:${c.body.id}`);
    return { key: 'deleted' };
  });
  // Multipart parsing for the upload routes only (an encapsulated plugin).
  app.register(async (scoped) => {
    if (!scoped.hasContentTypeParser('multipart/form-data'))
      await scoped.register(multipart, { limits: uploadLimits(MAP_LIMITS.maxTileSetBytes) });
    defineRoute(scoped, ctx, R.tileSetUpload, async (c) => {
      const data = await svc.uploadTileSet(c.req);
      await auditCall(ctx.db, c, 'map.tileSetAdd', `tileSet:${data.id}`, { name: data.name, provider: data.provider });
      return { key: 'uploaded', data };
    });
    defineRoute(scoped, ctx, R.layerImport, async (c) => {
      const data = await svc.importLayer(caller(c), c.req);
      await auditCall(ctx.db, c, 'map.layerAdd', `layer:${data.id}`, { name: data.name, site: data.platformId });
      return { key: 'uploaded', data };
    });
  });
  return svc;
}
