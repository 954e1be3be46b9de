// Schema pieces the alerts contract's answers share (not exported from the feature).
import { z } from 'zod';
import { ALERT_CHANNELS, ALERT_DIRECTIONS, ALERT_VALUE_TYPES, WINDOW_UNITS } from './catalogue.ts';

/** Answer schemas of the catalogue values. */
export const alertLevelSchema = z.literal([1, 2, 3, 4]);
export const valueTypeSchema = z.enum(ALERT_VALUE_TYPES);
export const valueTypeOrOffline = z.enum([...ALERT_VALUE_TYPES, 'offline']);
export const directionSchema = z.enum(ALERT_DIRECTIONS);
export const windowUnitSchema = z.enum(WINDOW_UNITS);
export const channelsSchema = z.array(z.enum(ALERT_CHANNELS));
export const levelCountsSchema = z.record(z.enum(['1', '2', '3', '4']), z.number().int());
export const int = z.number().int();
export const nInt = z.number().int().nullable();
export const nNum = z.number().nullable();
export const nStr = z.string().nullable();
/** The answer of an add: the new row's id. */
export const createdIdSchema = z.object({ id: z.number().int() });
/** An empty form value: undefined, null or blank text. */
export const blank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
