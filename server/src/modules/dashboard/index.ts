// What other modules may use of the dashboard module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { registerDashboard } from './dashboard.routes.ts';
