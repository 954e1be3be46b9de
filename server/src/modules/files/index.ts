// What other modules may use of the files module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { findFiles, siteInScope } from './files.repository.ts';
export { clean } from './files.service.ts';
