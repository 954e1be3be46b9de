import type { FastifyInstance } from 'fastify';
import { forecastRoutes } from '@geosentry/contract';
import { defineRoute } from '../../platform/http/route.ts';
import type { AppContext } from '../../platform/context.ts';
import { ForecastService } from './forecast.service.ts';

/** Prediction (spec §7: getPrediction type 0, gmPrediction type 1) and the inverse-velocity estimate. */
export function registerForecast(app: FastifyInstance, ctx: AppContext): void {
  const svc = new ForecastService();
  defineRoute(app, ctx, forecastRoutes.prediction, async (c) => ({ data: svc.predict(0, c.body, c.lang) }));
  defineRoute(app, ctx, forecastRoutes.gmPrediction, async (c) => ({ data: svc.predict(1, c.body, c.lang) }));
  defineRoute(app, ctx, forecastRoutes.inverseVelocity, async (c) => ({
    data: svc.inverseVelocity(c.body, c.lang),
  }));
}
