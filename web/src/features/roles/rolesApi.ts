import { rolesRoutes, type Page, type RoleRow } from '@geosentry/contract';
import { callUntyped } from '../../shared/api.ts';

export const ROLE_SORT_FIELDS = ['name', 'code', 'createdAt', 'userCount'] as const;
export type RoleSortField = (typeof ROLE_SORT_FIELDS)[number];

export interface RoleListParams {
  pageNum: number;
  pageSize: number;
  sortField?: RoleSortField | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
  keyword?: string | undefined;
}

export interface RoleFormValues {
  name: string;
  code: string;
  description?: string;
  parentId?: number | null;
  roleFileId?: string;
}

export const roleKeys = {
  all: ['roles'] as const,
  list: (p: RoleListParams) => ['roles', 'list', p] as const,
  everyRole: ['roles', 'all'] as const,
  permissions: (roleId: number) => ['roles', 'permissions', roleId] as const,
};

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;

export const fetchRoles = (p: RoleListParams) => callUntyped<Page<RoleRow>>(rolesRoutes.list, { ...p });
export const fetchEveryRole = () => callUntyped<RoleRow[]>(rolesRoutes.all);
export const fetchRolePermissions = (roleId: number) => callUntyped<number[]>(rolesRoutes.getPermissions, { roleId });

function fields(v: RoleFormValues) {
  return {
    name: v.name.trim(),
    code: v.code.trim(),
    description: v.description?.trim() || undefined,
    parentId: v.parentId ?? undefined,
    roleFileId: v.roleFileId?.trim() || undefined,
  };
}

export const addRole = (v: RoleFormValues) => callUntyped<{ id: number }>(rolesRoutes.add, fields(v), change);
export const editRole = (id: number, v: RoleFormValues) => callUntyped<null>(rolesRoutes.edit, { id, ...fields(v) }, change);
export const deleteRole = (id: number) => callUntyped<null>(rolesRoutes.delete, { id }, change);
export const setRolePermissions = (roleId: number, permissionIds: number[]) =>
  callUntyped<null>(rolesRoutes.setPermissions, { roleId, permissionIds }, change);
