import { lazy } from 'react';
import { DashboardOutlined, DatabaseOutlined, FundProjectionScreenOutlined, RiseOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/**
 * The reservoir screens (issue 17): manual water levels under information (information:reservoirWater, the
 * spec's role for reservoir water elevation) and the comprehensive report under monitor (monitor:report, the
 * role of the monitoring reports); merged into their groups by path.
 */
export const reservoirRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    icon: <DatabaseOutlined />,
    children: [
      {
        path: 'reservoirWaterLevels',
        titleKey: 'reservoir:levels.title',
        roles: ['information:reservoirWater'],
        icon: <RiseOutlined />,
        element: lazy(() => import('./WaterLevelsPage.tsx')),
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
        path: 'reservoirReport',
        titleKey: 'reservoir:report.title',
        icon: <FundProjectionScreenOutlined />,
        roles: ['monitor:report'],
        element: lazy(() => import('./ReservoirReportPage.tsx')),
      },
    ],
  },
];
