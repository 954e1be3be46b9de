import { sql } from 'kysely';
import type { RoleRow, RoleSortField } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';

const SORTABLE: Record<string, string> = {
  name: 'r.name',
  code: 'r.code',
  createdAt: 'r.created_at',
  userCount: 'user_count',
} satisfies Record<RoleSortField, string>;

function selectRoles(db: Db) {
  return db.k
    .selectFrom('roles as r')
    .leftJoin('roles as p', 'p.id', 'r.parent_id')
    .select([
      'r.id',
      'r.name',
      'r.code',
      'r.description',
      'r.parent_id',
      'p.name as parent_name',
      'r.builtin',
      'r.role_file_id',
      'r.created_at',
      sql<number>`(select count(*) from users u where u.role_id = r.id)`.as('user_count'),
    ]);
}
type Raw = Awaited<ReturnType<ReturnType<typeof selectRoles>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): RoleRow => ({
  id: r.id,
  name: r.name,
  code: r.code,
  description: r.description,
  parentId: r.parent_id,
  parentName: r.parent_name,
  builtin: r.builtin,
  roleFileId: r.role_file_id,
  userCount: Number(r.user_count),
  createdAt: new Date(r.created_at).toISOString(),
});

export async function listRoles(
  db: Db,
  f: {
    pageNum: number;
    pageSize: number;
    keyword?: string | undefined;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: RoleRow[]; total: number }> {
  let q = selectRoles(db);
  let c = db.k.selectFrom('roles as r');
  if (f.keyword) {
    const k = `%${f.keyword.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    q = q.where((eb) => eb.or([eb(sql`lower(r.name)`, 'like', k), eb(sql`lower(r.code)`, 'like', k)]));
    c = c.where((eb) => eb.or([eb(sql`lower(r.name)`, 'like', k), eb(sql`lower(r.code)`, 'like', k)]));
  }
  const col = SORTABLE[f.sortField ?? ''] ?? 'r.id';
  const dir = f.sortOrder === 'descend' ? sql`desc` : sql`asc`;
  const [rows, total] = await Promise.all([
    q
      .orderBy(sql`${sql.raw(col)} ${dir}`)
      .orderBy('r.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

export async function allRoles(db: Db): Promise<RoleRow[]> {
  return (await selectRoles(db).orderBy('r.id').execute()).map(present);
}

export async function getRole(db: Db, id: number): Promise<RoleRow | undefined> {
  const r = await selectRoles(db).where('r.id', '=', id).executeTakeFirst();
  return r ? present(r) : undefined;
}

export interface RoleWrite {
  name: string;
  code: string;
  description?: string | undefined;
  parentId?: number | undefined;
  roleFileId?: string | undefined;
}

export async function insertRole(db: Db, r: RoleWrite): Promise<number> {
  const row = await db.k
    .insertInto('roles')
    .values({
      name: r.name,
      code: r.code,
      description: r.description ?? null,
      parent_id: r.parentId ?? null,
      role_file_id: r.roleFileId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(db: Db, id: number, r: RoleWrite): Promise<void> {
  await db.k
    .updateTable('roles')
    .set({
      name: r.name,
      code: r.code,
      description: r.description ?? null,
      parent_id: r.parentId ?? null,
      role_file_id: r.roleFileId ?? null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteRole(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('roles').where('id', '=', id).execute();
}

/** The ancestors of a role, nearest first (for cycle checks). */
export async function ancestorIds(db: Db, id: number): Promise<number[]> {
  const r = await sql<{ id: number }>`
    with recursive a(id, parent_id, depth) as (
      select id, parent_id, 0 from roles where id = ${id}
      union all select r.id, r.parent_id, a.depth + 1 from roles r join a on r.id = a.parent_id where a.depth < 50
    ) select id from a`.execute(db.k);
  return r.rows.map((x) => x.id);
}

export async function rolePermissionIds(db: Db, roleId: number): Promise<number[]> {
  return (
    await db.k
      .selectFrom('role_permissions')
      .select('permission_id')
      .where('role_id', '=', roleId)
      .orderBy('permission_id')
      .execute()
  ).map((r) => r.permission_id);
}

export async function setRolePermissions(db: Db, roleId: number, permissionIds: number[]): Promise<number[]> {
  return db.k.transaction().execute(async (trx) => {
    await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
    const ids = [...new Set(permissionIds)];
    if (ids.length === 0) return [];
    // Keep only existing ids, and add the parents of chosen children so the menu group shows.
    const rows = await sql<{ id: number }>`
      select id from permissions where id = any(${ids}::int[])
      union select parent_id from permissions where id = any(${ids}::int[]) and parent_id is not null`.execute(trx);
    const valid = rows.rows.map((r) => r.id);
    if (valid.length)
      await trx
        .insertInto('role_permissions')
        .values(valid.map((p) => ({ role_id: roleId, permission_id: p })))
        .execute();
    return valid;
  });
}
