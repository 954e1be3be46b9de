import type { FastifyInstance } from 'fastify';
import { reportJobRoutes as J, reportScheduleRoutes as S } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { caller, defineRoute } from '../../platform/http/route.ts';
import { jobView } from '../../platform/jobs/index.ts';
import type { ReportJobsService } from './reportJobs.service.ts';
import type { ReportSchedulesService } from './reportJobs.schedules.ts';

export function registerReportJobs(
  app: FastifyInstance,
  ctx: AppContext,
  jobs: ReportJobsService,
  schedules: ReportSchedulesService,
): void {
  defineRoute(app, ctx, J.submit, async (c) => ({
    key: 'jobQueued',
    data: jobView(await jobs.submit(caller(c), c.lang, c.body), c.lang),
  }));
  defineRoute(app, ctx, J.list, async (c) => {
    const page = await jobs.list(caller(c), c.lang, c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, J.download, async (c) => {
    await jobs.download(caller(c), c.query, c.reply);
  });
  defineRoute(app, ctx, S.list, async (c) => {
    const page = await schedules.list(caller(c), c.lang, c.query);
    return { data: { ...page, pageNum: c.query.pageNum, pageSize: c.query.pageSize } };
  });
  defineRoute(app, ctx, S.add, async (c) => ({ key: 'created', data: { id: await schedules.add(caller(c), c.body) } }));
  defineRoute(app, ctx, S.edit, async (c) => {
    await schedules.edit(caller(c), c.body);
    return { key: 'modified' };
  });
  defineRoute(app, ctx, S.delete, async (c) => {
    await schedules.remove(caller(c), c.body.id);
    return { key: 'deleted' };
  });
  defineRoute(app, ctx, S.runs, async (c) => ({ data: await schedules.runs(caller(c), c.lang, c.query.id) }));
  defineRoute(app, ctx, S.groupOptions, async () => ({ data: await schedules.groupOptions() }));
}
