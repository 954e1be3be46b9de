// The imageComparison feature's contract (issue 17, spec §2: "image comparison" as a report title): two pictures
// of the same place at two dates side by side, with their dates and notes, from the site's stored pictures (the
// files module; camera snapshots are stored there too). Not shown by the spec: designed under /api/v2/data/report.
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
  /** The earlier picture (a stored picture of the site). */
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

/** The pictures (jpg, png) stored for a site, newest first: what a comparison picks from. */
export const sitePicturesQuery = pageQuery(24).extend({ platformId: zInt(), keyword: zOptText(100) });
export const sitePictureSchema = z.object({
  fileId: z.string(),
  name: z.string(),
  size: z.number().int(),
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
