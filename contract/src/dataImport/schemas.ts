import { z } from 'zod';
import { zInt } from '../api/zod.ts';
import {
  IMPORT_DEVICE_KEYS,
  IMPORT_FORMATS,
  IMPORT_ROW_ERRORS,
  IMPORT_TARGETS,
  IMPORT_TIME_FORMATS,
} from './catalogue.ts';

const fileId = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{32}$/);
/** A column of the file: its 0-based index in the header row. */
const column = () => zInt().pipe(z.number().int().min(0).max(16383));
const optColumn = () => z.preprocess((v) => (v === '' || v === null ? undefined : v), column().optional());
const optId = () => z.preprocess((v) => (v === '' || v === null ? undefined : v), zInt().optional());

/** Quantity key -> column: an object, or its JSON text (form-encoded posts). */
const quantityColumns = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v ?? {};
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  },
  z.record(z.string().trim().min(1).max(64), column()),
);

/**
 * The column mapping of a dry run. Readings: the device by a column (its number or name) or one fixed device,
 * and one column per quantity. Water levels: the section by a column (its name) or one fixed section, and the
 * elevation column. Both: the time column, its format and zone (an IANA name, or `offset`: each value carries
 * its own).
 */
export const importMappingSchema = z
  .object({
    fileId,
    sheet: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().max(200).optional()),
    target: z.enum(IMPORT_TARGETS).optional().default('readings'),
    deviceColumn: optColumn(),
    deviceKey: z.enum(IMPORT_DEVICE_KEYS).optional().default('number'),
    deviceId: optId(),
    quantities: quantityColumns.optional().default({}),
    sectionColumn: optColumn(),
    sectionId: optId(),
    elevationColumn: optColumn(),
    timeColumn: column(),
    timeFormat: z.enum(IMPORT_TIME_FORMATS).optional().default('iso'),
    timeZone: z.string().trim().min(1).max(64),
  })
  .superRefine((m, ctx) => {
    if (m.target === 'readings') {
      if (m.deviceColumn === undefined && m.deviceId === undefined)
        ctx.addIssue({ code: 'invalid_type', expected: 'number', input: undefined, path: ['deviceColumn'] });
      if (Object.keys(m.quantities).length === 0)
        ctx.addIssue({ code: 'invalid_type', expected: 'object', input: undefined, path: ['quantities'] });
    } else {
      if (m.sectionColumn === undefined && m.sectionId === undefined)
        ctx.addIssue({ code: 'invalid_type', expected: 'number', input: undefined, path: ['sectionColumn'] });
      if (m.elevationColumn === undefined)
        ctx.addIssue({ code: 'invalid_type', expected: 'number', input: undefined, path: ['elevationColumn'] });
    }
  });
export type ImportMapping = z.output<typeof importMappingSchema>;

export const importPreviewQuery = z.object({
  fileId,
  sheet: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().max(200).optional()),
});
export const importRunBody = z.object({ jobId: zInt() });

/** An uploaded file as the mapping screen needs it: its sheets, the header row and the first data rows. */
export const importFileSchema = z.object({
  fileId: z.string(),
  name: z.string(),
  format: z.enum(IMPORT_FORMATS),
  size: z.number().int(),
  sheets: z.array(z.string()),
  sheet: z.string().nullable(),
  header: z.array(z.string()),
  /** The first data rows, with their line numbers in the file (the header's line is before them). */
  rows: z.array(z.object({ line: z.number().int(), cells: z.array(z.string()) })),
});
export type ImportFile = z.output<typeof importFileSchema>;

export const importRowErrorSchema = z.object({
  line: z.number().int(),
  reason: z.enum(IMPORT_ROW_ERRORS),
  /** The column's header, when one cell is at fault. */
  column: z.string().nullable(),
  /** The cell's text (cut at 100 characters) or the quantity at fault. */
  value: z.string().nullable(),
});
export type ImportRowErrorItem = z.output<typeof importRowErrorSchema>;

/** The result of a dry run job (Job.result). */
export const dryRunResultSchema = z.object({
  target: z.enum(IMPORT_TARGETS),
  rows: z.number().int(),
  toAdd: z.number().int(),
  /** Same device (section) and time stored already. */
  duplicatesStored: z.number().int(),
  /** Same device (section) and time earlier in the file. */
  duplicatesInFile: z.number().int(),
  errorCount: z.number().int(),
  /** The first IMPORT_MAX_LISTED_ERRORS errors, by line. */
  errors: z.array(importRowErrorSchema),
  errorCounts: z.record(z.string(), z.number().int()),
  /** Devices (sections) the file names, and the time span of its rows. */
  targets: z.number().int(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type DryRunResult = z.output<typeof dryRunResultSchema>;

/** The result of an import job (Job.result). */
export const importResultSchema = z.object({
  target: z.enum(IMPORT_TARGETS),
  dryRunJobId: z.number().int(),
  rows: z.number().int(),
  added: z.number().int(),
  duplicates: z.number().int(),
  /** Readings older than IMPORT_SILENT_HOURS: stored and rolled up, not judged by the alert rules. */
  silent: z.number().int(),
  /** Recent readings handed to the alert engine as live ones are. */
  evaluated: z.number().int(),
});
export type ImportResult = z.output<typeof importResultSchema>;
