// The alertNotifications feature's contract: alert contacts (alertContract), contact groups (alertGroup),
// message templates (AlertTemplate), colour levels (AlertConfigure) and the delivery state of an alert's
// notifications (spec §3 "Alert", §6, §9 channels; issue 5 scope item 3).
import { z } from 'zod';
import { pageQuery, zInt, zIntList, zOptText, zPage, zText } from '../api/zod.ts';
import { LANGUAGES, type Language } from '../api/envelope.ts';
import { perm, routeTable } from '../api/routes.ts';
import { ALERT_CHANNELS, type AlertChannel } from '../alerts/index.ts';
import { jsonField, optBool, optEmail, optEnum, optInt, reqInt, PHONE_PATTERN } from '../devices/fields.ts';

/** A contact's phone number (also the web form's check). */
export { PHONE_PATTERN } from '../devices/fields.ts';

/** Channels that reach a phone number (mail reaches an email address). Channels and levels: see ../alerts. */
export const PHONE_CHANNELS: readonly AlertChannel[] = ['networkSms', 'localSms', 'sms', 'voice'];

/** Placeholders a template may use; anything else in braces is refused. */
export const TEMPLATE_PLACEHOLDERS = [
  'site',
  'device',
  'quantity',
  'value',
  'level',
  'time',
  'threshold',
  'suggestion',
] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

/** The placeholder names used in a text ({name}), in order of appearance. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{([^{}\s]*)\}/g)].map((m) => m[1] ?? '');
}

/** Fills {name} placeholders; unknown ones stay as they are. */
export function fillTemplate(text: string, values: Partial<Record<TemplatePlaceholder, string>>): string {
  return text.replace(/\{([A-Za-z]+)\}/g, (all, name: string) => values[name as TemplatePlaceholder] ?? all);
}

/** A text per language; at least one language given (the service checks), empty strings dropped. */
const optLangText = (max: number) => zOptText(max);
export const perLanguageText = (max: number) =>
  z.object({ en: optLangText(max), zh: optLangText(max), ko: optLangText(max) });
export type PerLanguageText = Partial<Record<Language, string>>;
/** A text per language as answers carry it: the languages given. */
const perLanguageTextOut = z.partialRecord(z.enum(LANGUAGES), z.string());
const int = z.number().int();
const nameRef = z.object({ id: int, name: z.string() });
/** The answer of an add: the new row's id. */
const createdId = z.object({ id: int });

export const CONTACT_SORT_FIELDS = ['name', 'phone', 'email', 'language', 'createdAt'] as const;

/** A contact: name; phone (SMS, voice) and/or email (mail); the language messages are written in. */
export const alertContactFields = {
  name: zText(100),
  phone: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.string().trim().regex(PHONE_PATTERN).optional(),
  ),
  email: optEmail(),
  language: z.preprocess((v) => (v === '' || v === null || v === undefined ? 'en' : v), z.enum(LANGUAGES)),
  /** An optional link to a responsible person (spec §3). */
  personId: optInt(),
};
export const alertContactAddBody = z.object(alertContactFields);
export const alertContactEditBody = z.object({ id: zInt(), ...alertContactFields });
export const notificationIdBody = z.object({ id: zInt() });
export const alertContactListQuery = pageQuery().extend({
  keyword: zOptText(100),
  language: optEnum(LANGUAGES),
  groupId: optInt(),
});

export const alertContactRowSchema = z.object({
  id: int,
  name: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  language: z.enum(LANGUAGES),
  personId: int.nullable(),
  personName: z.string().nullable(),
  /** Groups the contact belongs to (those the caller may see). */
  groupIds: z.array(int),
  createdAt: z.string(),
});
export type AlertContactRow = z.output<typeof alertContactRowSchema>;

export const GROUP_SORT_FIELDS = ['name', 'createdAt'] as const;
/** A contact group: members, and the sites whose alerts it is told about (none: every site). */
export const alertGroupFields = {
  name: zText(100),
  description: zOptText(500),
  contactIds: zIntList().optional().default([]),
  platformIds: zIntList().optional().default([]),
};
export const alertGroupAddBody = z.object(alertGroupFields);
export const alertGroupEditBody = z.object({ id: zInt(), ...alertGroupFields });
export const alertGroupListQuery = pageQuery().extend({
  keyword: zOptText(100),
  platformId: optInt(),
  contactId: optInt(),
});

