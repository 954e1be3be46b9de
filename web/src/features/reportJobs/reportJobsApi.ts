import type { z } from 'zod';
import {
  reportJobListQuery,
  reportJobRoutes as J,
  reportScheduleListQuery,
  reportScheduleRoutes as S,
  type ReportJobFormat,
  type ReportKind,
  type SchedulePeriod,
  type ScheduleFrequency,
} from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { change, picker } from '../../shared/query.ts';
import { downloadFile } from '../../shared/report/index.ts';

export const reportJobKeys = {
  all: ['reportJobs'] as const,
  jobs: (p: object) => ['reportJobs', 'jobs', p] as const,
  schedules: (p: object) => ['reportJobs', 'schedules', p] as const,
  runs: (id: number) => ['reportJobs', 'runs', id] as const,
  groups: ['reportJobs', 'groups'] as const,
};

export type JobParams = z.output<typeof reportJobListQuery>;
export type ScheduleParams = z.output<typeof reportScheduleListQuery>;

export const fetchReportJobs = (p: JobParams) => call(J.list, { ...p });
export const fetchSchedules = (p: ScheduleParams) => call(S.list, { ...p });
export const fetchRuns = (id: number) => call(S.runs, { id }, picker);
export const fetchGroupOptions = () => call(S.groupOptions, {}, picker);

/** The report's own parameters, as the form gives them. */
export interface ReportFields {
  kind: ReportKind;
  platformId: number;
  moduleId?: number | undefined;
  statisticsType?: string | undefined;
  template?: string | undefined;
}

const reportParams = (v: ReportFields): Record<string, unknown> => ({
  platformId: v.platformId,
  ...(v.kind === 'moduleData' ? { moduleId: v.moduleId, statisticsType: v.statisticsType, template: v.template } : {}),
  ...(v.kind === 'reservoir' ? { statisticsType: v.statisticsType } : {}),
});

export interface JobValues extends ReportFields {
  format: ReportJobFormat;
  startTime: string;
  endTime: string;
  timeZone: string;
  fileName?: string | undefined;
}
export const submitJob = (v: JobValues) =>
  call(
    J.submit,
    {
      kind: v.kind,
      format: v.format,
      ...reportParams(v),
      startTime: v.startTime,
      endTime: v.endTime,
      timeZone: v.timeZone,
      ...(v.fileName?.trim() ? { fileName: v.fileName.trim() } : {}),
    },
    change,
  );

/** Saves a finished job's file under the server's name (a failure throws the server's translated message). */
export const downloadJob = (id: number) => downloadFile('GET', J.download.path, { id }, 'report');

export interface ScheduleValues extends ReportFields {
  name: string;
  formats: ReportJobFormat[];
  frequency: ScheduleFrequency;
  weekday?: number | undefined;
  monthDay?: number | undefined;
  time: string;
  timeZone: string;
  period: SchedulePeriod;
  groupId: number;
  enabled: boolean;
}
const scheduleFields = (v: ScheduleValues) => ({
  name: v.name.trim(),
  kind: v.kind,
  params: JSON.stringify(reportParams(v)),
  formats: v.formats.join(','),
  frequency: v.frequency,
  ...(v.frequency === 'weekly' ? { weekday: v.weekday } : {}),
  ...(v.frequency === 'monthly' ? { monthDay: v.monthDay } : {}),
  time: v.time,
  timeZone: v.timeZone,
  period: v.period,
  groupId: v.groupId,
  enabled: v.enabled,
});
export const saveSchedule = (id: number | null, v: ScheduleValues) =>
  id === null ? call(S.add, scheduleFields(v), change) : call(S.edit, { id, ...scheduleFields(v) }, change);
export const deleteSchedule = (id: number) => call(S.delete, { id }, change);
