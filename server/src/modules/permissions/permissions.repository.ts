import type { PermissionNode } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';

export async function permissionTree(db: Db): Promise<PermissionNode[]> {
  const rows = await db.k
    .selectFrom('permissions')
    .select(['id', 'parent_id', 'name', 'code', 'level', 'type', 'path', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
  const nodes = new Map<number, PermissionNode>();
  for (const r of rows)
    nodes.set(r.id, {
      id: r.id,
      parentId: r.parent_id,
      name: r.name,
      code: r.code,
      level: r.level === 2 ? 2 : 1,
      type: r.type,
      path: r.path,
      sort: r.sort,
    });
  const roots: PermissionNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId !== null ? nodes.get(n.parentId) : undefined;
    if (parent) (parent.children ??= []).push(n);
    else roots.push(n);
  }
  return roots;
}

export async function getPermission(
  db: Db,
  id: number,
): Promise<{ id: number; level: number; code: string } | undefined> {
  return db.k.selectFrom('permissions').select(['id', 'level', 'code']).where('id', '=', id).executeTakeFirst();
}

export interface PermissionWrite {
  name: string;
  code: string;
  type: string;
  path?: string | undefined;
  parentId?: number | undefined;
  sort: number;
}

export async function insertPermission(db: Db, p: PermissionWrite, level: 1 | 2): Promise<number> {
  const r = await db.k
    .insertInto('permissions')
    .values({
      name: p.name,
      code: p.code,
      type: p.type,
      path: p.path ?? null,
      parent_id: p.parentId ?? null,
      sort: p.sort,
      level,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updatePermission(db: Db, id: number, p: PermissionWrite, level: 1 | 2): Promise<void> {
  await db.k
    .updateTable('permissions')
    .set({
      name: p.name,
      code: p.code,
      type: p.type,
      path: p.path ?? null,
      parent_id: p.parentId ?? null,
      sort: p.sort,
      level,
    })
    .where('id', '=', id)
    .execute();
}

export async function hasChildren(db: Db, id: number): Promise<boolean> {
  return (
    (await db.k.selectFrom('permissions').select('id').where('parent_id', '=', id).executeTakeFirst()) !== undefined
  );
}

/** Deletes a permission; its children go with it (on delete cascade). */
export async function deletePermission(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('permissions').where('id', '=', id).execute();
}

export async function childCodes(db: Db, id: number): Promise<string[]> {
  return (await db.k.selectFrom('permissions').select('code').where('parent_id', '=', id).execute()).map((r) => r.code);
}
