import { sql, type SqlBool } from 'kysely';
import type { ExternalFileRow } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';

const SORTABLE: Record<string, string> = { name: 'f.name', url: 'f.url', createdAt: 'f.created_at' };

export interface ExternalFileFilter {
  keyword?: string | undefined;
  roleId?: number | undefined;
}

function base(db: Db, f: ExternalFileFilter) {
  let q = db.k.selectFrom('external_files as f').leftJoin('roles as r', 'r.id', 'f.role_id');
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<SqlBool>`(lower(f.name) like ${k} or lower(f.url) like ${k} or lower(coalesce(f.description, '')) like ${k})`,
    );
  }
  if (f.roleId !== undefined) q = q.where('f.role_id', '=', isDbId(f.roleId) ? f.roleId : 0);
  return q;
}

function selectRows(db: Db, f: ExternalFileFilter = {}) {
  return base(db, f).select([
    'f.id',
    'f.name',
    'f.url',
    'f.description',
    'f.role_id',
    'r.name as role_name',
    'f.created_at',
  ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): ExternalFileRow => ({
  id: r.id,
  name: r.name,
  url: r.url,
  description: r.description,
  roleId: r.role_id,
  roleName: r.role_name ?? null,
  createdAt: iso(r.created_at),
});

export async function listExternalFiles(
  db: Db,
  f: ExternalFileFilter & {
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: ExternalFileRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    selectRows(db, f)
      .orderBy(orderBy(SORTABLE[f.sortField ?? ''] ?? 'f.id', f.sortOrder))
      .orderBy('f.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    base(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

export async function externalFilesOfRole(db: Db, roleId: number): Promise<ExternalFileRow[]> {
  return (await selectRows(db, { roleId }).orderBy('f.name').orderBy('f.id').execute()).map(present);
}

export async function getExternalFile(db: Db, id: number): Promise<ExternalFileRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await selectRows(db).where('f.id', '=', id).executeTakeFirst();
  return r ? present(r) : undefined;
}

export interface ExternalFileWrite {
  name: string;
  url: string;
  description?: string | undefined;
  roleId: number;
}

const columns = (w: ExternalFileWrite) => ({
  name: w.name,
  url: w.url,
  description: w.description ?? null,
  role_id: w.roleId,
});

export async function insertExternalFile(db: Db, w: ExternalFileWrite): Promise<number> {
  return (await db.k.insertInto('external_files').values(columns(w)).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateExternalFile(db: Db, id: number, w: ExternalFileWrite): Promise<void> {
  await db.k
    .updateTable('external_files')
    .set({ ...columns(w), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteExternalFile(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('external_files').where('id', '=', id).execute();
}
