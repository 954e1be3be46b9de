// The general report (issue 17, /monitor/generalReport): the periodic monitoring report of a site for a period.
//
// Data completeness: expected readings of a device = whole reporting intervals in the period, the interval being
// the device parameter `reportingIntervalMinutes` (params) or 60 minutes; completeness = received / expected in
// percent, one decimal, at most 100 (a device sending faster than declared is complete, not over 100 %).
// Largest changes: per device and quantity, the last reading's value minus the first one's in the period; the
// top GENERAL_REPORT_LIMITS.topChanges by absolute change. Conclusions travel with the export request and are
// not stored (the file is the record); the renderers escape text.
import {
  GENERAL_REPORT_LIMITS,
  aggregateOf,
  quantitiesOf,
  Status,
  reportPeriod,
  roundDecimal,
  type GeneralReport,
  type Language,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import { findPlatform } from '../platforms/index.ts';
import * as repo from './generalReport.repository.ts';
import { generalDocument } from './generalReport.document.ts';

export interface GeneralQuery {
  platformId: number;
  startTime: string | number;
  endTime: string | number;
  timeZone?: string | undefined;
  conclusions?: string | undefined;
  author?: string | undefined;
}

/** Decimals of completeness (%) and of values and changes. */
export const COMPLETENESS_DECIMALS = 1;
export const VALUE_DECIMALS = 3;

export function intervalMinutesOf(params: Record<string, unknown>): number {
  const v = params.reportingIntervalMinutes;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : GENERAL_REPORT_LIMITS.defaultIntervalMinutes;
}

export class GeneralReportService {
  constructor(private readonly ctx: AppContext) {}

  async report(user: SessionUser, lang: Language, q: GeneralQuery, now = Date.now()): Promise<GeneralReport> {
    const tz = await requestTimeZone(this.ctx, user.id, q.timeZone);
    const site = await findPlatform(this.ctx.db, user.scope, q.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    const period = reportPeriod(q.startTime, q.endTime, tz, GENERAL_REPORT_LIMITS.maxDays);
    if (period === 'empty') throw new AppError(Status.invalid, 'badTimeRange');
    if (period === 'tooLong')
      throw new AppError(Status.invalid, 'reportPeriodTooLong', { max: GENERAL_REPORT_LIMITS.maxDays });
    const db = this.ctx.db;
    const devs = await repo.siteDevices(db, user.scope, site.id);
    const ids = devs.map((d) => d.id);
    const counts = await repo.readingCounts(db, ids, period.from, period.to);
    const span = period.to - period.from;
    const devices = devs.map((d) => {
      const intervalMinutes = intervalMinutesOf(d.params);
      const expected = Math.floor(span / (intervalMinutes * 60_000));
      const received = counts.get(d.id) ?? 0;
      return {
        deviceId: d.id,
        deviceName: d.name,
        moduleId: d.moduleId,
        state: d.state,
        intervalMinutes,
        received,
        expected,
        completeness:
          expected > 0 ? Math.min(100, roundDecimal((received / expected) * 100, COMPLETENESS_DECIMALS)) : null,
      };
    });
    const name = new Map(devs.map((d) => [d.id, d.name]));
    const alerts = (await repo.periodAlerts(db, site.id, period.from, period.to, GENERAL_REPORT_LIMITS.maxAlerts))
      .filter((a) => name.has(a.deviceId))
      .map((a) => ({
        alertId: a.id,
        deviceName: name.get(a.deviceId)!,
        quantity: a.quantity,
        level: a.level,
        status: a.status,
        firstAt: a.firstAt,
        lastValue: a.lastValue,
        actions: a.actions,
      }));
    const changes: GeneralReport['changes'] = [];
    for (const fl of await repo.firstAndLast(db, ids, period.from, period.to)) {
      for (const [k, v0] of Object.entries(fl.first)) {
        const v1 = fl.last[k];
        if (typeof v0 !== 'number' || typeof v1 !== 'number' || !Number.isFinite(v0) || !Number.isFinite(v1)) continue;
        const first = roundDecimal(v0, VALUE_DECIMALS);
        const last = roundDecimal(v1, VALUE_DECIMALS);
        changes.push({
          deviceId: fl.deviceId,
          deviceName: name.get(fl.deviceId) ?? '',
          quantity: k,
          first,
          last,
          change: roundDecimal(last - first, VALUE_DECIMALS),
        });
      }
    }
    changes.sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || a.deviceId - b.deviceId);
    changes.length = Math.min(changes.length, GENERAL_REPORT_LIMITS.topChanges);
    const base = {
      platformId: site.id,
      timeZone: tz,
      from: new Date(period.from).toISOString(),
      to: new Date(period.to).toISOString(),
      devices,
      alerts,
      changes,
    };
    // One chart per monitor type: its first quantity, per device, by local hour (periods up to 3 days) or day.
    const unit: 'hour' | 'day' = span <= 3 * 86_400_000 ? 'hour' : 'day';
    const means = await repo.bucketMeans(db, ids, period.from, period.to, unit, tz);
    const charts = [...new Set(devs.map((d) => d.moduleId))].flatMap((moduleId) => {
      const q = quantitiesOf(moduleId)[0];
      if (!q) return [];
      const total = aggregateOf(moduleId, q.key) === 'sum';
      const series = devs
        .filter((d) => d.moduleId === moduleId)
        .map((d) => ({
          name: d.name,
          points: means
            .filter((m) => m.deviceId === d.id && m.quantity === q.key)
            .map((m): [number, number] => [m.t, roundDecimal(total ? m.sum : m.avg, VALUE_DECIMALS)]),
        }))
        .filter((s) => s.points.length > 0);
      return series.length ? [{ moduleId, quantity: q.key, total, unit, series }] : [];
    });
    const document = generalDocument({
      charts,
      report: base,
      lang,
      siteName: site.name,
      siteType: site.type,
      author: q.author?.trim() || user.name || user.account,
      conclusions: q.conclusions,
      now,
    });
    return { ...base, document };
  }
}
