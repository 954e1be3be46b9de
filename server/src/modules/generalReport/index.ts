// What other modules may use of the general report module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { registerGeneralReport } from './generalReport.routes.ts';
export { GeneralReportService } from './generalReport.service.ts';
