import { lazy } from 'react';
import { Navigate } from 'react-router-dom';
import { DashboardOutlined, DatabaseOutlined, ImportOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** The menu's way to the import screen: /monitor/dataImport goes to /data/dataImport. */
function ToDataImport() {
  return <Navigate to="/data/dataImport" replace />;
}

/**
 * /data/dataImport (spec §2: the /data group is hidden in the menu; role monitor:dataImport, as the server
 * declares it). Holders of the role reach it from the Monitoring group's "Data import" entry.
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
        noCache: true,
        element: ToDataImport,
      },
    ],
  },
];
