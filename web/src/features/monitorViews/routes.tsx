import { lazy } from 'react';
import {
  AreaChartOutlined,
  ClusterOutlined,
  DashboardOutlined,
  EnvironmentOutlined,
  GatewayOutlined,
  PictureOutlined,
  ProjectOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

const display = (name: 'Disaster' | 'Tailings' | 'Reservoir' | 'River' | 'Sideslope' | 'Bridge') =>
  lazy(() => import('./PlatformDisplayPage.tsx').then((m) => ({ default: m[`${name}Display`] })));

/**
 * The graphical /monitor screens (spec §2; role keys spec §6): the site displays of each kind, the sketch map,
 * the device distribution map, the reservoir / river view (one path), the section display and the monitoring
 * station. Merged with the data screens of the monitor feature by the group path.
 */
export const monitorViewRoutes: AppRoute[] = [
  {
    path: '/monitor',
    titleKey: 'monitorViews:menu.group',
    icon: <DashboardOutlined />,
    roles: ['monitor'],
    children: [
      {
        path: 'disasterPlatform',
        titleKey: 'monitorViews:menu.disaster',
        icon: <ProjectOutlined />,
        roles: ['monitor:platform:disaster'],
        element: display('Disaster'),
      },
      {
        path: 'tailingsPlatform',
        titleKey: 'monitorViews:menu.tailings',
        icon: <ProjectOutlined />,
        roles: ['monitor:platform:tailings'],
        element: display('Tailings'),
      },
      {
        path: 'reservoirPlatform',
        titleKey: 'monitorViews:menu.reservoir',
        icon: <ProjectOutlined />,
        roles: ['monitor:platform:reservoir'],
        element: display('Reservoir'),
      },
      {
        path: 'riverPlatform',
        titleKey: 'monitorViews:menu.river',
        icon: <ProjectOutlined />,
        roles: ['monitor:platform:river'],
        element: display('River'),
      },
      {
        path: 'sideslopePlatform',
        titleKey: 'monitorViews:menu.sideslope',
        icon: <ProjectOutlined />,
        roles: ['monitor:platform:sideslope'],
        element: display('Sideslope'),
      },
      {
        path: 'bridgePlatform',
        titleKey: 'monitorViews:menu.bridge',
        icon: <ProjectOutlined />,
        roles: ['monitor:platform:bridge'],
        element: display('Bridge'),
      },
      {
        path: 'sketchMap',
        titleKey: 'monitorViews:menu.sketchMap',
        icon: <PictureOutlined />,
        roles: ['monitor:sketchMap'],
        element: lazy(() => import('./SketchMapPage.tsx')),
      },
      {
        path: 'moduleMap',
        titleKey: 'monitorViews:menu.moduleMap',
        icon: <EnvironmentOutlined />,
        roles: ['monitor:moduleMap'],
        element: lazy(() => import('./ModuleMapPage.tsx')),
      },
      {
        path: 'reservoirMap',
        titleKey: 'monitorViews:menu.reservoirMap',
        icon: <AreaChartOutlined />,
        roles: ['monitor:reservoirMap', 'monitor:riverMap'],
        element: lazy(() => import('./ReservoirMapPage.tsx')),
      },
      {
        path: 'segmentMap',
        titleKey: 'monitorViews:menu.segmentMap',
        icon: <ClusterOutlined />,
        roles: ['monitor:segmentMap'],
        element: lazy(() => import('./SegmentMapPage.tsx')),
      },
      {
        path: 'MonitorStation',
        titleKey: 'monitorViews:menu.monitorStation',
        icon: <GatewayOutlined />,
        roles: ['monitor:monitorStation'],
        element: lazy(() => import('./MonitorStationPage.tsx')),
      },
    ],
  },
];
