// The report centre's contract (issue 17, scope 7 and 8; spec §2 /data report, reportform): reports queued as
// jobs and downloaded when done, and reports mailed on a schedule. The spec does not show these calls: they
// sit under /api/v2/data/report/job/ and /api/v2/data/report/schedule/ in the style of the module report.
import { z } from 'zod';
import { perm, routeTable } from '../api/routes.ts';
import { zPage } from '../api/zod.ts';
import { jobSchema } from '../jobs/schemas.ts';
import { REPORT_CENTRE_PERMISSION } from './catalogue.ts';
import {
  reportJobDownloadQuery,
  reportJobListQuery,
  reportJobSchema,
  reportJobSubmitBody,
  reportScheduleAddBody,
  reportScheduleEditBody,
  reportScheduleIdBody,
  reportScheduleIdQuery,
  reportScheduleListQuery,
  reportScheduleSchema,
  scheduleGroupOptionSchema,
  scheduleRunSchema,
} from './schemas.ts';

export * from './catalogue.ts';
export * from './schemas.ts';

const tags = ['reportJobs'];
const J = '/api/v2/data/report/job';
const S = '/api/v2/data/report/schedule';
const P = perm(REPORT_CENTRE_PERMISSION);

export const reportJobRoutes = routeTable({
  submit: {
    method: 'POST',
    path: `${J}/submit`,
    permission: P,
    summary:
      "Queues a report (kind, format xlsx|pdf and the report's own parameters) as a background job; the same request while one is queued or running answers that job",
    tags,
    body: reportJobSubmitBody,
    response: jobSchema,
  },
  list: {
    method: 'GET',
    path: `${J}/getListPage`,
    permission: P,
    summary: "The caller's report jobs, newest first (filter state, reportKind, platformId)",
    tags,
    query: reportJobListQuery,
    response: zPage(reportJobSchema),
  },
  /** The file of a finished job (token may be a query parameter; POST with a body works too, spec §7). */
  download: {
    method: 'GET',
    path: `${J}/download`,
    permission: P,
    summary: "A finished report job's file, saved under fileName (the owner's only, while the site is in his scope)",
    tags,
    query: reportJobDownloadQuery,
    tokenInQuery: true,
  },
});

export const reportScheduleRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${S}/getListPage`,
    permission: P,
    summary: "The caller's report schedules, with their next due time and last run",
    tags,
    query: reportScheduleListQuery,
    response: zPage(reportScheduleSchema),
  },
  add: {
    method: 'POST',
    path: `${S}/add`,
    permission: P,
    summary: 'Adds a report schedule (daily, weekly or monthly at a local time, mailed to a contact group)',
    tags,
    body: reportScheduleAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${S}/edit`,
    permission: P,
    summary: 'Edits one of my report schedules',
    tags,
    body: reportScheduleEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${S}/delete`,
    permission: P,
    summary: 'Deletes one of my report schedules',
    tags,
    body: reportScheduleIdBody,
    response: z.null(),
  },
  runs: {
    method: 'GET',
    path: `${S}/getRuns`,
    permission: P,
    summary: 'The last runs of one of my schedules: due time, state, reason of a failure, mails',
    tags,
    query: reportScheduleIdQuery,
    response: z.array(scheduleRunSchema),
  },
  groupOptions: {
    method: 'GET',
    path: `${S}/getGroupOptions`,
    permission: P,
    summary: 'Contact groups a schedule may mail (id, name, members with an e-mail address)',
    tags,
    response: z.array(scheduleGroupOptionSchema),
  },
});
