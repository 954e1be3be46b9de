import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { INLINE_TYPES, MAX_DOCUMENT_BYTES, MAX_FILES_PER_UPLOAD, Status, filesRoutes } from '@geosentry/contract';
import type { FileType } from '@geosentry/contract';
import { caller, defineRoute, type Call } from '../../platform/http/route.ts';
import { sendStored } from '../../platform/http/stored.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { AppContext } from '../../platform/context.ts';
import { FilesService, tooLarge, tooMany, type UploadPart } from './files.service.ts';
import { contentDisposition } from './files.storage.ts';

/** Limits given to the multipart parser on every upload (whatever the plugin's registration options). */
const UPLOAD_LIMITS = {
  files: MAX_FILES_PER_UPLOAD,
  fileSize: MAX_DOCUMENT_BYTES,
  fields: 10,
  fieldNameSize: 100,
  fieldSize: 1000,
  parts: MAX_FILES_PER_UPLOAD + 10,
  headerPairs: 100,
};

/** The parser's own errors, as the answers of this API. */
function uploadError(e: unknown): unknown {
  const code = (e as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT') return tooMany();
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new AppError(Status.tooLarge, 'tooLarge');
  if (typeof code === 'string' && code.startsWith('FST_')) return new AppError(Status.badRequest, 'badRequest');
  if (e instanceof Error && /multipart|Unexpected end of form/i.test(e.message))
    return new AppError(Status.badRequest, 'malformedBody', { format: 'multipart/form-data' });
  return e;
}

const discard = (): Writable =>
  new Writable({
    write(_chunk, _enc, cb) {
      cb();
    },
  });

/** The parts of a multipart request, adapted to the service's UploadPart. */
async function* uploadParts(req: FastifyRequest): AsyncGenerator<UploadPart> {
  try {
    for await (const part of req.parts({ limits: UPLOAD_LIMITS })) {
      if (part.type === 'field') {
        yield { type: 'field', name: part.fieldname, value: typeof part.value === 'string' ? part.value : '' };
      } else {
        yield {
          type: 'file',
          filename: part.filename,
          read: async () => {
            try {
              return await part.toBuffer();
            } catch (e) {
              throw uploadError(e);
            }
          },
          skip: async () => {
            await pipeline(part.file, discard()).catch(() => undefined);
          },
        };
      }
    }
  } catch (e) {
    throw uploadError(e);
  }
}

/** Sends a stored file: the detected type, nosniff, a safe file name, private caching. */
async function sendFile(
  svc: FilesService,
  c: Call<{ file_id: string }, unknown>,
  disposition: (ext: FileType) => 'inline' | 'attachment',
): Promise<void> {
  const { file, size, stream } = await svc.open(caller(c), c.query.file_id);
  await sendStored(
    c.reply,
    { body: stream, size, type: file.mime },
    3_600,
    contentDisposition(disposition(file.ext as FileType), file.originalName),
  );
}

/** Registers the file routes; answers the service, for the modules app.ts hands it to (reports reading pictures). */
export function registerFiles(app: FastifyInstance, ctx: AppContext): FilesService {
  const svc = new FilesService(ctx);
  // Multipart parsing is registered for this feature's routes only (an encapsulated plugin).
  app.register(async (scoped) => {
    if (!scoped.hasContentTypeParser('multipart/form-data'))
      await scoped.register(multipart, { limits: UPLOAD_LIMITS });

    defineRoute(scoped, ctx, filesRoutes.upload, async (c) => {
      if (!c.req.isMultipart()) throw new AppError(Status.notAcceptable, 'uploadNotMultipart');
      return { key: 'uploaded', data: await svc.upload(caller(c), uploadParts(c.req)) };
    });
    defineRoute(scoped, ctx, filesRoutes.getOriginalImage, (c) =>
      sendFile(svc, c, (ext) => (INLINE_TYPES.includes(ext) ? 'inline' : 'attachment')),
    );
    defineRoute(scoped, ctx, filesRoutes.download, (c) => sendFile(svc, c, () => 'attachment'));
    defineRoute(scoped, ctx, filesRoutes.getDocument, async (c) => ({
      data: await svc.getDocument(caller(c), c.query.file_id),
    }));
    defineRoute(scoped, ctx, filesRoutes.updateField, async (c) => ({
      key: 'setOk',
      data: {
        file_id: await svc.setField(caller(c), { fileId: c.body.file_id, key: c.body.key, value: c.body.value }),
      },
    }));
    // The per-user database variant writes the default database: the only one until tenant databases exist.
    for (const def of [filesRoutes.updateArray, filesRoutes.updateArrayForDefaultDatabase]) {
      defineRoute(scoped, ctx, def, async (c) => ({
        key: 'setOk',
        data: {
          file_id: await svc.setField(caller(c), {
            fileId: c.body.file_id,
            key: c.body.key,
            value: c.body.value,
            append: c.body.append,
          }),
        },
      }));
    }
  });
  return svc;
}
