import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { IMPORT_MAX_BYTES, Status, dataImportRoutes } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { AppError } from '../../platform/http/errors.ts';
import { jobView } from '../../platform/jobs/index.ts';
import type { DataImportService } from './dataImport.service.ts';

/** One file per upload, streamed to disk (IMPORT_MAX_BYTES at most). */
const LIMITS = { files: 1, fileSize: IMPORT_MAX_BYTES, fields: 5, fieldSize: 1000, parts: 6, headerPairs: 100 };

export function registerDataImport(app: FastifyInstance, ctx: AppContext, svc: DataImportService): void {
  // Multipart parsing for this feature's routes only (an encapsulated plugin).
  app.register(async (scoped) => {
    if (!scoped.hasContentTypeParser('multipart/form-data')) await scoped.register(multipart, { limits: LIMITS });
    defineRoute(scoped, ctx, dataImportRoutes.upload, async (c) => {
      if (!c.req.isMultipart()) throw new AppError(Status.notAcceptable, 'uploadNotMultipart');
      let part;
      try {
        part = await c.req.file({ limits: LIMITS });
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Status.tooLarge, 'tooLarge');
        throw new AppError(Status.badRequest, 'malformedBody', { format: 'multipart/form-data' });
      }
      if (!part) throw new AppError(Status.invalid, 'uploadNoFile');
      return {
        key: 'uploaded',
        data: await svc.upload(caller(c), { filename: part.filename, stream: part.file }),
      };
    });
  });
  defineRoute(app, ctx, dataImportRoutes.preview, async (c) => ({
    data: await svc.preview(caller(c), c.query.fileId, c.query.sheet),
  }));
  defineRoute(app, ctx, dataImportRoutes.dryRun, async (c) => ({
    key: 'jobQueued',
    data: jobView(await svc.submitDryRun(caller(c), c.body), c.lang),
  }));
  defineRoute(app, ctx, dataImportRoutes.import, async (c) => ({
    key: 'jobQueued',
    data: jobView(await svc.submitImport(caller(c), c.body.jobId), c.lang),
  }));
}
