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
