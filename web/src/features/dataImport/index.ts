/** Data import screen (/data/dataImport). */
export { importScreenRoutes } from './routes.tsx';
