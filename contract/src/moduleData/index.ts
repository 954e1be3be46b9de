// The moduleData feature's contract: the monitoring query API (real-time values, history, statistics,
// data processing, rain windows, GNSS solution quality, module reports, site device status).
import { z } from 'zod';
import { decimalInt, zInt, zIntList, zOptText, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { optEnum, optInt, optNum } from '../devices/fields.ts';
import { DEVICE_STATES } from '../devices/index.ts';
import { reportDocumentSchema } from '../reportDocument/index.ts';
import {
  AGGREGATIONS,
  MODULE_DATA_LIMITS,
  REPORT_TEMPLATES,
  SMOOTH_METHODS,
  STATISTICS_TYPES,
  TIME_RANGES,
  REPORT_STATS,
  parseTime,
  type ReportStat,
} from './helpers.ts';

export * from './helpers.ts';
export * from './time.ts';

/**
 * Design notes.
 * - Times in answers are ISO 8601 UTC strings. Times in requests: yyyy-MM-dd, yyyy-MM-dd HH:mm[:ss] (local),
 *   ISO 8601 (without an offset: local) or epoch ms. A date-only endTime includes that whole local day.
 * - Local = the request's `timeZone` (an IANA name), else the user's time zone (user info), else the
 *   server's TIME_ZONE. Buckets (hour, day, ISO week starting Monday, month, year) and `today` follow its
 *   calendar (a daylight-saving day has 23 or 25 hours); a bucket is labelled by its local start as an
 *   instant. Answers that are an object name the zone they used (`timeZone`).
 * - Accumulated quantities (rainfall; `accumulated` in the monitor-type catalogue) combine by sum: their
 *   aggregated points' value is the bucket's sum and the series says `aggregate: 'sum'` (else 'avg').
 * - Every call is limited to the caller's data scope: a device or site outside it answers exactly like a
 *   missing one (deviceNotFound / platformNotFound).
 * - Quantities are the keys of contract/src/monitorTypes/catalogue.ts (quantitiesOf(moduleId)). Without a
 *   `quantity`, history and statistics answer the type's own quantities (not voltage/battery; for GNSS
 *   only dN, dE, dH).
 * - GNSS (module 1): readings carry dN, dE, dH (mm) and may carry sats (satellites used), pdop and fix
 *   (1 fixed solution, 0 float/invalid). "Untie" (解算) = the solution: the real-time GNSS table shows the
 *   displacement components with the 2D (horizontal) and 3D displacement. "Satellite info" = the newest
 *   sats/pdop/fix per device. "Ionosphere" = solution quality: the latest table gives the newest quality
 *   plus 24-hour figures (share of fixed solutions = average of `fix`, average pdop and sats); its history
 *   is the pdop/sats/fix series (same shape as getHistoricalData).
 */

// ---------------------------------------------------------------------------------------------- inputs

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** An optional time (see design notes); invalid text is a validation error. */
export const zTime = () =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? v.trim() : v),
    z
      .union([z.string().max(40), z.number()])
      .refine((v) => parseTime(v) !== null, { message: 'invalid time' })
      .optional(),
  );
/** A required time. */
export const zReqTime = () =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? v.trim() : v),
    z.union([z.string().max(40), z.number()]).refine((v) => parseTime(v) !== null, { message: 'invalid time' }),
  );

/** The time zone of the request (IANA name; default the user's, else the server's TIME_ZONE). */
export const zTimeZone = () => zOptText(64);

/** range (default 24h; custom when only startTime is given), startTime, endTime, timeZone. */
export const rangeFields = {
  range: optEnum(TIME_RANGES),
  startTime: zTime(),
  endTime: zTime(),
  timeZone: zTimeZone(),
};

const quantityField = zOptText(64);
const aggregationField = z.preprocess((v) => (blank(v) ? undefined : v), z.enum(AGGREGATIONS).default('original'));
const maxPointsField = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === 'string' ? decimalInt(v) : v),
  z.number().int().min(10).max(MODULE_DATA_LIMITS.maxPoints).default(MODULE_DATA_LIMITS.defaultMaxPoints),
);
const methodField = z.preprocess((v) => (blank(v) ? undefined : v), z.enum(SMOOTH_METHODS).default('movingAverage'));
const windowField = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === 'string' ? decimalInt(v) : v),
  z
    .number()
    .int()
    .min(MODULE_DATA_LIMITS.minSmoothWindow)
    .max(MODULE_DATA_LIMITS.maxSmoothWindow)
    .refine((w) => w % 2 === 1, { message: 'window must be odd' })
    .default(5),
);

