import { lazy } from 'react';
import {
  AreaChartOutlined,
  AppstoreOutlined,
  DashboardOutlined,
  DiffOutlined,
  FileTextOutlined,
  FundOutlined,
  LineChartOutlined,
  SlidersOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/**
 * The /monitor data screens (spec §2; role keys spec §6). The group's default is realTimeData; the site
 * displays and maps of the same group come from the monitorViews feature (merged by path).
 */
export const monitorRoutes: AppRoute[] = [
  {
    path: '/monitor',
    titleKey: 'monitor:menu.group',
    icon: <DashboardOutlined />,
    roles: ['monitor'],
    redirect: '/monitor/realTimeData',
    children: [
      {
        path: 'realTimeData',
        titleKey: 'monitor:realtime.title',
        icon: <WifiOutlined />,
        roles: ['monitor:realtime'],
        element: lazy(() => import('./RealTimeDataPage.tsx')),
      },
      {
        path: 'realtimesxxy',
        titleKey: 'monitor:cards.title',
        icon: <AppstoreOutlined />,
        roles: ['monitor:realtime-sxxy'],
        element: lazy(() => import('./RealtimeCardsPage.tsx')),
      },
      {
        path: 'deviceStatus',
        titleKey: 'monitor:status.title',
        icon: <FundOutlined />,
        roles: ['monitor:realtime'],
        element: lazy(() => import('./DeviceStatusPage.tsx')),
      },
      {
        path: 'historyData',
        titleKey: 'monitor:history.title',
        icon: <LineChartOutlined />,
        roles: ['monitor:history'],
        element: lazy(() => import('./HistoryDataPage.tsx')),
      },
      {
        path: 'report',
        titleKey: 'monitor:report.title',
        icon: <FileTextOutlined />,
        roles: ['monitor:report'],
        element: lazy(() => import('./ModuleReportPage.tsx')),
      },
      {
        path: 'DataComparison',
        titleKey: 'monitor:comparison.title',
        icon: <DiffOutlined />,
        roles: ['monitor:comparison'],
        element: lazy(() => import('./DataComparisonPage.tsx')),
      },
      {
        path: 'DataProcessing',
        titleKey: 'monitor:processing.title',
        icon: <SlidersOutlined />,
        roles: ['monitor:dataProcessing'],
        element: lazy(() => import('./DataProcessingPage.tsx')),
      },
      {
        path: 'forecast',
        titleKey: 'monitor:forecast.title',
        icon: <AreaChartOutlined />,
        roles: ['monitor:predict'],
        element: lazy(() => import('./ForecastPage.tsx')),
      },
    ],
  },
];
