import { perm, routeTable } from '../api/routes.ts';
import { jobSchema } from '../jobs/schemas.ts';
import { importFileSchema, importMappingSchema, importPreviewQuery, importRunBody } from './schemas.ts';

export * from './catalogue.ts';
export * from './schemas.ts';

const tags = ['dataImport'];
const B = '/api/v2/data/dataImport';
/**
 * The spec's /data group carries no role key: imports are a monitoring engineer's task, granted by their own
 * code under monitor (as monitor:report).
 */
export const DATA_IMPORT_PERMISSION = 'monitor:dataImport';
const P = perm(DATA_IMPORT_PERMISSION);

export const dataImportRoutes = routeTable({
  upload: {
    method: 'POST',
    path: `${B}/upload`,
    permission: P,
    summary:
      'Upload a csv or xlsx file (multipart, field `file`): its id, sheets, header row and first 20 rows (the type is checked by content)',
    tags,
    response: importFileSchema,
  },
  preview: {
    method: 'GET',
    path: `${B}/preview`,
    permission: P,
    summary: 'An uploaded file again, or another of its sheets: header row and first 20 rows',
    tags,
    query: importPreviewQuery,
    response: importFileSchema,
  },
  dryRun: {
    method: 'POST',
    path: `${B}/dryRun`,
    permission: P,
    summary:
      'Dry run of a file with a column mapping, as a job: rows to add, duplicates, errors with their lines (nothing is written)',
    tags,
    body: importMappingSchema,
    response: jobSchema,
  },
  import: {
    method: 'POST',
    path: `${B}/import`,
    permission: P,
    summary: "Import of a dry run's file and mapping, as a job with progress; refused when the dry run found errors",
    tags,
    body: importRunBody,
    response: jobSchema,
  },
});
