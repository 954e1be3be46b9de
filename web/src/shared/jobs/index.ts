/** Background jobs in the console: live state (useJob) and the progress component (JobProgress). */
export { useJob, isFinal, jobKey, JOB_POLL_MS, type UseJob } from './useJob.ts';
export { JobProgress, jobPercent, type JobProgressProps } from './JobProgress.tsx';
