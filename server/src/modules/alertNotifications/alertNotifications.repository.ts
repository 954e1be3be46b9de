import { sql, type Expression, type SqlBool } from 'kysely';
import type { AlertContactRow, AlertGroupRow, Language } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { DataScope } from '../../platform/auth/access.ts';
import { ids, type Paging } from '../../platform/db/sql.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';

/** SQL of the notification contacts and contact groups. */

// ---------------------------------------------------------------------------------------------- contacts

const CONTACT_SORT: Record<string, string> = {
  name: 'c.name',
  phone: 'c.phone',
  email: 'c.email',
  language: 'c.language',
  createdAt: 'c.created_at',
};

export interface ContactFilter {
  keyword?: string | undefined;
  language?: string | undefined;
  groupId?: number | undefined;
}

function contactBase(db: Db, f: ContactFilter) {
  let q = db.k.selectFrom('alert_contacts as c').leftJoin('responsible_persons as rp', 'rp.id', 'c.person_id');
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<SqlBool>`(lower(c.name) like ${k} or lower(coalesce(c.phone, '')) like ${k} or lower(coalesce(c.email, '')) like ${k})`,
    );
  }
  if (f.language) q = q.where('c.language', '=', f.language);
  if (f.groupId !== undefined) {
    const g = isDbId(f.groupId) ? f.groupId : 0;
    q = q.where(
      sql<SqlBool>`exists (select 1 from alert_group_contacts gc where gc.contact_id = c.id and gc.group_id = ${g})`,
    );
  }
  return q;
}

function contactRows(db: Db, scope: DataScope, f: ContactFilter = {}) {
  const vis = groupVisible(scope, 'gc.group_id');
  return contactBase(db, f).select([
    'c.id',
    'c.name',
    'c.phone',
    'c.email',
    'c.language',
    'c.person_id',
    'rp.name as person_name',
    'c.created_at',
    sql<
      number[] | null
    >`(select array_agg(gc.group_id order by gc.group_id) from alert_group_contacts gc where gc.contact_id = c.id${vis ? sql` and ${vis}` : sql``})`.as(
      'group_ids',
    ),
  ]);
}

type ContactRaw = Awaited<ReturnType<ReturnType<typeof contactRows>['executeTakeFirstOrThrow']>>;
const presentContact = (r: ContactRaw): AlertContactRow => ({
  id: r.id,
  name: r.name,
  phone: r.phone,
  email: r.email,
  language: r.language as Language,
  personId: r.person_id,
  personName: r.person_name ?? null,
  groupIds: r.group_ids ?? [],
  createdAt: iso(r.created_at),
});

export async function listContacts(
  db: Db,
  scope: DataScope,
  f: ContactFilter & Paging,
): Promise<{ list: AlertContactRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    contactRows(db, scope, f)
      .orderBy(orderBy(CONTACT_SORT[f.sortField ?? ''] ?? 'c.id', f.sortOrder))
      .orderBy('c.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    contactBase(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentContact), total: Number(total.n) };
}

export async function getContact(db: Db, scope: DataScope, id: number): Promise<AlertContactRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await contactRows(db, scope).where('c.id', '=', id).executeTakeFirst();
  return r ? presentContact(r) : undefined;
}

export interface ContactWrite {
  name: string;
  phone?: string | undefined;
  email?: string | undefined;
  language: string;
  personId?: number | undefined;
}

const contactColumns = (w: ContactWrite) => ({
  name: w.name,
  phone: w.phone ?? null,
  email: w.email ?? null,
  language: w.language,
  person_id: w.personId ?? null,
});

export async function insertContact(db: Db, w: ContactWrite): Promise<number> {
  return (await db.k.insertInto('alert_contacts').values(contactColumns(w)).returning('id').executeTakeFirstOrThrow())
    .id;
}

