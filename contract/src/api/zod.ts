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

/**
 * A sort field: a column name of the list's allow-list. Names that every object inherits (`constructor`,
 * `__proto__`, `toString`, ...) are refused: a lookup in a plain allow-list object would find them. Empty is
 * "not given"; an unknown name sorts by the list's default.
 */
export const zSortField = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string()
      .max(64)
      .regex(/^[A-Za-z_][A-Za-z0-9_.]*$/)
      .refine((v) => !(v in Object.prototype), { params: { rule: 'sortField' } })
      .optional(),
  );

/**
 * An optional instant as text: ISO 8601 (`2026-11-25T08:00:00Z`, `2026-11-25`) or `yyyy-MM-dd HH:mm:ss`, between the
 * years 1970 and 9999. Anything else is refused here instead of reaching the database as an invalid date.
 */
export const zOptInstant = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string()
      .trim()
      .max(40)
      .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/)
      .refine((v) => {
        const t = Date.parse(v.replace(' ', 'T'));
        return Number.isFinite(t) && t >= 0 && t < 253402300800000;
      })
      .optional(),
  );

/** Paging parameters (spec §7, §9): pageNum default 1, pageSize default 1000. */
export const pageQuery = (defaultSize = 1000) =>
  z.object({
    pageNum: zInt().pipe(z.number().min(1)).optional().default(1),
    pageSize: zInt().pipe(z.number().min(1).max(10000)).optional().default(defaultSize),
    sortField: zSortField(),
    sortOrder: z.enum(['ascend', 'descend']).optional(),
  });

/** The data of a server-side paged list (spec §7): the rows of one page, the total and the page asked for. */
export const zPage = <T extends z.ZodType>(row: T) =>
  z.object({ list: z.array(row), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() });
