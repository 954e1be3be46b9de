// What other modules may use of the data import module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { DataImportService } from './dataImport.service.ts';
export { registerDataImport } from './dataImport.routes.ts';
