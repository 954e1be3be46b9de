import { lazy } from 'react';
import {
  ApartmentOutlined,
  CameraOutlined,
  ScheduleOutlined,
  VideoCameraOutlined,
  AppstoreOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Spec §2 /camera: realtimecamera (default), cameraTask, cameraManage, cameraGroup. */
export const cameraRoutes: AppRoute[] = [
  {
    path: '/camera',
    titleKey: 'cameras:menu.group',
    icon: <VideoCameraOutlined />,
    roles: ['camera'],
    redirect: '/camera/realtimecamera',
    children: [
      {
        path: 'realtimecamera',
        titleKey: 'cameras:live.title',
        roles: ['camera:real-time'],
        icon: <AppstoreOutlined />,
        element: lazy(() => import('./LivePage.tsx')),
      },
      {
        path: 'cameraTask',
        titleKey: 'cameras:tasks.title',
        roles: ['camera:cameraTask'],
        icon: <ScheduleOutlined />,
        element: lazy(() => import('./TasksPage.tsx')),
      },
      {
        path: 'cameraManage',
        titleKey: 'cameras:manage.title',
        roles: ['camera:camera'],
        icon: <CameraOutlined />,
        element: lazy(() => import('./CamerasPage.tsx')),
      },
      {
        path: 'cameraGroup',
        titleKey: 'cameras:groups.title',
        roles: ['camera:group'],
        icon: <ApartmentOutlined />,
        element: lazy(() => import('./GroupsPage.tsx')),
      },
      {
        path: 'alertSnapshot',
        titleKey: 'cameras:alert.page',
        roles: ['camera:real-time', 'alert-predict:alert'],
        hidden: true,
        element: lazy(() => import('./AlertPage.tsx')),
      },
    ],
  },
];
