// What other modules may use of the sections module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { capacityRows, findSection, listWaterLevels } from './sections.repository.ts';