export const realTimeQuery = z.object({ platformId: optInt(), moduleId: optInt(), deviceId: optInt() });
export const moduleDataPlatformQuery = z.object({ platformId: zInt() });
export const siteOrDeviceQuery = z.object({ platformId: optInt(), deviceId: optInt() });
/** rain/getLatestHoursData: windows are relative, so timeZone is only checked. */
export const rainLatestQuery = siteOrDeviceQuery.extend({ timeZone: zTimeZone() });

/** getHistoricalData: one device (deviceId) or a comparison (deviceIds, 2..10; deviceId joins the list). */
export const historyQuery = z
  .object({
    deviceId: optInt(),
    deviceIds: zIntList().pipe(z.array(z.number().int()).max(MODULE_DATA_LIMITS.maxCompareDevices)),
    quantity: quantityField,
    ...rangeFields,
    aggregation: aggregationField,
    maxPoints: maxPointsField,
  })
  .refine((q) => q.deviceId !== undefined || q.deviceIds.length > 0, {
    message: 'deviceId or deviceIds is required',
    path: ['deviceId'],
  });

export const maxMinAvgQuery = z.object({ deviceId: zInt(), quantity: quantityField, ...rangeFields });
export const clinometerAvgQuery = z.object({ platformId: optInt(), deviceId: optInt(), ...rangeFields });
export const smoothPreviewQuery = z.object({
  deviceId: zInt(),
  quantity: zText(64),
  ...rangeFields,
  method: methodField,
  window: windowField,
});
export const smoothBody = z.object({
  deviceId: zInt(),
  quantity: zText(64),
  startTime: zReqTime(),
  endTime: zReqTime(),
  timeZone: zTimeZone(),
  method: methodField,
  window: windowField,
});
/** deleteData: a time range (both ends) or a list of reading timestamps (array, repeated field or comma list). */
export const deleteDataBody = z
  .object({
    deviceId: zInt(),
    startTime: zTime(),
    endTime: zTime(),
    timeZone: zTimeZone(),
    ts: z.preprocess(
      (v) =>
        blank(v)
          ? []
          : (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v]).map((x) =>
              typeof x === 'string' ? x.trim() : x,
            ),
      z
        .array(z.union([z.string(), z.number()]).refine((x) => parseTime(x) !== null, { message: 'invalid time' }))
        .max(MODULE_DATA_LIMITS.maxDeleteTimestamps),
    ),
  })
  .refine((b) => b.ts.length > 0 || (b.startTime !== undefined && b.endTime !== undefined), {
    message: 'give startTime and endTime, or ts',
    path: ['ts'],
  });
export const editGnssBody = z
  .object({ deviceId: zInt(), ts: zReqTime(), dN: optNum(), dE: optNum(), dH: optNum() })
  .refine((b) => b.dN !== undefined || b.dE !== undefined || b.dH !== undefined, {
    message: 'give dN, dE or dH',
    path: ['dN'],
  });
export const ionosphereHistoryQuery = z.object({
  deviceId: zInt(),
  ...rangeFields,
  aggregation: aggregationField,
  maxPoints: maxPointsField,
});
export const REPORT_FORMATS = ['json', 'xlsx', 'pdf'] as const;
export const moduleReportQuery = z.object({
  platformId: zInt(),
  /** Accepted for compatibility; the answer uses the stored site name. */
  platformName: zOptText(200),
  moduleId: zInt(),
  /** Optional filter: the device of this name, else the devices whose name contains it (case-insensitive). */
  deviceName: zOptText(200),
  startTime: zReqTime(),
  endTime: zReqTime(),
  timeZone: zTimeZone(),
  statisticsType: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(STATISTICS_TYPES).default('day')),
  template: z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.enum(REPORT_TEMPLATES).default('A'),
  ),
  format: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(REPORT_FORMATS).default('json')),
  /** The name the file is saved under (spec §7), without extension; default report-<site>-<type>-<day>-<period>-<template>. */
  fileName: zOptText(120),
});

// --------------------------------------------------------------------------------------------- answers

/** Who a device is, in every answer about devices. */
export const deviceRefSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  number: z.string(),
  moduleId: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
});
export type DeviceRef = z.output<typeof deviceRefSchema>;

const num = z.number();
const optNumOut = z.number().nullable();
const isoOrNull = z.string().nullable();
const deviceStateSchema = z.enum(DEVICE_STATES);

