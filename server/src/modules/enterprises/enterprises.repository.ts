import { sql } from 'kysely';
import type { EnterpriseOption, EnterpriseRow, EnterpriseVariant, PlatformType } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { likePattern as like } from '../../platform/db/sql.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';

const SORTABLE: Record<string, string> = { name: 'e.name', code: 'e.code', createdAt: 'e.created_at' };

export interface EnterpriseListFilter {
  pageNum: number;
  pageSize: number;
  keyword?: string | undefined;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

function selectEnterprises(db: Db) {
  return db.k
    .selectFrom('enterprises as e')
    .leftJoin('enterprises as pe', 'pe.id', 'e.parent_id')
    .select([
      'e.id',
      'e.variant',
      'e.name',
      'e.code',
      'e.description',
      'e.parent_id',
      'pe.name as parent_name',
      'e.address',
      'e.created_at',
      'e.updated_at',
    ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectEnterprises>['executeTakeFirstOrThrow']>>;
const present = (r: Raw, platforms: EnterpriseRow['platforms']): EnterpriseRow => ({
  enterpriseId: r.id,
  enterpriseType: r.variant as EnterpriseVariant,
  name: r.name,
  code: r.code,
  description: r.description,
  parentId: r.parent_id,
  parentName: r.parent_name,
  address: r.address,
  platforms,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** The sites bound to these enterprises, limited to the caller's data scope. */
async function boundPlatforms(
  db: Db,
  scope: DataScope,
  ids: number[],
): Promise<Map<number, EnterpriseRow['platforms']>> {
  const out = new Map<number, EnterpriseRow['platforms']>();
  if (ids.length === 0) return out;
  const rows = await whereInScope(
    db.k.selectFrom('platforms').select(['id', 'type', 'name', 'enterprise_id']).where('enterprise_id', 'in', ids),
    scope,
    'id',
  )
    .orderBy('name')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.enterprise_id!) ?? [];
    list.push({ platformId: r.id, type: r.type as PlatformType, name: r.name });
    out.set(r.enterprise_id!, list);
  }
  return out;
}

export async function listEnterprises(
  db: Db,
  scope: DataScope,
  variant: EnterpriseVariant,
  f: EnterpriseListFilter,
): Promise<{ list: EnterpriseRow[]; total: number }> {
  let q = selectEnterprises(db).where('e.variant', '=', variant);
  let c = db.k.selectFrom('enterprises as e').where('e.variant', '=', variant);
  if (f.keyword) {
    const k = like(f.keyword);
    const match = sql<boolean>`(lower(e.name) like ${k} or lower(coalesce(e.code, '')) like ${k} or lower(coalesce(e.address, '')) like ${k})`;
    q = q.where(match);
    c = c.where(match);
  }
  const col = SORTABLE[f.sortField ?? ''] ?? 'e.id';
  const dir = f.sortOrder === 'descend' ? sql`desc` : sql`asc`;
  const [rows, total] = await Promise.all([
    q
      .orderBy(sql`${sql.raw(col)} ${dir} nulls last`)
      .orderBy('e.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const bound = await boundPlatforms(
    db,
    scope,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => present(r, bound.get(r.id) ?? [])), total: Number(total.n) };
}

export async function getEnterprise(
  db: Db,
  scope: DataScope,
  variant: EnterpriseVariant,
  id: number,
): Promise<EnterpriseRow | undefined> {
  const r = await selectEnterprises(db).where('e.id', '=', id).where('e.variant', '=', variant).executeTakeFirst();
  if (!r) return undefined;
  return present(r, (await boundPlatforms(db, scope, [r.id])).get(r.id) ?? []);
}

/** An enterprise of any variant (for a site's related enterprise). */
export async function findEnterprise(
  db: Db,
  id: number,
): Promise<{ id: number; variant: EnterpriseVariant } | undefined> {
  const r = await db.k.selectFrom('enterprises').select(['id', 'variant']).where('id', '=', id).executeTakeFirst();
  return r ? { id: r.id, variant: r.variant as EnterpriseVariant } : undefined;
}

export async function enterpriseOptions(db: Db, variant: EnterpriseVariant): Promise<EnterpriseOption[]> {
  const rows = await db.k
    .selectFrom('enterprises')
    .select(['id', 'name', 'code', 'parent_id'])
    .where('variant', '=', variant)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ enterpriseId: r.id, name: r.name, code: r.code, parentId: r.parent_id }));
}

/** Each enterprise of the variant with its higher group (to refuse loops). */
export async function parentLinks(db: Db, variant: EnterpriseVariant): Promise<Map<number, number | null>> {
  const rows = await db.k
    .selectFrom('enterprises')
    .select(['id', 'parent_id'])
    .where('variant', '=', variant)
    .execute();
  return new Map(rows.map((r) => [r.id, r.parent_id]));
}

/** Every site bound to the enterprise, whatever the caller's scope. */
export async function boundCount(db: Db, id: number): Promise<number> {
  const r = await db.k
    .selectFrom('platforms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('enterprise_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface EnterpriseWrite {
  name: string;
  code?: string | undefined;
  description?: string | undefined;
  parentId?: number | undefined;
  address?: string | undefined;
}

export async function insertEnterprise(db: Db, variant: EnterpriseVariant, w: EnterpriseWrite): Promise<number> {
  const r = await db.k
    .insertInto('enterprises')
    .values({
      variant,
      name: w.name,
      code: w.code ?? null,
      description: w.description ?? null,
      parent_id: w.parentId ?? null,
      address: w.address ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateEnterprise(db: Db, id: number, w: EnterpriseWrite): Promise<void> {
  await db.k
    .updateTable('enterprises')
    .set({
      name: w.name,
      code: w.code ?? null,
      description: w.description ?? null,
      parent_id: w.parentId ?? null,
      address: w.address ?? null,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteEnterprise(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('enterprises').where('id', '=', id).execute();
}

export async function setPlatformEnterprise(db: Db, platformId: number, enterpriseId: number | null): Promise<void> {
  await db.k
    .updateTable('platforms')
    .set({ enterprise_id: enterpriseId, updated_at: new Date() })
    .where('id', '=', platformId)
    .execute();
}
