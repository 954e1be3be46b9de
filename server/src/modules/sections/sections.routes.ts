import type { FastifyInstance } from 'fastify';
import { sectionsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { SectionsService } from './sections.service.ts';

export function registerSections(app: FastifyInstance, ctx: AppContext): void {
  const svc = new SectionsService(ctx);
  const r = sectionsRoutes;
  defineRoute(app, ctx, r.byPlatform, async (c) => ({ data: await svc.byPlatform(caller(c), c.query.platformId) }));
  defineRoute(app, ctx, r.list, async (c) => {
    const page = await svc.list(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.add, async (c) => ({
    key: 'created',
    data: { segmentId: await svc.add(caller(c), c.body.platformId, c.body) },
  }));
  defineRoute(app, ctx, r.edit, async (c) => {
    await svc.edit(caller(c), c.body.segmentId, c.body);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.delete, async (c) => {
    await svc.remove(caller(c), c.body.segmentId);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, r.updatePosition, async (c) => {
    await svc.updatePosition(caller(c), c.body.segmentId, c.body.x, c.body.y);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, r.setUpstreamCoords, async (c) => {
    await svc.setUpstreamCoords(caller(c), c.body.segmentId, c.body.coords);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, r.setWaterLevel, async (c) => {
    await svc.setWaterLevel(caller(c), c.body.segmentId, c.body.source, c.body.level);
    return { key: 'setOk' };
  });
  for (const route of [r.capacityList, r.reservoirCapacityList]) {
    defineRoute(app, ctx, route, async (c) => ({
      data: await svc.capacity(caller(c), c.query.platformId, c.query.segmentId),
    }));
  }
  defineRoute(app, ctx, r.setCapacityList, async (c) => {
    await svc.setCapacity(caller(c), c.body.platformId, c.body.segmentId, c.body.rows);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, r.heartWallDevices, async (c) => ({ data: await svc.heartWall(caller(c), c.query.segmentId) }));
  defineRoute(app, ctx, r.bindHeartWall, async (c) => {
    await svc.bindHeartWall(caller(c), c.body.segmentId, [c.body.deviceId]);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, r.bindHeartWallMany, async (c) => {
    await svc.bindHeartWall(caller(c), c.body.segmentId, c.body.deviceIds);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, r.deleteHeartWall, async (c) => {
    await svc.unbindHeartWall(caller(c), c.body.id);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, r.moduleAndDevices, async (c) => ({
    data: await svc.moduleAndDevices(caller(c), c.query.segmentId, c.lang),
  }));
  defineRoute(app, ctx, r.waterDevices, async (c) => {
    const page = await svc.waterDevices(caller(c), c.query, c.lang);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.riverWaterList, async (c) => {
    const page = await svc.riverWater(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.riverWaterAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addRiverWater(caller(c), c.body.segmentId, c.body.time, c.body.elevation) },
  }));
  defineRoute(app, ctx, r.riverWaterDelete, async (c) => {
    await svc.deleteRiverWater(caller(c), c.body.id);
    return { key: 'deleted' };
  });
}
