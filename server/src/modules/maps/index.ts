// What other modules may use of the maps module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { registerMaps } from './maps.routes.ts';
export { parseGeoFile, polygonsOf } from './maps.geo.ts';
export { readUpload, uploadLimits } from './maps.upload.ts';
export type { MapsService } from './maps.service.ts';
export type { Extent, ExtentImage } from './maps.imagery.ts';
