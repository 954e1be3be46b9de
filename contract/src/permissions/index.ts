import { z } from 'zod';
import { zInt, zOptText, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';

export * from './catalogue.ts';

/** Kinds of permission: a menu entry, a common function, a button. */
export const PERMISSION_TYPES = ['menu', 'common', 'button'] as const;
export type PermissionType = (typeof PERMISSION_TYPES)[number];

const permissionFields = {
  name: zText(100),
  code: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_:.-]+$/),
  type: z.enum(PERMISSION_TYPES).optional().default('menu'),
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
export const permissionNodeSchema: z.ZodType<PermissionNode> = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  code: z.string(),
  level: z.union([z.literal(1), z.literal(2)]),
  type: z.string(),
  path: z.string().nullable(),
  sort: z.number(),
  get children() {
    return z.array(permissionNodeSchema).optional();
  },
});

const tags = ['permissions'];
export const permissionsRoutes = routeTable({
  tree: {
    method: 'GET',
    path: '/api/v2/manage/permission/getTree',
    // The role permission drawer and the menu management screen.
    permission: perm('system:role', 'system:permission'),
    summary: 'The two-level permission tree',
    tags,
    response: z.array(permissionNodeSchema),
  },
  add: {
    method: 'POST',
    path: '/api/v2/manage/permission/add',
    permission: perm('system:permission'),
    summary: 'Add a permission (level 1, or level 2 under a parent)',
    tags,
    body: permissionAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: '/api/v2/manage/permission/edit',
    permission: perm('system:permission'),
    summary: 'Edit a permission',
    tags,
    body: permissionEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: '/api/v2/manage/permission/delete',
    permission: perm('system:permission'),
    summary: 'Delete a permission and its children',
    tags,
    body: permissionIdBody,
    response: z.null(),
  },
});
