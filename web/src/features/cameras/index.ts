/** Public surface of this feature: other features and the app shell import it only through this file (lint rule geosentry/feature-boundaries). */
export { cameraRoutes } from './routes.tsx';
export { AlertSnapshots } from './AlertSnapshots.tsx';
