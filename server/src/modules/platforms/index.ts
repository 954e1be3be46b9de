// What other modules may use of the platforms module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { devicesTablePresent, findPlatform } from './platforms.repository.ts';
