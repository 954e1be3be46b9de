// What other modules may use of the files module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { findFiles, siteInScope, sitePictures } from './files.repository.ts';
export { clean, type FilesService } from './files.service.ts';
