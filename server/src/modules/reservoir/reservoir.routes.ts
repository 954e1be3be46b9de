import type { FastifyInstance } from 'fastify';
import { reservoirRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { sendReport } from '../../platform/reports/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { ReservoirService } from './reservoir.service.ts';

export function registerReservoir(app: FastifyInstance, ctx: AppContext): void {
  const svc = new ReservoirService(ctx);
  defineRoute(app, ctx, R.getReportComprehensiveInformation, async (c) => ({
    data: await svc.comprehensive(caller(c), c.lang, c.query),
  }));
  defineRoute(app, ctx, R.getReportComprehensiveFile, async (c) => {
    const report = await svc.comprehensive(caller(c), c.lang, c.query);
    if (c.query.format === 'json') return { data: report };
    return sendReport(c.reply, report.document, c.query.format, { fileName: c.query.fileName });
  });
  defineRoute(app, ctx, R.waterHisInfo, async (c) => ({ data: await svc.history(caller(c), c.query) }));
  defineRoute(app, ctx, R.waterInfo, async (c) => ({
    data: await svc.info(caller(c), c.query.platformId, c.query.segmentId),
  }));
  defineRoute(app, ctx, R.waterList, async (c) => {
    const page = await svc.list(caller(c), c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, R.waterInsert, async (c) => ({
    key: 'created',
    data: { added: await svc.insert(caller(c), c.body) },
  }));
  defineRoute(app, ctx, R.waterAdd, async (c) => ({ key: 'created', data: { id: await svc.add(caller(c), c.body) } }));
  defineRoute(app, ctx, R.waterEdit, async (c) => {
    await svc.edit(caller(c), c.body);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, R.waterDelete, async (c) => {
    await svc.remove(caller(c), c.body.id);
    return { key: 'deleted' };
  });
}
