// The reservoir's contract (issue 17; spec §3 capacity table and water level source, §7 reservoir calls):
// the comprehensive report, water level history and current water level with storage, and the manual water
// levels of a reservoir's sections (kept in the sections' manual water level table, the one data import fills).
import { z } from 'zod';
import { zInt, zOptText, zPage, pageQuery, zNum } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { zReqTime, zTimeZone } from '../moduleData/index.ts';
import { reportDocumentSchema } from '../reportDocument/index.ts';
import { WATER_LEVEL_SOURCES } from '../sections/index.ts';

export * from './storage.ts';

/** Water level devices of a reservoir, in the order one is chosen (reservoir water level before water level). */
export const RESERVOIR_LEVEL_MODULE_IDS = [11, 3] as const;
export const SEEPAGE_MODULE_IDS = [12, 17, 16] as const;
export const DEFORMATION_MODULE_IDS = [1, 5, 13, 26, 30, 35, 37] as const;
export const RAIN_MODULE_ID = 2;
export const RESERVOIR_STATISTICS_TYPES = ['hour', 'day', 'week', 'month', 'year'] as const;
export type ReservoirStatisticsType = (typeof RESERVOIR_STATISTICS_TYPES)[number];
export const RESERVOIR_LIMITS = {
  /** Longest period of a report by hour, days. */
  maxHourDays: 31,
  /** Longest period of a report, days. */
  maxDays: 366,
  /** Levels in one module/water/insert. */
  maxInsert: 1000,
  /** Lowest and highest water elevation accepted, m (the Dead Sea shore to above any dam). */
  minElevation: -450,
  maxElevation: 9000,
} as const;

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const opt = <T extends z.ZodType>(s: T) => z.preprocess((v) => (blank(v) ? undefined : v), s.optional());
const elevation = () =>
  zNum()
    .pipe(z.number().min(RESERVOIR_LIMITS.minElevation).max(RESERVOIR_LIMITS.maxElevation))
    .describe('Water elevation, m');

export const RESERVOIR_FORMATS = ['json', 'xlsx', 'pdf'] as const;
export const comprehensiveQuery = z.object({
  platformId: zInt(),
  /** A section: its water level source and capacity table; without it the site's first section. */
  segmentId: opt(zInt()),
  statisticsType: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(RESERVOIR_STATISTICS_TYPES).default('day')),
  startTime: zReqTime(),
  endTime: zReqTime(),
  timeZone: zTimeZone(),
  format: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(RESERVOIR_FORMATS).default('json')),
  /** The name to save a file under (without extension; default the report's). */
  fileName: zOptText(120),
});
export const waterHisQuery = z.object({
  platformId: zInt(),
  segmentId: opt(zInt()),
  startTime: zReqTime(),
  endTime: zReqTime(),
  timeZone: zTimeZone(),
});
export const waterInfoQuery = z.object({ platformId: zInt(), segmentId: opt(zInt()) });
export const WATER_LIST_SORT_FIELDS = ['time', 'platformName', 'segmentName', 'elevation', 'createdAt'] as const;
export const waterListQuery = pageQuery().extend({
  platformId: opt(zInt()),
  segmentId: opt(zInt()),
  startTime: opt(zReqTime()),
  endTime: opt(zReqTime()),
  timeZone: zTimeZone(),
});
export const waterAddBody = z.object({
  segmentId: zInt(),
  time: zReqTime(),
  elevation: elevation(),
  timeZone: zTimeZone(),
});
export const waterEditBody = z.object({
  id: zInt(),
  time: opt(zReqTime()),
  elevation: elevation(),
  timeZone: zTimeZone(),
});
export const waterIdBody = z.object({ id: zInt() });
const levelItem = z.object({ time: z.union([z.string().max(40), z.number()]), elevation: z.number() });
export const waterInsertBody = z.object({
  segmentId: zInt(),
  /** JSON array [{time, elevation}] (a string in a form). */
  levels: z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, z.array(levelItem).min(1).max(RESERVOIR_LIMITS.maxInsert)),
  timeZone: zTimeZone(),
  note: zOptText(200),
});

// ------------------------------------------------------------------------------------------------ answers
const ts = z.string();
export const manualWaterRowSchema = z.object({
  id: z.number().int(),
  segmentId: z.number().int(),
  segmentName: z.string(),
  platformId: z.number().int(),
  platformName: z.string(),
  time: ts,
  elevation: z.number(),
  /** From the capacity table of the section (else the site); null outside the table. */
  storage: z.number().nullable(),
  createdAt: ts,
});
export type ManualWaterRow = z.output<typeof manualWaterRowSchema>;

export const waterSourceSchema = z.object({
  source: z.enum(WATER_LEVEL_SOURCES),
  segmentId: z.number().int().nullable(),
  segmentName: z.string().nullable(),
  /** The water-level device read (auto). */
  deviceId: z.number().int().nullable(),
  deviceName: z.string().nullable(),
});
export const waterInfoSchema = waterSourceSchema.extend({
  platformId: z.number().int(),
  platformName: z.string(),
  level: z.number().nullable(),
  time: ts.nullable(),
  storage: z.number().nullable(),
  floodLevel: z.number().nullable(),
  limitedFloodLevel: z.number().nullable(),
  totalCapacity: z.number().nullable(),
  bottomElevation: z.number().nullable(),
  /** The level over the flood-limited level, m (negative: below). */
  overLimited: z.number().nullable(),
});
export type WaterInfo = z.output<typeof waterInfoSchema>;
export const waterHisSchema = waterSourceSchema.extend({
  timeZone: z.string(),
  floodLevel: z.number().nullable(),
  limitedFloodLevel: z.number().nullable(),
  list: z.array(z.object({ time: ts, level: z.number(), storage: z.number().nullable() })),
});
export type WaterHis = z.output<typeof waterHisSchema>;