export async function updateContact(db: Db, id: number, w: ContactWrite): Promise<void> {
  await db.k
    .updateTable('alert_contacts')
    .set({ ...contactColumns(w), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function deleteContact(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('alert_contacts').where('id', '=', id).execute();
}

/** The subset of ids naming existing contacts. */
export async function existingContacts(db: Db, wanted: readonly number[]): Promise<Set<number>> {
  const valid = [...new Set(wanted.filter((x) => isDbId(x)))];
  if (!valid.length) return new Set();
  const rows = await db.k.selectFrom('alert_contacts').select('id').where('id', 'in', valid).execute();
  return new Set(rows.map((r) => r.id));
}

// ------------------------------------------------------------------------------------------------ groups

/** A group is visible when it covers no site, or at least one site of the scope. */
function groupVisible(scope: DataScope, groupIdColumn: string): Expression<SqlBool> | null {
  if (scope.all) return null;
  const col = sql.ref(groupIdColumn);
  const unbound = sql<SqlBool>`not exists (select 1 from alert_group_platforms gp where gp.group_id = ${col})`;
  if (!scope.platformIds.length) return unbound;
  return sql<SqlBool>`(${unbound} or exists (select 1 from alert_group_platforms gp where gp.group_id = ${col} and gp.platform_id in (${ids(scope.platformIds)})))`;
}

const GROUP_SORT: Record<string, string> = { name: 'g.name', createdAt: 'g.created_at' };

export interface GroupFilter {
  keyword?: string | undefined;
  platformId?: number | undefined;
  contactId?: number | undefined;
}

function groupBase(db: Db, scope: DataScope, f: GroupFilter) {
  let q = db.k.selectFrom('alert_groups as g');
  const v = groupVisible(scope, 'g.id');
  if (v) q = q.where(v);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(sql<SqlBool>`(lower(g.name) like ${k} or lower(coalesce(g.description, '')) like ${k})`);
  }
  if (f.platformId !== undefined) {
    const p = isDbId(f.platformId) ? f.platformId : 0;
    q = q.where(
      sql<SqlBool>`exists (select 1 from alert_group_platforms gp where gp.group_id = g.id and gp.platform_id = ${p})`,
    );
  }
  if (f.contactId !== undefined) {
    const c = isDbId(f.contactId) ? f.contactId : 0;
    q = q.where(
      sql<SqlBool>`exists (select 1 from alert_group_contacts gc where gc.group_id = g.id and gc.contact_id = ${c})`,
    );
  }
  return q;
}

function groupRows(db: Db, scope: DataScope, f: GroupFilter = {}) {
  const sites = scope.all
    ? sql<
        number[] | null
      >`(select array_agg(gp.platform_id order by gp.platform_id) from alert_group_platforms gp where gp.group_id = g.id)`
    : scope.platformIds.length
      ? sql<
          number[] | null
        >`(select array_agg(gp.platform_id order by gp.platform_id) from alert_group_platforms gp where gp.group_id = g.id and gp.platform_id in (${ids(scope.platformIds)}))`
      : sql<number[] | null>`null::integer[]`;
  return groupBase(db, scope, f).select([
    'g.id',
    'g.name',
    'g.description',
    'g.created_at',
    sites.as('platform_ids'),
    sql<
      { id: number; name: string }[] | null
    >`(select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.name, c.id) from alert_group_contacts gc join alert_contacts c on c.id = gc.contact_id where gc.group_id = g.id)`.as(
      'contacts',
    ),
  ]);
}

type GroupRaw = Awaited<ReturnType<ReturnType<typeof groupRows>['executeTakeFirstOrThrow']>>;
const presentGroup = (r: GroupRaw): AlertGroupRow => {
  const contacts = r.contacts ?? [];
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    contacts,
    contactIds: contacts.map((c) => c.id),
    platformIds: r.platform_ids ?? [],
    createdAt: iso(r.created_at),
  };
};

export async function listGroups(
  db: Db,
  scope: DataScope,
  f: GroupFilter & Paging,
): Promise<{ list: AlertGroupRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    groupRows(db, scope, f)
      .orderBy(orderBy(GROUP_SORT[f.sortField ?? ''] ?? 'g.id', f.sortOrder))
      .orderBy('g.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    groupBase(db, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentGroup), total: Number(total.n) };
}

export async function getGroup(db: Db, scope: DataScope, id: number): Promise<AlertGroupRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await groupRows(db, scope).where('g.id', '=', id).executeTakeFirst();
  return r ? presentGroup(r) : undefined;
}

export async function groupNameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  let q = db.k
    .selectFrom('alert_groups')
    .select('id')
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Every site of the group (also those outside the caller's scope). */
export async function groupSites(db: Db, id: number): Promise<number[]> {
  return (
    await db.k.selectFrom('alert_group_platforms').select('platform_id').where('group_id', '=', id).execute()
  ).map((r) => r.platform_id);
}

export interface GroupWrite {
  name: string;
  description?: string | undefined;
}

export async function saveGroup(
  db: Db,
  id: number | null,
  w: GroupWrite,
  contactIds: readonly number[],
  platformIds: readonly number[],
): Promise<number> {
  return db.k.transaction().execute(async (trx) => {
    let gid: number;
    const cols = { name: w.name, description: w.description ?? null };
    if (id === null) {
      gid = (await trx.insertInto('alert_groups').values(cols).returning('id').executeTakeFirstOrThrow()).id;
    } else {
      gid = id;
      await trx
        .updateTable('alert_groups')
        .set({ ...cols, updated_at: new Date() })
        .where('id', '=', id)
        .execute();
      await trx.deleteFrom('alert_group_contacts').where('group_id', '=', id).execute();
      await trx.deleteFrom('alert_group_platforms').where('group_id', '=', id).execute();
    }
    const cs = [...new Set(contactIds)];
    if (cs.length)
      await trx
        .insertInto('alert_group_contacts')
        .values(cs.map((c) => ({ group_id: gid, contact_id: c })))
        .execute();
    const ps = [...new Set(platformIds)];
    if (ps.length)
      await trx
        .insertInto('alert_group_platforms')
        .values(ps.map((p) => ({ group_id: gid, platform_id: p })))
        .execute();
    return gid;
  });
}

export async function deleteGroup(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('alert_groups').where('id', '=', id).execute();
}
