import { lazy } from 'react';
import { DatabaseOutlined, LineChartOutlined, NodeIndexOutlined, RiseOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/**
 * Information > sections (segment), reservoir water elevation and river water elevation (spec §2, §6),
 * merged into the '/information' group.
 */
export const informationSectionRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    icon: <DatabaseOutlined />,
    redirect: 'segment',
    children: [
      {
        path: 'segment',
        titleKey: 'sections:menu.segment',
        roles: ['information:segment'],
        icon: <NodeIndexOutlined />,
        element: lazy(() => import('./SectionsPage.tsx')),
      },
      {
        path: 'reservoirWaterElevation',
        titleKey: 'sections:menu.reservoirWater',
        roles: ['information:reservoirWater'],
        icon: <LineChartOutlined />,
        element: lazy(() => import('./ReservoirWaterPage.tsx')),
      },
      {
        path: 'riverWaterElevation',
        titleKey: 'sections:menu.riverWater',
        roles: ['information:riverWater'],
        icon: <RiseOutlined />,
        element: lazy(() => import('./RiverWaterPage.tsx')),
      },
    ],
  },
];
