// Catalogues of the tasks feature (spec §3 Task, §4 task status, review result, completion grade, priority).

/** Spec §4: not started -> ongoing -> to be reviewed (to audit) -> completed. A failed review goes back to ongoing. */
export const TASK_STATUSES = ['notStarted', 'ongoing', 'toBeReviewed', 'completed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Spec §4: review result pass or fail. */
export const TASK_REVIEW_RESULTS = ['pass', 'fail'] as const;
export type TaskReviewResult = (typeof TASK_REVIEW_RESULTS)[number];
/** Spec §4: completion grade normal, good, excellent (given with a passed review). */
export const TASK_GRADES = ['normal', 'good', 'excellent'] as const;
export type TaskGrade = (typeof TASK_GRADES)[number];
/** Spec §4 priorities, most pressing first. */
export const TASK_PRIORITIES = ['importantUrgent', 'importantNotUrgent', 'commonUrgent', 'commonNotUrgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];
/** Task types (spec §3 "type"): what the field work is. */
export const TASK_TYPES = ['inspection', 'maintenance', 'rectification', 'alertHandling', 'survey', 'other'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
/** Which list: my tasks (assignee), tasks I assigned (publisher), tasks I review (reviewer), or every visible one. */
export const TASK_VIEWS = ['received', 'assigned', 'review', 'all'] as const;
export type TaskView = (typeof TASK_VIEWS)[number];

/** Lists count their rows up to this many (`total`), and say `totalCapped` when there are more. */
export const TASK_COUNT_CAP = 10_000;
/** Spec §5: at most 3 files (task documents, and the photos of one progress entry). */
export const TASK_MAX_FILES = 3;
/** Spec §5: the completion rate an assignee reports is 1 to 100. */
export const TASK_RATE_MIN = 1;
export const TASK_RATE_MAX = 100;
/**
 * A progress entry is for the day the work was done: today by default, or an earlier day for a report made later
 * (back from the field without a connection), at most this many days back and not before the task's planned start
 * day. "Today" is the UTC day of now + 14 h (the earliest time zone), so a user east of UTC may report his own today.
 */
export const TASK_LATE_REPORT_DAYS = 7;

/**
 * A task made from an alert: its deadline is the alert's time of creation plus these days by the alert's level
 * (4 red: 1 day, 3 orange: 3 days, 2 yellow: 7 days, 1 blue: 14 days), and its priority by level.
 */
export const TASK_ALERT_DEADLINE_DAYS: Record<1 | 2 | 3 | 4, number> = { 1: 14, 2: 7, 3: 3, 4: 1 };
export const TASK_ALERT_PRIORITY: Record<1 | 2 | 3 | 4, TaskPriority> = {
  1: 'commonNotUrgent',
  2: 'importantNotUrgent',
  3: 'importantUrgent',
  4: 'importantUrgent',
};
/** A reminder is sent once when an open task (not started or ongoing) is within this many hours of its end time. */
export const TASK_REMINDER_HOURS = 24;

/**
 * The progress the plan expects at instant `at` (percent, 0..100): the share of the planned period
 * [start, end] that has passed, clamped to 0..100 (before the start 0, after the end 100).
 */
export function expectedProgress(startMs: number, endMs: number, atMs: number): number {
  if (endMs <= startMs) return atMs >= endMs ? 100 : 0;
  const f = (atMs - startMs) / (endMs - startMs);
  return Math.round(Math.min(1, Math.max(0, f)) * 1000) / 10;
}

/**
 * Deviation rate (percentage points, one decimal): the reported completion rate minus the expected progress
 * (`expectedProgress`) at `atMs`; negative = behind plan, positive = ahead. A completed task is judged at its
 * completion time, any other at now. Example: planned 1 to 11 March, at 6 March 12:00 the plan expects 55 %;
 * a reported 40 % is a deviation of -15.
 */
export function deviationRate(rate: number, startMs: number, endMs: number, atMs: number): number {
  return Math.round((rate - expectedProgress(startMs, endMs, atMs)) * 10) / 10;
}

/**
 * Remaining days: whole days from now to the end time, rounded up (ceil((end - now) / 24 h)); 0 or negative once
 * the end time has passed (-2: two days overdue, rounded up). Null for a completed task.
 */
export function remainingDays(endMs: number, nowMs: number): number {
  return Math.ceil((endMs - nowMs) / 86_400_000);
}
