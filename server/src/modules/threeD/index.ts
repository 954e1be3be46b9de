// What other modules may use of the threeD module (see server/src/platform/imports.unit.test.ts).
export { numericValues } from './threeD.repository.ts';
