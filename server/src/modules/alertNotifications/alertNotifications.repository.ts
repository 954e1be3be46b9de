import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type {
  AlertChannel,
  AlertContactRow,
  AlertDeliveryRow,
  AlertGroupRow,
  AlertLevelRow,
  AlertTemplateRow,
  Language,
  NotificationState,
  PerLanguageText,
} from '@geosentry/contract';
import { ALERT_LEVEL_COLOURS } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { DataScope } from '../../platform/auth/access.ts';
import { iso, isoOrNull, isDbId, likePattern, orderBy } from '../devices/common.ts';

/** A query executor: the app's handle or a transaction of the caller (alert evaluation). */
export type Exec = Kysely<Database>;

interface Paging {
  pageNum: number;
  pageSize: number;
  sortField?: string | undefined;
  sortOrder?: string | undefined;
}

const ids = (xs: readonly number[]) => sql.join(xs.map((x) => sql`${x}`));
const texts = (v: unknown): PerLanguageText => (v && typeof v === 'object' ? (v as PerLanguageText) : {});

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

// ------------------------------------------------------------------------------------ recipients, facts

export interface Recipient {
  contactId: number;
  name: string;
  phone: string | null;
  email: string | null;
  language: Language;
  /**
   * The time zone of the user the contact is (an enabled user with the contact's e-mail or phone and a time
   * zone of their own), else null.
   */
  timeZone: string | null;
}

/** One alert event's part of a NotifyContext: whom it tells (its site, level and group) and which device it names. */
export interface NotifyWant {
  platformId: number | null;
  level: number;
  groupId: number | null;
  deviceId: number | null;
}

const dbIdOrNull = (x: number | null | undefined): number | null => (isDbId(x) ? x : null);
const recipientsKey = (p: number | null, level: number, g: number | null): string => `${p ?? ''}:${level}:${g ?? ''}`;
const namesKey = (p: number | null, d: number | null): string => `${p ?? ''}:${d ?? ''}`;

/** Everything writing the notifications of a set of alert events reads (see notifyContext). */
export interface NotifyContext {
  /** The colour levels: their template and suggestion. */
  levels: Map<number, { templateId: number | null; suggestion: PerLanguageText }>;
  /** The templates the levels name, and the default one. */
  templates: Map<number, TemplateTexts & { smsTemplateCode: string | null }>;
  defaultTemplateId: number | null;
  /**
   * Whom an event tells: the members of its colour level and the members of its group, when the group covers
   * the site (or every site); in contact order.
   */
  recipientsOf(w: NotifyWant): Recipient[];
  /** The names of an event's site and device, and the device's monitor type. */
  namesOf(w: NotifyWant): { siteName: string | null; deviceName: string | null; moduleId: number | null };
}
type TemplateTexts = { subject: PerLanguageText; content: PerLanguageText };

/**
 * What writing the notifications of these events needs, in one statement (it runs inside the alert store's
 * transaction: one round trip however many events, sites, levels and devices the store holds).
 */
