import { z } from 'zod';

/**
 * Field helpers that accept both JSON and form-encoded input (spec §7: POST bodies are form-encoded;
 * query strings are strings too). Each converts strings to the intended type before validating.
 */
export const zInt = (): z.ZodPreprocess<z.ZodNumber, unknown> =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().int());

export const zNum = (): z.ZodPreprocess<z.ZodNumber, unknown> =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().finite());

export const zBool = (): z.ZodPreprocess<z.ZodBoolean, unknown> =>
  z.preprocess((v) => {
    if (v === 'true' || v === '1' || v === 1) return true;
    if (v === 'false' || v === '0' || v === 0) return false;
    return v;
  }, z.boolean());

/** A list of integers: a JSON array, a repeated form field, or a comma-separated string. */
export const zIntList = (): z.ZodPreprocess<z.ZodArray<z.ZodNumber>, unknown> =>
  z.preprocess((v) => {
    if (v === undefined || v === null || v === '') return [];
    const arr = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
    return arr.map((x) => (typeof x === 'string' ? Number(x.trim()) : x));
  }, z.array(z.number().int()));

/** A required, trimmed, non-empty string. */
export const zText = (max = 200): z.ZodString => z.string().trim().min(1).max(max);
/** An optional string; empty becomes undefined. */
export const zOptText = (max = 2000): z.ZodPreprocess<z.ZodOptional<z.ZodString>, unknown> =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(max).optional());

/** Paging parameters (spec §7, §9): pageNum default 1, pageSize default 1000. */
export const pageQuery = (defaultSize = 1000) =>
  z.object({
    pageNum: zInt().pipe(z.number().min(1)).optional().default(1),
    pageSize: zInt().pipe(z.number().min(1).max(10000)).optional().default(defaultSize),
    sortField: z.string().max(64).optional(),
    sortOrder: z.enum(['ascend', 'descend']).optional(),
  });
