import { lazy } from 'react';
import { BoxPlotOutlined, ToolOutlined } from '@ant-design/icons';
import { THREE_D_HIDDEN_TYPES } from '@geosentry/contract';
import type { AppRoute } from '../../app/route-types.ts';

/** /dimensional (spec §2): 3D (default) and 3DManage; absent for the bridge and sideslope platform types. */
export const threeDRoutes: AppRoute[] = [
  {
    path: '/dimensional',
    titleKey: 'threeD:menu.group',
    icon: <BoxPlotOutlined />,
    roles: ['threeDimensional', 'threeDimensional:show', 'threeDimensional:manage'],
    hiddenForPlatformTypes: THREE_D_HIDDEN_TYPES,
    redirect: '/dimensional/3D',
    children: [
      {
        path: '3D',
        titleKey: 'threeD:view.title',
        icon: <BoxPlotOutlined />,
        roles: ['threeDimensional:show'],
        element: lazy(() => import('./ThreeDViewPage.tsx')),
      },
      {
        path: '3DManage',
        titleKey: 'threeD:manage.title',
        icon: <ToolOutlined />,
        roles: ['threeDimensional:manage'],
        element: lazy(() => import('./ThreeDManagePage.tsx')),
      },
    ],
  },
];
