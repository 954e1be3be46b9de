import { lazy } from 'react';
import { DatabaseOutlined, DeploymentUnitOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Information > Monitoring devices, device information and the hidden device card (merged into '/information'). */
export const deviceRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    children: [
      {
        path: 'monitoringDeviceManagement',
        titleKey: 'devices:title',
        icon: <DeploymentUnitOutlined />,
        roles: ['information:device'],
        element: lazy(() => import('./DevicesPage.tsx')),
      },
      {
        path: 'deviceInfo',
        titleKey: 'devices:info.title',
        icon: <DatabaseOutlined />,
        roles: ['information:commonDevice'],
        element: lazy(() => import('./DeviceInfoPage.tsx')),
      },
      {
        path: 'device/detail',
        titleKey: 'devices:detail.title',
        hidden: true,
        roles: ['information:device', 'information:commonDevice'],
        element: lazy(() => import('./DeviceDetailPage.tsx')),
      },
    ],
  },
];
