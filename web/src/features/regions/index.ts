/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { informationRegionRoutes } from './routes.tsx';
export { RegionCascader, type RegionCascaderProps } from './RegionCascader.tsx';
export { isFullySelected, useRegionTree } from './regionsApi.ts';
export { RegionFilter, type RegionFilterProps } from './RegionFilter.tsx';
