import { sql, type Expression, type SqlBool } from 'kysely';
import type { AlertChannel, AlertDeliveryRow, Language, NotificationState, PerLanguageText } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { DataScope } from '../../platform/auth/access.ts';
import { ids, type Exec } from '../../platform/db/sql.ts';
import { iso, isoOrNull, isDbId } from '../../platform/db/sql.ts';
import { texts } from './alertNotifications.templates.repository.ts';

/** SQL of the notification path: recipients and facts of alert events, the outbox, deliveries and reminders. */

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

/** A file sent with a mail (scheduled reports): a file of the job store, by id and extension, and its name. */
export interface MailAttachment {
  fileId: string;
  ext: string;
  name: string;
  contentType: string;
}

/** A mail of a scheduled report's run (no alert): one per run, channel and recipient. */
export interface ReportMailInsert {
  report_run_id: number;
  platform_id: number | null;
  recipient: string;
  contact_id: number;
  recipient_name: string;
  language: Language;
  subject: string;
  body: string;
  attachments: MailAttachment[];
}

/** Inserts report mails; a row whose (run, channel, recipient) exists is skipped. Answers the ids inserted. */
export async function enqueueReportMails(db: Exec, rows: readonly ReportMailInsert[]): Promise<number[]> {
  const out: number[] = [];
  for (const x of rows) {
    const r = await sql<{ id: string | number }>`
      insert into notification_outbox (alert_id, event_seq, platform_id, level, channel, recipient, contact_id,
        recipient_name, language, template_code, subject, body, report_run_id, attachments)
      values (null, 0, ${x.platform_id}, null, 'mail', ${x.recipient}, ${x.contact_id}, ${x.recipient_name},
        ${x.language}, null, ${x.subject}, ${x.body}, ${x.report_run_id}, ${JSON.stringify(x.attachments)}::jsonb)
      on conflict (report_run_id, channel, recipient) where report_run_id is not null do nothing
      returning id`.execute(db);
    if (r.rows[0]) out.push(Number(r.rows[0].id));
  }
  return out;
}

/**
 * A mail that names no alert (reminders of other features, e.g. a plan about to expire). The caller keeps it
 * to once per cause (its own key, in the same transaction); the outbox sends it with its retries.
 */
export interface PlainMailInsert {
  platform_id: number | null;
  recipient: string;
  contact_id: number | null;
  recipient_name: string;
  language: Language;
  subject: string;
  body: string;
}

/** Inserts plain mails; answers the ids inserted. */
export async function enqueuePlainMails(db: Exec, rows: readonly PlainMailInsert[]): Promise<number[]> {
  const out: number[] = [];
  for (const x of rows) {
    const r = await sql<{ id: string | number }>`
      insert into notification_outbox (alert_id, event_seq, platform_id, level, channel, recipient, contact_id,
        recipient_name, language, template_code, subject, body)
      values (null, 0, ${x.platform_id}, null, 'mail', ${x.recipient}, ${x.contact_id}, ${x.recipient_name},
        ${x.language}, null, ${x.subject}, ${x.body})
      returning id`.execute(db);
    out.push(Number(r.rows[0]!.id));
  }
  return out;
}

export interface ClaimedRow {
  id: number;
  /** Null for a scheduled report's mail. */
  alert_id: number | null;
  /** A scheduled report's files (null for alert messages). */
  attachments: MailAttachment[] | null;
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
    returning o.id, o.alert_id, o.channel, o.recipient, o.language, o.template_code, o.subject, o.body, o.attempts,
              o.attachments`.execute(db.k);
  return r.rows.map((x) => ({
    ...x,
    id: Number(x.id),
    attachments: typeof x.attachments === 'string' ? (JSON.parse(x.attachments) as MailAttachment[]) : x.attachments,
  }));
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
