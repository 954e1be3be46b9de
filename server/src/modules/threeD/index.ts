// What other modules may use of the threeD module (see server/src/platform/imports.unit.test.ts).
export { BlobStore, readSingleUpload, displayName, extensionOf, type SingleUpload } from './threeD.upload.ts';
export { numericValues } from './threeD.repository.ts';
