import type { PlatformType } from '@geosentry/contract';
import { hazardNoun } from '../../shared/wording.ts';

/** The management screens of the site kinds (spec §2, §6 role keys), in menu order. */
export const KIND_SCREENS: readonly { kind: PlatformType; path: string; role: string }[] = [
  { kind: 'disaster', path: 'disasterPlatformManagement', role: 'information:platform:disaster' },
  { kind: 'reservoir', path: 'reservoirPlatformManagement', role: 'information:platform:reservoir' },
  { kind: 'river', path: 'riverPlatformManagement', role: 'information:platform:river' },
  { kind: 'tailings', path: 'tailingsPlatformManagement', role: 'information:platform:tailings' },
  { kind: 'bridge', path: 'PlatformManagement', role: 'information:platform:bridge' },
  { kind: 'sideslope', path: 'sideslopePlatformManagement', role: 'information:platform:sideslope' },
];

/**
 * Type labels of a site (the 'platform type' labels of spec §1), by kind. Stored as these keys;
 * labels: platforms:subTypes.<value>. A stored value outside the list is shown as it is.
 */
export const SUB_TYPES: Record<PlatformType, readonly string[]> = {
  disaster: ['landslide', 'collapse', 'debrisFlow', 'hiddenDangerPoint', 'groundSubsidence', 'other'],
  sideslope: ['slope', 'cut', 'fill', 'constructionSite', 'other'],
  tailings: ['tailingsPond', 'other'],
  reservoir: ['dam', 'other'],
  river: ['river', 'canal', 'other'],
  bridge: ['bridge', 'tower', 'other'],
};

/** Details shown as list columns, by kind. */
export const LIST_DETAILS: Record<PlatformType, readonly string[]> = {
  disaster: ['riskLevel', 'volume'],
  sideslope: ['roadName', 'riskLevel'],
  tailings: ['tailingsType', 'status'],
  reservoir: ['damType', 'totalCapacity'],
  river: ['length', 'waterSystem'],
  bridge: ['code', 'bridgeType'],
};

/** The i18n key of a kind's screen title; hazard points follow the port's noun (spec §1). */
export function kindTitleKey(kind: PlatformType): string {
  if (kind === 'disaster' && hazardNoun() === 'common:wording.slopePoint') return 'kinds.disaster.titleSlope';
  return `kinds.${kind}.title`;
}

/** Capitalises the first letter (the wording keys are lower-case nouns). */
export const capitalize = (s: string): string => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
