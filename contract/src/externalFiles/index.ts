// The externalFiles feature's contract: external file links (spec §3: name, URL).
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { isHttpUrl, optInt } from '../devices/fields.ts';

/** roleId: the role the link is listed under (getListByRoleId); defaults to the caller's role. */
export const externalFileFields = {
  name: zText(200),
  /** An http or https address (spec §5: the URL must be valid). */
  url: z.string().trim().min(1).max(2000).refine(isHttpUrl, { message: 'not an http(s) address' }),
  description: zOptText(1000),
  roleId: optInt(),
};
export const externalFileAddBody = z.object(externalFileFields);
export const externalFileEditBody = z.object({ id: zInt(), ...externalFileFields });
export const externalFileIdBody = z.object({ id: zInt() });
export const EXTERNAL_FILE_SORT_FIELDS = ['name', 'url', 'createdAt'] as const;
export const externalFileListQuery = pageQuery().extend({ keyword: zOptText(100), roleId: optInt() });
export const externalFileRoleQuery = z.object({ roleId: optInt() });

export const externalFileRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  roleId: z.number().int().nullable(),
  roleName: z.string().nullable(),
  createdAt: z.string(),
});
export type ExternalFileRow = z.output<typeof externalFileRowSchema>;

const tags = ['externalFiles'];
const E = '/api/v2/data/information/externalFile';
const P = perm('information:external-file');
export const externalFilesRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${E}/getListPage`,
    permission: P,
    summary: 'External file links, paged, filtered and sorted',
    tags,
    query: externalFileListQuery,
    response: zPage(externalFileRowSchema),
  },
  listByRole: {
    method: 'GET',
    path: `${E}/getListByRoleId`,
    permission: P,
    summary: "External file links listed under a role (default: the caller's role)",
    tags,
    query: externalFileRoleQuery,
    response: z.array(externalFileRowSchema),
  },
  add: {
    method: 'POST',
    path: `${E}/add`,
    permission: P,
    summary: 'Add an external file link',
    tags,
    body: externalFileAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${E}/edit`,
    permission: P,
    summary: 'Edit an external file link',
    tags,
    body: externalFileEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${E}/delete`,
    permission: P,
    summary: 'Delete an external file link',
    tags,
    body: externalFileIdBody,
    response: z.null(),
  },
});
