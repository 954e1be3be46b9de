// What other modules may use of the alerts module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { seedDemoAlerts } from './alerts.demo.ts';
