import {
  ALERT_RULE_SORT_FIELDS,
  ALERT_SORT_FIELDS,
  alertCriterionAddBody,
  alertNotificationsRoutes,
  alertRelationListQuery,
  alertReportQuery,
  alertRuleListQuery,
  alertsByPlatformQuery,
  alertsRoutes,
  type AlertChannel,
  type AlertDirection,
  type AlertValueType,
  type FalseAlarmType,
  type RelationMode,
  type WindowUnit,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';

export { ALERT_SORT_FIELDS, ALERT_RULE_SORT_FIELDS };

/** The alert list's parameters: the contract's query (paging, sort, site and filters). */
export type AlertListParams = z.output<typeof alertsByPlatformQuery>;
/** The alert value list's parameters. */
export type RuleListParams = z.output<typeof alertRuleListQuery>;

export const alertKeys = {
  all: ['alerts'] as const,
  list: (p: AlertListParams) => ['alerts', 'list', p] as const,
  detail: (id: number) => ['alerts', 'detail', id] as const,
  deliveries: (id: number) => ['alerts', 'deliveries', id] as const,
  counts: ['alerts', 'counts'] as const,
  report: (p: object) => ['alerts', 'report', p] as const,
  rules: (p: RuleListParams) => ['alerts', 'rules', p] as const,
  rulesAll: ['alerts', 'rules'] as const,
  criteria: ['alerts', 'criteria'] as const,
  relations: (p: object) => ['alerts', 'relations', p] as const,
  relationsAll: ['alerts', 'relations'] as const,
  groups: ['alerts', 'groupOptions'] as const,
};

export const fetchAlerts = (p: AlertListParams) => call(alertsRoutes.byPlatform, { ...p });
export const fetchAlertDetail = (id: number) => call(alertsRoutes.detail, { id }, picker);
export const fetchDeliveries = (alertId: number) =>
  call(alertNotificationsRoutes.deliveries, { alertId }, { ...picker, silent: true });
export const retryDelivery = (id: number) => call(alertNotificationsRoutes.deliveryRetry, { id }, change);
export const fetchAlertCounts = () => call(alertsRoutes.counts, {}, { ...picker, silent: true });

export interface ProcessValues {
  suggestion?: string | undefined;
  falseAlarm?: boolean | undefined;
  falseAlarmType?: FalseAlarmType | undefined;
  onSiteCheck?: string | undefined;
  deformation?: string | undefined;
  attachments?: string[] | undefined;
}

/** processed 0: save as pre-process (still editable); 1: finish (processed, locked). */
export const processAlert = (id: number, processed: 0 | 1, v: ProcessValues) =>
  call(
    alertsRoutes.process,
    {
      id,
      processed,
      suggestion: blankToUndefined(v.suggestion),
      falseAlarm: v.falseAlarm ? 1 : 0,
      falseAlarmType: v.falseAlarm ? v.falseAlarmType : undefined,
      onSiteCheck: blankToUndefined(v.onSiteCheck),
      deformation: blankToUndefined(v.deformation),
      // '' is an empty list (a form cannot send an empty array).
      attachments: (v.attachments ?? []).join(','),
    },
    change,
  );

// ---- report ----

export type ReportParams = z.output<typeof alertReportQuery>;

export const fetchReport = (p: ReportParams) => call(alertsRoutes.report, { ...p });

/**
 * Downloads the report workbook with the token and language headers, reporting progress (0-100, or -1 when the
 * size is unknown); an error answer (an envelope) is thrown as an Error with its message.
 */
export async function downloadReport(p: ReportParams, onProgress: (pct: number) => void): Promise<string> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(p)) if (v !== undefined && v !== '') q.set(k, String(v));
  const token = getToken();
  const res = await fetch(`${alertsRoutes.reportExport.path}?${q.toString()}`, {
    headers: { language: currentLanguage(), ...(token ? { token } : {}) },
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const env = (await res.json().catch(() => null)) as { info?: string } | null;
    throw new Error(env?.info ?? res.statusText);
  }
  const total = Number(res.headers.get('content-length') ?? 0);
  const chunks: Uint8Array[] = [];
  let got = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      got += value.length;
      onProgress(total > 0 ? Math.min(99, Math.round((got / total) * 100)) : -1);
    }
  } else chunks.push(new Uint8Array(await res.arrayBuffer()));
  const blob = new Blob(chunks as BlobPart[], { type });
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'alert-report.xlsx';
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  onProgress(100);
  return name;
}

// ---- alert values (rules) ----

