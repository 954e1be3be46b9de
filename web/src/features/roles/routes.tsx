import { lazy } from 'react';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** System > Roles (mounted by the shell under the '/system' group). */
export const rolesRoutes: AppRoute[] = [
  {
    path: 'role',
    titleKey: 'roles:title',
    icon: <SafetyCertificateOutlined />,
    roles: ['system:role'],
    element: lazy(() => import('./RolesPage.tsx')),
  },
];
