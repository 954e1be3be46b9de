import { lazy } from 'react';
import { GlobalOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** System > Map (issue 21): the map configuration, offline tile sets, system map layers (mounted under '/system'). */
export const mapsRoutes: AppRoute[] = [
  {
    path: 'map',
    titleKey: 'maps:title',
    icon: <GlobalOutlined />,
    roles: ['system'],
    element: lazy(() => import('./MapSettingsPage.tsx')),
  },
];
