import { lazy } from 'react';
import { DatabaseOutlined, GlobalOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/**
 * Information > administrative regions. The regions are reference data of the site registry (a site's
 * region is a leaf of this tree), so the screen sits with the sites; managing them needs the data
 * permission (system:data), as the server requires.
 */
export const informationRegionRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    // The regions screen sits in this group but is system:data's: the group shows for either.
    roles: ['information', 'system:data'],
    icon: <DatabaseOutlined />,
    children: [
      {
        path: 'regions',
        titleKey: 'regions:menu',
        roles: ['system:data'],
        icon: <GlobalOutlined />,
        element: lazy(() => import('./RegionsPage.tsx')),
      },
    ],
  },
];
