import { sql, type RawBuilder } from 'kysely';
import type { TemplateField, TemplateFieldKind, TemplateOwnerRow, TemplateRow } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { likePattern, orderBy } from '../../platform/db/sql.ts';

const iso = (d: Date | string): string => new Date(d).toISOString();

function selectTemplates(db: Db) {
  return db.k
    .selectFrom('info_templates as t')
    .select([
      't.id',
      't.menu_code',
      't.menu_name',
      't.menu_context',
      't.directory_name',
      't.created_at',
      't.updated_at',
      sql<number>`(select count(*) from info_template_bindings b where b.template_id = t.id)`.as('owner_count'),
    ]);
}

async function withFields(
  db: Db,
  rows: Awaited<ReturnType<ReturnType<typeof selectTemplates>['execute']>>,
): Promise<TemplateRow[]> {
  if (!rows.length) return [];
  const fields = await db.k
    .selectFrom('info_template_fields')
    .select(['template_id', 'name', 'kind', 'sort'])
    .where(
      'template_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('sort')
    .orderBy('name')
    .execute();
  const byTemplate = new Map<number, TemplateField[]>();
  for (const f of fields) {
    const list = byTemplate.get(f.template_id) ?? [];
    list.push({ name: f.name, kind: f.kind as TemplateFieldKind, sort: f.sort });
    byTemplate.set(f.template_id, list);
  }
  return rows.map((r) => ({
    menuId: r.id,
    menuCode: r.menu_code,
    menuName: r.menu_name,
    menuContext: r.menu_context,
    directoryName: r.directory_name,
    fields: byTemplate.get(r.id) ?? [],
    ownerCount: Number(r.owner_count),
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  }));
}

export async function listTemplates(db: Db, f: { unboundOnly?: boolean; ids?: number[] } = {}): Promise<TemplateRow[]> {
  let q = selectTemplates(db);
  if (f.unboundOnly)
    q = q.where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('info_template_bindings as b').select('b.owner').whereRef('b.template_id', '=', 't.id'))),
    );
  if (f.ids) {
    if (!f.ids.length) return [];
    q = q.where('t.id', 'in', f.ids);
  }
  return withFields(db, await q.orderBy('t.id').execute());
}

const SORTABLE: Record<string, string> = {
  menuName: 't.menu_name',
  menuCode: 't.menu_code',
  directoryName: 't.directory_name',
  ownerCount: 'owner_count',
  createdAt: 't.created_at',
  updatedAt: 't.updated_at',
};

export interface TemplateListFilter {
  pageNum: number;
  pageSize: number;
  keyword?: string | undefined;
  bound?: boolean | undefined;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
}

/** A page of templates: keyword on name, code, description, directory and field names; bound to owners or not. */
export async function listTemplatesPage(
  db: Db,
  f: TemplateListFilter,
): Promise<{ list: TemplateRow[]; total: number }> {
  const conds: RawBuilder<boolean>[] = [];
  if (f.keyword) {
    const k = likePattern(f.keyword);
    conds.push(sql<boolean>`(lower(t.menu_name) like ${k} or lower(coalesce(t.menu_code, '')) like ${k}
      or lower(coalesce(t.menu_context, '')) like ${k} or lower(t.directory_name) like ${k}
      or exists (select 1 from info_template_fields tf where tf.template_id = t.id and lower(tf.name) like ${k}))`);
  }
  if (f.bound !== undefined) {
    const any = sql<boolean>`exists (select 1 from info_template_bindings b where b.template_id = t.id)`;
    conds.push(f.bound ? any : sql<boolean>`not ${any}`);
  }
  const where = conds.length ? sql<boolean>`${sql.join(conds, sql` and `)}` : sql<boolean>`true`;
  const col = SORTABLE[f.sortField ?? ''] ?? 't.id';
  const [rows, total] = await Promise.all([
    selectTemplates(db)
      .where(where)
      .orderBy(orderBy(col, f.sortOrder))
      .orderBy('t.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    db.k
      .selectFrom('info_templates as t')
      .where(where)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: await withFields(db, rows), total: Number(total.n) };
}

export async function getTemplate(db: Db, id: number): Promise<TemplateRow | undefined> {
  if (!Number.isInteger(id) || id <= 0 || id > 2147483647) return undefined;
  return (await withFields(db, await selectTemplates(db).where('t.id', '=', id).execute()))[0];
}

export interface TemplateWrite {
  menuCode: string | null;
  menuName: string;
  menuContext: string | null;
  directoryName: string;
}

export interface FieldWrite {
  name: string;
  kind: TemplateFieldKind;
  sort: number;
}

export async function insertTemplate(db: Db, w: TemplateWrite, fields: FieldWrite[], userId: number): Promise<number> {
  return db.k.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('info_templates')
      .values({
        menu_code: w.menuCode,
        menu_name: w.menuName,
        menu_context: w.menuContext,
        directory_name: w.directoryName,
        created_by: userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (fields.length)
      await trx
        .insertInto('info_template_fields')
        .values(fields.map((f) => ({ template_id: id, name: f.name, kind: f.kind, sort: f.sort })))
        .execute();
    return id;
  });
}

/**
 * Updates a template; with a field list, makes the fields exactly that list: new names are added, kept names
 * take the new kind and sort (a changed kind drops the values of that field, which no longer fit), and names
 * left out are deleted with their values.
 */
export async function updateTemplate(db: Db, id: number, w: TemplateWrite, fields: FieldWrite[] | null): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    await trx
      .updateTable('info_templates')
      .set({
        menu_code: w.menuCode,
        menu_name: w.menuName,
        menu_context: w.menuContext,
        directory_name: w.directoryName,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    if (!fields) return;
    const existing = await trx
      .selectFrom('info_template_fields')
      .select(['name', 'kind'])
      .where('template_id', '=', id)
      .execute();
    const wanted = new Map(fields.map((f) => [f.name, f]));
    const gone = existing.filter((e) => !wanted.has(e.name)).map((e) => e.name);
    if (gone.length)
      await trx.deleteFrom('info_template_fields').where('template_id', '=', id).where('name', 'in', gone).execute();
    for (const f of fields) {
      const before = existing.find((e) => e.name === f.name);
      if (!before) {
        await trx
          .insertInto('info_template_fields')
          .values({ template_id: id, name: f.name, kind: f.kind, sort: f.sort })
          .execute();
        continue;
      }
      if (before.kind !== f.kind)
        await trx.deleteFrom('info_template_values').where('template_id', '=', id).where('key', '=', f.name).execute();
      await trx
        .updateTable('info_template_fields')
        .set({ kind: f.kind, sort: f.sort })
        .where('template_id', '=', id)
        .where('name', '=', f.name)
        .execute();
    }
  });
}

export async function deleteTemplate(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('info_templates').where('id', '=', id).execute();
}

export async function deleteField(db: Db, id: number, name: string): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    await trx.deleteFrom('info_template_fields').where('template_id', '=', id).where('name', '=', name).execute();
    await trx.updateTable('info_templates').set({ updated_at: new Date() }).where('id', '=', id).execute();
  });
}

