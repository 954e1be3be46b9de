import { z } from 'zod';
import { textToInt, textToNumber } from '../api/zod.ts';

/**
 * Field helpers of the site registry (sites, regions, enterprises, sections). Like `api/zod.ts`, each
 * accepts JSON and form-encoded input: an empty string or null means "not given", numbers may arrive as
 * strings, and nested values (lists, objects) may arrive as a JSON string in one form field.
 */

const blank = (v: unknown): unknown => (v === '' || v === null ? undefined : v);
const toNumber = (v: unknown): unknown => {
  const b = blank(v);
  return textToNumber(b);
};
const toInt = (v: unknown): unknown => textToInt(blank(v));

/** Parses a JSON string (a form field carrying a list or an object); anything else passes through. */
export const fromJsonText = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (s === '') return undefined;
  if (s.startsWith('[') || s.startsWith('{')) {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      return v;
    }
  }
  return v;
};

/** An optional number within [min, max]; `unit` documents it (OpenAPI description). */
export const optNumber = (unit: string, min?: number, max?: number) => {
  let n = z.number().finite();
  if (min !== undefined) n = n.min(min);
  if (max !== undefined) n = n.max(max);
  return z.preprocess(toNumber, n.optional()).describe(unit);
};

/** An optional whole number of at least 0. */
export const optCount = (what: string) => z.preprocess(toInt, z.number().int().min(0).optional()).describe(what);

/** An optional text. */
export const optText = (max: number, what: string) =>
  z.preprocess(blank, z.string().trim().max(max).optional()).describe(what);

/** An optional calendar date, yyyy-MM-dd (spec §9). */
export const optDate = (what: string) => z.preprocess(blank, z.iso.date().optional()).describe(`${what}, yyyy-MM-dd`);

/** An optional choice from a catalogue. */
export const optChoice = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.preprocess(blank, z.enum(values).optional()).describe(what);

/** An optional yes/no. */
export const optFlag = (what: string) =>
  z
    .preprocess((v) => {
      const b = blank(v);
      if (b === 'true' || b === '1' || b === 1) return true;
      if (b === 'false' || b === '0' || b === 0) return false;
      return b;
    }, z.boolean().optional())
    .describe(what);

/** An optional phone number (spec §5: phones must be well formed). */
export const optPhone = (what: string) =>
  z
    .preprocess(
      blank,
      z
        .string()
        .trim()
        .regex(/^\+?[0-9][0-9\- ]{5,19}$/)
        .optional(),
    )
    .describe(what);

/**
 * An optional list of file ids: a JSON array, a repeated form field, a JSON array in one field, or a
 * comma-separated string. Absent stays absent (an edit then keeps the stored list); '' is an empty list.
 */
export const optFileIds = (what: string) =>
  z
    .preprocess(
      (v) => {
        if (v === undefined) return undefined;
        if (v === null || v === '') return [];
        const parsed = fromJsonText(v);
        if (Array.isArray(parsed)) return parsed.map((x) => (typeof x === 'number' ? String(x) : x));
        if (typeof parsed === 'string')
          return parsed
            .split(',')
            .map((x) => x.trim())
            .filter((x) => x !== '');
        return parsed;
      },
      z.array(z.string().trim().min(1).max(200)).max(100).optional(),
    )
    .describe(what);

/** A required number (form strings converted). */
export const reqNumber = (unit: string, min?: number, max?: number) => {
  let n = z.number().finite();
  if (min !== undefined) n = n.min(min);
  if (max !== undefined) n = n.max(max);
  return z.preprocess(toNumber, n).describe(unit);
};

/** A point in pixels on a picture (a site's schematic or a section's drawing). */
export const pixelPoint = z.object({
  x: reqNumber('pixels from the left', 0, 100000),
  y: reqNumber('pixels from the top', 0, 100000),
});

/** An optional id (a whole number); '' means not given. */
export const optId = (what: string) => z.preprocess(toInt, z.number().int().optional()).describe(what);
