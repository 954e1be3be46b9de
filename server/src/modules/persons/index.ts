// What other modules may use of the persons module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { getPerson, roleExists } from './persons.repository.ts';
