import type { FastifyInstance } from 'fastify';
import { Status, vibrationRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { AppContext } from '../../platform/context.ts';
import { VibrationService } from './vibration.service.ts';

export function registerVibration(app: FastifyInstance, ctx: AppContext): void {
  const svc = new VibrationService(ctx);
  defineRoute(app, ctx, R.getVibrationReport, async (c) => ({ data: await svc.report(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.getVibrationReportFile, async (c) => {
    const report = await svc.report(caller(c), c.lang, c.query);
    if (c.query.format === 'json') return { data: report };
    // The file renderers (server/src/platform/reports) are plugged in here.
    throw new AppError(Status.notAcceptable, 'unsupportedType');
  });
}
