// Schemas of the tasks feature: spec §3 Task (and its fields), §4, §5.
import { z } from 'zod';
import { pageQuery, zInt, zOptText } from '../api/zod.ts';
import { optChoice, optDate, optFileIds, optId, optNumber, optText } from '../platforms/fields.ts';
import {
  TASK_GRADES,
  TASK_PRIORITIES,
  TASK_REVIEW_RESULTS,
  TASK_STATUSES,
  TASK_TYPES,
  TASK_VIEWS,
} from './catalogue.ts';

const blank = (v: unknown): unknown => (v === '' || v === null ? undefined : v);
/** An instant: ISO 8601 or yyyy-MM-dd HH:mm(:ss) (read as UTC unless it names its offset). */
const optInstant = (what: string) =>
  z
    .preprocess(
      blank,
      z
        .string()
        .trim()
        .regex(/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/)
        .refine((s) => Number.isFinite(Date.parse(s.includes(' ') ? s.replace(' ', 'T') : s)))
        .optional(),
    )
    .describe(`${what}: ISO 8601 (2026-11-25T08:00:00Z) or yyyy-MM-dd HH:mm:ss`);

/**
 * The fields of a task. Spec §5 makes task name, priority, responsible person, reviewer, project, construction
 * point, start and end time and description required: they are optional here so that a missing one is answered
 * with its own "... cannot be empty" message by the server (nothing saved), like the other forms of spec §5.
 */
export const taskInputFields = {
  name: optText(100, 'Task name (required)'),
  type: optChoice(TASK_TYPES, 'Task type'),
  project: optText(100, 'Project (required)'),
  area: optText(100, 'Observation area'),
  constructionPoint: optText(100, 'Construction point (required)'),
  platformId: optId('The site (required; a site in the caller’s data scope)'),
  deviceId: optId('A device of the site the task is about'),
  priority: optChoice(TASK_PRIORITIES, 'Priority (required)'),
  assigneeId: optId('The responsible person (required): a user who may see the site'),
  reviewerId: optId('The reviewer (required): a user who may see the site, not the responsible person'),
  documents: optFileIds('Document file ids (upload kind attachment or picture), at most 3'),
  planHours: optNumber('Plan time: the planned effort, hours', 0, 100000),
  startTime: optInstant('Planned start time (required)'),
  endTime: optInstant('Planned end time (required), after the start time'),
  description: optText(4000, 'Description (required)'),
  acceptance: optText(4000, 'Acceptance criteria'),
};
export const taskCreateBody = z.object({
  ...taskInputFields,
  alertId: optId('The alert the task is made from: its site, device and evidence are kept with the task'),
});
export const taskUpdateBody = z.object({ id: zInt(), ...taskInputFields });
export const taskIdBody = z.object({ id: zInt() });
export const taskIdQuery = z.object({ id: zInt() });

/** One day's progress report of the assignee (spec "daily history"). */
export const taskProgressBody = z.object({
  id: zInt().describe('The task'),
  text: optText(4000, 'What was done (required)'),
  completionRate: z
    .preprocess(blank, zInt().optional())
    .describe('Completion rate as the assignee reports it, 1 to 100 (required)'),
  photos: optFileIds('Photo file ids (upload kind picture), at most 3'),
  lat: optNumber('Latitude where reported, WGS-84', -90, 90),
  lon: optNumber('Longitude where reported, WGS-84', -180, 180),
  day: optDate(
    'The day the work was done, for a report made later: from the planned start day, at most ' +
      'TASK_LATE_REPORT_DAYS (7) days back, not after today; default today (UTC)',
  ),
});
export const taskSubmitBody = z.object({ id: zInt() });
export const taskReviewBody = z.object({
  id: zInt(),
  result: optChoice(TASK_REVIEW_RESULTS, 'Review result: pass or fail (required)'),
  grade: optChoice(TASK_GRADES, 'Completion grade: normal, good or excellent (required with pass)'),
  note: optText(2000, "The reviewer's note (required with fail: what must be done again)"),
});

export const TASK_SORT_FIELDS = [
  'endTime',
  'startTime',
  'priority',
  'status',
  'completionRate',
  'name',
  'platformName',
  'createdAt',
] as const;
export const taskPageQuery = pageQuery(10).extend({
  view: optChoice(TASK_VIEWS, 'received (mine), assigned (I published), review (I review), all (default)'),
  status: optChoice([...TASK_STATUSES, 'all'] as const, 'Status, or all (default)'),
  priority: optChoice(TASK_PRIORITIES, 'Priority'),
  platformId: optId('Tasks of this site'),
  assigneeId: optId('Tasks of this responsible person'),
  alertId: optId('Tasks made from this alert'),
  startDate: optDate('Period: tasks whose planned end time is on or after this day'),
  endDate: optDate('Period: tasks whose planned end time is on or before this day'),
  keyword: zOptText(100),
});
export const taskProgressQuery = pageQuery(20).extend({
  id: optId('Entries of this task'),
  platformId: optId('Entries of tasks of this site'),
  userId: optId('Entries of this person'),
  startDate: optDate('Entries of this day or later'),
  endDate: optDate('Entries of this day or earlier'),
});
export const taskEvaluationQuery = z.object({
  startDate: optDate('Period start (tasks whose planned end or completion falls in the period); default 30 days ago'),
  endDate: optDate('Period end; default today'),
  platformId: optId('Tasks of this site'),
});
export const taskAlertQuery = z.object({ alertId: zInt() });
export const taskUsersQuery = z.object({ platformId: zInt() });

