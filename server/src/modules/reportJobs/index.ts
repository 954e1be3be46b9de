// What other modules may use of the report centre module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts): report jobs and scheduled reports, wired by app.ts.
export { ReportJobsService } from './reportJobs.service.ts';
export { ReportSchedulesService } from './reportJobs.schedules.ts';
export { registerReportJobs } from './reportJobs.routes.ts';
export type { ReportSources } from './reportJobs.sources.ts';
