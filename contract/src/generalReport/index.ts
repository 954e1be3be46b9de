// The general report's contract (issue 17, /monitor/generalReport, role monitor:generalReport): the periodic
// monitoring report of a site. The spec does not show its calls: they sit under /api/v2/data/report/general/ in
// the style of the module report.
import { z } from 'zod';
import { zInt, zOptText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { zReqTime, zTimeZone } from '../moduleData/index.ts';
import { reportDocumentSchema } from '../reportDocument/index.ts';

export const GENERAL_REPORT_PERMISSION = 'monitor:generalReport';
export const GENERAL_REPORT_LIMITS = {
  /** Longest period of one report, days. */
  maxDays: 92,
  /** Largest changes listed (top N by absolute change per device quantity). */
  topChanges: 10,
  /** Alerts listed at most. */
  maxAlerts: 500,
  /** Reporting interval assumed for a device without params.reportingIntervalMinutes, minutes. */
  defaultIntervalMinutes: 60,
  /** Longest conclusions text, characters. */
  maxConclusions: 4000,
} as const;

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** The general report is the one report people edit before they hand it over: it is also written as Word (docx). */
export const GENERAL_REPORT_FORMATS = ['json', 'xlsx', 'pdf', 'docx'] as const;
export const generalReportQuery = z.object({
  platformId: zInt(),
  startTime: zReqTime(),
  endTime: zReqTime(),
  timeZone: zTimeZone(),
  /** The engineer's conclusions, written before export (plain text; not stored). */
  conclusions: zOptText(GENERAL_REPORT_LIMITS.maxConclusions),
  author: zOptText(120),
  format: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(GENERAL_REPORT_FORMATS).default('json')),
  /** The name to save a file under (without extension; default the report's). */
  fileName: zOptText(120),
});
export type GeneralReportQuery = z.input<typeof generalReportQuery>;

export const generalReportDeviceSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  moduleId: z.number().int(),
  state: z.string(),
  intervalMinutes: z.number(),
  /** Readings stored in the period. */
  received: z.number().int(),
  /** floor(period length / reporting interval). */
  expected: z.number().int(),
  /** received / expected in percent, one decimal, at most 100; null when nothing was expected. */
  completeness: z.number().nullable(),
});
export const generalReportAlertSchema = z.object({
  alertId: z.number().int(),
  deviceName: z.string(),
  quantity: z.string().nullable(),
  level: z.number().int(),
  status: z.string(),
  firstAt: z.string(),
  lastValue: z.number().nullable(),
  /** Handling records: who, when, what. */
  actions: z.array(z.object({ at: z.string(), action: z.string(), userName: z.string().nullable() })),
});
export const generalReportChangeSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  quantity: z.string(),
  first: z.number(),
  last: z.number(),
  change: z.number(),
});
export const generalReportSchema = z.object({
  platformId: z.number().int(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  devices: z.array(generalReportDeviceSchema),
  alerts: z.array(generalReportAlertSchema),
  changes: z.array(generalReportChangeSchema),
  document: reportDocumentSchema,
});
export type GeneralReport = z.output<typeof generalReportSchema>;

const tags = ['generalReport'];
const B = '/api/v2/data/report/general';
const P = perm(GENERAL_REPORT_PERMISSION);
export const generalReportRoutes = routeTable({
  getGeneralReport: {
    method: 'GET',
    path: `${B}/getGeneralReport`,
    permission: P,
    summary:
      'The general report of a site for a period: site card, devices with data completeness, alerts and their handling, largest changes, with the report document',
    tags,
    query: generalReportQuery,
    response: generalReportSchema,
  },
  /** format=xlsx|pdf|docx: the file (token may be a query parameter, or POST the parameters); format=json: as getGeneralReport. */
  getGeneralReportFile: {
    method: 'GET',
    path: `${B}/getGeneralReportFile`,
    permission: P,
    summary: 'The general report as a file (format=xlsx, pdf or docx), saved under the report name',
    tags,
    query: generalReportQuery,
    tokenInQuery: true,
  },
});
