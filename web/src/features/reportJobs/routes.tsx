import { lazy } from 'react';
import { DashboardOutlined, DatabaseOutlined, FileSyncOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

const ReportCentrePage = lazy(() => import('./ReportCentrePage.tsx'));

/**
 * /data/reportform, the report centre (spec §2: the /data group is hidden in the menu; role monitor:report, as
 * the server declares it): report jobs and scheduled reports. Holders of the role reach the same screen from the
 * Monitoring group's "Report centre" entry (/monitor/reportform), as the data import does.
 */
export const reportCentreRoutes: AppRoute[] = [
  {
    path: '/data',
    titleKey: 'reportJobs:group',
    icon: <DatabaseOutlined />,
    hidden: true,
    roles: ['monitor:report'],
    redirect: '/data/reportform',
    children: [
      {
        path: 'reportform',
        titleKey: 'reportJobs:title',
        icon: <FileSyncOutlined />,
        roles: ['monitor:report'],
        element: ReportCentrePage,
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
        path: 'reportform',
        titleKey: 'reportJobs:title',
        icon: <FileSyncOutlined />,
        roles: ['monitor:report'],
        element: ReportCentrePage,
      },
    ],
  },
];
