import i18next from 'i18next';
import { PLATFORM_TYPES, type AuditRow } from '@geosentry/contract';
import { catalogueLabel } from '../../shared/labels.ts';
import { formatTime } from '../../shared/time.ts';

/** One readable line of an audit record's detail: a field's label and its value, or its change (before → after). */
export interface AuditDetailLine {
  field: string;
  label: string;
  before?: string;
  value: string;
}

/** Fields the server records as a change, `[before, after]` (server/src/modules/users: the role of a user). */
const CHANGE_PAIRS = new Set(['roleId']);
/** Fields whose values are codes with labels of their own: the catalogue of each (tasks and archives: their own). */
const CODED_VALUES: Record<string, string> = {
  reason: 'audit:values.reason',
  stage: 'audit:values.stage',
  result: 'tasks:reviewResults',
  grade: 'tasks:grades',
  priority: 'tasks:priorities',
  state: 'archives:states',
  kind: 'archives:kinds',
  docType: 'archives:docTypes',
  type: 'maps:type',
  provider: 'maps:type',
  mode: 'maps:mode',
};
/** Fields holding an instant: shown in the user's time zone. */
const TIME_FIELDS = new Set(['endTime']);
/** Targets `<kind>:<id>` of records other than sites (audit:targets.<kind>). */
const RECORD_TARGETS = new Set([
  'task',
  'inspection',
  'plan',
  'safetyFolder',
  'safetyDocument',
  'tileSet',
  'layer',
  'area',
  'threeD',
  'panorama',
]);

const text = (field: string, v: unknown): string => {
  if (v === null || v === undefined || v === '') return '-';
  if (typeof v === 'boolean') return catalogueLabel(String(v), 'audit:values.boolean');
  if (Array.isArray(v))
    return v.length ? v.map((x) => text(field, x)).join(', ') : catalogueLabel('none', 'audit:values');
  if (typeof v === 'object') {
    // {from, to} or {before, after}: a change; another object: its fields.
    const o = v as Record<string, unknown>;
    return Object.entries(o)
      .map(([k, x]) => `${catalogueLabel(k, 'audit:detailFields')}: ${text(k, x)}`)
      .join('; ');
  }
  const catalogue = CODED_VALUES[field];
  if (catalogue) return catalogueLabel(String(v), catalogue);
  if (TIME_FIELDS.has(field) && typeof v === 'string') return formatTime(v);
  return String(v);
};

const isChange = (field: string, v: unknown): v is [unknown, unknown] | Record<string, unknown> => {
  if (Array.isArray(v)) return v.length === 2 && CHANGE_PAIRS.has(field);
  if (!v || typeof v !== 'object') return false;
  const keys = Object.keys(v).sort().join(',');
  return keys === 'from,to' || keys === 'after,before';
};

/**
 * The detail of an audit record as lines a person reads ("Role: 2 → 5", "Previous code: a → b"), never raw JSON:
 * field names by their labels (audit:detailFields), booleans and codes by theirs, a change as before → after. A
 * field no catalogue knows is shown by its name.
 */
export function auditDetailLines(row: Pick<AuditRow, 'action' | 'target' | 'detail'>): AuditDetailLine[] {
  const detail = row.detail ?? {};
  return Object.entries(detail).map(([field, v]): AuditDetailLine => {
    const label = catalogueLabel(field, 'audit:detailFields');
    // A permission's code changed: the record keeps the old code, the target is the new one.
    if (field === 'from' && row.action === 'permission.edit' && row.target)
      return { field, label: catalogueLabel('code', 'audit:detailFields'), before: text(field, v), value: row.target };
    if (isChange(field, v)) {
      const [before, after] = Array.isArray(v)
        ? v
        : 'from' in v
          ? [v.from, v.to]
          : [(v as Record<string, unknown>).before, (v as Record<string, unknown>).after];
      return { field, label, before: text(field, before), value: text(field, after) };
    }
    return { field, label, value: text(field, v) };
  });
}

/** The lines as one text: "label: before → after; label: value". */
export const auditDetailText = (row: Pick<AuditRow, 'action' | 'target' | 'detail'>): string =>
  auditDetailLines(row)
    .map((l) => `${l.label}: ${l.before !== undefined ? `${l.before} → ${l.value}` : l.value}`)
    .join('; ');

/**
 * The target of a record as shown: a site or a record (`<kind>:<id>`: task, inspection, plan, folder, safety file) by
 * its kind's name, anything else (an account, a code) as it is.
 */
export function auditTarget(target: string | null): string | null {
  const site = /^(\w+):(\d+)$/.exec(target ?? '');
  if (!site || !((PLATFORM_TYPES as readonly string[]).includes(site[1]!) || RECORD_TARGETS.has(site[1]!)))
    return target;
  return i18next.t(`audit:targets.${site[1]}`, { id: site[2] });
}
