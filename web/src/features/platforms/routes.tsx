import { lazy, type ReactNode } from 'react';
import {
  AlertOutlined,
  BranchesOutlined,
  ClusterOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  GoldOutlined,
  RiseOutlined,
} from '@ant-design/icons';
import type { PlatformType } from '@geosentry/contract';
import type { AppRoute } from '../../app/route-types.ts';
import { KIND_SCREENS } from './kinds.ts';

const ICONS: Record<PlatformType, ReactNode> = {
  disaster: <AlertOutlined />,
  reservoir: <ExperimentOutlined />,
  river: <BranchesOutlined />,
  tailings: <GoldOutlined />,
  bridge: <ClusterOutlined />,
  sideslope: <RiseOutlined />,
};

/** One screen component per kind (each tab keeps its own state). */
const screen = (kind: PlatformType) =>
  lazy(() =>
    import('./PlatformsPage.tsx').then((m) => ({
      default: function KindPage() {
        return <m.PlatformsPage kind={kind} icon={ICONS[kind]} />;
      },
    })),
  );

/**
 * Information > site management screens (spec §2): one per kind. The '/information' group is shared with
 * other features (enterprises, sections, regions, devices...); the shell merges their children, and the
 * group path goes to hazard point management.
 */
export const informationPlatformRoutes: AppRoute[] = [
  {
    path: '/information',
    titleKey: 'platforms:menu.information',
    roles: ['information'],
    icon: <DatabaseOutlined />,
    redirect: 'disasterPlatformManagement',
    children: KIND_SCREENS.map(({ kind, path, role }) => ({
      path,
      titleKey: `platforms:menu.${kind}`,
      roles: [role],
      icon: ICONS[kind],
      element: screen(kind),
    })),
  },
];