/** A device's newest values (getRealTimeData, getRealTimeDataByPlatformId, business status). */
export const realTimeDeviceSchema = deviceRefSchema.extend({
  /** Monitor type name in the request language. */
  moduleName: z.string(),
  state: deviceStateSchema,
  /** Seen within its offline hours (device offline_hours, else the server default). */
  online: z.boolean(),
  lastSeenAt: isoOrNull,
  lastReadingAt: isoOrNull,
  /** The newest value of each quantity. */
  values: z.record(z.string(), num),
  /** Unit of each quantity of the type (quantitiesOf). */
  units: z.record(z.string(), z.string()),
  battery: optNumOut,
  voltage: optNumOut,
});
export type RealTimeDevice = z.output<typeof realTimeDeviceSchema>;

/** A tilt device's newest values (module 9) with the resultant tilt and its azimuth (tiltResultant). */
export const clinometerRealTimeSchema = realTimeDeviceSchema.extend({
  tiltX: optNumOut,
  tiltY: optNumOut,
  resultant: optNumOut,
  azimuth: optNumOut,
});
export type ClinometerRealTime = z.output<typeof clinometerRealTimeSchema>;

/**
 * One point of a series. Aggregated points: ts = bucket start (local, see design notes), value = the bucket's
 * average, or its sum for an accumulated quantity (series.aggregate), min/max/count/sum of the bucket
 * (buckets overlapping the window are whole).
 * Derived (spec §9): rate = value minus the previous value, 2 decimals (null on the first point);
 * acceleration = rate minus the previous rate, 2 decimals (null while undefined); variation = value minus
 * the first value of the window. For a downsampled `original` series they are computed on the full raw
 * series before downsampling.
 */
export const historyPointSchema = z.object({
  ts: z.string(),
  value: num,
  min: num.optional(),
  max: num.optional(),
  count: z.number().int().optional(),
  /** Aggregated points: the sum of the bucket's readings (e.g. rainfall per hour or day). */
  sum: num.optional(),
  rate: optNumOut,
  acceleration: optNumOut,
  variation: num,
});
export type HistoryPoint = z.output<typeof historyPointSchema>;

const aggregateSchema = z.enum(['sum', 'avg']);
export const historySeriesSchema = z.object({
  quantity: z.string(),
  label: z.string(),
  unit: z.string(),
  /** How buckets of the quantity combine: 'sum' (accumulated, e.g. rainfall: value = bucket sum) or 'avg'. */
  aggregate: aggregateSchema,
  /** Raw readings (original) or buckets (aggregated) in the window, before downsampling. */
  total: z.number().int(),
  /** True when LTTB reduced the series to maxPoints (the global min and max points are always kept). */
  downsampled: z.boolean(),
  points: z.array(historyPointSchema),
});
export type HistorySeries = z.output<typeof historySeriesSchema>;

export const historyDeviceSchema = deviceRefSchema.extend({ series: z.array(historySeriesSchema) });
export type HistoryDevice = z.output<typeof historyDeviceSchema>;

/** getHistoricalData and ionosphere/getHistoricalData. */
export const historicalDataSchema = z.object({
  from: z.string(),
  to: z.string(),
  aggregation: z.enum(AGGREGATIONS),
  /** The zone whose calendar the buckets follow. */
  timeZone: z.string(),
  devices: z.array(historyDeviceSchema),
});
export type HistoricalData = z.output<typeof historicalDataSchema>;

/** Statistics of one quantity over a window (null when it has no readings). */
export const quantityStatsSchema = z.object({
  quantity: z.string(),
  label: z.string(),
  unit: z.string(),
  /** 'sum' for an accumulated quantity (rainfall): its figure over the window is `sum`. */
  aggregate: aggregateSchema,
  count: z.number().int(),
  /** Sum of the readings. */
  sum: optNumOut,
  max: optNumOut,
  maxTs: isoOrNull,
  min: optNumOut,
  minTs: isoOrNull,
  avg: optNumOut,
  first: optNumOut,
  firstTs: isoOrNull,
  last: optNumOut,
  lastTs: isoOrNull,
  /** last minus first. */
  change: optNumOut,
});
export type QuantityStats = z.output<typeof quantityStatsSchema>;

export const maxMinAvgDataSchema = deviceRefSchema.extend({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  stats: z.array(quantityStatsSchema),
});
export type MaxMinAvgData = z.output<typeof maxMinAvgDataSchema>;