export async function notifyContext(db: Exec, wants: readonly NotifyWant[]): Promise<NotifyContext> {
  const w = wants.map((x) => ({
    p: dbIdOrNull(x.platformId),
    l: x.level,
    g: dbIdOrNull(x.groupId),
    d: dbIdOrNull(x.deviceId),
  }));
  type Json<T> = T[] | null;
  const r = await sql<{
    levels: Json<{ level: number; template_id: number | null; suggestion: unknown }>;
    templates: Json<{ id: number; code: string | null; subject: unknown; content: unknown; is_default: boolean }>;
    recipients: Json<{
      p: number | null;
      l: number;
      g: number | null;
      id: number;
      name: string;
      phone: string | null;
      email: string | null;
      language: string;
      tz: string | null;
    }>;
    names: Json<{
      p: number | null;
      d: number | null;
      site: string | null;
      device: string | null;
      module: number | null;
    }>;
  }>`
    with w as (
      select * from unnest(${w.map((x) => x.p)}::int[], ${w.map((x) => x.l)}::int[], ${w.map((x) => x.g)}::int[],
                           ${w.map((x) => x.d)}::int[]) as w(p, l, g, d)),
    k as (select distinct p, l, g from w),
    n as (select distinct p, d from w),
    -- Joins by key, no condition per (want, contact) pair: the plan stays cheap (a costly estimate would have
    -- PostgreSQL JIT-compile this small statement, hundreds of ms inside the alert store).
    r as (
      select k.p, k.l, k.g, lc.contact_id as id from k join alert_level_contacts lc on lc.level = k.l
      union
      select k.p, k.l, k.g, gc.contact_id from k join alert_group_contacts gc on gc.group_id = k.g
      where not exists (select 1 from alert_group_platforms gp where gp.group_id = gc.group_id)
         or exists (select 1 from alert_group_platforms gp
                    where gp.group_id = gc.group_id and gp.platform_id = coalesce(k.p, 0)))
    select
      (select json_agg(json_build_object('level', l.level, 'template_id', l.template_id, 'suggestion', l.suggestion))
         from alert_levels l) as levels,
      (select json_agg(json_build_object('id', t.id, 'code', t.sms_template_code, 'subject', t.subject,
                                         'content', t.content, 'is_default', t.is_default))
         from alert_templates t where t.is_default or t.id in (select template_id from alert_levels)) as templates,
      (select json_agg(json_build_object('p', r.p, 'l', r.l, 'g', r.g, 'id', c.id, 'name', c.name, 'phone', c.phone,
                                         'email', c.email, 'language', c.language,
                                         'tz', (select u.time_zone from users u
                                                where u.enabled and u.time_zone is not null
                                                  and (lower(u.email) = lower(c.email) or u.phone = c.phone)
                                                order by u.id limit 1)) order by c.id)
         from r join alert_contacts c on c.id = r.id) as recipients,
      -- Names by key (scalar subqueries): ingest updates the device rows all the time, and a join the planner
      -- turns into a scan of the table reads every dead version of them.
      (select json_agg(json_build_object('p', n.p, 'd', n.d,
                                         'site', (select name from platforms where id = n.p),
                                         'device', (select device_name from devices where id = n.d),
                                         'module', (select module_id from devices where id = n.d)))
         from n) as names`.execute(db);
  const row = r.rows[0]!;
  const recipients = new Map<string, Recipient[]>();
  const names = new Map<string, ReturnType<NotifyContext['namesOf']>>();
  const out: NotifyContext = {
    levels: new Map(),
    templates: new Map(),
    defaultTemplateId: null,
    recipientsOf: (x) => recipients.get(recipientsKey(dbIdOrNull(x.platformId), x.level, dbIdOrNull(x.groupId))) ?? [],
    namesOf: (x) =>
      names.get(namesKey(dbIdOrNull(x.platformId), dbIdOrNull(x.deviceId))) ?? {
        siteName: null,
        deviceName: null,
        moduleId: null,
      },
  };
  for (const l of row.levels ?? [])
    out.levels.set(l.level, { templateId: l.template_id, suggestion: texts(l.suggestion) });
  for (const t of row.templates ?? []) {
    out.templates.set(t.id, { subject: texts(t.subject), content: texts(t.content), smsTemplateCode: t.code });
    if (t.is_default) out.defaultTemplateId = t.id;
  }
  for (const c of row.recipients ?? []) {
    const key = recipientsKey(c.p, c.l, c.g);
    let l = recipients.get(key);
    if (!l) recipients.set(key, (l = []));
    l.push({
      contactId: c.id,
      name: c.name,
      phone: c.phone,
      email: c.email,
      language: c.language as Language,
      timeZone: c.tz,
    });
  }
  for (const n of row.names ?? [])
    names.set(namesKey(n.p, n.d), {
      siteName: n.site,
      deviceName: n.device,
      moduleId: n.module,
    });
  return out;
}

/**
 * Whether an alert event's notifications are written: an outbox row of the event exists, or (an event without
 * recipients writes none) the alert's notified mark has reached the event's level. One statement.
 */
export async function eventEnqueued(db: Exec, alertId: number, eventSeq: number, level: number): Promise<boolean> {
  if (!isDbId(alertId)) return false;
  const r = await sql<{ ok: boolean }>`
    select (exists (select 1 from notification_outbox where alert_id = ${alertId} and event_seq = ${eventSeq})
      or exists (select 1 from alert_notification_marks where alert_id = ${alertId} and last_level >= ${level})) as ok`.execute(
    db,
  );
  return !!r.rows[0]?.ok;
}

/**
 * Records that these alerts were notified now (raised, escalated, offline), with the alert's hit count: one
 * statement, one entry per alert.
 */
export async function markNotified(
  db: Exec,
  marks: readonly { alertId: number; level: number }[],
  now: Date,
): Promise<void> {
  const ok = marks.filter((m) => isDbId(m.alertId));
  if (!ok.length) return;
  await sql`
    insert into alert_notification_marks (alert_id, last_at, last_level, notified_count)
    select a.id, ${now}, x.level, a.count
    from unnest(${ok.map((m) => m.alertId)}::int[], ${ok.map((m) => m.level)}::int[]) as x(id, level)
    join alerts a on a.id = x.id
    order by a.id
    on conflict (alert_id) do update set
      last_at = excluded.last_at,
      last_level = greatest(alert_notification_marks.last_level, excluded.last_level),
      notified_count = greatest(alert_notification_marks.notified_count, excluded.notified_count)`.execute(db);
}

