import {
  FIT_CONVENTION_OF,
  FORECAST_LIMITS,
  clean,
  PREDICTION_METHOD,
  Status,
  type InverseVelocityAnswer,
  type InverseVelocityBody,
  type Language,
  type PredictionAnswer,
  type PredictionBody,
  type PredictionType,
} from '@geosentry/contract';
import { AppError } from '../../platform/http/errors.ts';
import { translate } from '../../platform/http/messages.ts';
import { fitStats, gmPredict, holt, inverseVelocity } from './forecast.math.ts';

/**
 * For the answer: the numerics run in full precision, the wire carries no float noise (the contract's `clean`,
 * 12 significant digits, as history answers: 959.9999999999994 is 960).
 */
const r = clean;
const rs = (vs: readonly number[]): number[] => vs.map(clean);

/** Prediction of a series (spec §7) and the inverse-velocity estimate. Stateless: nothing is stored. */
export class ForecastService {
  predict(type: PredictionType, body: PredictionBody, lang: Language): PredictionAnswer {
    if (body.type !== undefined && body.type !== type)
      throw new AppError(Status.invalid, 'forecastTypeMismatch', { type: body.type, expected: type });
    const { data, sampleNum, predictNum } = body;
    if (data.length < sampleNum)
      throw new AppError(Status.invalid, 'forecastTooShort', { count: data.length, sampleNum });
    const sample = data.slice(data.length - sampleNum);
    const notes: string[] = [];
    let fitted: number[];
    let predicted: number[];
    let shift = 0;
    let gm: PredictionAnswer['gm'] = null;
    let holtDetails: PredictionAnswer['holt'] = null;
    if (type === 1) {
      const g = gmPredict(sample, predictNum);
      ({ fitted, predicted, shift } = g);
      gm = {
        a: r(g.details.a),
        b: r(g.details.b),
        classRatios: rs(g.details.classRatios),
        classRatioRange: [r(g.details.classRatioRange[0]), r(g.details.classRatioRange[1])],
        classRatioPassed: g.details.classRatioPassed,
      };
      if (shift > 0) notes.push(translate(lang, 'forecastShifted', { shift: r(shift) }));
      if (!g.details.classRatioPassed) notes.push(translate(lang, 'forecastClassRatio'));
    } else {
      const h = holt(sample, predictNum);
      ({ fitted, predicted } = h);
      holtDetails = { alpha: h.alpha, beta: h.beta, level: r(h.level), trend: r(h.trend), sse: r(h.sse) };
    }
    const stats = fitStats(sample, fitted, FIT_CONVENTION_OF[type]);
    if (!predicted.every(Number.isFinite)) throw new AppError(Status.invalid, 'forecastDiverged');
    return {
      type,
      method: PREDICTION_METHOD[type],
      sampleNum,
      predictNum,
      sample,
      fitted: rs(fitted),
      // Of the fitted values as answered: a fit exact but for float noise has residuals 0, not 2.8e-17.
      residuals: sample.map((v, i) => r(v - r(fitted[i]!))),
      predicted: rs(predicted),
      stats: {
        ...stats,
        rmse: r(stats.rmse),
        mape: stats.mape === null ? null : r(stats.mape),
        c: r(stats.c),
        p: r(stats.p),
      },
      shift: r(shift),
      gm,
      holt: holtDetails,
      notes,
    };
  }

  inverseVelocity(body: InverseVelocityBody, lang: Language): InverseVelocityAnswer {
    const { times, values } = body;
    const window = body.window ?? 3;
    if (times.length !== values.length)
      throw new AppError(Status.invalid, 'ivLengthMismatch', { times: times.length, values: values.length });
    const min = Math.max(FORECAST_LIMITS.minInversePoints, window + 3);
    if (times.length < min) throw new AppError(Status.invalid, 'ivTooFew', { min, count: times.length });
    for (let i = 1; i < times.length; i++) {
      if (!(times[i]! > times[i - 1]!)) throw new AppError(Status.invalid, 'ivTimesOrder', { index: i });
    }
    const res = inverseVelocity(times, values, window);
    const reasonKey = {
      notMoving: 'ivNotMoving',
      notAccelerating: 'ivNotAccelerating',
      poorFit: 'ivPoorFit',
    } as const;
    return {
      decisionSupport: true,
      applicable: res.applicable,
      reason: res.reason,
      reasonText: res.reason ? translate(lang, reasonKey[res.reason]) : null,
      window,
      velocities: res.velocities.map((p) => ({ t: p.t, v: r(p.v), inv: p.inv === null ? null : r(p.inv) })),
      fit: res.fit && {
        t0: res.fit.t0,
        slope: r(res.fit.slope),
        intercept: r(res.fit.intercept),
        r2: r(res.fit.r2),
        residualStdError: r(res.fit.residualStdError),
        n: res.fit.n,
      },
      failureTime: res.failureTime,
      failureTimeEarliest: res.failureTimeEarliest,
      failureTimeLatest: res.failureTimeLatest,
      line: res.line.map((p) => ({ t: p.t, inv: r(p.inv), low: r(p.low), high: r(p.high) })),
    };
  }
}
