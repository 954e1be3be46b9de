import type { FastifyInstance } from 'fastify';
import { templatesRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { TemplatesService } from './templates.service.ts';

export function registerTemplates(app: FastifyInstance, ctx: AppContext): void {
  const svc = new TemplatesService(ctx);
  defineRoute(app, ctx, templatesRoutes.getMenuList, async () => ({ data: await svc.list() }));
  defineRoute(app, ctx, templatesRoutes.getListPage, async (c) => ({
    data: { ...(await svc.page(c.query)), pageNum: c.query.pageNum, pageSize: c.query.pageSize },
  }));
  defineRoute(app, ctx, templatesRoutes.getUnbind, async () => ({ data: await svc.unbound() }));
  defineRoute(app, ctx, templatesRoutes.getOwnerByMenuId, async (c) => ({
    data: await svc.owners(caller(c), c.query.menuId),
  }));
  defineRoute(app, ctx, templatesRoutes.getDataByOwner, async (c) => ({
    data: await svc.dataOf(caller(c), c.query.owner),
  }));
  defineRoute(app, ctx, templatesRoutes.addMenu, async (c) => ({
    key: 'created',
    data: { menuId: await svc.add(caller(c), c.body) },
  }));
  defineRoute(app, ctx, templatesRoutes.updateMenu, async (c) => {
    const { menuId, ...input } = c.body;
    await svc.edit(menuId, input);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, templatesRoutes.deleteMenu, async (c) => {
    await svc.remove(c.body.menuId);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, templatesRoutes.bind, async (c) => {
    await svc.bind(caller(c), c.body.menuId, c.body.owner);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, templatesRoutes.unbind, async (c) => {
    await svc.unbind(caller(c), c.body.menuId, c.body.owner);
    return { key: 'unbound' };
  });
  defineRoute(app, ctx, templatesRoutes.updateArray, async (c) => {
    await svc.setArray(caller(c), c.body.menuId, c.body.owner, c.body.key, c.body.value);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, templatesRoutes.updateObject, async (c) => {
    await svc.setValues(caller(c), c.body.menuId, c.body.owner, c.body.data);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, templatesRoutes.deleteField, async (c) => {
    await svc.deleteField(c.body.menuId, c.body.key);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, templatesRoutes.renameField, async (c) => {
    await svc.renameField(c.body.menuId, c.body.oldField, c.body.newField);
    return { key: 'modified' };
  });
}