export const alertGroupRowSchema = z.object({
  id: int,
  name: z.string(),
  description: z.string().nullable(),
  contacts: z.array(nameRef),
  contactIds: z.array(int),
  /** The group's sites within the caller's data scope. */
  platformIds: z.array(int),
  createdAt: z.string(),
});
export type AlertGroupRow = z.output<typeof alertGroupRowSchema>;

export const TEMPLATE_SORT_FIELDS = ['name', 'smsTemplateCode', 'createdAt', 'updatedAt'] as const;
/**
 * A message template: name, the SMS gateway's template code, and per-language subject (mail) and content with
 * placeholders ({site} {device} {quantity} {value} {level} {time} {threshold} {suggestion}). The default template
 * is used when a rule and its level name none.
 */
export const alertTemplateFields = {
  name: zText(100),
  smsTemplateCode: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string()
      .trim()
      .max(64)
      .regex(/^[A-Za-z0-9_.-]+$/)
      .optional(),
  ),
  subject: jsonField(perLanguageText(200)),
  content: jsonField(perLanguageText(2000)),
  isDefault: optBool(),
};
export const alertTemplateAddBody = z.object(alertTemplateFields);
export const alertTemplateEditBody = z.object({ id: zInt(), ...alertTemplateFields });
export const alertTemplateListQuery = pageQuery().extend({ keyword: zOptText(100) });

