import { lazy } from 'react';
import { LinkOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Information > External files (merged by the shell into the '/information' group). */
export const externalFileRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    children: [
      {
        path: 'cloudDiskLink',
        titleKey: 'externalFiles:title',
        icon: <LinkOutlined />,
        roles: ['information:external-file'],
        element: lazy(() => import('./ExternalFilesPage.tsx')),
      },
    ],
  },
];
