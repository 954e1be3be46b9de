// The tasks feature's contract: field tasks from assignment to review (spec §2 /task, §3 Task, §4, §5).
// The spec shows no task calls: they are designed under /api/v2/data/task/... in the spec's style.
import { z } from 'zod';
import { zPage } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import {
  taskAlertDraftSchema,
  taskAlertQuery,
  taskCreateBody,
  taskDetailSchema,
  taskUpdateBody,
  taskEvaluationQuery,
  taskEvaluationSchema,
  taskIdBody,
  taskIdQuery,
  taskPageQuery,
  taskProgressBody,
  taskProgressQuery,
  taskProgressSchema,
  taskReviewBody,
  taskSchema,
  taskSubmitBody,
  taskUserSchema,
  taskUsersQuery,
} from './tasks.ts';

export * from './catalogue.ts';
export * from './tasks.ts';

const tags = ['task'];
const B = '/api/v2/data/task';
/** Any task screen: my tasks, assigned tasks, task review. */
const ANY = perm('task:receivetask', 'task:assignedtask', 'task:reviewtask');
const ASSIGN = perm('task:assignedtask');
const RECEIVE = perm('task:receivetask');
const REVIEW = perm('task:reviewtask');
const id = z.object({ id: z.number().int() });

export const taskRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${B}/getListPage`,
    permission: ANY,
    summary:
      'Tasks the caller may see (of the sites in his data scope, plus those he is responsible for, published or reviews), paged (default 10); view received|assigned|review|all; filters status (or all), priority, platformId, assigneeId, alertId, startDate/endDate (planned end time in the period), keyword; total counted up to 10,000 (totalCapped: more); sortField endTime|startTime|priority|status|completionRate|name|platformName|createdAt (default nearest end first). deviationRate = reported completion rate minus the share of the planned period passed (percentage points); remainingDays = ceil((endTime - now) / 1 day), null when completed',
    tags,
    query: taskPageQuery,
    response: zPage(taskSchema).extend({ totalCapped: z.boolean() }),
  },
  detail: {
    method: 'GET',
    path: `${B}/getDetail`,
    permission: ANY,
    summary: 'One task with its alert evidence, reviews and what the caller may do now (a foreign id: not found)',
    tags,
    query: taskIdQuery,
    response: taskDetailSchema,
  },
  create: {
    method: 'POST',
    path: `${B}/add`,
    permission: ASSIGN,
    summary:
      'Create (publish) a task: name, priority, responsible person, reviewer, project, construction point, start and end time and description required; at most 3 documents. With alertId: site and device are the alert’s, its evidence is kept. The responsible person and the reviewer are notified (mail, SMS)',
    tags,
    body: taskCreateBody,
    response: id,
  },
  edit: {
    method: 'POST',
    path: `${B}/edit`,
    permission: ASSIGN,
    summary:
      'Edit a task that is not completed (documents left out are kept); the status is changed only by the workflow',
    tags,
    body: taskUpdateBody,
    response: z.null(),
  },
  start: {
    method: 'POST',
    path: `${B}/start`,
    permission: RECEIVE,
    summary: 'The responsible person starts his task: not started -> ongoing',
    tags,
    body: taskIdBody,
    response: z.null(),
  },
  progress: {
    method: 'POST',
    path: `${B}/progress/add`,
    permission: RECEIVE,
    summary:
      'The responsible person reports a day’s progress of an ongoing task: text, completion rate 1 to 100, at most 3 photos, position',
    tags,
    body: taskProgressBody,
    response: id,
  },
  submit: {
    method: 'POST',
    path: `${B}/submit`,
    permission: RECEIVE,
    summary:
      'The responsible person submits his ongoing task for review: ongoing -> to be reviewed (one state under concurrent calls)',
    tags,
    body: taskSubmitBody,
    response: z.null(),
  },
  review: {
    method: 'POST',
    path: `${B}/review`,
    permission: REVIEW,
    summary:
      'The reviewer passes (with a grade: to completed) or fails (with a note: back to ongoing) a task to be reviewed; nobody reviews his own task',
    tags,
    body: taskReviewBody,
    response: z.null(),
  },
  progressList: {
    method: 'GET',
    path: `${B}/progress/getListPage`,
    permission: ANY,
    summary:
      'Daily history: progress entries of the tasks the caller may see, newest first, paged (default 20; total counted up to 10,000, totalCapped: more); filters id (task), platformId, userId, startDate, endDate',
    tags,
    query: taskProgressQuery,
    response: zPage(taskProgressSchema).extend({ totalCapped: z.boolean() }),
  },
  evaluation: {
    method: 'GET',
    path: `${B}/evaluation/get`,
    permission: ANY,
    summary:
      'Task evaluation over a period (tasks whose planned end or completion falls in it, default the last 30 days): per responsible person and for the team, tasks, completed, on time, on-time rate, grades, failed reviews',
    tags,
    query: taskEvaluationQuery,
    response: taskEvaluationSchema,
  },
  users: {
    method: 'GET',
    path: `${B}/getUsers`,
    permission: ASSIGN,
    summary: 'The enabled users who may see a site (responsible person and reviewer pickers), by name',
    tags,
    query: taskUsersQuery,
    response: z.array(taskUserSchema),
  },
  alertDraft: {
    method: 'GET',
    path: `${B}/getAlertDraft`,
    permission: ASSIGN,
    summary:
      'What "create task" on an alert fills in: site, device, evidence, priority by level and a deadline by level (red 1 day, orange 3, yellow 7, blue 14)',
    tags,
    query: taskAlertQuery,
    response: taskAlertDraftSchema,
  },
  byAlert: {
    method: 'GET',
    path: `${B}/getByAlert`,
    permission: perm('task:receivetask', 'task:assignedtask', 'task:reviewtask', 'alert-predict:alert'),
    summary: "The tasks made from an alert, with their status (the alert's record); a foreign alert: not found",
    tags,
    query: taskAlertQuery,
    response: z.array(taskSchema),
  },
});
