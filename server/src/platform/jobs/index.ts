// The background jobs of the platform: the runner (built in app.ts, handed to the modules that register
// handlers), its file store and routes.
export { JobRunner, JobError, StoppedError, userRights, type JobContext, type JobHandler } from './jobs.runner.ts';
export { JobFiles, type JobFile } from './jobs.files.ts';
export { registerJobs, jobView } from './jobs.routes.ts';
export { ownJob, type JobRow } from './jobs.repository.ts';