/** Renames a field; its values follow (the values' foreign key cascades the update). */
export async function renameField(db: Db, id: number, from: string, to: string): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    await trx
      .updateTable('info_template_fields')
      .set({ name: to })
      .where('template_id', '=', id)
      .where('name', '=', from)
      .execute();
    await trx.updateTable('info_templates').set({ updated_at: new Date() }).where('id', '=', id).execute();
  });
}

// ----- bindings -----

export async function bindingOf(db: Db, id: number, owner: string): Promise<boolean> {
  return (
    (await db.k
      .selectFrom('info_template_bindings')
      .select('owner')
      .where('template_id', '=', id)
      .where('owner', '=', owner)
      .executeTakeFirst()) !== undefined
  );
}

export async function bind(db: Db, id: number, owner: string, platformId: number | null): Promise<void> {
  await db.k
    .insertInto('info_template_bindings')
    .values({ template_id: id, owner, platform_id: platformId })
    .onConflict((oc) => oc.columns(['template_id', 'owner']).doNothing())
    .execute();
}

/** Unbinds (the owner's values of the template go with it); answers whether a binding existed. */
export async function unbind(db: Db, id: number, owner: string): Promise<boolean> {
  const r = await db.k
    .deleteFrom('info_template_bindings')
    .where('template_id', '=', id)
    .where('owner', '=', owner)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function owners(db: Db, id: number): Promise<TemplateOwnerRow[]> {
  const rows = await db.k
    .selectFrom('info_template_bindings')
    .select(['owner', 'platform_id', 'created_at'])
    .where('template_id', '=', id)
    .orderBy('created_at')
    .orderBy('owner')
    .execute();
  return rows.map((r) => ({ owner: r.owner, platformId: r.platform_id, boundAt: iso(r.created_at) }));
}

export async function templateIdsOfOwner(db: Db, owner: string): Promise<number[]> {
  return (
    await db.k.selectFrom('info_template_bindings').select('template_id').where('owner', '=', owner).execute()
  ).map((r) => r.template_id);
}

// ----- values -----

export async function valuesOf(
  db: Db,
  owner: string,
  ids: number[],
): Promise<{ templateId: number; key: string; value: unknown }[]> {
  if (!ids.length) return [];
  const rows = await db.k
    .selectFrom('info_template_values')
    .select(['template_id', 'key', 'value'])
    .where('owner', '=', owner)
    .where('template_id', 'in', ids)
    .execute();
  return rows.map((r) => ({ templateId: r.template_id, key: r.key, value: r.value }));
}

/** Sets (json text) or clears (null) values of one owner in one transaction. */
export async function setValues(
  db: Db,
  id: number,
  owner: string,
  values: { key: string; json: string | null }[],
  userId: number,
): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    for (const v of values) {
      if (v.json === null) {
        await trx
          .deleteFrom('info_template_values')
          .where('template_id', '=', id)
          .where('owner', '=', owner)
          .where('key', '=', v.key)
          .execute();
        continue;
      }
      await trx
        .insertInto('info_template_values')
        .values({ template_id: id, owner, key: v.key, value: v.json, updated_by: userId })
        .onConflict((oc) =>
          oc
            .columns(['template_id', 'owner', 'key'])
            .doUpdateSet({ value: sql`excluded.value`, updated_by: userId, updated_at: new Date() }),
        )
        .execute();
    }
  });
}

/** The site of a section, or undefined when there is no such section. */
export async function siteOfSection(db: Db, sectionId: number): Promise<number | undefined> {
  if (!Number.isInteger(sectionId) || sectionId <= 0 || sectionId > 2147483647) return undefined;
  const r = await db.k.selectFrom('sections').select('platform_id').where('id', '=', sectionId).executeTakeFirst();
  return r?.platform_id;
}
