/** Background jobs (report jobs, data import): their states and kinds. */

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** States a job stays in for good. */
export const JOB_FINAL_STATES: readonly JobState[] = ['done', 'failed', 'cancelled'];

/** The kinds of job the server runs (a handler is registered for each). */
export const JOB_KINDS = ['dataImport.dryRun', 'dataImport.import', 'report', 'reportSchedule'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** The socket message a job's owner receives when it moves (its state or progress). */
export const JOB_SOCKET_EVENT = 'job';
