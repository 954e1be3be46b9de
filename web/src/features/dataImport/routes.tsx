import { lazy } from 'react';
import { DashboardOutlined, DatabaseOutlined, ImportOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

const DataImportPage = lazy(() => import('./DataImportPage.tsx'));

/**
 * /data/dataImport (spec §2: the /data group is hidden in the menu; role monitor:dataImport, as the server
 * declares it). Holders of the role reach the same screen from the Monitoring group's "Data import" entry
 * (/monitor/dataImport: one tab, not a redirect that would leave a second one).
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
        element: DataImportPage,
      },
    ],
  },
  {
    path: '/monitor',
    titleKey: 'monitor:menu.group',
    icon: <DashboardOutlined />,
    roles: ['monitor'],
    children: [
      {
        path: 'dataImport',
        titleKey: 'dataImport:title',
        icon: <ImportOutlined />,
        roles: ['monitor:dataImport'],
        element: DataImportPage,
      },
    ],
  },
];
