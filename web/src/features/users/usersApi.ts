import { platformsRoutes, rolesRoutes, usersRoutes, type Page, type RoleRow, type UserRow } from '@geosentry/contract';
import { callUntyped, isCancel } from '../../shared/api.ts';

export type SortOrder = 'ascend' | 'descend';
export const USER_SORT_FIELDS = ['account', 'name', 'createdAt', 'lastLoginAt', 'roleName', 'enabled'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

export interface UserListParams {
  pageNum: number;
  pageSize: number;
  sortField?: UserSortField | undefined;
  sortOrder?: SortOrder | undefined;
  keyword?: string | undefined;
  roleId?: number | undefined;
  enabled?: boolean | undefined;
}

export interface SiteOption {
  platformId: number;
  type: string;
  name: string;
}

export interface UserFormValues {
  account?: string;
  password?: string;
  name: string;
  roleId: number;
  phone?: string;
  email?: string;
  area?: string;
  scopeAll: boolean;
  platformIds?: number[];
}

export const userKeys = {
  all: ['users'] as const,
  list: (p: UserListParams) => ['users', 'list', p] as const,
  roles: ['roles', 'all'] as const,
  sites: ['platforms', 'options'] as const,
};

/** Do not retry a request that a newer one to the same address cancelled (spec §7). */
export const retryUnlessCancelled = (count: number, error: unknown): boolean => !isCancel(error) && count < 1;

export const fetchUsers = (p: UserListParams) => callUntyped<Page<UserRow>>(usersRoutes.list, { ...p });
export const fetchAllRoles = () => callUntyped<RoleRow[]>(rolesRoutes.all);
export const fetchSiteOptions = () => callUntyped<SiteOption[]>(platformsRoutes.options);

const blankToUndefined = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

function fields(v: UserFormValues) {
  return {
    name: v.name.trim(),
    roleId: v.roleId,
    phone: blankToUndefined(v.phone),
    email: blankToUndefined(v.email),
    area: blankToUndefined(v.area),
    scopeAll: v.scopeAll,
    platformIds: v.scopeAll ? [] : (v.platformIds ?? []),
  };
}

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;

export const addUser = (v: UserFormValues) =>
  callUntyped<{ id: number }>(
    usersRoutes.add,
    { account: (v.account ?? '').trim(), password: v.password ?? '', ...fields(v) },
    change,
  );
export const editUser = (id: number, v: UserFormValues) => callUntyped<null>(usersRoutes.edit, { id, ...fields(v) }, change);
export const deleteUser = (id: number) => callUntyped<null>(usersRoutes.delete, { id }, change);
export const enableUser = (id: number, enabled: boolean) => callUntyped<null>(usersRoutes.enable, { id, enabled }, change);
export const resetUserPassword = (id: number, password: string) =>
  callUntyped<null>(usersRoutes.resetPassword, { id, password }, change);
/** Clears the account's failed sign-ins and lockout. */
export const unlockUser = (id: number) => callUntyped<null>(usersRoutes.unlock, { id }, change);
