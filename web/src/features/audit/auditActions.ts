import type { z } from 'zod';
import { AUDIT_ACTIONS, auditListQuery, auditRoutes, type AuditAction } from '@geosentry/contract';
import { call } from '../../shared/api.ts';

/** The colour of an action's tag: failures and locks red, warnings orange, sign-ins green, changes blue. */
export function actionColor(action: string): string {
  if (action === 'login.failure' || action === 'login.locked') return 'red';
  if (action === 'login.elsewhere' || action === 'login.kicked') return 'orange';
  if (action === 'login.success') return 'green';
  if (action === 'logout') return 'default';
  return 'blue';
}

/** Audit actions grouped for the filter, in contract order. */
export const ACTION_GROUPS: { key: string; actions: AuditAction[] }[] = [
  {
    key: 'session',
    actions: AUDIT_ACTIONS.filter((a) => a.startsWith('login.') || a === 'logout' || a.startsWith('password.')),
  },
  { key: 'users', actions: AUDIT_ACTIONS.filter((a) => a.startsWith('user.')) },
  { key: 'roles', actions: AUDIT_ACTIONS.filter((a) => a.startsWith('role.')) },
  { key: 'permissions', actions: AUDIT_ACTIONS.filter((a) => a.startsWith('permission.')) },
  { key: 'sites', actions: AUDIT_ACTIONS.filter((a) => a.startsWith('platform.')) },
  { key: 'tasks', actions: AUDIT_ACTIONS.filter((a) => a.startsWith('task.')) },
  {
    key: 'archives',
    actions: AUDIT_ACTIONS.filter((a) => /^(inspection|plan|safetyFolder|safetyDocument)\./.test(a)),
  },
  { key: 'maps', actions: AUDIT_ACTIONS.filter((a) => /^(map|area|threeD|panorama)\./.test(a)) },
];

/** The translation key of an action code: 'audit:actions.<code with '.' replaced by '_'>'. */
export const actionKey = (action: string): string => `actions.${action.replace(/\./g, '_')}`;

/** The list's query as the page holds it (the contract's, with paging given). */
export type AuditListParams = z.output<typeof auditListQuery>;

export const auditKeys = {
  list: (p: AuditListParams) => ['audit', 'list', p] as const,
};

export const fetchAudit = (p: AuditListParams) => call(auditRoutes.list, { ...p });