/** getAvgDataForClinometer: average tilt per device over the window and the resultant of the averages. */
export const clinometerAvgSchema = deviceRefSchema.extend({
  count: z.number().int(),
  tiltX: optNumOut,
  tiltY: optNumOut,
  resultant: optNumOut,
  azimuth: optNumOut,
});
export type ClinometerAvg = z.output<typeof clinometerAvgSchema>;

export const smoothPreviewSchema = z.object({
  deviceId: z.number().int(),
  quantity: z.string(),
  method: z.enum(SMOOTH_METHODS),
  window: z.number().int(),
  from: z.string(),
  to: z.string(),
  points: z.array(z.object({ ts: z.string(), original: num, smoothed: num })),
});
export type SmoothPreview = z.output<typeof smoothPreviewSchema>;

/** POST smoothHandleData: readings whose value changed (each previous value is kept in the edit log). */
export const smoothResultSchema = z.object({ changed: z.number().int(), from: z.string(), to: z.string() });
export type SmoothResult = z.output<typeof smoothResultSchema>;
export const deleteResultSchema = z.object({ deleted: z.number().int() });
export type DeleteResult = z.output<typeof deleteResultSchema>;
export const editGnssResultSchema = z.object({ ts: z.string(), values: z.record(z.string(), num) });
export type EditGnssResult = z.output<typeof editGnssResultSchema>;

/** rain/getLatestHoursData: rainfall sums (mm) over the last 1, 3, 6, 12, 24, 48 hours: (now - w, now]. */
export const rainLatestSchema = deviceRefSchema.extend({
  lastReadingAt: isoOrNull,
  windows: z.array(z.object({ hours: num, rainfall: num })),
});
export type RainLatest = z.output<typeof rainLatestSchema>;

/** gnss/getRealTimeDataAndUntie: newest GNSS solution; d2D = hypot(dN, dE), d3D = hypot(dN, dE, dH) (mm). */
export const gnssRealTimeSchema = deviceRefSchema.extend({
  state: deviceStateSchema,
  online: z.boolean(),
  ts: isoOrNull,
  dN: optNumOut,
  dE: optNumOut,
  dH: optNumOut,
  d2D: optNumOut,
  d3D: optNumOut,
  sats: optNumOut,
  pdop: optNumOut,
  fix: optNumOut,
});
export type GnssRealTime = z.output<typeof gnssRealTimeSchema>;

/** satellite/getSatelliteInfo: newest solution quality per GNSS device. */
export const satelliteInfoSchema = deviceRefSchema.extend({
  ts: isoOrNull,
  sats: optNumOut,
  pdop: optNumOut,
  fix: optNumOut,
  fixLabel: z.enum(['fixed', 'float']).nullable(),
});
export type SatelliteInfo = z.output<typeof satelliteInfoSchema>;

/** ionosphere/getLatestTableData: newest solution quality plus the last 24 hours (from the hourly rollups). */
export const ionosphereLatestSchema = satelliteInfoSchema.extend({
  /** Share of fixed solutions (0..1) over the last 24 hours. */
  fixedRatio24h: optNumOut,
  avgPdop24h: optNumOut,
  avgSats24h: optNumOut,
  readings24h: z.number().int(),
});
export type IonosphereLatest = z.output<typeof ionosphereLatestSchema>;

/** Statistics of one quantity in one report period (null when no readings). */
export const reportCellSchema = z.record(z.enum(REPORT_STATS), optNumOut);
export type ReportCell = Record<ReportStat, number | null>;

export const reportRowSchema = z.object({
  /** Bucket start (ISO). */
  period: z.string(),
  /** periodLabel(period, statisticsType). */
  label: z.string(),
  values: z.record(z.string(), reportCellSchema),
});
export type ReportRow = z.output<typeof reportRowSchema>;

export const moduleReportDeviceSchema = deviceRefSchema.extend({
  rows: z.array(reportRowSchema),
  /** The whole window per quantity. */
  summary: z.record(z.string(), reportCellSchema),
});
export type ModuleReportDevice = z.output<typeof moduleReportDeviceSchema>;

