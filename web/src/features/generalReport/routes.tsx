import { lazy } from 'react';
import { DashboardOutlined, FileDoneOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** /monitor/generalReport (spec §2, role monitor:generalReport): merged into the /monitor group by path. */
export const generalReportRoutes: AppRoute[] = [
  {
    path: '/monitor',
    titleKey: 'monitor:menu.group',
    icon: <DashboardOutlined />,
    roles: ['monitor'],
    children: [
      {
        path: 'generalReport',
        titleKey: 'generalReport:title',
        icon: <FileDoneOutlined />,
        roles: ['monitor:generalReport'],
        element: lazy(() => import('./GeneralReportPage.tsx')),
      },
    ],
  },
];
