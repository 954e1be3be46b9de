// What other modules may use of the monitoring query module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { isOnline, onlineSql } from './online.ts';
export { sumOver } from './moduleData.repository.ts';
export { ModuleDataService } from './moduleData.service.ts';
