/** The report centre (/data/reportform): report jobs and scheduled reports. */
export { reportCentreRoutes } from './routes.tsx';
