/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { permissionsRoutes } from './routes.tsx';
export { fetchPermissionTree, permissionKeys } from './permissionsApi.ts';
export { usePermissionLabel } from './usePermissionLabel.ts';
