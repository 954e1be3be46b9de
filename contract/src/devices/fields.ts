import { z } from 'zod';
import { textToInt, textToNumber } from '../api/zod.ts';

/**
 * Optional field helpers for the equipment features (devices, terminals, persons, external files). Like the
 * helpers of api/zod.ts they accept JSON, form-encoded and spreadsheet input: an empty string or null is
 * "not given", numbers may arrive as strings, and objects may arrive as JSON text.
 */
const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const toNumber = (v: unknown): unknown => {
  if (blank(v)) return undefined;
  return textToNumber(v);
};
const toInt = (v: unknown): unknown => (blank(v) ? undefined : textToInt(v));

/** An optional finite number; pass a refined z.number() to add bounds. */
export const optNum = (s: z.ZodNumber = z.number()) => z.preprocess(toNumber, s.optional());

/** An optional integer; pass a refined z.number() to add bounds. */
export const optInt = (s: z.ZodNumber = z.number()) => z.preprocess(toInt, s.int().optional());

/** A required integer with bounds. */
export const reqInt = (s: z.ZodNumber = z.number()) => z.preprocess(toInt, s.int());

/** An optional value of an enum; empty is "not given". */
export const optEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (blank(v) ? undefined : typeof v === 'string' ? v.trim() : v), z.enum(values).optional());

/** An optional boolean from true/false/1/0 (query strings and forms). */
export const optBool = () =>
  z.preprocess((v) => {
    if (blank(v)) return undefined;
    if (v === 'true' || v === '1' || v === 1) return true;
    if (v === 'false' || v === '0' || v === 0) return false;
    return v;
  }, z.boolean().optional());

/** A structured value that may arrive as JSON text (a form field or a spreadsheet cell). */
export const jsonField = <T extends z.ZodType>(s: T) =>
  z.preprocess((v) => {
    if (blank(v)) return undefined;
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, s.optional());

/** An IPv4 or IPv6 address (spec §5: the IP must be valid). */
export const isIpAddress = (v: string): boolean => z.ipv4().safeParse(v).success || z.ipv6().safeParse(v).success;

/** A port number 1..65535. */
export const portNumber = () => z.number().int().min(1).max(65535);

/** A phone number: digits, spaces and dashes, an optional leading +, 6 to 20 characters. */
export const PHONE_PATTERN = /^\+?[0-9][0-9\- ]{5,19}$/;

/** An http or https address with a host (spec §5: the URL must be valid). */
export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** An optional e-mail address. */
export const optEmail = () =>
  z.preprocess((v) => (blank(v) ? undefined : v), z.string().trim().max(200).pipe(z.email()).optional());
