import type { z } from 'zod';
import { ROLE_SORT_FIELDS, roleAddBody, roleListQuery, rolesRoutes, type RoleSortField } from '@geosentry/contract';
import { call } from '../../shared/api.ts';

export { ROLE_SORT_FIELDS, type RoleSortField };

/** The list's query as the page holds it (the contract's, with paging given). */
export type RoleListParams = z.output<typeof roleListQuery>;

/** The role form's values: the contract's body, a cleared parent picker giving null. */
export type RoleFormValues = Omit<z.output<typeof roleAddBody>, 'parentId'> & { parentId?: number | null };

export const roleKeys = {
  all: ['roles'] as const,
  list: (p: RoleListParams) => ['roles', 'list', p] as const,
  everyRole: ['roles', 'all'] as const,
  permissions: (roleId: number) => ['roles', 'permissions', roleId] as const,
};

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;

export const fetchRoles = (p: RoleListParams) => call(rolesRoutes.list, { ...p });
export const fetchEveryRole = () => call(rolesRoutes.all);
export const fetchRolePermissions = (roleId: number) => call(rolesRoutes.getPermissions, { roleId });

function fields(v: RoleFormValues) {
  return {
    name: v.name.trim(),
    code: v.code.trim(),
    description: v.description?.trim() || undefined,
    parentId: v.parentId ?? undefined,
    roleFileId: v.roleFileId?.trim() || undefined,
  };
}

export const addRole = (v: RoleFormValues) => call(rolesRoutes.add, fields(v), change);
export const editRole = (id: number, v: RoleFormValues) => call(rolesRoutes.edit, { id, ...fields(v) }, change);
export const deleteRole = (id: number) => call(rolesRoutes.delete, { id }, change);
export const setRolePermissions = (roleId: number, permissionIds: number[]) =>
  call(rolesRoutes.setPermissions, { roleId, permissionIds }, change);
