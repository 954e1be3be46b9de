import { sql, type SqlBool } from 'kysely';
import type { AlertLevelRow, AlertTemplateRow, PerLanguageText } from '@geosentry/contract';
import { ALERT_LEVEL_COLOURS } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { Exec, Paging } from '../../platform/db/sql.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';

/** SQL of the notification templates and the colour levels. */

/** A per-language text column as read. */
export const texts = (v: unknown): PerLanguageText => (v && typeof v === 'object' ? (v as PerLanguageText) : {});

// --------------------------------------------------------------------------------------------- templates

const TEMPLATE_SORT: Record<string, string> = {
  name: 't.name',
  smsTemplateCode: 't.sms_template_code',
  createdAt: 't.created_at',
  updatedAt: 't.updated_at',
};

function templateBase(db: Db, f: { keyword?: string | undefined }) {
  let q = db.k.selectFrom('alert_templates as t');
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<SqlBool>`(lower(t.name) like ${k} or lower(coalesce(t.sms_template_code, '')) like ${k} or lower(t.content::text) like ${k})`,
    );
  }
  return q;
}

const templateCols = [
  't.id',
  't.name',
  't.sms_template_code',
  't.subject',
  't.content',
  't.is_default',
  't.created_at',
  't.updated_at',
] as const;
type TemplateRaw = {
  id: number;
  name: string;
  sms_template_code: string | null;
  subject: unknown;
  content: unknown;
  is_default: boolean;
  created_at: Date | string;
  updated_at: Date | string;
};
const presentTemplate = (r: TemplateRaw): AlertTemplateRow => ({
  id: r.id,
  name: r.name,
  smsTemplateCode: r.sms_template_code,
  subject: texts(r.subject),
  content: texts(r.content),
  isDefault: r.is_default,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export async function listTemplates(
  db: Db,
  f: { keyword?: string | undefined } & Paging,
): Promise<{ list: AlertTemplateRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    templateBase(db, f)
      .select(templateCols)
      .orderBy(orderBy(TEMPLATE_SORT[f.sortField ?? ''] ?? 't.id', f.sortOrder))
      .orderBy('t.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    templateBase(db, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(presentTemplate), total: Number(total.n) };
}

export async function getTemplate(db: Exec, id: number): Promise<AlertTemplateRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await db.selectFrom('alert_templates as t').select(templateCols).where('t.id', '=', id).executeTakeFirst();
  return r ? presentTemplate(r) : undefined;
}

export async function templateNameTaken(db: Db, name: string, exceptId: number | null): Promise<boolean> {
  let q = db.k
    .selectFrom('alert_templates')
    .select('id')
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId !== null) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export interface TemplateWrite {
  name: string;
  smsTemplateCode: string | null;
  subject: PerLanguageText;
  content: PerLanguageText;
  isDefault: boolean;
}

export async function saveTemplate(db: Db, id: number | null, w: TemplateWrite): Promise<number> {
  return db.k.transaction().execute(async (trx) => {
    if (w.isDefault) {
      let q = trx.updateTable('alert_templates').set({ is_default: false }).where('is_default', '=', true);
      if (id !== null) q = q.where('id', '<>', id);
      await q.execute();
    }
    const cols = {
      name: w.name,
      sms_template_code: w.smsTemplateCode,
      subject: JSON.stringify(w.subject),
      content: JSON.stringify(w.content),
      is_default: w.isDefault,
    };
    if (id === null)
      return (await trx.insertInto('alert_templates').values(cols).returning('id').executeTakeFirstOrThrow()).id;
    await trx
      .updateTable('alert_templates')
      .set({ ...cols, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    return id;
  });
}

export async function deleteTemplate(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('alert_templates').where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------- colour levels

export async function listLevels(db: Exec): Promise<AlertLevelRow[]> {
  const rows = await db
    .selectFrom('alert_levels as l')
    .select([
      'l.level',
      'l.suggestion',
      'l.template_id',
      'l.updated_at',
      sql<
        { id: number; name: string }[] | null
      >`(select json_agg(json_build_object('id', c.id, 'name', c.name) order by c.name, c.id) from alert_level_contacts lc join alert_contacts c on c.id = lc.contact_id where lc.level = l.level)`.as(
        'contacts',
      ),
    ])
    .orderBy('l.level')
    .execute();
  return rows.map((r) => {
    const colour = ALERT_LEVEL_COLOURS[r.level as 1];
    const contacts = r.contacts ?? [];
    return {
      level: r.level,
      colour: colour.name,
      hex: colour.hex,
      suggestion: texts(r.suggestion),
      templateId: r.template_id,
      contacts,
      contactIds: contacts.map((c) => c.id),
      updatedAt: iso(r.updated_at),
    };
  });
}

export async function saveLevel(
  db: Db,
  level: number,
  suggestion: PerLanguageText,
  templateId: number | null,
  contactIds: readonly number[],
): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    await trx
      .updateTable('alert_levels')
      .set({ suggestion: JSON.stringify(suggestion), template_id: templateId, updated_at: new Date() })
      .where('level', '=', level)
      .execute();
    await trx.deleteFrom('alert_level_contacts').where('level', '=', level).execute();
    const cs = [...new Set(contactIds)];
    if (cs.length)
      await trx
        .insertInto('alert_level_contacts')
        .values(cs.map((c) => ({ level, contact_id: c })))
        .execute();
  });
}
