import { z } from 'zod';
import { pageQuery, zBool, zInt, zIntList, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';

/** Sort fields of the users list. */
export const USER_SORT_FIELDS = ['account', 'name', 'createdAt', 'lastLoginAt', 'roleName', 'enabled'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export const userListQuery = pageQuery().extend({
  keyword: zOptText(100),
  roleId: zInt().optional(),
  enabled: zBool().optional(),
});

const phone = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9\- ]{5,19}$/)
    .optional(),
);
const email = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.string().trim().email().max(200).optional(),
);

export const userFields = {
  name: zText(100),
  roleId: zInt(),
  phone,
  email,
  area: zOptText(200),
  /** Data scope: every site, or the listed sites. */
  scopeAll: zBool().optional().default(false),
  platformIds: zIntList().optional().default([]),
};

export const userAddBody = z.object({
  account: z
    .string()
    .trim()
    .min(2)
    .max(64)
    .regex(/^[A-Za-z0-9_.@-]+$/),
  password: z.string().min(1).max(256),
  ...userFields,
});
/**
 * Editing a user: the role and the data scope are optional here and, when absent, stay as they are.
 * Changing them through edit passes the same checks as `bindRole` and `setDataScope` (issue 15).
 */
export const userEditBody = z.object({
  id: zInt(),
  ...userFields,
  roleId: zInt().optional(),
  scopeAll: zBool().optional(),
  platformIds: zIntList().optional(),
});
export const userIdBody = z.object({ id: zInt() });
export const userEnableBody = z.object({ id: zInt(), enabled: zBool() });
export const userResetPasswordBody = z.object({ id: zInt(), password: z.string().min(1).max(256) });
export const userBindRoleBody = z.object({ userId: zInt(), roleId: zInt() });
export const userScopeBody = z.object({
  userId: zInt(),
  scopeAll: zBool(),
  platformIds: zIntList().optional().default([]),
});

export const userRowSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  area: z.string().nullable(),
  roleId: z.number().int(),
  roleName: z.string(),
  roleCode: z.string(),
  enabled: z.boolean(),
  scopeAll: z.boolean(),
  platformIds: z.array(z.number().int()),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  /** Locked out by failed sign-ins right now (an administrator may unlock it). */
  locked: z.boolean(),
});
export type UserRow = z.output<typeof userRowSchema>;

const tags = ['users'];
export const usersRoutes = routeTable({
  list: {
    method: 'GET',
    path: '/api/v2/manage/user/getListPage',
    permission: perm('system:user'),
    summary: 'Users, paged, sorted and filtered',
    tags,
    query: userListQuery,
    response: zPage(userRowSchema),
  },
  add: {
    method: 'POST',
    path: '/api/v2/manage/user/add',
    permission: perm('system:user'),
    summary: 'Create a user',
    tags,
    body: userAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: '/api/v2/manage/user/edit',
    permission: perm('system:user'),
    summary: 'Edit a user',
    tags,
    body: userEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: '/api/v2/manage/user/delete',
    permission: perm('system:user'),
    summary: 'Delete a user (not oneself)',
    tags,
    body: userIdBody,
    response: z.null(),
  },
  enable: {
    method: 'POST',
    path: '/api/v2/manage/user/enable',
    permission: perm('system:user'),
    summary: 'Enable or disable a user; disabling ends their sessions',
    tags,
    body: userEnableBody,
    response: z.null(),
  },
  resetPassword: {
    method: 'POST',
    path: '/api/v2/manage/user/resetPassword',
    permission: perm('system:user'),
    summary: "Set another user's password; their sessions end",
    tags,
    body: userResetPasswordBody,
    response: z.null(),
  },
  bindRole: {
    method: 'POST',
    path: '/api/v2/manage/user/bindRole',
    permission: perm('system:user'),
    summary: 'Bind a user to a role (not oneself)',
    tags,
    body: userBindRoleBody,
    response: z.null(),
  },
  unlock: {
    method: 'POST',
    path: '/api/v2/manage/user/unlock',
    permission: perm('system:user'),
    summary: "Clear an account's failed sign-ins and lockout",
    tags,
    body: userIdBody,
    response: z.null(),
  },
  setScope: {
    method: 'POST',
    path: '/api/v2/manage/user/setDataScope',
    permission: perm('system:data'),
    summary: 'Set the sites a user may see',
    tags,
    body: userScopeBody,
    response: z.null(),
  },
});
