// The files feature's contract: uploads, downloads and the key/value documents kept beside a file id.
import { z } from 'zod';
import { decimalInt, zBool } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';

/**
 * Uploads (spec §5): `picture` is a single image (jpg, png, gif, bmp); `document` is Word or PDF
 * (doc, docx, pdf); `attachment` (alert processing) is Word, PDF, jpg or png. At most 3 files per request.
 * The server checks the type by content (magic bytes and structure), and the file name's extension must match it.
 */
export const UPLOAD_KINDS = ['picture', 'document', 'attachment'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** The stored file types: the type detected from the content, named by its canonical extension. */
export const FILE_TYPES = {
  jpg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], image: true },
  png: { mime: 'image/png', extensions: ['png'], image: true },
  gif: { mime: 'image/gif', extensions: ['gif'], image: true },
  bmp: { mime: 'image/bmp', extensions: ['bmp'], image: true },
  pdf: { mime: 'application/pdf', extensions: ['pdf'], image: false },
  doc: { mime: 'application/msword', extensions: ['doc'], image: false },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
    image: false,
  },
} as const;
export type FileType = keyof typeof FILE_TYPES;

/** At most this many files in one upload request (spec §5, §9). */
export const MAX_FILES_PER_UPLOAD = 3;
/** Size limits: images 10 MB, documents (Word, PDF) 20 MB. */
export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

export const UPLOAD_RULES: Record<UploadKind, { types: readonly FileType[]; maxFiles: number }> = {
  picture: { types: ['jpg', 'png', 'gif', 'bmp'], maxFiles: 1 },
  document: { types: ['doc', 'docx', 'pdf'], maxFiles: MAX_FILES_PER_UPLOAD },
  attachment: { types: ['doc', 'docx', 'pdf', 'jpg', 'png'], maxFiles: MAX_FILES_PER_UPLOAD },
};

/** The `accept` attribute of a file input for an upload kind, e.g. ".jpg,.jpeg,.png,.gif,.bmp". */
export function uploadAccept(kind: UploadKind): string {
  return UPLOAD_RULES[kind].types.flatMap((t) => FILE_TYPES[t].extensions.map((e) => `.${e}`)).join(',');
}

/** The size limit of a file type. */
export function maxBytesOf(type: FileType): number {
  return FILE_TYPES[type].image ? MAX_PICTURE_BYTES : MAX_DOCUMENT_BYTES;
}

/**
 * Types served inline by getOriginalImage (images); every other type is always an attachment. PDF is an
 * attachment: a browser's PDF viewer follows link and form actions and does not run under a CSP sandbox.
 */
export const INLINE_TYPES: readonly FileType[] = ['jpg', 'png', 'gif', 'bmp'];

/**
 * A file id (32 lowercase hex characters for uploaded files and generated documents). Older or external
 * document ids of letters, digits, '_' and '-' (at most 64) are accepted too.
 */
export const fileIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/);

/** Keys of a file document: letters (any script), digits, '_', '.', '-'; not an Object.prototype name. */
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];
export const documentKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N}_.-]+$/u)
  .refine((k) => !RESERVED_KEYS.includes(k), { message: 'reserved key' });

/** Largest JSON text of one document value. */
export const MAX_DOCUMENT_VALUE_CHARS = 65536;
/** Most keys of one document. */
export const MAX_DOCUMENT_KEYS = 200;

const fitsJson = (v: unknown): boolean => JSON.stringify(v ?? null).length <= MAX_DOCUMENT_VALUE_CHARS;
const parseJsonText = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};

/** The multipart fields of an upload (besides the files themselves, in any part name). */
export const fileUploadFields = z.object({
  /** A string first, so that a missing kind reads "kind is required". */
  kind: z.string().trim().pipe(z.enum(UPLOAD_KINDS)),
  /** Attach the files to this site (it must be in the caller's data scope); then only its viewers can read them. */
  platformId: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? decimalInt(v) : v),
    z.number().int().positive().optional(),
  ),
});

export const fileIdQuery = z.object({ file_id: fileIdSchema });
/** getOriginalImage: the token may travel in the query (for <img src>), spec §7. */
export const fileImageQuery = z.object({ file_id: fileIdSchema, token: z.string().max(200).optional() });

/** updateField: one scalar field. Without file_id a new document is created and its id answered. */
export const fileUpdateFieldBody = z.object({
  file_id: fileIdSchema.optional(),
  key: documentKeySchema,
  value: z.union([z.string().max(10000), z.number(), z.boolean(), z.null()]),
});

