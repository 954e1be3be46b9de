import { lazy } from 'react';
import { DatabaseOutlined, ImportOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/**
 * /data/dataImport (spec §2: the /data group is hidden in the menu; role monitor:dataImport, as the server
 * declares it). The module report screen links to it for those who hold the role.
 */
export const importScreenRoutes: AppRoute[] = [
  {
    path: '/data',
    titleKey: 'dataImport:group',
    icon: <DatabaseOutlined />,
    hidden: true,
    roles: ['monitor:dataImport'],
    redirect: '/data/dataImport',
    children: [
      {
        path: 'dataImport',
        titleKey: 'dataImport:title',
        icon: <ImportOutlined />,
        roles: ['monitor:dataImport'],
        element: lazy(() => import('./DataImportPage.tsx')),
      },
    ],
  },
];
