import type { ReactNode } from 'react';
import {
  BranchesOutlined,
  ExperimentOutlined,
  NodeIndexOutlined,
  RiseOutlined,
  WarningOutlined,
  InboxOutlined,
} from '@ant-design/icons';
import { PLATFORM_TYPES, type PlatformType } from '@geosentry/contract';
import { hazardNoun } from '../../../shared/wording.ts';

export interface SiteKind {
  type: PlatformType;
  /** i18n key of the kind's plural label. */
  labelKey: string;
  icon: ReactNode;
  color: string;
  /** Permission that lets a user list sites of this kind. */
  permission: string;
}

const LOOK: Record<PlatformType, { icon: ReactNode; color: string }> = {
  disaster: { icon: <WarningOutlined />, color: '#fa8c16' },
  sideslope: { icon: <RiseOutlined />, color: '#52c41a' },
  tailings: { icon: <ExperimentOutlined />, color: '#d4b106' },
  reservoir: { icon: <InboxOutlined />, color: '#1677ff' },
  river: { icon: <BranchesOutlined />, color: '#13c2c2' },
  bridge: { icon: <NodeIndexOutlined />, color: '#722ed1' },
};

/** The six asset kinds (spec §1), each with the permission that opens its list. */
export function siteKinds(): SiteKind[] {
  return PLATFORM_TYPES.map((type) => ({
    type,
    // Hazard points are called slope points on the slope deployment (spec §1).
    labelKey:
      type === 'disaster'
        ? hazardNoun() === 'common:wording.slopePoint'
          ? 'home:kinds.slopePoints'
          : 'home:kinds.hazardPoints'
        : `home:kinds.${type}`,
    icon: LOOK[type].icon,
    color: LOOK[type].color,
    permission: `information:platform:${type}`,
  }));
}
