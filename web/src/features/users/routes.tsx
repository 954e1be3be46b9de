import { lazy } from 'react';
import { UserOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** System > Users (mounted by the shell under the '/system' group). */
export const usersRoutes: AppRoute[] = [
  {
    path: 'user',
    titleKey: 'users:title',
    icon: <UserOutlined />,
    roles: ['system:user'],
    element: lazy(() => import('./UsersPage.tsx')),
  },
];
