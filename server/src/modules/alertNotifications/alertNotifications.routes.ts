import type { FastifyInstance } from 'fastify';
import { alertNotificationsRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { AlertNotificationsService } from './alertNotifications.service.ts';
import type { AlertNotifier } from './alertNotifications.outbox.ts';

/**
 * Registers the notification routes and runs the app's notifier (subscribed to the alert events by buildApp)
 * from `onReady` to `onClose`.
 */
export function registerAlertNotifications(app: FastifyInstance, ctx: AppContext, notifier: AlertNotifier): void {
  app.addHook('onReady', async () => notifier.start());
  app.addHook('onClose', async () => notifier.close());

  const svc = new AlertNotificationsService(ctx, notifier);
  const page = <T>(r: { list: T[]; total: number }, q: { pageNum: number; pageSize: number }) => ({
    ...r,
    pageNum: q.pageNum,
    pageSize: q.pageSize,
  });

  defineRoute(app, ctx, R.contactList, async (c) => ({
    data: page(await svc.listContacts(caller(c), c.query), c.query),
  }));
  defineRoute(app, ctx, R.contactAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addContact(caller(c), c.body) },
  }));
  defineRoute(app, ctx, R.contactEdit, async (c) => {
    const { id, ...w } = c.body;
    await svc.editContact(caller(c), id, w);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.contactDelete, async (c) => {
    await svc.removeContact(caller(c), c.body.id);
    return { key: 'deleted' };
  });

  defineRoute(app, ctx, R.groupList, async (c) => ({ data: page(await svc.listGroups(caller(c), c.query), c.query) }));
  defineRoute(app, ctx, R.groupAdd, async (c) => ({
    key: 'created',
    data: { id: await svc.addGroup(caller(c), c.body) },
  }));
  defineRoute(app, ctx, R.groupEdit, async (c) => {
    const { id, ...w } = c.body;
    await svc.editGroup(caller(c), id, w);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.groupDelete, async (c) => {
    await svc.removeGroup(caller(c), c.body.id);
    return { key: 'deleted' };
  });

  defineRoute(app, ctx, R.templateList, async (c) => ({ data: page(await svc.listTemplates(c.query), c.query) }));
  defineRoute(app, ctx, R.templateAdd, async (c) => ({ key: 'created', data: { id: await svc.addTemplate(c.body) } }));
  defineRoute(app, ctx, R.templateEdit, async (c) => {
    const { id, ...w } = c.body;
    await svc.editTemplate(id, w);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.templateDelete, async (c) => {
    await svc.removeTemplate(c.body.id);
    return { key: 'deleted' };
  });

  defineRoute(app, ctx, R.configureList, async () => ({ data: await svc.listLevels() }));
  defineRoute(app, ctx, R.configureEdit, async (c) => {
    await svc.editLevel(c.body);
    return { key: 'setOk' };
  });

  defineRoute(app, ctx, R.deliveries, async (c) => ({ data: await svc.deliveries(caller(c), c.query.alertId) }));
  defineRoute(app, ctx, R.deliveryRetry, async (c) => {
    await svc.retry(caller(c), c.body.id);
    return { key: 'notifyRetryQueued' };
  });
}
