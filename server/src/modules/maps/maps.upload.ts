// One file (and a few text fields) from a multipart request: kept in memory up to a small limit, or streamed to
// a file for tile sets. The parser's errors become this API's answers.
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { Status } from '@geosentry/contract';
import { AppError } from '../../platform/http/errors.ts';

export interface Upload {
  fields: Record<string, string>;
  fileName: string | null;
  /** The bytes (memory uploads) */
  buffer?: Buffer;
  /** Where the bytes were written (disk uploads). */
  path?: string;
}

function uploadError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  const code = (e as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(Status.tooLarge, 'tooLarge');
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new AppError(Status.tooLarge, 'tooLarge');
  return new AppError(Status.badRequest, 'malformedBody', { format: 'multipart/form-data' });
}

export const uploadLimits = (maxBytes: number) => ({
  files: 1,
  fileSize: maxBytes,
  fields: 6,
  fieldNameSize: 100,
  fieldSize: 1000,
  parts: 8,
  headerPairs: 100,
});

/** Reads the request's parts: text fields, and its one file into memory or to `toFile`. */
export async function readUpload(req: FastifyRequest, maxBytes: number, toFile?: string): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError(Status.notAcceptable, 'uploadNotMultipart');
  const out: Upload = { fields: {}, fileName: null };
  try {
    for await (const part of req.parts({ limits: uploadLimits(maxBytes) })) {
      if (part.type === 'field') {
        out.fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
        continue;
      }
      out.fileName = part.filename;
      if (toFile) {
        await pipeline(part.file, fs.createWriteStream(toFile));
        if (part.file.truncated) throw new AppError(Status.tooLarge, 'tooLarge');
        out.path = toFile;
      } else {
        out.buffer = await part.toBuffer();
      }
    }
  } catch (e) {
    if (toFile) fs.rmSync(toFile, { force: true });
    throw uploadError(e);
  }
  if (out.fileName === null || (!out.buffer && !out.path)) throw new AppError(Status.invalid, 'uploadNoFile');
  return out;
}