const periodStat = z.object({
  period: ts,
  label: z.string(),
  avg: z.number().nullable(),
  max: z.number().nullable(),
  min: z.number().nullable(),
  last: z.number().nullable(),
  sum: z.number().nullable(),
  count: z.number().int(),
});
export const comprehensiveSchema = waterSourceSchema.extend({
  platformId: z.number().int(),
  platformName: z.string(),
  statisticsType: z.enum(RESERVOIR_STATISTICS_TYPES),
  timeZone: z.string(),
  from: ts,
  to: ts,
  floodLevel: z.number().nullable(),
  limitedFloodLevel: z.number().nullable(),
  water: z.object({
    periods: z.array(periodStat.extend({ storage: z.number().nullable() })),
    first: z.number().nullable(),
    last: z.number().nullable(),
    max: z.number().nullable(),
    min: z.number().nullable(),
    storageFirst: z.number().nullable(),
    storageLast: z.number().nullable(),
    storageChange: z.number().nullable(),
    /** Periods whose highest level is over the flood-limited level. */
    overLimitedPeriods: z.number().int(),
  }),
  groups: z.array(
    z.object({
      group: z.enum(['seepage', 'deformation', 'rain']),
      devices: z.array(
        z.object({
          deviceId: z.number().int(),
          deviceName: z.string(),
          moduleId: z.number().int(),
          quantity: z.string(),
          unit: z.string(),
          periods: z.array(periodStat),
          /** Whole period: avg, max, min, last; sum (rain); change (last - first). */
          avg: z.number().nullable(),
          max: z.number().nullable(),
          min: z.number().nullable(),
          first: z.number().nullable(),
          last: z.number().nullable(),
          sum: z.number().nullable(),
          change: z.number().nullable(),
        }),
      ),
    }),
  ),
  document: reportDocumentSchema,
});
export type ComprehensiveReport = z.output<typeof comprehensiveSchema>;

const tags = ['reservoir'];
const R = '/api/v2/data/reservoir';
const D = '/api/v2/data/information/device';
const WATER = perm('information:reservoirWater');
/** Reading a reservoir's water level: its screens, the water level list and the reports. */
const READ = perm('information:reservoirWater', 'monitor:platform:reservoir', 'monitor:report');
const REPORT = perm('monitor:report');
export const reservoirRoutes = routeTable({
  getReportComprehensiveInformation: {
    method: 'GET',
    path: `${R}/getReportComprehensiveInformation`,
    permission: REPORT,
    summary:
      'Comprehensive report of a reservoir: water level against the flood and flood-limited levels, storage, seepage, deformation and rainfall of the period, with the report document',
    tags,
    query: comprehensiveQuery,
    response: comprehensiveSchema,
  },
  /** format=xlsx|pdf: the file (token may be a query parameter). */
  getReportComprehensiveFile: {
    method: 'GET',
    path: `${R}/getReportComprehensiveFile`,
    permission: REPORT,
    summary: 'The comprehensive report as a file (format=xlsx or pdf), saved under the report name',
    tags,
    query: comprehensiveQuery,
    tokenInQuery: true,
  },
  waterHisInfo: {
    method: 'GET',
    path: `${R}/water/getHisInfo`,
    permission: READ,
    summary:
      'Water level history of a reservoir (auto: its water-level device; manual: the manual levels) with storage',
    tags,
    query: waterHisQuery,
    response: waterHisSchema,
  },
  waterInfo: {
    method: 'GET',
    path: '/api/v2/data/information/platform/model/base/water/getInfo',
    permission: READ,
    summary: 'Current water level of a reservoir or section with its storage and the flood levels',
    tags,
    query: waterInfoQuery,
    response: waterInfoSchema,
  },
  waterList: {
    method: 'GET',
    path: `${D}/module/water/getListPage`,
    permission: WATER,
    summary: 'Manual water levels of reservoirs, paged, filtered and sorted (default: time, newest first)',
    tags,
    query: waterListQuery,
    response: zPage(manualWaterRowSchema),
  },
  waterInsert: {
    method: 'POST',
    path: `${D}/module/water/insert`,
    permission: WATER,
    summary: 'Enter several manual water levels of a section at once: all or none (a time already entered refuses all)',
    tags,
    body: waterInsertBody,
    response: z.object({ added: z.number().int() }),
  },
  waterAdd: {
    method: 'POST',
    path: `${D}/water/add`,
    permission: WATER,
    summary: 'Enter a manual water level of a reservoir section (one per section and time)',
    tags,
    body: waterAddBody,
    response: z.object({ id: z.number().int() }),
  },
  waterEdit: {
    method: 'POST',
    path: `${D}/water/edit`,
    permission: WATER,
    summary: 'Change a manual water level (its elevation, and its time when given)',
    tags,
    body: waterEditBody,
    response: z.null(),
  },
  waterDelete: {
    method: 'POST',
    path: `${D}/water/delete`,
    permission: WATER,
    summary: 'Delete a manual water level',
    tags,
    body: waterIdBody,
    response: z.null(),
  },
});
