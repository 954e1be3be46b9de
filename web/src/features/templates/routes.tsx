import { lazy } from 'react';
import { ProfileOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Information > Info templates (spec §2, §3); the shell merges this '/information' group with the others. */
export const templatesRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    children: [
      {
        path: 'platformInfo',
        titleKey: 'templates:title',
        roles: ['information:platformInfo'],
        icon: <ProfileOutlined />,
        element: lazy(() => import('./TemplatesPage.tsx')),
      },
    ],
  },
];
