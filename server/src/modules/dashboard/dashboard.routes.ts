import type { FastifyInstance } from 'fastify';
import { dashboardRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { DashboardService } from './dashboard.service.ts';

/** Registers home, the big screen, bigData/getDeviceAndData and the weather. */
export function registerDashboard(app: FastifyInstance, ctx: AppContext): void {
  const svc = new DashboardService(ctx);
  defineRoute(app, ctx, R.home, async (c) => ({ data: await svc.home(caller(c), c.query) }));
  defineRoute(app, ctx, R.bigScreen, async (c) => ({ data: await svc.bigScreen(caller(c), c.query) }));
  defineRoute(app, ctx, R.deviceAndData, async (c) => ({ data: await svc.deviceAndData(caller(c), c.query) }));
  defineRoute(app, ctx, R.weather, async (c) => ({ data: await svc.weather(caller(c), c.query) }));
}
