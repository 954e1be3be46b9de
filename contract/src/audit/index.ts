import { z } from 'zod';
import { pageQuery, zOptInstant, zOptText, zPage } from '../api/zod.ts';
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
  // Field tasks (issue 20): target task:<id>.
  'task.add',
  'task.edit',
  'task.start',
  'task.progress',
  'task.submit',
  'task.review',
  // Safety supervision (/archives): targets inspection:<id>, plan:<id>, safetyFolder:<id>, safetyDocument:<id>.
  'inspection.add',
  'inspection.edit',
  'inspection.rectify',
  'inspection.delete',
  'plan.add',
  'plan.edit',
  'plan.delete',
  'plan.version',
  'plan.approve',
  'plan.drillAdd',
  'plan.drillDelete',
  'safetyFolder.add',
  'safetyFolder.delete',
  'safetyDocument.add',
  'safetyDocument.edit',
  'safetyDocument.version',
  'safetyDocument.delete',
  // Maps, areas, 3D and panoramas (issue 21): targets tileSet:<id>, layer:<id>, area:<id>, threeD:<site id>,
  // panorama:<id>; the map configuration has none (its provider keys are never recorded).
  'map.settings',
  'map.tileSetAdd',
  'map.tileSetDelete',
  'map.layerAdd',
  'map.layerDelete',
  'area.add',
  'area.edit',
  'area.delete',
  'threeD.model',
  'threeD.modelDelete',
  'threeD.tileset',
  'threeD.placements',
  'panorama.add',
  'panorama.edit',
  'panorama.delete',
  'panorama.hotspots',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditListQuery = pageQuery(50).extend({
  account: zOptText(64),
  action: zOptText(64),
  from: zOptInstant(),
  to: zOptInstant(),
});

export const auditRowSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  account: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
});
export type AuditRow = z.output<typeof auditRowSchema>;

export const auditRoutes = routeTable({
  list: {
    method: 'GET',
    path: '/api/v2/manage/audit/getListPage',
    permission: perm('system:audit'),
    summary:
      'Audit log of sign-ins, lockouts, permission changes and changes to tasks, safety records, maps, areas, 3D scenes and panoramas',
    tags: ['audit'],
    query: auditListQuery,
    response: zPage(auditRowSchema),
  },
});
