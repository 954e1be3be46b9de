import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { DataScope } from '../../platform/auth/access.ts';
import { likePattern } from '../../platform/db/sql.ts';

export interface FileRecord {
  id: string;
  kind: string;
  mime: string;
  ext: string;
  size: number;
  originalName: string;
  sha256: string;
  platformId: number | null;
  uploadedBy: number | null;
  createdAt: Date;
}

const isDbId = (n: number): boolean => Number.isInteger(n) && n > 0 && n <= 2147483647;

/** Files attached to no site, or to a site of the scope. */
function visible(scope: DataScope) {
  if (scope.all) return sql<SqlBool>`true`;
  const ids = scope.platformIds.filter(isDbId);
  if (!ids.length) return sql<SqlBool>`f.platform_id is null`;
  return sql<SqlBool>`(f.platform_id is null or f.platform_id in (${sql.join(ids)}))`;
}

function selectFiles(db: Db) {
  return db.k
    .selectFrom('files as f')
    .select([
      'f.id',
      'f.kind',
      'f.mime',
      'f.ext',
      'f.size',
      'f.original_name',
      'f.sha256',
      'f.platform_id',
      'f.uploaded_by',
      'f.created_at',
    ]);
}
type Raw = Awaited<ReturnType<ReturnType<typeof selectFiles>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): FileRecord => ({
  id: r.id,
  kind: r.kind,
  mime: r.mime,
  ext: r.ext,
  size: Number(r.size),
  originalName: r.original_name,
  sha256: r.sha256,
  platformId: r.platform_id,
  uploadedBy: r.uploaded_by,
  createdAt: new Date(r.created_at),
});

/** A file the scope may see; a foreign file answers undefined, like a missing one. */
export async function findFile(db: Db, scope: DataScope, id: string): Promise<FileRecord | undefined> {
  const r = await selectFiles(db).where('f.id', '=', id).where(visible(scope)).executeTakeFirst();
  return r ? present(r) : undefined;
}

/** The visible files among these ids. */
export async function findFiles(db: Db, scope: DataScope, ids: readonly string[]): Promise<FileRecord[]> {
  if (!ids.length) return [];
  return (
    await selectFiles(db)
      .where('f.id', 'in', [...new Set(ids)])
      .where(visible(scope))
      .execute()
  ).map(present);
}

/**
 * The jpg and png pictures stored for a site the scope holds, newest first, a page of them (name filter optional).
 * A site outside the scope has none.
 */
export async function sitePictures(
  db: Db,
  scope: DataScope,
  platformId: number,
  page: { pageNum: number; pageSize: number; keyword?: string | undefined },
): Promise<{ total: number; rows: FileRecord[] }> {
  if (!(await siteInScope(db, scope, platformId))) return { total: 0, rows: [] };
  const kw = page.keyword?.trim();
  const base = () => {
    let q = db.k.selectFrom('files as f').where('f.platform_id', '=', platformId).where('f.ext', 'in', ['jpg', 'png']);
    if (kw) q = q.where(sql<SqlBool>`lower(f.original_name) like ${likePattern(kw)}`);
    return q;
  };
  const total = Number(
    (
      await base()
        .select(sql<number>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const rows = await base()
    .select([
      'f.id',
      'f.kind',
      'f.mime',
      'f.ext',
      'f.size',
      'f.original_name',
      'f.sha256',
      'f.platform_id',
      'f.uploaded_by',
      'f.created_at',
    ])
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id')
    .limit(page.pageSize)
    .offset((page.pageNum - 1) * page.pageSize)
    .execute();
  return { total, rows: rows.map(present) };
}

/** Does a file row of this id exist at all (whatever the scope)? */
export async function fileExists(db: Db, id: string): Promise<boolean> {
  return (await db.k.selectFrom('files').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Inserts the rows of one upload in one statement: all or none. */
export async function insertFiles(db: Db, rows: Omit<FileRecord, 'createdAt'>[]): Promise<void> {
  await db.k
    .insertInto('files')
    .values(
      rows.map((r) => ({
        id: r.id,
        kind: r.kind,
        mime: r.mime,
        ext: r.ext,
        size: r.size,
        original_name: r.originalName,
        sha256: r.sha256,
        platform_id: r.platformId,
        uploaded_by: r.uploadedBy,
      })),
    )
    .execute();
}

/** Is the site in the scope (and existing)? */
export async function siteInScope(db: Db, scope: DataScope, platformId: number): Promise<boolean> {
  if (!isDbId(platformId)) return false;
  if (!scope.all && !scope.platformIds.includes(platformId)) return false;
  return (
    (await db.k.selectFrom('platforms').select('id').where('id', '=', platformId).executeTakeFirst()) !== undefined
  );
}

// ----- file documents -----

export interface DocumentField {
  key: string;
  value: unknown;
  updatedAt: Date;
}

export async function documentFields(db: Db, fileId: string): Promise<DocumentField[]> {
  const rows = await db.k
    .selectFrom('file_documents')
    .select(['key', 'value', 'updated_at'])
    .where('file_id', '=', fileId)
    .orderBy('key')
    .execute();
  return rows.map((r) => ({ key: r.key, value: r.value, updatedAt: new Date(r.updated_at) }));
}

export async function documentExists(db: Db, fileId: string): Promise<boolean> {
  return (
    (await db.k.selectFrom('file_documents').select('key').where('file_id', '=', fileId).executeTakeFirst()) !==
    undefined
  );
}

export async function documentKeyCount(db: Db, fileId: string, except: string): Promise<number> {
  const r = await db.k
    .selectFrom('file_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('file_id', '=', fileId)
    .where('key', '<>', except)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Sets a field (replacing it), or with append appends the items of a JSON array to an existing array field. */
export async function setDocumentField(
  db: Db,
  w: { fileId: string; key: string; json: string; append: boolean; userId: number },
): Promise<void> {
  await db.k
    .insertInto('file_documents')
    .values({ file_id: w.fileId, key: w.key, value: w.json, updated_by: w.userId })
    .onConflict((oc) =>
      oc.columns(['file_id', 'key']).doUpdateSet({
        value: w.append
          ? sql`case when jsonb_typeof(file_documents.value) = 'array' then file_documents.value || excluded.value else excluded.value end`
          : sql`excluded.value`,
        updated_by: w.userId,
        updated_at: new Date(),
      }),
    )
    .execute();
}
