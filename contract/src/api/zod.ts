import { z } from 'zod';

/**
 * Field helpers that accept both JSON and form-encoded input (spec §7: POST bodies are form-encoded;
 * query strings are strings too). Each converts strings to the intended type before validating.
 */
/**
 * Numbers in text are plain decimals. `Number()` also reads `0x10`, `0b1`, `0o7`, `Infinity` and surrounding
 * white space, so a form field "0x10" named object 16 (a fuzzer deleted objects that way): these parsers give NaN
 * for anything but a decimal, and validation then refuses it.
 */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
/** A decimal number (exponent allowed: 1.5e-3), else NaN. */
export const decimalNumber = (s: string): number => {
  const t = s.trim();
  return DECIMAL.test(t) ? Number(t) : NaN;
};
/** A plain decimal integer (no exponent, point, sign prefix other than -/+), else NaN. Ids are these. */
export const decimalInt = (s: string): number => {
  const t = s.trim();
  return INTEGER.test(t) ? Number(t) : NaN;
};
/** Form text to a number for a preprocess step: strings parsed as decimals; anything else passes. */
export const textToNumber = (v: unknown): unknown => (typeof v === 'string' && v.trim() !== '' ? decimalNumber(v) : v);
/** Form text to an integer for a preprocess step: strings parsed as decimal integers; anything else passes. */
export const textToInt = (v: unknown): unknown => (typeof v === 'string' && v.trim() !== '' ? decimalInt(v) : v);

/** An integer (ids, counts): a JSON number or a plain decimal string, within the safe integer range. */
export const zInt = (): z.ZodPreprocess<z.ZodNumber, unknown> => z.preprocess(textToInt, z.number().int());

export const zNum = (): z.ZodPreprocess<z.ZodNumber, unknown> => z.preprocess(textToNumber, z.number().finite());

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
    return arr.map((x) => (typeof x === 'string' ? decimalInt(x) : x));
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
