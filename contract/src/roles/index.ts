import { z } from 'zod';
import { pageQuery, zInt, zIntList, zOptText, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';

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

export interface RoleRow {
  id: number;
  name: string;
  code: string;
  description: string | null;
  parentId: number | null;
  parentName: string | null;
  builtin: boolean;
  roleFileId: string | null;
  userCount: number;
  createdAt: string;
}

const tags = ['roles'];
export const rolesRoutes = routeTable({
  list: {
    method: 'GET',
    path: '/api/v2/manage/role/getListPage',
    permission: perm('system:role'),
    summary: 'Roles, paged',
    tags,
    query: roleListQuery,
  },
  all: {
    method: 'GET',
    path: '/api/v2/manage/role/getAll',
    // The user form's role picker and the role dialog's parent picker.
    permission: perm('system:user', 'system:role'),
    summary: 'Every role, for pickers',
    tags,
  },
  add: {
    method: 'POST',
    path: '/api/v2/manage/role/add',
    permission: perm('system:role'),
    summary: 'Create a role',
    tags,
    body: roleAddBody,
  },
  edit: {
    method: 'POST',
    path: '/api/v2/manage/role/edit',
    permission: perm('system:role'),
    summary: 'Edit a role',
    tags,
    body: roleEditBody,
  },
  delete: {
    method: 'POST',
    path: '/api/v2/manage/role/delete',
    permission: perm('system:role'),
    summary: 'Delete a role that no user holds',
    tags,
    body: roleIdBody,
  },
  getPermissions: {
    method: 'GET',
    path: '/api/v2/manage/role/getPermissions',
    permission: perm('system:role'),
    summary: 'Permission ids of a role',
    tags,
    query: roleIdQuery,
  },
  setPermissions: {
    method: 'POST',
    path: '/api/v2/manage/role/setPermissions',
    permission: perm('system:role'),
    summary: 'Replace the permissions of a role',
    tags,
    body: roleSetPermissionsBody,
  },
});