/**
 * updateArray / updateArrayForDefaultDatabase: an array field, given as a JSON array (or JSON text of one).
 * It replaces the field, or with append=true adds the items to the end of the existing array.
 */
export const fileUpdateArrayBody = z.object({
  file_id: fileIdSchema.optional(),
  key: documentKeySchema,
  value: z.preprocess(parseJsonText, z.array(z.unknown()).max(1000).refine(fitsJson, { message: 'too large' })),
  append: zBool().optional().default(false),
});

/** A stored file as the API describes it. `url` is relative to the API base; append `&token=` for <img>. */
export const uploadedFileSchema = z.object({
  fileId: z.string(),
  /** The original file name, for display only (path separators and control characters removed). */
  name: z.string(),
  size: z.number().int(),
  mime: z.string(),
  ext: z.enum(Object.keys(FILE_TYPES) as [FileType, ...FileType[]]),
  kind: z.enum(UPLOAD_KINDS),
  platformId: z.number().int().nullable(),
  url: z.string(),
  createdAt: z.string(),
});
export type UploadedFile = z.output<typeof uploadedFileSchema>;

/** The upload answer: the first file's description, and every file in `files`. */
export const uploadAnswerSchema = uploadedFileSchema.extend({ files: z.array(uploadedFileSchema) });
export type UploadAnswer = z.output<typeof uploadAnswerSchema>;

/** getDocument answers an array whose first item holds the fields in `detail` (spec §7 "Role file documents"). */
export const fileDocumentSchema = z.object({
  file_id: z.string(),
  detail: z.record(z.string(), z.unknown()),
  /** The uploaded file of this id, when it is one (documents may also stand alone). */
  file: uploadedFileSchema.nullable(),
  updatedAt: z.string().nullable(),
});
export type FileDocument = z.output<typeof fileDocumentSchema>;

/** The URL of a stored file: images through getOriginalImage (inline), others through download. */
export function fileUrl(id: string, ext: FileType): string {
  return INLINE_TYPES.includes(ext)
    ? `/api/v2/file/getOriginalImage?file_id=${encodeURIComponent(id)}`
    : `/api/v2/file/download?file_id=${encodeURIComponent(id)}`;
}

const tags = ['files'];
const F = '/api/v2/file';
/** Writing file documents is site information work. */
const WRITE = perm('information:platformInfo');
export const filesRoutes = routeTable({
  upload: {
    method: 'POST',
    path: `${F}/upload`,
    permission: LOGIN,
    summary:
      'Upload up to 3 files (multipart/form-data: field kind = picture | document | attachment, optional platformId, then the files). Answers {fileId, name, size, mime, url, files}',
    tags,
    response: uploadAnswerSchema,
  },
  getOriginalImage: {
    method: 'GET',
    path: `${F}/getOriginalImage`,
    permission: LOGIN,
    summary: 'The bytes of a file: images inline, anything else as an attachment (token may be in the query)',
    tags,
    query: fileImageQuery,
    tokenInQuery: true,
  },
  download: {
    method: 'GET',
    path: `${F}/download`,
    permission: LOGIN,
    summary: 'The bytes of a file, always as an attachment (token may be in the query)',
    tags,
    query: fileImageQuery,
    tokenInQuery: true,
  },
  getDocument: {
    method: 'GET',
    path: `${F}/getDocument`,
    permission: LOGIN,
    summary: 'The document (key/value fields) of a file id: [{file_id, detail: {...fields}, file}]',
    tags,
    query: fileIdQuery,
    response: z.array(fileDocumentSchema),
  },
  updateField: {
    method: 'POST',
    path: `${F}/updateField`,
    permission: WRITE,
    summary: 'Set one field of a file document (without file_id: create a new document); answers {file_id}',
    tags,
    body: fileUpdateFieldBody,
    response: z.object({ file_id: z.string() }),
  },
  updateArray: {
    method: 'POST',
    path: `${F}/updateArray`,
    permission: WRITE,
    summary: 'Replace (or with append=true extend) an array field of a file document; answers {file_id}',
    tags,
    body: fileUpdateArrayBody,
    response: z.object({ file_id: z.string() }),
  },
  updateArrayForDefaultDatabase: {
    method: 'POST',
    path: `${F}/updateArrayForDefaultDatabase`,
    permission: WRITE,
    summary:
      'As updateArray, in the default database (the only one until per-user tenant databases exist, so the same)',
    tags,
    body: fileUpdateArrayBody,
    response: z.object({ file_id: z.string() }),
  },
});
