import { lazy } from 'react';
import { DashboardOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** /monitor/VibrationReport (spec §2, role monitor:vibrationReport): merged into the /monitor group by path. */
export const vibrationRoutes: AppRoute[] = [
  {
    path: '/monitor',
    titleKey: 'monitor:menu.group',
    icon: <DashboardOutlined />,
    roles: ['monitor'],
    children: [
      {
        path: 'VibrationReport',
        titleKey: 'vibration:title',
        icon: <ThunderboltOutlined />,
        roles: ['monitor:vibrationReport'],
        element: lazy(() => import('./VibrationReportPage.tsx')),
      },
    ],
  },
];
