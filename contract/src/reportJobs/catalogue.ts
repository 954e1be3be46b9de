// Report jobs and scheduled reports (issue 17, scope 7 and 8): constants shared by the server and the console.
import { moduleDataRoutes, moduleReportQuery } from '../moduleData/index.ts';
import { vibrationReportQuery, vibrationRoutes } from '../vibration/index.ts';
import { comprehensiveQuery, reservoirRoutes } from '../reservoir/index.ts';
import { generalReportQuery, generalReportRoutes } from '../generalReport/index.ts';

/** The reports a job or a schedule may produce. */
export const REPORT_KINDS = ['moduleData', 'vibration', 'reservoir', 'general'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** File formats of a report job (every report is written as xlsx and PDF). */
export const REPORT_JOB_FORMATS = ['xlsx', 'pdf'] as const;
export type ReportJobFormat = (typeof REPORT_JOB_FORMATS)[number];

/** The job kinds of the platform's runner (contract/src/jobs). */
export const REPORT_JOB_KIND = 'report';
export const REPORT_SCHEDULE_JOB_KIND = 'reportSchedule';

/**
 * Each report's parameters are checked with the very schema its own route uses, and its permission is the
 * permission of its own file route (a job gives no more than a download would).
 */
export const REPORT_KIND_QUERY = {
  moduleData: moduleReportQuery,
  vibration: vibrationReportQuery,
  reservoir: comprehensiveQuery,
  general: generalReportQuery,
} as const;
export const REPORT_KIND_PERMISSION = {
  moduleData: moduleDataRoutes.getModuleDataReport.permission,
  vibration: vibrationRoutes.getVibrationReportFile.permission,
  reservoir: reservoirRoutes.getReportComprehensiveFile.permission,
  general: generalReportRoutes.getGeneralReportFile.permission,
} as const;

/** The report centre's role key (spec §2 /data report, reportform; §6 monitor:report). */
export const REPORT_CENTRE_PERMISSION = 'monitor:report';

/** How often a schedule runs. */
export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

/**
 * The period a scheduled report covers, relative to its due time on the schedule zone's calendar: the day
 * before; the seven days before; the previous Monday to Sunday; the previous calendar month.
 */
export const SCHEDULE_PERIODS = ['yesterday', 'last7Days', 'lastWeek', 'lastMonth'] as const;
export type SchedulePeriod = (typeof SCHEDULE_PERIODS)[number];

/** States of one run of a schedule (one per schedule and due time). */
export const SCHEDULE_RUN_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ScheduleRunState = (typeof SCHEDULE_RUN_STATES)[number];

/** Parameters a schedule does not store: the period, zone, format and file name are set at each run. */
export const SCHEDULE_RUN_FIELDS = ['startTime', 'endTime', 'timeZone', 'format', 'fileName'] as const;

export const REPORT_SCHEDULE_LIMITS = {
  /** Schedules one user may keep. */
  maxPerOwner: 50,
} as const;
