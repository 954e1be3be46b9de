// What other modules may use of the areas module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { registerAreas } from './areas.routes.ts';
