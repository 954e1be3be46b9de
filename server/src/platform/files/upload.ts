import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { Status } from '@geosentry/contract';
import { AppError } from '../http/errors.ts';

/** One multipart upload of a few fields and a single file (3D models and elevations, panoramas). */
export interface SingleUpload {
  fields: Record<string, string>;
  file: { filename: string; bytes: Buffer } | null;
}

const discard = (): Writable =>
  new Writable({
    write(_c, _e, cb) {
      cb();
    },
  });

/**
 * Reads a multipart request of a few fields and one file of at most `maxBytes` (a larger one: `tooLarge`, nothing
 * kept). A second file is refused. Nothing is written to disk here.
 */
export async function readSingleUpload(
  req: FastifyRequest,
  maxBytes: number,
  tooLarge: () => AppError,
): Promise<SingleUpload> {
  if (!req.isMultipart()) throw new AppError(Status.notAcceptable, 'uploadNotMultipart');
  const fields: Record<string, string> = {};
  let file: SingleUpload['file'] = null;
  try {
    for await (const part of req.parts({
      limits: { files: 2, fileSize: maxBytes, fields: 10, fieldSize: 1000, parts: 12, headerPairs: 100 },
    })) {
      if (part.type === 'field') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
        continue;
      }
      if (file) {
        await pipeline(part.file, discard()).catch(() => undefined);
        throw new AppError(Status.invalid, 'uploadTooMany', { max: 1 });
      }
      const bytes = await part.toBuffer();
      file = { filename: part.filename ?? '', bytes };
    }
  } catch (e) {
    const code = (e as { code?: string } | null)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (e instanceof AppError) throw e;
    if (typeof code === 'string' && code.startsWith('FST_')) throw new AppError(Status.tooLarge, 'tooLarge');
    if (e instanceof Error && /multipart|Unexpected end of form/i.test(e.message))
      throw new AppError(Status.badRequest, 'malformedBody', { format: 'multipart/form-data' });
    throw e;
  }
  return { fields, file };
}

/** The bytes of this feature's files: DATA_DIR/<folder>/<random hex>.<ext>, names never from the client. */
export class BlobStore {
  constructor(readonly root: string) {}

  static newKey(): string {
    return crypto.randomBytes(16).toString('hex');
  }

  pathOf(key: string, ext: string): string {
    if (!/^[0-9a-f]{32}$/.test(key) || !/^[a-z]{3,4}$/.test(ext)) throw new Error('invalid stored file name');
    return path.join(this.root, `${key}.${ext}`);
  }

  /** Writes the bytes under a new key (a temporary file renamed into place); answers the key. */
  async put(bytes: Buffer, ext: string): Promise<string> {
    await fs.promises.mkdir(this.root, { recursive: true, mode: 0o750 });
    const key = BlobStore.newKey();
    const tmp = path.join(this.root, `.${key}.part`);
    await fs.promises.writeFile(tmp, bytes, { mode: 0o640, flag: 'wx' });
    await fs.promises.rename(tmp, this.pathOf(key, ext));
    return key;
  }

  /** Writes the bytes under a given key and extension (a file derived from a stored one, e.g. its preview). */
  async putAs(key: string, ext: string, bytes: Buffer): Promise<void> {
    await fs.promises.mkdir(this.root, { recursive: true, mode: 0o750 });
    const tmp = path.join(this.root, `.${key}.${ext}.part`);
    await fs.promises.writeFile(tmp, bytes, { mode: 0o640 });
    await fs.promises.rename(tmp, this.pathOf(key, ext));
  }

  /** Whether a stored file exists. */
  async has(key: string, ext: string): Promise<boolean> {
    return fs.promises.stat(this.pathOf(key, ext)).then(
      (st) => st.isFile(),
      () => false,
    );
  }

  async remove(key: string, ext: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key, ext), { force: true });
  }

  /** The size and a stream of a stored file, or null when it is missing on disk. */
  async open(key: string, ext: string): Promise<{ size: number; stream: fs.ReadStream } | null> {
    const p = this.pathOf(key, ext);
    try {
      const st = await fs.promises.stat(p);
      if (!st.isFile()) return null;
      return { size: st.size, stream: fs.createReadStream(p) };
    } catch {
      return null;
    }
  }
}

/** The lower-case extension of an upload's file name. */
export function extensionOf(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The display name of an upload: last path segment, no control characters, at most 100 characters. */
export function displayName(raw: string): string {
  const last = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const n = last.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  return n.replace(/\s+/g, ' ').trim().slice(0, 100) || 'model';
}
