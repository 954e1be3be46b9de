import { lazy } from 'react';
import { EditOutlined, RadarChartOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Area monitoring (spec §2 /areasmos: myareasmos (area:monitor), areasmosmanage (area:manage)). */
export const areasRoutes: AppRoute[] = [
  {
    path: '/areasmos',
    titleKey: 'areas:menu',
    roles: ['area'],
    icon: <RadarChartOutlined />,
    children: [
      {
        path: 'myareasmos',
        titleKey: 'areas:monitor.title',
        roles: ['area:monitor'],
        icon: <RadarChartOutlined />,
        element: lazy(() => import('./AreaMonitorPage.tsx')),
      },
      {
        path: 'areasmosmanage',
        titleKey: 'areas:manage.title',
        roles: ['area:manage'],
        icon: <EditOutlined />,
        element: lazy(() => import('./AreaManagePage.tsx')),
      },
    ],
  },
];