/** An open, untreated alert with new hits since it was last notified, whose push interval has passed. */
export interface ReminderCandidate {
  alertId: number;
  platformId: number;
  deviceId: number;
  quantity: string | null;
  kind: string;
  level: number;
  value: number | null;
  threshold: number | null;
  lastAt: Date;
  groupId: number | null;
  channels: string[];
  pushIntervalMinutes: number;
  count: number;
}

export async function reminderCandidates(db: Db, now: Date, limit = 100): Promise<ReminderCandidate[]> {
  const rows = await db.k
    .selectFrom('alerts as a')
    .innerJoin('alert_notification_marks as m', 'm.alert_id', 'a.id')
    .select([
      'a.id',
      'a.platform_id',
      'a.device_id',
      'a.quantity',
      'a.kind',
      'a.level',
      'a.last_value',
      'a.threshold',
      'a.last_at',
      'a.group_id',
      'a.channels',
      'a.push_interval_minutes',
      'a.count',
    ])
    .where('a.status', '=', 'untreated')
    .where('a.push_interval_minutes', '>', 0)
    .where(sql<SqlBool>`a.count > m.notified_count`)
    .where(sql<SqlBool>`m.last_at <= ${now}::timestamptz - make_interval(mins => a.push_interval_minutes)`)
    .orderBy('m.last_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    alertId: r.id,
    platformId: r.platform_id,
    deviceId: r.device_id,
    quantity: r.quantity,
    kind: r.kind,
    level: r.level,
    value: r.last_value,
    threshold: r.threshold,
    lastAt: new Date(r.last_at),
    groupId: r.group_id,
    channels: r.channels ?? [],
    pushIntervalMinutes: r.push_interval_minutes,
    count: Number(r.count),
  }));
}

/**
 * Claims one reminder atomically (another node or an earlier sweep may have taken it): answers the reminder's
 * number (1, 2, ...) or null.
 */
export async function claimReminder(
  db: Exec,
  alertId: number,
  now: Date,
  intervalMinutes: number,
  count: number,
): Promise<number | null> {
  const r = await db
    .updateTable('alert_notification_marks')
    .set({ last_at: now, notified_count: count, repeats: sql`repeats + 1` })
    .where('alert_id', '=', alertId)
    .where('notified_count', '<', count)
    .where(sql<SqlBool>`last_at <= ${now}::timestamptz - make_interval(mins => ${intervalMinutes})`)
    .returning('repeats')
    .executeTakeFirst();
  return r ? Number(r.repeats) : null;
}

// ------------------------------------------------------------------------------------------------ outbox

export interface OutboxInsert {
  alert_id: number;
  event_seq: number;
  platform_id: number | null;
  level: number;
  channel: AlertChannel;
  recipient: string;
  contact_id: number;
  recipient_name: string;
  language: Language;
  template_code: string | null;
  subject: string;
  body: string;
}

/** Inserts the rows; a row whose dedupe key exists already is skipped. Answers the ids inserted. */
export async function enqueue(db: Exec, rows: readonly OutboxInsert[]): Promise<number[]> {
  if (!rows.length) return [];
  const r = await db
    .insertInto('notification_outbox')
    .values(rows.map((x) => ({ ...x })))
    .onConflict((oc) => oc.constraint('notification_outbox_dedupe').doNothing())
    .returning('id')
    .execute();
  return r.map((x) => Number(x.id));
}

export interface ClaimedRow {
  id: number;
  alert_id: number;
  channel: AlertChannel;
  recipient: string;
  language: Language;
  template_code: string | null;
  subject: string;
  body: string;
  attempts: number;
}

/**
 * Claims due rows for sending: pending rows whose time has come, and rows left "sending" by a process that
 * stopped mid-send (lease expired). One statement; on PostgreSQL, FOR UPDATE SKIP LOCKED keeps two nodes
 * from claiming the same row (the embedded database has one connection anyway).
 */
