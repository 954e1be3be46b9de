import { lazy } from 'react';
import { AuditOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Information > TS management: tailings supervision records (merged by the shell into '/information'). */
export const tsManagementRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    children: [
      {
        path: 'TSManagement',
        titleKey: 'tsManagement:title',
        icon: <AuditOutlined />,
        roles: ['information:TSManagement'],
        element: lazy(() => import('./TsManagementPage.tsx')),
      },
    ],
  },
];
