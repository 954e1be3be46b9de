import { lazy } from 'react';
import { AuditOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** System > Audit log (mounted by the shell under the '/system' group). */
export const auditRoutes: AppRoute[] = [
  {
    path: 'audit',
    titleKey: 'audit:title',
    icon: <AuditOutlined />,
    roles: ['system:audit'],
    element: lazy(() => import('./AuditPage.tsx')),
  },
];
