/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { siteModuleRoutes } from './routes.tsx';
export { fetchSiteModules, moduleKeys } from './monitorTypesApi.ts';
