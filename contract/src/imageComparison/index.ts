// The imageComparison feature's contract (issue 17, spec §2: "image comparison" as a report title): two pictures
// of the same place at two dates side by side, with their dates and notes, from the site's stored pictures (the
// files module) and its cameras' snapshots (id `snap-<n>`, see snapshotPictureId; only cameras the caller sees: data
// scope and role camera configuration). Not shown by the spec: designed under /api/v2/data/report.
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { zTimeZone } from '../moduleData/index.ts';
import { fileIdSchema } from '../files/index.ts';
import { reportDocumentSchema } from '../reportDocument/index.ts';

export const IMAGE_COMPARISON_FORMATS = ['json', 'xlsx', 'pdf', 'docx'] as const;

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
/** An optional date or time (ISO, or yyyy-MM-dd[ HH:mm[:ss]] in the caller's zone): when the picture was taken. */
const optTaken = z.preprocess(
  (v) => (blank(v) ? undefined : v),
  z
    .string()
    .trim()
    .max(40)
    .refine((s) => /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s), {
      message: 'not a date',
    })
    .optional(),
);

export const imageComparisonQuery = z.object({
  platformId: zInt(),
  /** The earlier picture (a stored picture of the site, or `snap-<n>`: a snapshot of one of its cameras). */
  beforeFileId: fileIdSchema,
  afterFileId: fileIdSchema,
  /** When each picture was taken; default: when it was stored. */
  beforeTakenAt: optTaken,
  afterTakenAt: optTaken,
  beforeNote: zOptText(500),
  afterNote: zOptText(500),
  /** What the pictures show ("Crack at the left abutment"). */
  subject: zOptText(200),
  timeZone: zTimeZone(),
  format: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(IMAGE_COMPARISON_FORMATS).default('json')),
  fileName: zOptText(120),
});
export type ImageComparisonQuery = z.input<typeof imageComparisonQuery>;

export const imageComparisonSchema = z.object({
  platformId: z.number().int(),
  document: reportDocumentSchema,
});
export type ImageComparison = z.output<typeof imageComparisonSchema>;

export const SITE_PICTURE_SOURCES = ['file', 'camera'] as const;
export type SitePictureSource = (typeof SITE_PICTURE_SOURCES)[number];

/**
 * The pictures of a site, newest first (by when they were taken): the jpg and png files stored for it and the
 * snapshots of its cameras the caller sees. What a comparison picks from. The keyword matches a file's name or a
 * camera's name.
 */
export const sitePicturesQuery = pageQuery(24).extend({ platformId: zInt(), keyword: zOptText(100) });
export const sitePictureSchema = z.object({
  /** A stored file's id, or `snap-<n>` for a camera snapshot. */
  fileId: z.string(),
  source: z.enum(SITE_PICTURE_SOURCES),
  /** The file's name, or the camera's name. */
  name: z.string(),
  /** The camera of a snapshot. */
  cameraName: z.string().nullable(),
  size: z.number().int(),
  /** When the snapshot was taken, or when the file was stored. */
  takenAt: z.string(),
  createdAt: z.string(),
});
export type SitePicture = z.output<typeof sitePictureSchema>;

const tags = ['imageComparison'];
export const imageComparisonRoutes = routeTable({
  getSitePictures: {
    method: 'GET',
    path: '/api/v2/data/report/image/getSitePictures',
    permission: perm('monitor:report'),
    summary: 'The pictures stored for a site (paged, newest first), to compare',
    tags,
    query: sitePicturesQuery,
    response: zPage(sitePictureSchema),
  },
  /** format=json: the report; xlsx|pdf|docx: the file (token in the query, or POST the parameters). */
  getImageComparison: {
    method: 'GET',
    path: '/api/v2/data/report/image/getImageComparison',
    permission: perm('monitor:report'),
    summary: 'Two pictures of a site at two dates side by side, with dates and notes (json, xlsx, pdf or docx)',
    tags,
    query: imageComparisonQuery,
    tokenInQuery: true,
    response: imageComparisonSchema,
  },
});
