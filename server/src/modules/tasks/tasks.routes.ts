import type { FastifyInstance } from 'fastify';
import { taskRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import type { TasksService } from './tasks.service.ts';

export function registerTasks(app: FastifyInstance, ctx: AppContext, svc: TasksService): void {
  const r = taskRoutes;
  defineRoute(app, ctx, r.list, async (c) => {
    const page = await svc.list(caller(c), c.lang, c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.detail, async (c) => ({ data: await svc.detail(caller(c), c.query.id) }));
  defineRoute(app, ctx, r.create, async (c) => ({
    key: 'created',
    data: { id: await svc.create(caller(c), c.lang, c.body, c) },
  }));
  defineRoute(app, ctx, r.edit, async (c) => {
    const { id, ...input } = c.body;
    await svc.edit(caller(c), c.lang, id, input, c);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, r.start, async (c) => {
    await svc.start(caller(c), c.lang, c.body.id, c);
    return { key: 'taskStarted' };
  });
  defineRoute(app, ctx, r.progress, async (c) => {
    const { id, ...p } = c.body;
    return { key: 'created', data: { id: await svc.progress(caller(c), c.lang, id, p, c) } };
  });
  defineRoute(app, ctx, r.submit, async (c) => {
    await svc.submit(caller(c), c.lang, c.body.id, c);
    return { key: 'taskSubmitted' };
  });
  defineRoute(app, ctx, r.review, async (c) => {
    const { id, ...review } = c.body;
    await svc.review(caller(c), c.lang, id, review, c);
    return { key: 'taskReviewed' };
  });
  defineRoute(app, ctx, r.progressList, async (c) => {
    const page = await svc.progressList(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, r.evaluation, async (c) => ({ data: await svc.evaluation(caller(c), c.query) }));
  defineRoute(app, ctx, r.users, async (c) => ({ data: await svc.users(caller(c), c.query.platformId) }));
  defineRoute(app, ctx, r.alertDraft, async (c) => ({
    data: await svc.alertDraft(caller(c), c.lang, c.query.alertId),
  }));
  defineRoute(app, ctx, r.byAlert, async (c) => ({ data: await svc.byAlert(caller(c), c.query.alertId) }));
}
