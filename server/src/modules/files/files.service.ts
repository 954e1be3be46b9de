import crypto from 'node:crypto';
import path from 'node:path';
import type fs from 'node:fs';
import {
  FILE_TYPES,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_KEYS,
  MAX_DOCUMENT_VALUE_CHARS,
  MAX_FILES_PER_UPLOAD,
  MAX_PICTURE_BYTES,
  Status,
  UPLOAD_RULES,
  fileUploadFields,
  fileUrl,
  maxBytesOf,
  type FileDocument,
  type FileType,
  type UploadAnswer,
  type UploadKind,
  type UploadedFile,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { MessageKey } from '../../platform/http/messages.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import * as repo from './files.repository.ts';
import { sniff, type SniffResult } from './files.sniff.ts';
import { FileStore, displayName, extensionOf } from './files.storage.ts';

/** One part of an upload request, independent of the HTTP library. */
export type UploadPart =
  | { type: 'field'; name: string; value: string }
  | {
      type: 'file';
      filename: string;
      /** The whole file; throws AppError(413) past the largest size limit. */
      read(): Promise<Buffer>;
      /** Reads the file to nowhere (after an earlier failure). */
      skip(): Promise<void>;
    };

interface Staged {
  name: string;
  size: number;
  result: SniffResult;
  sha256: string;
  tmp: string | null;
}

const MB = 1024 * 1024;
export const tooLarge = (): AppError =>
  new AppError(Status.tooLarge, 'fileTooLarge', {
    picture: MAX_PICTURE_BYTES / MB,
    document: MAX_DOCUMENT_BYTES / MB,
  });
export const tooMany = (): AppError => new AppError(Status.invalid, 'uploadTooMany', { max: MAX_FILES_PER_UPLOAD });

const TYPE_MESSAGE: Record<UploadKind, MessageKey> = {
  picture: 'uploadPictureType',
  document: 'uploadDocumentType',
  attachment: 'uploadAttachmentType',
};

export const present = (f: repo.FileRecord): UploadedFile => ({
  fileId: f.id,
  name: f.originalName,
  size: f.size,
  mime: f.mime,
  ext: f.ext as FileType,
  kind: f.kind as UploadKind,
  platformId: f.platformId,
  url: fileUrl(f.id, f.ext as FileType),
  createdAt: f.createdAt.toISOString(),
});

/**
 * Uploads, downloads and file documents.
 * - Reading a file (bytes or document) needs a signed-in caller; a file attached to a site is readable only when
 *   that site is in the caller's data scope, and a foreign file answers exactly like a missing one. A file attached
 *   to no site (role pictures, alert attachments) is readable by any signed-in caller who knows its id (128 random
 *   bits).
 * - Uploading needs a signed-in caller (pictures of roles and sites, alert attachments are all uploads); attaching
 *   to a site needs the site in scope. Writing document fields needs information:platformInfo (route table).
 */
export class FilesService {
  readonly store: FileStore;

  constructor(private readonly ctx: AppContext) {
    this.store = new FileStore(path.join(ctx.config.dataDir, 'files'));
  }

  // ----- upload -----

  /**
   * Reads every part, checking each file's content as it arrives (written to a temporary file), then checks the
   * whole request (kind, count, types, extensions, sizes, site). Only when everything is acceptable are the files
   * moved into place and their rows inserted; otherwise nothing is kept.
   */
  async upload(user: SessionUser, parts: AsyncIterable<UploadPart>): Promise<UploadAnswer> {
    const fields: Record<string, string> = {};
    const staged: Staged[] = [];
    let failure: unknown = null;
    let files = 0;
    try {
      for await (const part of parts) {
        if (part.type === 'field') {
          if (!(part.name in fields)) fields[part.name] = part.value;
          continue;
        }
        files++;
        if (failure || files > MAX_FILES_PER_UPLOAD) {
          failure ??= tooMany();
          await part.skip();
          continue;
        }
        try {
          staged.push(await this.stage(part));
        } catch (e) {
          failure = e;
        }
      }
    } catch (e) {
      failure ??= e;
    }
    try {
      if (failure) throw failure;
      return await this.commit(user, fields, staged);
    } finally {
      await Promise.all(staged.map((s) => (s.tmp ? this.store.remove(s.tmp) : undefined)));
    }
  }

  private async stage(part: Extract<UploadPart, { type: 'file' }>): Promise<Staged> {
    const bytes = await part.read();
    const name = displayName(part.filename);
    if (bytes.length === 0) throw new AppError(Status.invalid, 'uploadEmptyFile', { name });
    const result = sniff(bytes);
    const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
    // Only an acceptable file is written (to a temporary file); the others are refused once the kind is known.
    const tmp = result.ok && bytes.length <= maxBytesOf(result.type) ? await this.store.stage(bytes) : null;
    return { name, size: bytes.length, result, sha256, tmp };
  }

  private async commit(user: SessionUser, rawFields: Record<string, string>, staged: Staged[]): Promise<UploadAnswer> {
    const { kind, platformId } = fileUploadFields.parse(rawFields);
    if (staged.length === 0) throw new AppError(Status.invalid, 'uploadNoFile');
    const rule = UPLOAD_RULES[kind];
    if (staged.length > rule.maxFiles)
      throw kind === 'picture' ? new AppError(Status.invalid, 'uploadSinglePicture') : tooMany();
    for (const s of staged) {
      const r = s.result;
      if (!('type' in r)) throw new AppError(Status.invalid, TYPE_MESSAGE[kind], { name: s.name });
      if (!rule.types.includes(r.type)) throw new AppError(Status.invalid, TYPE_MESSAGE[kind], { name: s.name });
      if (!r.ok)
        throw new AppError(Status.invalid, r.reason === 'active' ? 'uploadActiveContent' : 'uploadMalformed', {
          name: s.name,
          type: r.type,
        });
      if (!(FILE_TYPES[r.type].extensions as readonly string[]).includes(extensionOf(s.name)))
        throw new AppError(Status.invalid, 'uploadExtensionMismatch', { name: s.name, type: r.type });
      if (s.size > maxBytesOf(r.type) || !s.tmp) throw tooLarge();
    }
    if (platformId !== undefined && !(await repo.siteInScope(this.ctx.db, user.scope, platformId)))
      throw new AppError(Status.notFound, 'platformNotFound');

    const rows = staged.map((s) => {
      const type = (s.result as { type: FileType }).type;
      return {
        id: FileStore.newId(),
        kind,
        mime: FILE_TYPES[type].mime,
        ext: type,
        size: s.size,
        originalName: s.name,
        sha256: s.sha256,
        platformId: platformId ?? null,
        uploadedBy: user.id,
      };
    });
    const placed: string[] = [];
    try {
      for (const [i, row] of rows.entries()) {
        placed.push(await this.store.commit(staged[i]!.tmp!, row.id, row.ext));
        staged[i]!.tmp = null;
      }
      await repo.insertFiles(this.ctx.db, rows);
    } catch (e) {
      await Promise.all(placed.map((p) => this.store.remove(p)));
      this.ctx.log.error({ err: e }, 'upload: storing failed');
      throw new AppError(Status.serverError, 'uploadFailed');
    }
    const list = rows.map((r) => present({ ...r, createdAt: new Date() }));
    return { ...list[0]!, files: list };
  }

  // ----- download -----

  /** A readable stored file: its record, size on disk and a stream of its bytes. */
  async open(user: SessionUser, id: string): Promise<{ file: repo.FileRecord; size: number; stream: fs.ReadStream }> {
    const file = await repo.findFile(this.ctx.db, user.scope, id);
    if (!file) throw new AppError(Status.notFound, 'fileNotFound');
    const size = await this.store.sizeOf(file.id, file.ext);
    if (size === null) {
      this.ctx.log.error({ fileId: file.id }, 'stored file missing on disk');
      throw new AppError(Status.notFound, 'fileNotFound');
    }
    return { file, size, stream: this.store.open(file.id, file.ext) };
  }

  // ----- documents -----

  /**
   * The id of an existing document the caller may use: an uploaded file visible to them, or a stand-alone
   * document. A foreign file answers like a missing id.
   */
  private async documentOf(user: SessionUser, id: string): Promise<{ id: string; file: repo.FileRecord | null }> {
    const file = await repo.findFile(this.ctx.db, user.scope, id);
    if (file) return { id, file };
    if (!(await repo.fileExists(this.ctx.db, id)) && (await repo.documentExists(this.ctx.db, id)))
      return { id, file: null };
    throw new AppError(Status.notFound, 'fileNotFound');
  }

  async getDocument(user: SessionUser, id: string): Promise<FileDocument[]> {
    const doc = await this.documentOf(user, id);
    const fields = await repo.documentFields(this.ctx.db, doc.id);
    const updated = fields.reduce<Date | null>((m, f) => (!m || f.updatedAt > m ? f.updatedAt : m), null);
    return [
      {
        file_id: doc.id,
        detail: Object.fromEntries(fields.map((f) => [f.key, f.value])),
        file: doc.file ? present(doc.file) : null,
        updatedAt: updated ? updated.toISOString() : null,
      },
    ];
  }

  /** Sets one field; without an id a new stand-alone document is created. Answers the document id. */
  async setField(
    user: SessionUser,
    w: { fileId?: string | undefined; key: string; value: unknown; append?: boolean },
  ): Promise<string> {
    const id = w.fileId === undefined ? FileStore.newId() : (await this.documentOf(user, w.fileId)).id;
    const value = clean(w.value);
    let json = JSON.stringify(value);
    if (w.append && Array.isArray(value)) {
      const current = (await repo.documentFields(this.ctx.db, id)).find((f) => f.key === w.key)?.value;
      if (Array.isArray(current)) json = JSON.stringify([...current, ...value]);
    }
    if (json.length > MAX_DOCUMENT_VALUE_CHARS)
      throw new AppError(Status.invalid, 'validation', {
        details: `value (${MAX_DOCUMENT_VALUE_CHARS} characters at most)`,
      });
    if ((await repo.documentKeyCount(this.ctx.db, id, w.key)) >= MAX_DOCUMENT_KEYS)
      throw new AppError(Status.invalid, 'documentTooManyKeys', { max: MAX_DOCUMENT_KEYS });
    await repo.setDocumentField(this.ctx.db, {
      fileId: id,
      key: w.key,
      json: JSON.stringify(value),
      append: w.append ?? false,
      userId: user.id,
    });
    return id;
  }
}

/** Strips NUL and other control characters (except tab and line breaks) from strings: PostgreSQL refuses NUL. */
export function clean(v: unknown): unknown {
  // eslint-disable-next-line no-control-regex
  if (typeof v === 'string') return v.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
  if (Array.isArray(v)) return v.map(clean);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [clean(k), clean(x)]));
  return v;
}