export interface RuleFormValues {
  deviceId: number;
  quantity: string;
  level?: number | undefined;
  valueType?: AlertValueType | undefined;
  value?: string | undefined;
  rateValue?: string | undefined;
  direction?: AlertDirection | undefined;
  windowN?: number | null | undefined;
  windowUnit?: WindowUnit | undefined;
  ratio?: string | undefined;
  groupId?: number | undefined;
  channels?: AlertChannel[] | undefined;
  pushIntervalMinutes?: number | null | undefined;
  enabled?: boolean | undefined;
  criterionId?: number | undefined;
  description?: string | undefined;
}

function ruleFields(v: RuleFormValues) {
  return {
    deviceId: v.deviceId,
    quantity: v.quantity,
    level: v.level,
    valueType: v.valueType,
    value: blankToUndefined(v.value),
    rateValue: blankToUndefined(v.rateValue),
    direction: v.direction,
    windowN: v.windowN ?? undefined,
    windowUnit: v.windowN ? v.windowUnit : undefined,
    ratio: blankToUndefined(v.ratio),
    groupId: v.groupId,
    channels: (v.channels ?? []).join(','),
    pushIntervalMinutes: v.pushIntervalMinutes ?? undefined,
    enabled: v.enabled === false ? 0 : 1,
    criterionId: v.criterionId,
    description: blankToUndefined(v.description),
  };
}

export const fetchRules = (p: RuleListParams) => call(alertsRoutes.valuesList, { ...p });
export const fetchRulesOfDevice = (deviceId: number) => call(alertsRoutes.valuesByDevice, { deviceId }, picker);
export const addRule = (v: RuleFormValues) => call(alertsRoutes.valueAdd, ruleFields(v), change);
export const editRule = (id: number, v: RuleFormValues) =>
  call(alertsRoutes.valueEdit, { id, ...ruleFields(v) }, change);
export const deleteRule = (id: number) => call(alertsRoutes.valueDelete, { id }, change);
export const enableRule = (id: number, enabled: boolean) =>
  call(alertsRoutes.valueEnable, { id, enabled: enabled ? 1 : 0 }, change);
export const testRule = (v: RuleFormValues & { id?: number | undefined }, days: number) =>
  call(alertsRoutes.valueTest, { ...ruleFields(v), id: v.id, days }, change);

// ---- criteria ----

export const fetchCriteria = (keyword?: string) =>
  call(alertsRoutes.criteriaList, { keyword: blankToUndefined(keyword) }, picker);
export const saveCriterion = (v: z.output<typeof alertCriterionAddBody> & { id?: number | undefined }) =>
  v.id
    ? call(alertsRoutes.criteriaEdit, { ...v, id: v.id, description: blankToUndefined(v.description) }, change)
    : call(alertsRoutes.criteriaAdd, { ...v, description: blankToUndefined(v.description) }, change);
export const deleteCriterion = (id: number) => call(alertsRoutes.criteriaDelete, { id }, change);

// ---- multi-device rules ----

export interface RelationFormValues {
  name: string;
  members: { deviceId: number; quantity: string }[];
  valueType?: AlertValueType | undefined;
  direction?: AlertDirection | undefined;
  levels: { level: number; value: string }[];
  windowN?: number | null | undefined;
  windowUnit?: WindowUnit | undefined;
  mode?: RelationMode | undefined;
  groupId?: number | undefined;
  channels?: AlertChannel[] | undefined;
  pushIntervalMinutes?: number | null | undefined;
  enabled?: boolean | undefined;
  description?: string | undefined;
}

function relationFields(v: RelationFormValues) {
  return {
    name: v.name.trim(),
    members: JSON.stringify(v.members),
    valueType: v.valueType,
    direction: v.direction,
    levels: JSON.stringify(v.levels.filter((l) => l.value !== undefined && String(l.value).trim() !== '')),
    windowN: v.windowN ?? undefined,
    windowUnit: v.windowN ? v.windowUnit : undefined,
    mode: v.mode,
    groupId: v.groupId,
    channels: (v.channels ?? []).join(','),
    pushIntervalMinutes: v.pushIntervalMinutes ?? undefined,
    enabled: v.enabled === false ? 0 : 1,
    description: blankToUndefined(v.description),
  };
}

export const fetchRelations = (p: z.output<typeof alertRelationListQuery>) => call(alertsRoutes.relationList, { ...p });
export const addRelation = (v: RelationFormValues) => call(alertsRoutes.relationAdd, relationFields(v), change);
export const editRelation = (id: number, v: RelationFormValues) =>
  call(alertsRoutes.relationEdit, { id, ...relationFields(v) }, change);
export const deleteRelation = (id: number) => call(alertsRoutes.relationDelete, { id }, change);

/** Contact groups for pickers (the rule forms' "contact group"). */
export const fetchGroupOptions = () =>
  call(
    alertNotificationsRoutes.groupList,
    { pageNum: 1, pageSize: 500 },
    {
      ...picker,
      silent: true,
    },
  ).then((p) => p.list);
