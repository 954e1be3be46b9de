// The vibration report (issue 17, /monitor/VibrationReport): the events of a site's vibration devices in a period,
// each judged against a limit curve, and the report document drawn on screen and as files.
//
// An event (docs/decisions.md "Vibration report"): the readings of a device whose velocity reaches the trigger
// level (default 0.5 mm/s), with the readings between them when consecutive ones are at most gapSeconds apart
// (default 10 s), plus the readings up to gapSeconds before and after (the rise and decay of a waveform). A
// device sends either one velocity (`velocity`, as the demo's loggers: one summary reading per interval with
// the frequency the logger measured) or three axes (velocityX/Y/Z); a waveform (16 or more readings at a
// regular interval) gets its dominant frequency by FFT, a summary reading keeps the logger's frequency.
import {
  LIMIT_CURVES,
  Status,
  VIBRATION_AXES,
  VIBRATION_LIMITS,
  analyseEvent,
  limitCurve,
  reportPeriod,
  splitEvents,
  verdictOf,
  allowableAt,
  roundDecimal,
  type Language,
  type VibrationEvent,
  type VibrationReport,
  type VibrationSample,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { requestTimeZone } from '../../platform/timeZone.ts';
import { findPlatform } from '../platforms/index.ts';
import * as repo from './vibration.repository.ts';
import { vibrationDocument } from './vibration.document.ts';

export interface VibrationQuery {
  platformId: number;
  deviceId?: number | undefined;
  startTime: string | number;
  endTime: string | number;
  timeZone?: string | undefined;
  curve: string;
  trigger?: number | undefined;
  gapSeconds?: number | undefined;
}

const iso = (t: number) => new Date(t).toISOString();
/** Decimals shown: PPV and vector sum (mm/s), frequency (Hz), allowable PPV (mm/s). */
export const PPV_DECIMALS = 3;
export const HZ_DECIMALS = 1;
export const LIMIT_DECIMALS = 2;

export class VibrationService {
  constructor(private readonly ctx: AppContext) {}

  async report(user: SessionUser, lang: Language, q: VibrationQuery): Promise<VibrationReport> {
    const tz = await requestTimeZone(this.ctx, user.id, q.timeZone);
    const site = await findPlatform(this.ctx.db, user.scope, q.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    const period = reportPeriod(q.startTime, q.endTime, tz, VIBRATION_LIMITS.maxDays);
    if (period === 'empty') throw new AppError(Status.invalid, 'badTimeRange');
    if (period === 'tooLong')
      throw new AppError(Status.invalid, 'reportPeriodTooLong', { max: VIBRATION_LIMITS.maxDays });
    const curve = limitCurve(q.curve) ?? LIMIT_CURVES[0]!;
    const devices = await repo.vibrationDevices(this.ctx.db, user.scope, site.id, q.deviceId);
    if (q.deviceId !== undefined && !devices.length) throw new AppError(Status.notFound, 'deviceNotFound');
    const trigger = q.trigger ?? VIBRATION_LIMITS.defaultTriggerMmps;
    const gapMs = (q.gapSeconds ?? VIBRATION_LIMITS.defaultGapSeconds) * 1000;
    const events: VibrationEvent[] = [];
    let truncated = false;
    let budget = VIBRATION_LIMITS.maxSamples;
    for (const d of devices) {
      if (budget <= 0) {
        truncated = true;
        break;
      }
      const rows = await repo.readingsOf(this.ctx.db, d.id, period.from, period.to, budget + 1);
      if (rows.length > budget) {
        truncated = true;
        rows.length = budget;
      }
      budget -= rows.length;
      const present = VIBRATION_AXES.filter((a) => rows.some((r) => typeof r.vals[a] === 'number'));
      const axes: string[] = present.length ? [...present] : ['velocity'];
      const samples: VibrationSample[] = [];
      for (const r of rows) {
        const v: Record<string, number> = {};
        let any = false;
        for (const a of axes) {
          const x = r.vals[a];
          if (typeof x === 'number' && Number.isFinite(x)) {
            v[a] = x;
            any = true;
          }
        }
        if (!any) continue;
        const f = r.vals.frequency;
        samples.push({ t: r.t, v, frequency: typeof f === 'number' && Number.isFinite(f) ? f : undefined });
      }
      const room = VIBRATION_LIMITS.maxEvents - events.length;
      const split = splitEvents(samples, axes, trigger, gapMs, room + 1);
      if (split.length > room) truncated = true;
      for (const part of split.slice(0, room)) {
        const e = analyseEvent(part, axes);
        const ppvOf = (v: number) => roundDecimal(v, PPV_DECIMALS);
        const hz = (f: number | null) => (f === null ? null : roundDecimal(f, HZ_DECIMALS));
        const g = e.governing;
        const ppv = ppvOf(g.ppv);
        const frequency = hz(g.frequency);
        const allowable = frequency !== null && frequency > 0 ? allowableAt(curve, frequency) : null;
        events.push({
          deviceId: d.id,
          deviceName: d.name,
          from: iso(e.from),
          to: iso(e.to),
          samples: e.samples,
          axes: e.axes.map((a) => ({
            axis: a.axis,
            ppv: ppvOf(a.ppv),
            at: iso(a.at),
            frequency: hz(a.frequency),
            frequencyMethod: a.frequencyMethod,
          })),
          vectorSum: ppvOf(e.vectorSum),
          vectorSumAt: iso(e.vectorSumAt),
          ppv,
          frequency,
          allowable: allowable && {
            lower: roundDecimal(allowable.lower, LIMIT_DECIMALS),
            upper: roundDecimal(allowable.upper, LIMIT_DECIMALS),
          },
          // Judged on the numbers the report shows (an engineer checking it by hand gets the same verdict).
          verdict: verdictOf(curve, ppv, frequency),
        });
      }
    }
    const base = {
      platformId: site.id,
      curve: curve.id,
      timeZone: tz,
      from: iso(period.from),
      to: iso(period.to),
      events,
      truncated,
    };
    const document = vibrationDocument({
      ...base,
      lang,
      siteName: site.name,
      devices,
      curve,
      trigger,
      gapSeconds: gapMs / 1000,
      period,
    });
    return { ...base, document };
  }
}
