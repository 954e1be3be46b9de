// What other modules may use of the simulator module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { readingAt, seedOf } from './series.ts';
