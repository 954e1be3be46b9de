import type { FastifyInstance } from 'fastify';
import { DEVICE_IMPORT_MAX_BYTES, devicesRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { DevicesService, type DevicesChanged } from './devices.service.ts';

/** Registers the device routes; `devicesChanged` hears the numbers each committed change touched. */
export function registerDevices(app: FastifyInstance, ctx: AppContext, devicesChanged: DevicesChanged): void {
  const svc = new DevicesService(ctx, devicesChanged);

  // The import carries the file base64-encoded in the body: allow it more than the app-wide body limit.
  app.addHook('onRoute', (r) => {
    if (r.url === devicesRoutes.import.path) r.bodyLimit = Math.ceil((DEVICE_IMPORT_MAX_BYTES * 4) / 3) + 64 * 1024;
  });

  defineRoute(app, ctx, devicesRoutes.list, async (c) => {
    const r = await svc.list(caller(c), c.query);
    return { data: { ...r, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  // The spec lists devices "by role id": the caller's data scope decides; roleId is accepted and ignored.
  defineRoute(app, ctx, devicesRoutes.listByRole, async (c) => ({ data: await svc.byRole(caller(c)) }));
  defineRoute(app, ctx, devicesRoutes.options, async (c) => ({ data: await svc.options(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, devicesRoutes.add, async (c) => ({
    key: 'created',
    data: { deviceId: await svc.add(caller(c), c.body) },
  }));
  defineRoute(app, ctx, devicesRoutes.edit, async (c) => {
    const { deviceId, ...d } = c.body;
    await svc.edit(caller(c), deviceId, d);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, devicesRoutes.delete, async (c) => {
    await svc.remove(caller(c), c.body.deviceId);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, devicesRoutes.unbind, async (c) => {
    await svc.unbind(caller(c), c.body.deviceId);
    return { key: 'deviceUnbound' };
  });
  defineRoute(app, ctx, devicesRoutes.gnssAdd, async (c) => ({
    key: 'created',
    data: { deviceId: await svc.addGnss(caller(c), c.body) },
  }));
  defineRoute(app, ctx, devicesRoutes.gnssEdit, async (c) => {
    const { deviceId, ...g } = c.body;
    await svc.editGnss(caller(c), deviceId, g);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, devicesRoutes.import, async (c) => ({
    key: 'importStarted',
    data: await svc.startImport(caller(c), c.lang, c.body),
  }));
  defineRoute(app, ctx, devicesRoutes.importProgress, async (c) => ({
    data: await svc.importProgress(caller(c), c.query.jobId),
  }));
  defineRoute(app, ctx, devicesRoutes.export, async (c) => {
    const { format, ...filters } = c.query;
    const file = await svc.exportFile(caller(c), c.lang, format, filters);
    c.reply.header('content-type', file.contentType);
    c.reply.header('content-disposition', `attachment; filename="${file.filename}"`);
    c.reply.header('cache-control', 'no-store');
    // Wait until the file is written: defineRoute then sees reply.sent and adds no envelope.
    await c.reply.send(file.body);
  });
}
