import {
  alertNotificationsRoutes as R,
  type AlertContactRow,
  type AlertGroupRow,
  type AlertLevelRow,
  type AlertTemplateRow,
  type Language,
  type Page,
  type PerLanguageText,
} from '@geosentry/contract';
import { callUntyped } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';
import type { PagedParams } from '../../shared/table/serverTable.ts';

export const notificationKeys = {
  all: ['alertNotifications'] as const,
  contacts: (p: object) => ['alertNotifications', 'contacts', p] as const,
  contactOptions: ['alertNotifications', 'contacts', 'options'] as const,
  groups: (p: object) => ['alertNotifications', 'groups', p] as const,
  templates: (p: object) => ['alertNotifications', 'templates', p] as const,
  templateOptions: ['alertNotifications', 'templates', 'options'] as const,
  levels: ['alertNotifications', 'levels'] as const,
};

export interface ContactParams extends PagedParams {
  keyword?: string | undefined;
  language?: Language | undefined;
  groupId?: number | undefined;
}
export interface ContactValues {
  name: string;
  phone?: string | undefined;
  email?: string | undefined;
  language: Language;
}
export const fetchContacts = (p: ContactParams) => callUntyped<Page<AlertContactRow>>(R.contactList, { ...p });
export const fetchContactOptions = () =>
  callUntyped<Page<AlertContactRow>>(R.contactList, { pageNum: 1, pageSize: 1000 }, picker).then((p) => p.list);
const contactFields = (v: ContactValues) => ({
  name: v.name.trim(),
  phone: blankToUndefined(v.phone) ?? '',
  email: blankToUndefined(v.email) ?? '',
  language: v.language,
});
export const saveContact = (id: number | null, v: ContactValues) =>
  id === null
    ? callUntyped<{ id: number }>(R.contactAdd, contactFields(v), change)
    : callUntyped<null>(R.contactEdit, { id, ...contactFields(v) }, change);
export const deleteContact = (id: number) => callUntyped<null>(R.contactDelete, { id }, change);

export interface GroupParams extends PagedParams {
  keyword?: string | undefined;
}
export interface GroupValues {
  name: string;
  description?: string | undefined;
  contactIds?: number[] | undefined;
  platformIds?: number[] | undefined;
}
export const fetchGroups = (p: GroupParams) => callUntyped<Page<AlertGroupRow>>(R.groupList, { ...p });
const groupFields = (v: GroupValues) => ({
  name: v.name.trim(),
  description: blankToUndefined(v.description) ?? '',
  contactIds: (v.contactIds ?? []).join(','),
  platformIds: (v.platformIds ?? []).join(','),
});
export const saveGroup = (id: number | null, v: GroupValues) =>
  id === null
    ? callUntyped<{ id: number }>(R.groupAdd, groupFields(v), change)
    : callUntyped<null>(R.groupEdit, { id, ...groupFields(v) }, change);
export const deleteGroup = (id: number) => callUntyped<null>(R.groupDelete, { id }, change);

export interface TemplateValues {
  name: string;
  smsTemplateCode?: string | undefined;
  subject: PerLanguageText;
  content: PerLanguageText;
  isDefault?: boolean | undefined;
}
export const fetchTemplates = (p: PagedParams & { keyword?: string | undefined }) =>
  callUntyped<Page<AlertTemplateRow>>(R.templateList, { ...p });
export const fetchTemplateOptions = () =>
  callUntyped<Page<AlertTemplateRow>>(R.templateList, { pageNum: 1, pageSize: 500 }, picker).then((p) => p.list);
const clean = (t: PerLanguageText): PerLanguageText =>
  Object.fromEntries(Object.entries(t).filter(([, v]) => typeof v === 'string' && v.trim() !== ''));
const templateFields = (v: TemplateValues) => ({
  name: v.name.trim(),
  smsTemplateCode: blankToUndefined(v.smsTemplateCode) ?? '',
  subject: JSON.stringify(clean(v.subject ?? {})),
  content: JSON.stringify(clean(v.content ?? {})),
  isDefault: v.isDefault ? 1 : 0,
});
export const saveTemplate = (id: number | null, v: TemplateValues) =>
  id === null
    ? callUntyped<{ id: number }>(R.templateAdd, templateFields(v), change)
    : callUntyped<null>(R.templateEdit, { id, ...templateFields(v) }, change);
export const deleteTemplate = (id: number) => callUntyped<null>(R.templateDelete, { id }, change);

export const fetchLevels = () => callUntyped<AlertLevelRow[]>(R.configureList, {});
export const saveLevel = (v: {
  level: number;
  suggestion: PerLanguageText;
  contactIds: number[];
  templateId?: number | undefined;
}) =>
  callUntyped<null>(
    R.configureEdit,
    {
      level: v.level,
      suggestion: JSON.stringify(clean(v.suggestion ?? {})),
      contactIds: v.contactIds.join(','),
      templateId: v.templateId,
    },
    change,
  );
