import type { FastifyInstance } from 'fastify';
import { alertsRoutes } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AlertEngine } from './alerts.engine.ts';
import { AlertsService } from './alerts.service.ts';
import { AlertRulesService } from './alerts.rules.service.ts';

/** Registers the alert routes (rules, criteria, relations, alerts and their report) over the app's engine. */
export function registerAlerts(app: FastifyInstance, ctx: AppContext, engine: AlertEngine): void {
  const rules = new AlertRulesService(ctx, engine);
  const svc = new AlertsService(ctx);
  const R = alertsRoutes;

  defineRoute(app, ctx, R.valuesByDevice, async (c) => ({
    data: await rules.valuesByDevice(caller(c), c.lang, c.query),
  }));
  defineRoute(app, ctx, R.valuesList, async (c) => ({ data: await rules.valuesList(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.valueAdd, async (c) => ({
    key: 'created',
    data: { id: await rules.addRule(caller(c), c.lang, c.body) },
  }));
  defineRoute(app, ctx, R.valueEdit, async (c) => {
    const { id, ...b } = c.body;
    await rules.editRule(caller(c), c.lang, id, b);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.valueDelete, async (c) => {
    await rules.deleteRule(caller(c), c.body.id);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, R.valueEnable, async (c) => {
    await rules.enableRule(caller(c), c.body.id, c.body.enabled ?? true);
    return { key: 'setOk' };
  });
  defineRoute(app, ctx, R.valueTest, async (c) => ({ data: await rules.testRule(caller(c), c.lang, c.body) }));

  defineRoute(app, ctx, R.criteriaList, async (c) => ({ data: await rules.criteria(c.query) }));
  defineRoute(app, ctx, R.criteriaAdd, async (c) => ({
    key: 'created',
    data: { id: await rules.addCriterion(c.body) },
  }));
  defineRoute(app, ctx, R.criteriaEdit, async (c) => {
    await rules.editCriterion(c.body);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.criteriaDelete, async (c) => {
    await rules.deleteCriterion(c.body.id);
    return { key: 'deleted' };
  });

  defineRoute(app, ctx, R.relationList, async (c) => ({ data: await rules.relations(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.relationAdd, async (c) => ({
    key: 'created',
    data: { id: await rules.addRelation(caller(c), c.lang, c.body) },
  }));
  defineRoute(app, ctx, R.relationEdit, async (c) => {
    const { id, ...b } = c.body;
    await rules.editRelation(caller(c), c.lang, id, b);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.relationDelete, async (c) => {
    await rules.deleteRelation(caller(c), c.body.id);
    return { key: 'deleted' };
  });

  defineRoute(app, ctx, R.byDevice, async (c) => ({ data: await svc.byDevice(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.byPlatform, async (c) => ({ data: await svc.byPlatform(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.detail, async (c) => ({ data: await svc.detail(caller(c), c.lang, c.query.id) }));
  defineRoute(app, ctx, R.process, async (c) => {
    const status = await svc.process(caller(c), c.body);
    return { key: status === 'processed' ? 'alertProcessed' : 'alertProcessSaved', data: { id: c.body.id, status } };
  });
  defineRoute(app, ctx, R.counts, async (c) => ({ data: await svc.counts(caller(c), c.query) }));
  defineRoute(app, ctx, R.platformAndAlert, async (c) => ({ data: await svc.platformAndAlert(caller(c), c.query) }));
  defineRoute(app, ctx, R.report, async (c) => ({ data: await svc.report(caller(c), c.query) }));
  defineRoute(app, ctx, R.reportExport, async (c) => {
    const file = await svc.exportReport(caller(c), c.lang, c.query);
    c.reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    c.reply.header('content-disposition', `attachment; filename="${file.filename}"`);
    c.reply.header('cache-control', 'no-store');
    await c.reply.send(file.body);
  });
}