export const alertTemplateRowSchema = z.object({
  id: int,
  name: z.string(),
  smsTemplateCode: z.string().nullable(),
  subject: perLanguageTextOut,
  content: perLanguageTextOut,
  isDefault: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertTemplateRow = z.output<typeof alertTemplateRowSchema>;

/** A colour level's setting: the suggestion (per language), the members told about every alert of the level, a template. */
export const alertLevelEditBody = z.object({
  level: reqInt(z.number().min(1).max(4)),
  suggestion: jsonField(perLanguageText(1000)),
  contactIds: zIntList().optional().default([]),
  templateId: optInt(),
});

export const alertLevelRowSchema = z.object({
  level: int,
  colour: z.string(),
  hex: z.string(),
  suggestion: perLanguageTextOut,
  templateId: int.nullable(),
  contacts: z.array(nameRef),
  contactIds: z.array(int),
  updatedAt: z.string(),
});
export type AlertLevelRow = z.output<typeof alertLevelRowSchema>;

export const NOTIFICATION_STATES = ['pending', 'sending', 'sent', 'failed'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

export const deliveriesQuery = z.object({ alertId: zInt() });

/** One notification of an alert: to whom, how, in which language, and how far it got. */
export const alertDeliveryRowSchema = z.object({
  id: int,
  alertId: int,
  eventSeq: int,
  level: int,
  channel: z.enum(ALERT_CHANNELS),
  recipientName: z.string(),
  recipient: z.string(),
  language: z.enum(LANGUAGES),
  subject: z.string(),
  body: z.string(),
  state: z.enum(NOTIFICATION_STATES),
  attempts: int,
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AlertDeliveryRow = z.output<typeof alertDeliveryRowSchema>;

export const deliveryRetryBody = z.object({ id: zInt() });

const tags = ['alertNotifications'];
const A = '/api/v2/data/alert';
const CONTACT = perm('alert-predict:alert-contract');
const TEMPLATE = perm('alert-predict:alert-template');
const SETTING = perm('alert-predict:alert-setting');
const ALERT = perm('alert-predict:alert');
/** The group list is also the contact-group picker of the rule screens (setalert, alertRelation). */
const GROUP_PICK = perm('alert-predict:alert-contract', 'alert-predict:alert-value');
/** The colour-level screen (alert-setting) picks each level's members and template from these lists. */
const CONTACT_PICK = perm('alert-predict:alert-contract', 'alert-predict:alert-setting');
const TEMPLATE_PICK = perm('alert-predict:alert-template', 'alert-predict:alert-setting');

export const alertNotificationsRoutes = routeTable({
  contactList: {
    method: 'GET',
    path: `${A}/contract/getListPage`,
    permission: CONTACT_PICK,
    summary: 'Alert contacts, paged, filtered and sorted',
    tags,
    query: alertContactListQuery,
    response: zPage(alertContactRowSchema),
  },
  contactAdd: {
    method: 'POST',
    path: `${A}/contract/add`,
    permission: CONTACT,
    summary: 'Add an alert contact',
    tags,
    body: alertContactAddBody,
    response: createdId,
  },
  contactEdit: {
    method: 'POST',
    path: `${A}/contract/edit`,
    permission: CONTACT,
    summary: 'Edit an alert contact',
    tags,
    body: alertContactEditBody,
    response: z.null(),
  },
  contactDelete: {
    method: 'POST',
    path: `${A}/contract/delete`,
    permission: CONTACT,
    summary: 'Delete an alert contact',
    tags,
    body: notificationIdBody,
    response: z.null(),
  },
  // alertGroup carries no role of its own (spec §6): it is managed with the contacts.
  groupList: {
    method: 'GET',
    path: `${A}/group/getListPage`,
    permission: GROUP_PICK,
    summary: 'Alert contact groups, paged, filtered and sorted',
    tags,
    query: alertGroupListQuery,
    response: zPage(alertGroupRowSchema),
  },
  groupAdd: {
    method: 'POST',
    path: `${A}/group/add`,
    permission: CONTACT,
    summary: 'Add an alert contact group',
    tags,
    body: alertGroupAddBody,
    response: createdId,
  },
  groupEdit: {
    method: 'POST',
    path: `${A}/group/edit`,
    permission: CONTACT,
    summary: 'Edit an alert contact group',
    tags,
    body: alertGroupEditBody,
    response: z.null(),
  },
  groupDelete: {
    method: 'POST',
    path: `${A}/group/delete`,
    permission: CONTACT,
    summary: 'Delete an alert contact group',
    tags,
    body: notificationIdBody,
    response: z.null(),
  },
  templateList: {
    method: 'GET',
    path: `${A}/template/getListPage`,
    permission: TEMPLATE_PICK,
    summary: 'Alert message templates, paged, filtered and sorted',
    tags,
    query: alertTemplateListQuery,
    response: zPage(alertTemplateRowSchema),
  },
  templateAdd: {
    method: 'POST',
    path: `${A}/template/add`,
    permission: TEMPLATE,
    summary: 'Add an alert message template',
    tags,
    body: alertTemplateAddBody,
    response: createdId,
  },
  templateEdit: {
    method: 'POST',
    path: `${A}/template/edit`,
    permission: TEMPLATE,
    summary: 'Edit an alert message template',
    tags,
    body: alertTemplateEditBody,
    response: z.null(),
  },
  templateDelete: {
    method: 'POST',
    path: `${A}/template/delete`,
    permission: TEMPLATE,
    summary: 'Delete an alert message template',
    tags,
    body: notificationIdBody,
    response: z.null(),
  },
  configureList: {
    method: 'GET',
    path: `${A}/configure/getList`,
    permission: SETTING,
    summary: 'The four colour levels with their members, suggestion and template',
    tags,
    response: z.array(alertLevelRowSchema),
  },
  configureEdit: {
    method: 'POST',
    path: `${A}/configure/edit`,
    permission: SETTING,
    summary: "Set a colour level's members, suggestion and template",
    tags,
    body: alertLevelEditBody,
    response: z.null(),
  },
  deliveries: {
    method: 'GET',
    path: `${A}/getDeliveries`,
    permission: ALERT,
    summary: "Delivery state of an alert's notifications (scoped by the alert's site)",
    tags,
    query: deliveriesQuery,
    response: z.array(alertDeliveryRowSchema),
  },
  deliveryRetry: {
    method: 'POST',
    path: `${A}/delivery/retry`,
    permission: ALERT,
    summary: 'Send a failed notification again (scoped by the alert site)',
    tags,
    body: deliveryRetryBody,
    response: z.null(),
  },
});
