import type { z } from 'zod';
import { permissionAddBody, permissionsRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';

/** The permission form's values: the contract's body, a cleared parent or sort giving null. */
export type PermissionFormValues = Omit<z.output<typeof permissionAddBody>, 'parentId' | 'sort'> & {
  parentId?: number | null;
  sort?: number | null;
};

export const permissionKeys = {
  tree: ['permissions', 'tree'] as const,
};

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;

export const fetchPermissionTree = () => call(permissionsRoutes.tree);

function fields(v: PermissionFormValues) {
  return {
    name: v.name.trim(),
    code: v.code.trim(),
    type: v.type,
    path: v.path?.trim() || undefined,
    parentId: v.parentId ?? undefined,
    sort: v.sort ?? 0,
  };
}

export const addPermission = (v: PermissionFormValues) => call(permissionsRoutes.add, fields(v), change);
export const editPermission = (id: number, v: PermissionFormValues) =>
  call(permissionsRoutes.edit, { id, ...fields(v) }, change);
export const deletePermission = (id: number) => call(permissionsRoutes.delete, { id }, change);
