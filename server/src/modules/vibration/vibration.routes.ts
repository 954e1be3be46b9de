import type { FastifyInstance } from 'fastify';
import { vibrationRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { sendReport } from '../../platform/reports/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { VibrationService } from './vibration.service.ts';

export function registerVibration(app: FastifyInstance, ctx: AppContext): void {
  const svc = new VibrationService(ctx);
  defineRoute(app, ctx, R.getVibrationReport, async (c) => ({ data: await svc.report(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.getVibrationReportFile, async (c) => {
    const report = await svc.report(caller(c), c.lang, c.query);
    if (c.query.format === 'json') return { data: report };
    return sendReport(c.reply, report.document, c.query.format, { fileName: c.query.fileName });
  });
}
