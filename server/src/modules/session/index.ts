// What other modules may use of the session module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { createSession } from './session.repository.ts';
export { assertPasswordRules } from './session.service.ts';
