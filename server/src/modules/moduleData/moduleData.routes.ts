import type { FastifyInstance } from 'fastify';
import { moduleDataRoutes as R } from '@geosentry/contract';
import { caller, defineRoute } from '../../platform/http/route.ts';
import type { IngestService } from '../ingest/index.ts';
import type { AppContext } from '../../platform/context.ts';
import { ModuleDataService } from './moduleData.service.ts';
import { sendReport } from '../../platform/reports/index.ts';

export function registerModuleData(
  app: FastifyInstance,
  ctx: AppContext,
  ingest?: Pick<IngestService, 'readingsEdited'>,
): void {
  const svc = new ModuleDataService(ctx, (ids) => ingest?.readingsEdited(ids));
  defineRoute(app, ctx, R.getRealTimeData, async (c) => ({ data: await svc.realTime(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.getRealTimeDataByPlatformId, async (c) => ({
    data: await svc.realTime(caller(c), c.lang, { platformId: c.query.platformId }),
  }));
  defineRoute(app, ctx, R.getRealTimeDataForClinometer, async (c) => ({
    data: await svc.clinometerRealTime(caller(c), c.lang, c.query),
  }));
  defineRoute(app, ctx, R.getHistoricalData, async (c) => ({ data: await svc.history(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.getMaxMinAvgData, async (c) => ({ data: await svc.maxMinAvg(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.getAvgDataForClinometer, async (c) => ({
    data: await svc.clinometerAvg(caller(c), c.query),
  }));
  defineRoute(app, ctx, R.getSmoothHandleData, async (c) => ({ data: await svc.smoothPreview(caller(c), c.query) }));
  defineRoute(app, ctx, R.smoothHandleData, async (c) => ({
    key: 'modified',
    data: await svc.smoothApply(caller(c), c.body),
  }));
  defineRoute(app, ctx, R.deleteData, async (c) => ({ key: 'deleted', data: await svc.deleteData(caller(c), c.body) }));
  defineRoute(app, ctx, R.editGNSSData, async (c) => ({
    key: 'modified',
    data: await svc.editGnss(caller(c), c.body),
  }));
  defineRoute(app, ctx, R.getRainLatestHoursData, async (c) => ({ data: await svc.rainLatest(caller(c), c.query) }));
  defineRoute(app, ctx, R.getGnssRealTimeDataAndUntie, async (c) => ({
    data: await svc.gnssRealTime(caller(c), c.query),
  }));
  defineRoute(app, ctx, R.getSatelliteInfo, async (c) => ({ data: await svc.satelliteInfo(caller(c), c.query) }));
  defineRoute(app, ctx, R.getIonosphereLatestTableData, async (c) => ({
    data: await svc.ionosphereLatest(caller(c), c.query),
  }));
  defineRoute(app, ctx, R.getIonosphereHistoricalData, async (c) => ({
    data: await svc.ionosphereHistory(caller(c), c.lang, c.query),
  }));
  defineRoute(app, ctx, R.getModuleData, async (c) => ({ data: await svc.moduleReport(caller(c), c.lang, c.query) }));
  defineRoute(app, ctx, R.getModuleDataReport, async (c) => {
    const report = await svc.moduleReport(caller(c), c.lang, c.query);
    if (c.query.format === 'json') return { data: report };
    return sendReport(c.reply, report.document, c.query.format, { fileName: c.query.fileName });
  });
  defineRoute(app, ctx, R.getRealTimeDataAndDeviceStatus, async (c) => ({
    data: await svc.deviceStatus(caller(c), c.lang, c.query.platformId),
  }));
}
