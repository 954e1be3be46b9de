import {
  alertContactListQuery,
  alertGroupListQuery,
  alertNotificationsRoutes as R,
  alertTemplateListQuery,
  type Language,
  type PerLanguageText,
} from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';
import type { z } from 'zod';

export const notificationKeys = {
  all: ['alertNotifications'] as const,
  contacts: (p: object) => ['alertNotifications', 'contacts', p] as const,
  contactOptions: ['alertNotifications', 'contacts', 'options'] as const,
  groups: (p: object) => ['alertNotifications', 'groups', p] as const,
  templates: (p: object) => ['alertNotifications', 'templates', p] as const,
  templateOptions: ['alertNotifications', 'templates', 'options'] as const,
  levels: ['alertNotifications', 'levels'] as const,
};

export type ContactParams = z.output<typeof alertContactListQuery>;
export interface ContactValues {
  name: string;
  phone?: string | undefined;
  email?: string | undefined;
  language: Language;
}
export const fetchContacts = (p: ContactParams) => call(R.contactList, { ...p });
export const fetchContactOptions = () =>
  call(R.contactList, { pageNum: 1, pageSize: 1000 }, picker).then((p) => p.list);
const contactFields = (v: ContactValues) => ({
  name: v.name.trim(),
  phone: blankToUndefined(v.phone) ?? '',
  email: blankToUndefined(v.email) ?? '',
  language: v.language,
});
export const saveContact = (id: number | null, v: ContactValues) =>
  id === null ? call(R.contactAdd, contactFields(v), change) : call(R.contactEdit, { id, ...contactFields(v) }, change);
export const deleteContact = (id: number) => call(R.contactDelete, { id }, change);

export type GroupParams = z.output<typeof alertGroupListQuery>;
export interface GroupValues {
  name: string;
  description?: string | undefined;
  contactIds?: number[] | undefined;
  platformIds?: number[] | undefined;
}
export const fetchGroups = (p: GroupParams) => call(R.groupList, { ...p });
const groupFields = (v: GroupValues) => ({
  name: v.name.trim(),
  description: blankToUndefined(v.description) ?? '',
  contactIds: (v.contactIds ?? []).join(','),
  platformIds: (v.platformIds ?? []).join(','),
});
export const saveGroup = (id: number | null, v: GroupValues) =>
  id === null ? call(R.groupAdd, groupFields(v), change) : call(R.groupEdit, { id, ...groupFields(v) }, change);
export const deleteGroup = (id: number) => call(R.groupDelete, { id }, change);

export interface TemplateValues {
  name: string;
  smsTemplateCode?: string | undefined;
  subject: PerLanguageText;
  content: PerLanguageText;
  isDefault?: boolean | undefined;
}
export type TemplateParams = z.output<typeof alertTemplateListQuery>;
export const fetchTemplates = (p: TemplateParams) => call(R.templateList, { ...p });
export const fetchTemplateOptions = () =>
  call(R.templateList, { pageNum: 1, pageSize: 500 }, picker).then((p) => p.list);
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
    ? call(R.templateAdd, templateFields(v), change)
    : call(R.templateEdit, { id, ...templateFields(v) }, change);
export const deleteTemplate = (id: number) => call(R.templateDelete, { id }, change);

export const fetchLevels = () => call(R.configureList, {});
export const saveLevel = (v: {
  level: number;
  suggestion: PerLanguageText;
  contactIds: number[];
  templateId?: number | undefined;
}) =>
  call(
    R.configureEdit,
    {
      level: v.level,
      suggestion: JSON.stringify(clean(v.suggestion ?? {})),
      contactIds: v.contactIds.join(','),
      templateId: v.templateId,
    },
    change,
  );
