import { z } from 'zod';
import { zInt, zOptText, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';

export * from './catalogue.ts';

const permissionFields = {
  name: zText(100),
  code: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_:.-]+$/),
  type: z.enum(['menu', 'common', 'button']).optional().default('menu'),
  path: zOptText(200),
  parentId: zInt().optional(),
  sort: zInt().optional().default(0),
};
export const permissionAddBody = z.object(permissionFields);
export const permissionEditBody = z.object({ id: zInt(), ...permissionFields });
export const permissionIdBody = z.object({ id: zInt() });

export interface PermissionNode {
  id: number;
  parentId: number | null;
  name: string;
  code: string;
  level: 1 | 2;
  type: string;
  path: string | null;
  sort: number;
  children?: PermissionNode[];
}

const tags = ['permissions'];
export const permissionsRoutes = routeTable({
  tree: {
    method: 'GET',
    path: '/api/v2/manage/permission/getTree',
    // The role permission drawer and the menu management screen.
    permission: perm('system:role', 'system:permission'),
    summary: 'The two-level permission tree',
    tags,
  },
  add: {
    method: 'POST',
    path: '/api/v2/manage/permission/add',
    permission: perm('system:permission'),
    summary: 'Add a permission (level 1, or level 2 under a parent)',
    tags,
    body: permissionAddBody,
  },
  edit: {
    method: 'POST',
    path: '/api/v2/manage/permission/edit',
    permission: perm('system:permission'),
    summary: 'Edit a permission',
    tags,
    body: permissionEditBody,
  },
  delete: {
    method: 'POST',
    path: '/api/v2/manage/permission/delete',
    permission: perm('system:permission'),
    summary: 'Delete a permission and its children',
    tags,
    body: permissionIdBody,
  },
});
