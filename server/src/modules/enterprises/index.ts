// What other modules may use of the enterprises module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { findEnterprise } from './enterprises.repository.ts';
