import { lazy } from 'react';
import { AppstoreAddOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Information > Monitor types of a site (merged by the shell into the '/information' group). */
export const siteModuleRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    children: [
      {
        path: 'modules',
        titleKey: 'monitorTypes:title',
        icon: <AppstoreAddOutlined />,
        roles: ['information:device'],
        element: lazy(() => import('./ModulesPage.tsx')),
      },
    ],
  },
];
