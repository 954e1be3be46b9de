import type { FastifyInstance } from 'fastify';
import { generalReportRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { sendReport } from '../../platform/reports/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { GeneralReportService } from './generalReport.service.ts';

export function registerGeneralReport(app: FastifyInstance, ctx: AppContext): void {
  const svc = new GeneralReportService(ctx);
  defineRoute(app, ctx, R.getGeneralReport, async (c) => ({ data: await svc.report(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.getGeneralReportFile, async (c) => {
    const report = await svc.report(caller(c), c.lang, c.query);
    if (c.query.format === 'json') return { data: report };
    return sendReport(c.reply, report.document, c.query.format, { fileName: c.query.fileName });
  });
}
