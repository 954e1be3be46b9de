import {
  TASK_SORT_FIELDS,
  taskPageQuery,
  taskProgressQuery,
  taskRoutes,
  type TaskGrade,
  type TaskPriority,
  type TaskReviewResult,
  type TaskType,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';

export { TASK_SORT_FIELDS };

export type TaskListParams = z.output<typeof taskPageQuery>;
export type TaskProgressParams = z.output<typeof taskProgressQuery>;

export const taskKeys = {
  all: ['tasks'] as const,
  list: (p: TaskListParams) => ['tasks', 'list', p] as const,
  detail: (id: number) => ['tasks', 'detail', id] as const,
  progress: (p: TaskProgressParams) => ['tasks', 'progress', p] as const,
  evaluation: (p: object) => ['tasks', 'evaluation', p] as const,
  users: (platformId: number | undefined) => ['tasks', 'users', platformId ?? 0] as const,
  alertDraft: (alertId: number) => ['tasks', 'alertDraft', alertId] as const,
  byAlert: (alertId: number) => ['tasks', 'byAlert', alertId] as const,
};

export const fetchTasks = (p: TaskListParams) => call(taskRoutes.list, { ...p });
export const fetchTask = (id: number) => call(taskRoutes.detail, { id });
export const fetchProgress = (p: TaskProgressParams) => call(taskRoutes.progressList, { ...p });
export const fetchEvaluation = (p: {
  startDate?: string | undefined;
  endDate?: string | undefined;
  platformId?: number | undefined;
}) => call(taskRoutes.evaluation, p);
export const fetchTaskUsers = (platformId: number) => call(taskRoutes.users, { platformId }, picker);
export const fetchAlertDraft = (alertId: number) => call(taskRoutes.alertDraft, { alertId });
export const fetchAlertTasks = (alertId: number) => call(taskRoutes.byAlert, { alertId }, { silent: true });

/** The task form's values, times as ISO instants. */
export interface TaskFormValues {
  name?: string;
  type?: TaskType | undefined;
  project?: string;
  area?: string;
  constructionPoint?: string;
  platformId?: number;
  deviceId?: number | undefined;
  priority?: TaskPriority;
  assigneeId?: number;
  reviewerId?: number;
  documents?: string[];
  planHours?: number | null | undefined;
  startTime?: string;
  endTime?: string;
  description?: string;
  acceptance?: string;
  alertId?: number | undefined;
}

const fields = (v: TaskFormValues) => ({
  name: blankToUndefined(v.name),
  type: v.type,
  project: blankToUndefined(v.project),
  area: blankToUndefined(v.area),
  constructionPoint: blankToUndefined(v.constructionPoint),
  platformId: v.platformId,
  deviceId: v.deviceId,
  priority: v.priority,
  assigneeId: v.assigneeId,
  reviewerId: v.reviewerId,
  // '' is an empty list (a form cannot send an empty array).
  documents: (v.documents ?? []).join(','),
  planHours: v.planHours ?? undefined,
  startTime: v.startTime,
  endTime: v.endTime,
  description: blankToUndefined(v.description),
  acceptance: blankToUndefined(v.acceptance),
});

export const createTask = (v: TaskFormValues) => call(taskRoutes.create, { ...fields(v), alertId: v.alertId }, change);
export const editTask = (id: number, v: TaskFormValues) => call(taskRoutes.edit, { id, ...fields(v) }, change);
export const startTask = (id: number) => call(taskRoutes.start, { id }, change);
export const submitTask = (id: number) => call(taskRoutes.submit, { id }, change);
export const addProgress = (v: {
  id: number;
  text: string;
  completionRate: number;
  photos: string[];
  lat?: number | undefined;
  lon?: number | undefined;
  day?: string | undefined;
}) => call(taskRoutes.progress, { ...v, photos: v.photos.join(',') }, change);
export const reviewTask = (v: {
  id: number;
  result: TaskReviewResult;
  grade?: TaskGrade | undefined;
  note?: string | undefined;
}) => call(taskRoutes.review, v, change);

/** The screens' addresses. */
export const taskPaths = {
  detail: (id: number, from: 'receive' | 'assigned' | 'review' | 'query' = 'query') =>
    `/task/${from === 'assigned' ? 'basicinfo1' : from === 'review' ? 'basicinfo2' : 'basicinfo'}?id=${id}`,
  create: (alertId?: number) => `/task/createtask${alertId ? `?alertId=${alertId}` : ''}`,
  edit: (id: number) => `/task/createtask?id=${id}`,
};
