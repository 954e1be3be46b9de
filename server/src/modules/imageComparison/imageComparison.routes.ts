import type { FastifyInstance } from 'fastify';
import { imageComparisonRoutes as R } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { sendReport } from '../../platform/reports/index.ts';
import type { FilesService } from '../files/index.ts';
import { ImageComparisonService } from './imageComparison.service.ts';

export function registerImageComparison(app: FastifyInstance, ctx: AppContext, files: FilesService): void {
  const svc = new ImageComparisonService(ctx, files);
  defineRoute(app, ctx, R.getSitePictures, async (c) => {
    const { pageNum, pageSize, platformId, keyword } = c.query;
    return {
      data: { ...(await svc.pictures(caller(c), platformId, { pageNum, pageSize, keyword })), pageNum, pageSize },
    };
  });
  defineRoute(app, ctx, R.getImageComparison, async (c) => {
    const user = caller(c);
    const report = await svc.report(user, c.lang, c.query);
    if (c.query.format === 'json') return { data: report };
    return sendReport(c.reply, report.document, c.query.format, {
      fileName: c.query.fileName,
      readImage: svc.reader(user),
    });
  });
}
