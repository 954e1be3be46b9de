import { pageQuery, zOptInstant, zOptText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';

export const AUDIT_ACTIONS = [
  'login.success',
  'login.failure',
  'login.locked',
  'login.elsewhere',
  'login.kicked',
  'logout',
  'password.change',
  'password.reset',
  'user.add',
  'user.edit',
  'user.delete',
  'user.enable',
  'user.disable',
  'user.bindRole',
  'user.scope',
  'user.unlock',
  'role.add',
  'role.edit',
  'role.delete',
  'role.permissions',
  'permission.add',
  'permission.edit',
  'permission.delete',
  'platform.add',
  'platform.edit',
  'platform.delete',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditListQuery = pageQuery(50).extend({
  account: zOptText(64),
  action: zOptText(64),
  from: zOptInstant(),
  to: zOptInstant(),
});

export interface AuditRow {
  id: number;
  at: string;
  account: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
  ip: string | null;
}

export const auditRoutes = routeTable({
  list: {
    method: 'GET',
    path: '/api/v2/manage/audit/getListPage',
    permission: perm('system:audit'),
    summary: 'Audit log of sign-ins, lockouts and permission changes',
    tags: ['audit'],
    query: auditListQuery,
  },
});
