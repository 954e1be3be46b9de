/** Asset kinds (spec §1). */
export const PLATFORM_TYPES = ['disaster', 'sideslope', 'tailings', 'reservoir', 'river', 'bridge'] as const;
export type PlatformType = (typeof PLATFORM_TYPES)[number];

/** Kinds whose owner is called 'enterprise'; the others say 'management organisation' (spec §1). */
export const ENTERPRISE_WORDING_TYPES: readonly string[] = [
  'disaster',
  'sideslope',
  'tailings',
  'reservoir',
  'river',
  'landslide',
];

/** Kinds that have sections (segments): reservoirs, rivers, hazard points and slopes. */
export const SECTION_PLATFORM_TYPES: readonly PlatformType[] = ['reservoir', 'river', 'disaster', 'sideslope'];
