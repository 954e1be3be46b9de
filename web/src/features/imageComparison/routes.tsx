import { lazy } from 'react';
import { DashboardOutlined, DiffOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** /monitor/imageComparison (spec §2: image comparison as a report title; role monitor:report). */
export const imageComparisonRoutes: AppRoute[] = [
  {
    path: '/monitor',
    titleKey: 'monitor:menu.group',
    icon: <DashboardOutlined />,
    roles: ['monitor'],
    children: [
      {
        path: 'imageComparison',
        titleKey: 'imageComparison:title',
        icon: <DiffOutlined />,
        roles: ['monitor:report'],
        element: lazy(() => import('./ImageComparisonPage.tsx')),
      },
    ],
  },
];