const fileSchema = z.object({ file_id: z.string(), name: z.string().nullable(), mime: z.string().nullable() });
export type TaskFile = z.output<typeof fileSchema>;

export const taskSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(TASK_TYPES).nullable(),
  project: z.string(),
  area: z.string().nullable(),
  constructionPoint: z.string(),
  platformId: z.number().int(),
  platformName: z.string(),
  deviceId: z.number().int().nullable(),
  deviceName: z.string().nullable(),
  alertId: z.number().int().nullable(),
  priority: z.enum(TASK_PRIORITIES),
  status: z.enum(TASK_STATUSES),
  /** The last completion rate the assignee reported (0 before the first report). */
  completionRate: z.number().int(),
  /** See `deviationRate` in catalogue.ts: reported minus expected progress, percentage points. */
  deviationRate: z.number(),
  /** See `remainingDays` in catalogue.ts; null once completed. */
  remainingDays: z.number().int().nullable(),
  assigneeId: z.number().int(),
  assignee: z.string(),
  publisherId: z.number().int(),
  publisher: z.string(),
  reviewerId: z.number().int(),
  reviewer: z.string(),
  documents: z.array(fileSchema),
  planHours: z.number().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  description: z.string(),
  acceptance: z.string().nullable(),
  grade: z.enum(TASK_GRADES).nullable(),
  reviewResult: z.enum(TASK_REVIEW_RESULTS).nullable(),
  reviewNote: z.string().nullable(),
  startedAt: z.string().nullable(),
  submittedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Task = z.output<typeof taskSchema>;

export const taskReviewSchema = z.object({
  reviewer: z.string(),
  result: z.enum(TASK_REVIEW_RESULTS),
  grade: z.enum(TASK_GRADES).nullable(),
  note: z.string().nullable(),
  at: z.string(),
});
export const taskDetailSchema = taskSchema.extend({
  /** The alert's evidence when made from an alert (as the alert detail gives it). */
  evidence: z.record(z.string(), z.unknown()).nullable(),
  reviews: z.array(taskReviewSchema),
  /** What the caller may do now. */
  can: z.object({
    edit: z.boolean(),
    start: z.boolean(),
    report: z.boolean(),
    submit: z.boolean(),
    review: z.boolean(),
  }),
});
export type TaskDetail = z.output<typeof taskDetailSchema>;

export const taskProgressSchema = z.object({
  id: z.number().int(),
  taskId: z.number().int(),
  taskName: z.string(),
  platformName: z.string(),
  userId: z.number().int().nullable(),
  user: z.string(),
  day: z.string(),
  text: z.string(),
  completionRate: z.number().int(),
  photos: z.array(fileSchema),
  lat: z.number().nullable(),
  lon: z.number().nullable(),
  createdAt: z.string(),
});
export type TaskProgress = z.output<typeof taskProgressSchema>;

const evalRow = {
  tasks: z.number().int(),
  completed: z.number().int(),
  /** Completed no later than the planned end time. */
  onTime: z.number().int(),
  /** onTime / completed, percent (null with no completed task). */
  onTimeRate: z.number().nullable(),
  /** Completed tasks by grade. */
  normal: z.number().int(),
  good: z.number().int(),
  excellent: z.number().int(),
  /** Failed reviews in the period's tasks. */
  failedReviews: z.number().int(),
};
export const taskEvaluationSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  persons: z.array(z.object({ userId: z.number().int(), name: z.string(), ...evalRow })),
  team: z.object(evalRow),
});
export type TaskEvaluation = z.output<typeof taskEvaluationSchema>;

/** What "create task" on an alert fills in. */
export const taskAlertDraftSchema = z.object({
  alertId: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  deviceId: z.number().int(),
  deviceName: z.string(),
  level: z.number().int(),
  name: z.string(),
  type: z.enum(TASK_TYPES),
  priority: z.enum(TASK_PRIORITIES),
  startTime: z.string(),
  endTime: z.string(),
  description: z.string(),
  evidence: z.record(z.string(), z.unknown()),
});
export type TaskAlertDraft = z.output<typeof taskAlertDraftSchema>;

export const taskUserSchema = z.object({ id: z.number().int(), name: z.string(), account: z.string() });
export type TaskUser = z.output<typeof taskUserSchema>;
