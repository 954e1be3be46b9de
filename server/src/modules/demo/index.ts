// What other modules may use of the demo module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { DEMO_SITES } from './demo.seed.ts';
