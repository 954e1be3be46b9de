/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { informationPlatformRoutes } from './routes.tsx';
export { KIND_SCREENS } from './kinds.ts';
export { fetchPlatformChoices, platformKeys } from './platformsApi.ts';
