import { z } from 'zod';
import { pageQuery, zInt, zIntList, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';

/** Sort fields of the roles list. */
export const ROLE_SORT_FIELDS = ['name', 'code', 'createdAt', 'userCount'] as const;
export type RoleSortField = (typeof ROLE_SORT_FIELDS)[number];

export const roleListQuery = pageQuery().extend({ keyword: zOptText(100) });
const roleFields = {
  name: zText(100),
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_:.-]+$/),
  description: zOptText(500),
  parentId: zInt().optional(),
  roleFileId: zOptText(100),
};
export const roleAddBody = z.object(roleFields);
export const roleEditBody = z.object({ id: zInt(), ...roleFields });
export const roleIdBody = z.object({ id: zInt() });
export const roleIdQuery = z.object({ roleId: zInt() });
export const roleSetPermissionsBody = z.object({ roleId: zInt(), permissionIds: zIntList() });

export const roleRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  description: z.string().nullable(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  builtin: z.boolean(),
  roleFileId: z.string().nullable(),
  userCount: z.number().int(),
  createdAt: z.string(),
});
export type RoleRow = z.output<typeof roleRowSchema>;

const tags = ['roles'];
export const rolesRoutes = routeTable({
  list: {
    method: 'GET',
    path: '/api/v2/manage/role/getListPage',
    permission: perm('system:role'),
    summary: 'Roles, paged',
    tags,
    query: roleListQuery,
    response: zPage(roleRowSchema),
  },
  all: {
    method: 'GET',
    path: '/api/v2/manage/role/getAll',
    // The user form's role picker and the role dialog's parent picker.
    permission: perm('system:user', 'system:role'),
    summary: 'Every role, for pickers',
    tags,
    response: z.array(roleRowSchema),
  },
  add: {
    method: 'POST',
    path: '/api/v2/manage/role/add',
    permission: perm('system:role'),
    summary: 'Create a role',
    tags,
    body: roleAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: '/api/v2/manage/role/edit',
    permission: perm('system:role'),
    summary: 'Edit a role',
    tags,
    body: roleEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: '/api/v2/manage/role/delete',
    permission: perm('system:role'),
    summary: 'Delete a role that no user holds',
    tags,
    body: roleIdBody,
    response: z.null(),
  },
  getPermissions: {
    method: 'GET',
    path: '/api/v2/manage/role/getPermissions',
    permission: perm('system:role'),
    summary: 'Permission ids of a role',
    tags,
    query: roleIdQuery,
    response: z.array(z.number().int()),
  },
  setPermissions: {
    method: 'POST',
    path: '/api/v2/manage/role/setPermissions',
    permission: perm('system:role'),
    summary: 'Replace the permissions of a role',
    tags,
    body: roleSetPermissionsBody,
    response: z.null(),
  },
});
