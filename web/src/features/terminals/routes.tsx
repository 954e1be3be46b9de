import { lazy } from 'react';
import { ClusterOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Information > Terminals (merged by the shell into the '/information' group). */
export const terminalRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    children: [
      {
        path: 'terminalInfoManagement',
        titleKey: 'terminals:title',
        icon: <ClusterOutlined />,
        roles: ['information:terminal'],
        element: lazy(() => import('./TerminalsPage.tsx')),
      },
    ],
  },
];
