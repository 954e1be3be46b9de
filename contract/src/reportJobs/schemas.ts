import { z } from 'zod';
import { pageQuery, zBool, zInt, zOptText, zText } from '../api/zod.ts';
import { JOB_STATES } from '../jobs/catalogue.ts';
import { jobSchema } from '../jobs/schemas.ts';
import { zTimeZone } from '../moduleData/index.ts';
import {
  REPORT_JOB_FORMATS,
  REPORT_KINDS,
  SCHEDULE_FREQUENCIES,
  SCHEDULE_PERIODS,
  SCHEDULE_RUN_STATES,
} from './catalogue.ts';

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Queues a report as a job: its kind and format, and the report's own parameters beside them (the same names
 * as on the report's route, checked by the server with that route's schema).
 */
export const reportJobSubmitBody = z.looseObject({
  kind: z.enum(REPORT_KINDS),
  format: z.enum(REPORT_JOB_FORMATS),
});

/** A report job as its owner lists it: the job, and what report it makes. */
export const reportJobSchema = jobSchema.extend({
  reportKind: z.enum(REPORT_KINDS),
  format: z.enum(REPORT_JOB_FORMATS),
  platformId: z.number().int(),
  platformName: z.string().nullable(),
  /** The name the file is saved under. */
  fileName: z.string().nullable(),
});
export type ReportJob = z.output<typeof reportJobSchema>;

export const REPORT_JOB_SORT_FIELDS = ['createdAt', 'state', 'reportKind', 'platformName'] as const;
export const reportJobListQuery = pageQuery(20).extend({
  state: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(JOB_STATES).optional()),
  reportKind: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(REPORT_KINDS).optional()),
  platformId: z.preprocess((v) => (blank(v) ? undefined : v), zInt().optional()),
});

/** Download of a finished job's file: GET with the token in the query, or POST with a body (spec §7). */
export const reportJobDownloadQuery = z.object({
  id: zInt(),
  /** The name to save under (without extension; default the report's). */
  fileName: zOptText(120),
});

const list = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : v,
    z.array(item),
  );
/** The report's parameters: an object, or its JSON text in a form-encoded body. */
const paramsField = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  },
  z.record(z.string(), z.unknown()),
);

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export const reportScheduleFields = {
  name: zText(100),
  kind: z.enum(REPORT_KINDS),
  /** The report's parameters without its period, zone, format and file name (SCHEDULE_RUN_FIELDS). */
  params: paramsField,
  formats: list(z.enum(REPORT_JOB_FORMATS)).pipe(z.array(z.enum(REPORT_JOB_FORMATS)).min(1).max(2)),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  /** Weekly: ISO weekday, 1 Monday … 7 Sunday. */
  weekday: z.preprocess((v) => (blank(v) ? undefined : v), zInt().pipe(z.number().min(1).max(7)).optional()),
  /** Monthly: day of the month, 1–31 (a shorter month runs on its last day). */
  monthDay: z.preprocess((v) => (blank(v) ? undefined : v), zInt().pipe(z.number().min(1).max(31)).optional()),
  /** Local time of day in the schedule's zone, HH:mm. */
  time: z.string().trim().regex(HHMM),
  /** The schedule's zone (IANA); default the owner's. */
  timeZone: zTimeZone(),
  period: z.enum(SCHEDULE_PERIODS),
  /** The contact group mailed (its members with an e-mail address, each in his language). */
  groupId: zInt(),
  enabled: z.preprocess((v) => (blank(v) ? undefined : v), zBool().optional().default(true)),
};
export const reportScheduleAddBody = z.object(reportScheduleFields);
export const reportScheduleEditBody = z.object({ id: zInt(), ...reportScheduleFields });
export const reportScheduleIdBody = z.object({ id: zInt() });
export const reportScheduleIdQuery = z.object({ id: zInt() });

export const SCHEDULE_SORT_FIELDS = ['name', 'kind', 'frequency', 'nextDueAt', 'createdAt'] as const;
export const reportScheduleListQuery = pageQuery(20).extend({
  keyword: zOptText(100),
  kind: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(REPORT_KINDS).optional()),
});

export const scheduleRunSchema = z.object({
  id: z.number().int(),
  scheduleId: z.number().int(),
  dueAt: z.string(),
  state: z.enum(SCHEDULE_RUN_STATES),
  /** Why it failed, in the caller's language, and its message key. */
  reason: z.string().nullable(),
  reasonKey: z.string().nullable(),
  /** Mails queued in the outbox, and sent so far. */
  mails: z.number().int(),
  sent: z.number().int(),
  jobId: z.number().int().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type ScheduleRun = z.output<typeof scheduleRunSchema>;

export const reportScheduleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(REPORT_KINDS),
  params: z.record(z.string(), z.unknown()),
  platformId: z.number().int(),
  platformName: z.string().nullable(),
  formats: z.array(z.enum(REPORT_JOB_FORMATS)),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  weekday: z.number().int().nullable(),
  monthDay: z.number().int().nullable(),
  time: z.string(),
  timeZone: z.string(),
  period: z.enum(SCHEDULE_PERIODS),
  groupId: z.number().int(),
  groupName: z.string().nullable(),
  enabled: z.boolean(),
  nextDueAt: z.string().nullable(),
  lastRun: scheduleRunSchema.nullable(),
  createdAt: z.string(),
});
export type ReportSchedule = z.output<typeof reportScheduleSchema>;

export const scheduleGroupOptionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Members with an e-mail address (those mailed). */
  mailable: z.number().int(),
});
