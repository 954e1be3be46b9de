// What other modules may use of the alerts module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { seedDemoAlerts } from './alerts.demo.ts';
// One alert within a data scope (the tasks module makes tasks from alerts with it, handed in by app.ts).
export { alertById } from './alerts.repository.ts';
