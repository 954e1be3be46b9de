import type { z } from 'zod';
import {
  USER_SORT_FIELDS,
  platformsRoutes,
  rolesRoutes,
  userAddBody,
  userListQuery,
  usersRoutes,
  type UserSortField,
} from '@geosentry/contract';
import { call, isCancel } from '../../shared/api.ts';

export { USER_SORT_FIELDS, type UserSortField };

/** The list's query as the page holds it (the contract's, with paging given). */
export type UserListParams = z.output<typeof userListQuery>;

/** The user form's values: the contract's add body, account and password only when adding. */
export type UserFormValues = Omit<z.output<typeof userAddBody>, 'account' | 'password' | 'platformIds'> & {
  account?: string;
  password?: string;
  platformIds?: number[];
};

export const userKeys = {
  all: ['users'] as const,
  list: (p: UserListParams) => ['users', 'list', p] as const,
  roles: ['roles', 'all'] as const,
  sites: ['platforms', 'options'] as const,
};

/** Do not retry a request that a newer one to the same address cancelled (spec §7). */
export const retryUnlessCancelled = (count: number, error: unknown): boolean => !isCancel(error) && count < 1;

export const fetchUsers = (p: UserListParams) => call(usersRoutes.list, { ...p });
export const fetchAllRoles = () => call(rolesRoutes.all);
export const fetchSiteOptions = () => call(platformsRoutes.options);

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
  call(usersRoutes.add, { account: (v.account ?? '').trim(), password: v.password ?? '', ...fields(v) }, change);
export const editUser = (id: number, v: UserFormValues) => call(usersRoutes.edit, { id, ...fields(v) }, change);
export const deleteUser = (id: number) => call(usersRoutes.delete, { id }, change);
export const enableUser = (id: number, enabled: boolean) => call(usersRoutes.enable, { id, enabled }, change);
export const resetUserPassword = (id: number, password: string) =>
  call(usersRoutes.resetPassword, { id, password }, change);
/** Clears the account's failed sign-ins and lockout. */
export const unlockUser = (id: number) => call(usersRoutes.unlock, { id }, change);
