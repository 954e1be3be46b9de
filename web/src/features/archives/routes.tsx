import { lazy } from 'react';
import { FileProtectOutlined, SafetyCertificateOutlined, ScheduleOutlined, SearchOutlined } from '@ant-design/icons';
import type { AppRoute } from '../../app/route-types.ts';

/** Safety supervision (spec §2 /archives): supervise (default), plan, Safety. */
export const archivesRoutes: AppRoute[] = [
  {
    path: '/archives',
    titleKey: 'archives:menu',
    roles: ['supervisor'],
    icon: <SafetyCertificateOutlined />,
    redirect: '/archives/supervise',
    children: [
      {
        path: 'supervise',
        titleKey: 'archives:supervise.title',
        icon: <SearchOutlined />,
        roles: ['supervisor:dynamic'],
        element: lazy(() => import('./SupervisePage.tsx')),
      },
      {
        path: 'plan',
        titleKey: 'archives:plan.title',
        icon: <ScheduleOutlined />,
        roles: ['supervisor:plan'],
        element: lazy(() => import('./PlanPage.tsx')),
      },
      {
        path: 'Safety',
        titleKey: 'archives:safety.title',
        icon: <FileProtectOutlined />,
        roles: ['supervisor:archive'],
        element: lazy(() => import('./SafetyPage.tsx')),
      },
    ],
  },
];