export async function claimDue(db: Db, limit: number, leaseMs: number): Promise<ClaimedRow[]> {
  const r = await sql<ClaimedRow>`
    update notification_outbox o
       set state = 'sending', attempts = o.attempts + 1, locked_until = now() + make_interval(secs => ${leaseMs / 1000})
     where o.id in (
       select id from notification_outbox
        where (state = 'pending' and next_attempt_at <= now()) or (state = 'sending' and locked_until < now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked)
    returning o.id, o.alert_id, o.channel, o.recipient, o.language, o.template_code, o.subject, o.body, o.attempts`.execute(
    db.k,
  );
  return r.rows.map((x) => ({ ...x, id: Number(x.id) }));
}

/** When the next row falls due (null: none waiting). */
export async function nextDue(db: Db): Promise<Date | null> {
  const r = await db.k
    .selectFrom('notification_outbox')
    .select(sql<Date | null>`min(case when state = 'pending' then next_attempt_at else locked_until end)`.as('at'))
    .where('state', 'in', ['pending', 'sending'])
    .executeTakeFirst();
  return r?.at ? new Date(r.at) : null;
}

export async function markSent(db: Db, id: number): Promise<void> {
  await db.k
    .updateTable('notification_outbox')
    .set({ state: 'sent', sent_at: new Date(), locked_until: null, last_error: null })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .execute();
}

/** A failed attempt: pending again at `retryAt`, or failed for good when retryAt is null. */
export async function markFailed(db: Db, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db.k
    .updateTable('notification_outbox')
    .set({
      state: retryAt ? 'pending' : 'failed',
      next_attempt_at: retryAt ?? new Date(),
      locked_until: null,
      last_error: error.slice(0, 500),
    })
    .where('id', '=', id)
    .where('state', '=', 'sending')
    .execute();
}

function deliveryScope(scope: DataScope): Expression<SqlBool> | null {
  if (scope.all) return null;
  if (!scope.platformIds.length) return sql<SqlBool>`false`;
  return sql<SqlBool>`o.platform_id in (${ids(scope.platformIds)})`;
}

/** Whether the alert exists within the scope: by the alerts table when it is there, else by its deliveries. */
export async function alertVisible(db: Db, scope: DataScope, alertId: number): Promise<boolean> {
  if (!isDbId(alertId)) return false;
  const hasAlerts = await sql<{ t: string | null }>`select to_regclass('public.alerts')::text as t`.execute(db.k);
  if (hasAlerts.rows[0]?.t) {
    const r = await sql<{
      platform_id: number | null;
    }>`select platform_id from alerts where id = ${alertId}`.execute(db.k);
    const row = r.rows[0];
    if (row) return scope.all || (row.platform_id !== null && scope.platformIds.includes(row.platform_id));
  }
  const v = deliveryScope(scope);
  const r = await db.k
    .selectFrom('notification_outbox as o')
    .select('o.id')
    .where('o.alert_id', '=', alertId)
    .$if(v !== null, (q) => q.where(v!))
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

export async function listDeliveries(db: Db, alertId: number): Promise<AlertDeliveryRow[]> {
  const rows = await db.k
    .selectFrom('notification_outbox as o')
    .selectAll()
    .where('o.alert_id', '=', alertId)
    .orderBy('o.event_seq')
    .orderBy('o.id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    alertId: r.alert_id,
    eventSeq: r.event_seq,
    level: r.level,
    channel: r.channel as AlertChannel,
    recipientName: r.recipient_name,
    recipient: r.recipient,
    language: r.language as Language,
    subject: r.subject,
    body: r.body,
    state: r.state as NotificationState,
    attempts: r.attempts,
    nextAttemptAt: r.state === 'pending' ? isoOrNull(r.next_attempt_at) : null,
    lastError: r.last_error,
    sentAt: isoOrNull(r.sent_at),
    createdAt: iso(r.created_at),
  }));
}

/** A delivery row within the scope (by its alert's site). */
export async function getDelivery(
  db: Db,
  scope: DataScope,
  id: number,
): Promise<{ id: number; alertId: number; state: string } | undefined> {
  if (!isDbId(id)) return undefined;
  const v = deliveryScope(scope);
  const r = await db.k
    .selectFrom('notification_outbox as o')
    .select(['o.id', 'o.alert_id', 'o.state'])
    .where('o.id', '=', id)
    .$if(v !== null, (q) => q.where(v!))
    .executeTakeFirst();
  return r ? { id: Number(r.id), alertId: r.alert_id, state: r.state } : undefined;
}

/** A failed row goes back to pending with fresh attempts. */
export async function requeue(db: Db, id: number): Promise<boolean> {
  const r = await db.k
    .updateTable('notification_outbox')
    .set({ state: 'pending', attempts: 0, next_attempt_at: new Date(), last_error: null })
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
