import type { z } from 'zod';
import {
  EXTERNAL_FILE_SORT_FIELDS,
  externalFileAddBody,
  externalFileListQuery,
  externalFilesRoutes,
  type ExternalFileRow,
} from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { blankToUndefined, change } from '../../shared/query.ts';

export { EXTERNAL_FILE_SORT_FIELDS };

/** The list's query as the page holds it (the contract's, with paging given). */
export type ExternalFileListParams = z.output<typeof externalFileListQuery>;

/** The link form's values (the role stays the one the link is listed under). */
export type ExternalFileFormValues = Omit<z.output<typeof externalFileAddBody>, 'roleId'>;

export const externalFileKeys = {
  all: ['external-files'] as const,
  list: (p: ExternalFileListParams) => ['external-files', 'list', p] as const,
};

export const fetchExternalFiles = (p: ExternalFileListParams) => call(externalFilesRoutes.list, { ...p });

function fields(v: ExternalFileFormValues, roleId: number | null | undefined) {
  return {
    name: v.name.trim(),
    url: v.url.trim(),
    description: blankToUndefined(v.description),
    // An edited link stays listed under its role.
    roleId: roleId ?? undefined,
  };
}

export const addExternalFile = (v: ExternalFileFormValues) =>
  call(externalFilesRoutes.add, fields(v, undefined), change);
export const editExternalFile = (row: ExternalFileRow, v: ExternalFileFormValues) =>
  call(externalFilesRoutes.edit, { id: row.id, ...fields(v, row.roleId) }, change);
export const deleteExternalFile = (id: number) => call(externalFilesRoutes.delete, { id }, change);
