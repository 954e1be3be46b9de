// What other modules may use of the reservoir module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { registerReservoir } from './reservoir.routes.ts';
export { ReservoirService } from './reservoir.service.ts';
