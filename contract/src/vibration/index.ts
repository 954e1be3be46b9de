// The vibration report's contract (issue 17, /monitor/VibrationReport, role monitor:vibrationReport). The spec
// does not show its calls: they sit under /api/v2/data/report/vibration/ in the style of the module report.
import { z } from 'zod';
import { zInt, zNum, zOptText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { zReqTime, zTimeZone } from '../moduleData/index.ts';
import { reportDocumentSchema } from '../reportDocument/index.ts';
import { DEFAULT_LIMIT_CURVE, LIMIT_CURVE_IDS, VIBRATION_VERDICTS } from './curves.ts';

export * from './curves.ts';
export * from './analysis.ts';

export const VIBRATION_MODULE_ID = 36;
export const VIBRATION_REPORT_PERMISSION = 'monitor:vibrationReport';
/** Axes a logger may send (velocityX/Y/Z); a device that sends one velocity is one axis, `velocity`. */
export const VIBRATION_AXES = ['velocityX', 'velocityY', 'velocityZ'] as const;
export const VIBRATION_LIMITS = {
  /** Longest period of one report, days. */
  maxDays: 92,
  /** Readings one report reads at most (a waveform logger at 1 kHz: 5 minutes of three axes). */
  maxSamples: 300_000,
  /** Events listed at most. */
  maxEvents: 500,
  defaultTriggerMmps: 0.5,
  defaultGapSeconds: 10,
} as const;

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const opt = <T extends z.ZodType>(s: T) => z.preprocess((v) => (blank(v) ? undefined : v), s.optional());

export const VIBRATION_FORMATS = ['json', 'xlsx', 'pdf'] as const;
export const vibrationReportQuery = z.object({
  platformId: zInt(),
  /** One device; without it every vibration device of the site. */
  deviceId: opt(zInt()),
  startTime: zReqTime(),
  endTime: zReqTime(),
  timeZone: zTimeZone(),
  curve: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(LIMIT_CURVE_IDS).default(DEFAULT_LIMIT_CURVE)),
  /** Trigger level, mm/s: a reading at or above it starts or continues an event. */
  trigger: opt(zNum().pipe(z.number().min(0.001).max(1000))),
  /** Readings further apart than this (seconds) are separate events. */
  gapSeconds: opt(zNum().pipe(z.number().min(0.001).max(3600))),
  format: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(VIBRATION_FORMATS).default('json')),
  /** The name to save a file under (without extension; default the report's). */
  fileName: zOptText(120),
});
export type VibrationReportQuery = z.input<typeof vibrationReportQuery>;

const axisOut = z.object({
  axis: z.string(),
  ppv: z.number(),
  at: z.string(),
  frequency: z.number().nullable(),
  frequencyMethod: z.enum(['fft', 'device']).nullable(),
});
export const vibrationEventSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  from: z.string(),
  to: z.string(),
  samples: z.number().int(),
  axes: z.array(axisOut),
  vectorSum: z.number(),
  vectorSumAt: z.string(),
  /** PPV and frequency judged (the axis with the largest PPV). */
  ppv: z.number(),
  frequency: z.number().nullable(),
  allowable: z.object({ lower: z.number(), upper: z.number() }).nullable(),
  verdict: z.enum(VIBRATION_VERDICTS),
});
export type VibrationEvent = z.output<typeof vibrationEventSchema>;

export const vibrationReportSchema = z.object({
  platformId: z.number().int(),
  curve: z.string(),
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  events: z.array(vibrationEventSchema),
  /** More events than listed (VIBRATION_LIMITS.maxEvents). */
  truncated: z.boolean(),
  document: reportDocumentSchema,
});
export type VibrationReport = z.output<typeof vibrationReportSchema>;

const tags = ['vibration'];
const B = '/api/v2/data/report/vibration';
const P = perm(VIBRATION_REPORT_PERMISSION);
export const vibrationRoutes = routeTable({
  getVibrationReport: {
    method: 'GET',
    path: `${B}/getVibrationReport`,
    permission: P,
    summary:
      'Vibration events of a site or device in a period: PPV per axis, vector sum, dominant frequency and the verdict against a limit curve, with the report document',
    tags,
    query: vibrationReportQuery,
    response: vibrationReportSchema,
  },
  /** format=xlsx|pdf: the file (token may be a query parameter); format=json: as getVibrationReport. */
  getVibrationReportFile: {
    method: 'GET',
    path: `${B}/getVibrationReportFile`,
    permission: P,
    summary: 'The vibration report as a file (format=xlsx or pdf), saved under the report name',
    tags,
    query: vibrationReportQuery,
    tokenInQuery: true,
  },
});
export * from './period.ts';