/** report/module/getModuleData and getModuleDataReport (format=json); format=xlsx answers the workbook. */
export const moduleReportSchema = z.object({
  platformId: z.number().int(),
  platformName: z.string(),
  moduleId: z.number().int(),
  moduleName: z.string(),
  statisticsType: z.enum(STATISTICS_TYPES),
  template: z.enum(REPORT_TEMPLATES),
  /** Statistics the template shows per quantity. */
  columns: z.array(z.enum(REPORT_STATS)),
  from: z.string(),
  to: z.string(),
  /** The zone whose calendar the periods follow. */
  timeZone: z.string(),
  /** aggregate 'sum': an accumulated quantity (its `sum` is the figure, not `avg`). */
  quantities: z.array(z.object({ key: z.string(), label: z.string(), unit: z.string(), aggregate: aggregateSchema })),
  devices: z.array(moduleReportDeviceSchema),
  /** The report in the template's layout (moduleData.report.ts on the server; docs/reports.md), as it prints. */
  document: reportDocumentSchema,
});
export type ModuleReport = z.output<typeof moduleReportSchema>;

/** business/module/getRealTimeDataAndDeviceStatus. */
export const deviceStatusDataSchema = z.object({
  platformId: z.number().int(),
  platformName: z.string(),
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  counts: z.record(deviceStateSchema, z.number().int()),
  devices: z.array(realTimeDeviceSchema),
});
export type DeviceStatusData = z.output<typeof deviceStatusDataSchema>;

// ----------------------------------------------------------------------------------------------- routes

const tags = ['moduleData'];
const M = '/api/v2/data/module';
const REALTIME = perm('monitor:realtime');
const HISTORY = perm('monitor:history');
const PROCESS = perm('monitor:dataProcessing');
const REPORT = perm('monitor:report');
/** Newest values: the real-time screens (realTimeData, realtimesxxy). */
const LIVE = perm('monitor:realtime', 'monitor:realtime-sxxy');
/** A device's series: historyData, and the screens that chart one (comparison, processing, forecast, the live trails). */
const SERIES = perm(
  'monitor:history',
  'monitor:comparison',
  'monitor:dataProcessing',
  'monitor:predict',
  'monitor:realtime',
  'monitor:realtime-sxxy',
);

