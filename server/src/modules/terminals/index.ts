// What other modules may use of the terminals module (they import nothing else of it; see
// server/src/platform/imports.unit.test.ts).
export { getTerminal } from './terminals.repository.ts';
export { TerminalsService, authenticateTerminal } from './terminals.service.ts';
