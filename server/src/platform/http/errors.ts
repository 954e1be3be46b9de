import { Status } from '@geosentry/contract';
import type { MessageKey } from './messages.ts';

/** An expected failure: answered as an envelope with its status and translated message, never logged as a crash. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly data: unknown = null,
  ) {
    super(key);
  }
}

export const notFound = (key: MessageKey = 'notFound'): AppError => new AppError(Status.notFound, key);
export const conflict = (key: MessageKey): AppError => new AppError(Status.conflict, key);
export const forbidden = (key: MessageKey): AppError => new AppError(Status.forbidden, key);
export const invalid = (key: MessageKey, params: Record<string, string | number> = {}): AppError =>
  new AppError(Status.invalid, key, params);

/** A unique-constraint violation from PostgreSQL or PGlite. */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  const err = e as { code?: string; constraint?: string; message?: string };
  if (err?.code !== '23505') return false;
  return !constraint || err.constraint === constraint || (err.message ?? '').includes(constraint);
}

/**
 * SQLSTATEs of input the database refused (a malformed or out-of-range value, a check constraint): the caller's
 * error, answered as a validation failure. The contract checks the same rules first, so one of these means the two
 * disagree (logged, to add the rule to the contract).
 */
const DB_INPUT_ERRORS = new Set([
  '22P02', // invalid text representation
  '22003', // numeric value out of range
  '22007', // invalid datetime format
  '22008', // datetime field overflow
  '22021', // character not in repertoire
  '22001', // string data right truncation
  '22023', // invalid parameter value
  '2201X', // invalid row count in result offset clause
  '2201W', // invalid row count in limit clause
  '23514', // check violation
]);

export function isDbInputRefusal(code: unknown): boolean {
  return typeof code === 'string' && DB_INPUT_ERRORS.has(code);
}
