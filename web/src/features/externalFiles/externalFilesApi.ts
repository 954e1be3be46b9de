import { EXTERNAL_FILE_SORT_FIELDS, externalFilesRoutes, type ExternalFileRow, type Page } from '@geosentry/contract';
import { callUntyped } from '../../shared/api.ts';
import { blankToUndefined, change } from '../../shared/query.ts';
import type { PagedParams } from '../../shared/table/serverTable.ts';

export { EXTERNAL_FILE_SORT_FIELDS };

export interface ExternalFileListParams extends PagedParams {
  keyword?: string | undefined;
}

export interface ExternalFileFormValues {
  name: string;
  url: string;
  description?: string;
}

export const externalFileKeys = {
  all: ['external-files'] as const,
  list: (p: ExternalFileListParams) => ['external-files', 'list', p] as const,
};

export const fetchExternalFiles = (p: ExternalFileListParams) =>
  callUntyped<Page<ExternalFileRow>>(externalFilesRoutes.list, { ...p });

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
  callUntyped<{ id: number }>(externalFilesRoutes.add, fields(v, undefined), change);
export const editExternalFile = (row: ExternalFileRow, v: ExternalFileFormValues) =>
  callUntyped<null>(externalFilesRoutes.edit, { id: row.id, ...fields(v, row.roleId) }, change);
export const deleteExternalFile = (id: number) => callUntyped<null>(externalFilesRoutes.delete, { id }, change);
