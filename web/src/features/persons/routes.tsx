import { lazy } from 'react';
import { ContactsOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Information > Responsible persons (merged by the shell into the '/information' group). */
export const personRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    children: [
      {
        path: 'administrator',
        titleKey: 'persons:title',
        icon: <ContactsOutlined />,
        roles: ['information:responsible'],
        element: lazy(() => import('./PersonsPage.tsx')),
      },
    ],
  },
];
