import { z } from 'zod';
import { pageQuery, zInt } from '../api/zod.ts';
import { JOB_KINDS, JOB_STATES } from './catalogue.ts';

/** A job as its owner sees it: state, progress, the translated error, the result. */
export const jobSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  state: z.enum(JOB_STATES),
  /** The step it is in (e.g. `parse`, `write`), null before it starts. */
  phase: z.string().nullable(),
  done: z.number().int(),
  /** Units of work in all, when known (data import: rows of the file). */
  total: z.number().int().nullable(),
  /** The failure, in the caller's language, and its message key (for the console's own wording). */
  error: z.string().nullable(),
  errorKey: z.string().nullable(),
  /** What the job produced: a summary (its shape depends on the kind), and a file when it wrote one. */
  result: z.record(z.string(), z.unknown()).nullable(),
  resultFileId: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  attempts: z.number().int(),
  cancelRequested: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** When the job and its files are removed (JOB_RESULT_DAYS after it finished). */
  expiresAt: z.string().nullable(),
});
export type Job = z.output<typeof jobSchema>;

export const jobListQuery = pageQuery(20).extend({
  state: z.enum(JOB_STATES).optional(),
  kind: z.enum(JOB_KINDS).optional(),
});
export const jobIdQuery = z.object({ id: zInt() });
export const jobIdBody = z.object({ id: zInt() });
