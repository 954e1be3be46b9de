// What other modules may use of the vibration report module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { registerVibration } from './vibration.routes.ts';
export { VibrationService } from './vibration.service.ts';