/** Module catalogue and binding (getAllModules, getModules, bindModules) live in monitorTypesRoutes. */
export const moduleDataRoutes = routeTable({
  /** -> RealTimeDevice[] (devices in scope, filtered by platformId / moduleId / deviceId). */
  getRealTimeData: {
    method: 'GET',
    path: `${M}/getRealTimeData`,
    permission: LIVE,
    summary: 'Newest values per device (optionally of one site, monitor type or device)',
    tags,
    query: realTimeQuery,
    response: z.array(realTimeDeviceSchema),
  },
  /** -> RealTimeDevice[] of one site. */
  getRealTimeDataByPlatformId: {
    method: 'GET',
    path: `${M}/getRealTimeDataByPlatformId`,
    permission: REALTIME,
    summary: 'Newest values of every device of one site',
    tags,
    query: moduleDataPlatformQuery,
    response: z.array(realTimeDeviceSchema),
  },
  /** -> ClinometerRealTime[] (tilt devices, module 9). */
  getRealTimeDataForClinometer: {
    method: 'GET',
    path: `${M}/getRealTimeDataForClinometer`,
    permission: REALTIME,
    summary: 'Newest tilt of tilt devices with resultant angle and azimuth',
    tags,
    query: siteOrDeviceQuery,
    response: z.array(clinometerRealTimeSchema),
  },
  /** -> HistoricalData: per device per quantity series with rate, acceleration, variation. */
  getHistoricalData: {
    method: 'GET',
    path: `${M}/getHistoricalData`,
    permission: SERIES,
    summary: 'History of one device or a comparison of 2 to 10: raw (LTTB-downsampled) or aggregated series',
    tags,
    query: historyQuery,
    response: historicalDataSchema,
  },
  /** -> MaxMinAvgData. */
  getMaxMinAvgData: {
    method: 'GET',
    path: `${M}/getMaxMinAvgData`,
    permission: HISTORY,
    summary: 'Max (with time), min (with time), average, count, first, last and change per quantity over a window',
    tags,
    query: maxMinAvgQuery,
    response: maxMinAvgDataSchema,
  },
  /** -> ClinometerAvg[]. */
  getAvgDataForClinometer: {
    method: 'GET',
    path: `${M}/getAvgDataForClinometer`,
    permission: HISTORY,
    summary: 'Average tilt per tilt device over a window',
    tags,
    query: clinometerAvgQuery,
    response: z.array(clinometerAvgSchema),
  },
  /** -> SmoothPreview (nothing stored). */
  getSmoothHandleData: {
    method: 'GET',
    path: `${M}/getSmoothHandleData`,
    permission: PROCESS,
    summary: 'Preview of smoothing one quantity: original and smoothed series',
    tags,
    query: smoothPreviewQuery,
    response: smoothPreviewSchema,
  },
  /** -> SmoothResult. */
  smoothHandleData: {
    method: 'POST',
    path: `${M}/smoothHandleData`,
    permission: PROCESS,
    summary:
      'Replace the stored values of one quantity in a window with smoothed ones (originals kept in the edit log)',
    tags,
    body: smoothBody,
    response: smoothResultSchema,
  },
  /** -> DeleteResult. */
  deleteData: {
    method: 'POST',
    path: `${M}/deleteData`,
    permission: PROCESS,
    summary: 'Delete readings of a device in a window or at given timestamps (kept in the edit log)',
    tags,
    body: deleteDataBody,
    response: deleteResultSchema,
  },
  /** -> EditGnssResult. */
  editGNSSData: {
    method: 'POST',
    path: `${M}/editGNSSData`,
    permission: PROCESS,
    summary: 'Edit dN/dE/dH of one GNSS reading (previous values kept in the edit log)',
    tags,
    body: editGnssBody,
    response: editGnssResultSchema,
  },
  /** -> RainLatest[]. */
  getRainLatestHoursData: {
    method: 'GET',
    path: `${M}/rain/getLatestHoursData`,
    permission: REALTIME,
    summary: 'Rainfall sums of rain gauges over the last 1, 3, 6, 12, 24 and 48 hours (t - w, t]',
    tags,
    query: rainLatestQuery,
    response: z.array(rainLatestSchema),
  },
  /** -> GnssRealTime[]. */
  getGnssRealTimeDataAndUntie: {
    method: 'GET',
    path: `${M}/gnss/getRealTimeDataAndUntie`,
    permission: REALTIME,
    summary: 'Newest GNSS solution per device with 2D and 3D displacement',
    tags,
    query: siteOrDeviceQuery,
    response: z.array(gnssRealTimeSchema),
  },
  /** -> SatelliteInfo[]. */
  getSatelliteInfo: {
    method: 'GET',
    path: `${M}/satellite/getSatelliteInfo`,
    permission: REALTIME,
    summary: 'Newest satellites used, PDOP and fix state per GNSS device',
    tags,
    query: siteOrDeviceQuery,
    response: z.array(satelliteInfoSchema),
  },
  /** -> IonosphereLatest[]. */
  getIonosphereLatestTableData: {
    method: 'GET',
    path: `${M}/ionosphere/getLatestTableData`,
    permission: REALTIME,
    summary: 'GNSS solution quality: newest values and 24-hour fixed ratio, average PDOP and satellites',
    tags,
    query: siteOrDeviceQuery,
    response: z.array(ionosphereLatestSchema),
  },
  /** -> HistoricalData with the quantities pdop, sats, fix. */
  getIonosphereHistoricalData: {
    method: 'GET',
    path: `${M}/ionosphere/getHistoricalData`,
    permission: HISTORY,
    summary: 'GNSS solution quality history (pdop, sats, fix)',
    tags,
    query: ionosphereHistoryQuery,
    response: historicalDataSchema,
  },
  /** -> ModuleReport. */
  getModuleData: {
    method: 'GET',
    path: '/api/v2/data/report/module/getModuleData',
    permission: REPORT,
    summary: 'Report table: per device, period rows with statistics per quantity',
    tags,
    query: moduleReportQuery,
    response: moduleReportSchema,
  },
  /** format=xlsx|pdf (download, token may be a query parameter): the file; format=json: ModuleReport. */
  getModuleDataReport: {
    method: 'GET',
    path: '/api/v2/data/report/module/getModuleDataReport',
    permission: REPORT,
    summary: 'Report download (format=xlsx or pdf) or its table (format=json)',
    tags,
    query: moduleReportQuery,
    tokenInQuery: true,
  },
  /** -> DeviceStatusData. */
  getRealTimeDataAndDeviceStatus: {
    method: 'GET',
    path: '/api/v2/data/business/module/getRealTimeDataAndDeviceStatus',
    // The big screen (digitalGallery) shows a site's devices with this call too (spec §7 bigData calls).
    permission: perm('monitor:realtime', 'digitalGallery'),
    summary: 'Devices of a site with state, online flag and newest values, and counts by state',
    tags,
    query: moduleDataPlatformQuery,
    response: deviceStatusDataSchema,
  },
});
