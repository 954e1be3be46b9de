import { sql, type Expression, type SqlBool } from 'kysely';
import type { PersonRow } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { inScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';

const SORTABLE: Record<string, string> = {
  name: 'rp.name',
  phone: 'rp.phone',
  title: 'rp.title',
  company: 'rp.company',
  createdAt: 'rp.created_at',
};

/** A person is visible when bound to no site, or to at least one site of the scope. */
function visible(scope: DataScope): Expression<SqlBool> | null {
  if (scope.all) return null;
  const unbound = sql<SqlBool>`not exists (select 1 from person_platforms pp where pp.person_id = rp.id)`;
  if (!scope.platformIds.length) return unbound;
  const ids = sql.join(scope.platformIds.map((x) => sql`${x}`));
  return sql<SqlBool>`(${unbound} or exists (select 1 from person_platforms pp where pp.person_id = rp.id and pp.platform_id in (${ids})))`;
}

/** The person's sites shown to this scope. */
function platformIdsExpr(scope: DataScope) {
  if (scope.all)
    return sql<
      number[] | null
    >`(select array_agg(pp.platform_id order by pp.platform_id) from person_platforms pp where pp.person_id = rp.id)`;
  if (!scope.platformIds.length) return sql<number[] | null>`null::integer[]`;
  const ids = sql.join(scope.platformIds.map((x) => sql`${x}`));
  return sql<
    number[] | null
  >`(select array_agg(pp.platform_id order by pp.platform_id) from person_platforms pp where pp.person_id = rp.id and pp.platform_id in (${ids}))`;
}

export interface PersonFilter {
  keyword?: string | undefined;
  roleId?: number | undefined;
  platformId?: number | undefined;
}

function base(db: Db, scope: DataScope, f: PersonFilter) {
  let q = db.k.selectFrom('responsible_persons as rp').leftJoin('roles as r', 'r.id', 'rp.role_id');
  const v = visible(scope);
  if (v) q = q.where(v);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<SqlBool>`(lower(rp.name) like ${k} or lower(rp.phone) like ${k} or lower(coalesce(rp.company, '')) like ${k} or lower(coalesce(rp.email, '')) like ${k} or lower(coalesce(rp.title, '')) like ${k})`,
    );
  }
  if (f.roleId !== undefined) q = q.where('rp.role_id', '=', isDbId(f.roleId) ? f.roleId : 0);
  if (f.platformId !== undefined) {
    // A site outside the scope filters like a missing one: nothing, not the persons bound to it.
    const id = isDbId(f.platformId) && inScope(scope, f.platformId) ? f.platformId : 0;
    q = q.where(
      sql<SqlBool>`exists (select 1 from person_platforms pp where pp.person_id = rp.id and pp.platform_id = ${id})`,
    );
  }
  return q;
}

function selectRows(db: Db, scope: DataScope, f: PersonFilter = {}) {
  return base(db, scope, f).select([
    'rp.id',
    'rp.name',
    'rp.phone',
    'rp.title',
    'rp.company',
    'rp.company_address',
    'rp.email',
    'rp.role_id',
    'r.name as role_name',
    'rp.created_at',
    platformIdsExpr(scope).as('platform_ids'),
  ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): PersonRow => ({
  id: r.id,
  name: r.name,
  phone: r.phone,
  title: r.title,
  company: r.company,
  companyAddress: r.company_address,
  email: r.email,
  roleId: r.role_id,
  roleName: r.role_name ?? null,
  platformIds: r.platform_ids ?? [],
  createdAt: iso(r.created_at),
});

export async function listPersons(
  db: Db,
  scope: DataScope,
  f: PersonFilter & {
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: PersonRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    selectRows(db, scope, f)
      .orderBy(orderBy(SORTABLE[f.sortField ?? ''] ?? 'rp.id', f.sortOrder))
      .orderBy('rp.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    base(db, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

export async function personsOfRole(db: Db, scope: DataScope, roleId: number): Promise<PersonRow[]> {
  return (await selectRows(db, scope, { roleId }).orderBy('rp.name').orderBy('rp.id').execute()).map(present);
}

export async function getPerson(db: Db, scope: DataScope, id: number): Promise<PersonRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await selectRows(db, scope).where('rp.id', '=', id).executeTakeFirst();
  return r ? present(r) : undefined;
}

/** Every site the person is bound to (also those outside the caller's scope). */
export async function personSites(db: Db, id: number): Promise<number[]> {
  return (await db.k.selectFrom('person_platforms').select('platform_id').where('person_id', '=', id).execute()).map(
    (r) => r.platform_id,
  );
}

export interface PersonWrite {
  name: string;
  phone: string;
  title?: string | undefined;
  company?: string | undefined;
  companyAddress?: string | undefined;
  email?: string | undefined;
  roleId: number | null;
}

const columns = (w: PersonWrite) => ({
  name: w.name,
  phone: w.phone,
  title: w.title ?? null,
  company: w.company ?? null,
  company_address: w.companyAddress ?? null,
  email: w.email ?? null,
  role_id: w.roleId,
});

export async function savePerson(
  db: Db,
  id: number | null,
  w: PersonWrite,
  platformIds: readonly number[],
): Promise<number> {
  return db.k.transaction().execute(async (trx) => {
    let pid: number;
    if (id === null) {
      pid = (await trx.insertInto('responsible_persons').values(columns(w)).returning('id').executeTakeFirstOrThrow())
        .id;
    } else {
      pid = id;
      await trx
        .updateTable('responsible_persons')
        .set({ ...columns(w), updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await trx.deleteFrom('person_platforms').where('person_id', '=', id).execute();
    }
    const ids = [...new Set(platformIds)];
    if (ids.length)
      await trx
        .insertInto('person_platforms')
        .values(ids.map((p) => ({ person_id: pid, platform_id: p })))
        .execute();
    return pid;
  });
}

export async function deletePerson(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('responsible_persons').where('id', '=', id).execute();
}

export async function roleExists(db: Db, id: number): Promise<boolean> {
  if (!isDbId(id)) return false;
  return (await db.k.selectFrom('roles').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
