/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { mapsRoutes } from './routes.tsx';
// The configured map, for any feature that draws one (3D imagery, panoramas' locator...): the same as shared/map.
export { createMap, baseTileLayers, addMapLayers, featureLayer } from '../../shared/map/base.ts';
export { useMapConfig, loadMapConfig } from '../../shared/map/config.ts';
export { crsOf } from '../../shared/map/crs.ts';
export { upload } from './mapsApi.ts';
export { SiteLayersButton } from './SiteLayers.tsx';
