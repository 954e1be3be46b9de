import { lazy } from 'react';
import { MenuOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** System > Menu management (mounted by the shell under the '/system' group). */
export const permissionsRoutes: AppRoute[] = [
  {
    path: 'jurisdiction',
    titleKey: 'permissions:title',
    icon: <MenuOutlined />,
    roles: ['system:permission'],
    element: lazy(() => import('./PermissionsPage.tsx')),
  },
];
