import { LOGIN, routeTable } from '../api/routes.ts';
import { zPage } from '../api/zod.ts';
import { jobIdBody, jobIdQuery, jobListQuery, jobSchema } from './schemas.ts';

export * from './catalogue.ts';
export * from './schemas.ts';

const tags = ['jobs'];
const J = '/api/v2/data/job';

/** Background jobs: every signed-in user sees and cancels his own jobs only (another's answers as missing). */
export const jobRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${J}/getListPage`,
    permission: LOGIN,
    summary: "The caller's own jobs, newest first (filter state, kind)",
    tags,
    query: jobListQuery,
    response: zPage(jobSchema),
  },
  get: {
    method: 'GET',
    path: `${J}/get`,
    permission: LOGIN,
    summary: 'One of my jobs: state, progress, error, result',
    tags,
    query: jobIdQuery,
    response: jobSchema,
  },
  cancel: {
    method: 'POST',
    path: `${J}/cancel`,
    permission: LOGIN,
    summary: 'Cancels one of my jobs: a queued one at once, a running one at its next batch',
    tags,
    body: jobIdBody,
    response: jobSchema,
  },
});
