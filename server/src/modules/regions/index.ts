// What other modules may use of the regions module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { inRegionSubtree } from './regions.repository.ts';
export { RegionsService, regionName } from './regions.service.ts';
export type { RegionIndex } from './regions.service.ts';
