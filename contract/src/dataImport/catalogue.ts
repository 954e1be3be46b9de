/**
 * Data import (spec §2 /data/dataImport): readings of devices, or manual water levels of sections, from a csv or
 * xlsx file, through a column mapping, a dry run and the import (both background jobs).
 */

/** What a file brings in: device readings, or manual water levels (elevations) of sections. */
export const IMPORT_TARGETS = ['readings', 'waterLevel'] as const;
export type ImportTarget = (typeof IMPORT_TARGETS)[number];

export const IMPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** How a device column names the device: by its number (its MQTT id) or by its name. */
export const IMPORT_DEVICE_KEYS = ['number', 'name'] as const;

/**
 * How the time column is written. `iso`: ISO 8601 or `yyyy-MM-dd HH:mm[:ss[.SSS]]` (date only allowed);
 * the day-first and month-first forms take `/`, `-` or `.` between the date's parts; `epochSeconds` and
 * `epochMillis` are instants (no zone); `excelSerial` is a spreadsheet day number (xlsx date cells are read as
 * such whatever the format says).
 */
export const IMPORT_TIME_FORMATS = [
  'iso',
  'yyyy/MM/dd HH:mm:ss',
  'dd/MM/yyyy HH:mm:ss',
  'MM/dd/yyyy HH:mm:ss',
  'epochSeconds',
  'epochMillis',
  'excelSerial',
] as const;
export type ImportTimeFormat = (typeof IMPORT_TIME_FORMATS)[number];

/** The time zone value meaning "every value carries its own offset (Z, +08:00)". */
export const IMPORT_ZONE_FROM_VALUE = 'offset';

/**
 * Why a row cannot be imported (the console words them): a bad date or number, no device, a device unknown or
 * outside the caller's data scope, a quantity its monitor type does not have, no value at all, a section unknown
 * or outside the scope.
 */
export const IMPORT_ROW_ERRORS = [
  'badDate',
  'badNumber',
  'missingDevice',
  'unknownDevice',
  'deviceOutOfScope',
  'notOfType',
  'noValue',
  'missingSection',
  'unknownSection',
  'sectionOutOfScope',
] as const;
export type ImportRowError = (typeof IMPORT_ROW_ERRORS)[number];

/** Largest upload (bytes). */
export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;
/** Data rows shown on the mapping screen. */
export const IMPORT_PREVIEW_ROWS = 20;
/** Row errors listed in a dry run's result (all are counted). */
export const IMPORT_MAX_LISTED_ERRORS = 1000;
/** Data rows of one file at most. */
export const IMPORT_MAX_ROWS = 5_000_000;
