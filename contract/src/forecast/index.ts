// The forecast feature's contract: prediction of a monitoring series and the inverse-velocity failure-time
// estimate (decision support). Route paths and parameters of the two prediction calls follow spec §7.
import { z } from 'zod';
import { zInt } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';

/** Limits of the forecast calls. */
export const FORECAST_LIMITS = {
  /** Fewest values a model is fitted to (spec: sampleNum >= 4). */
  minSample: 4,
  /** Most values a model is fitted to. */
  maxSample: 1000,
  /** Most values a request may carry (only the last sampleNum are used). */
  maxData: 10000,
  /** Steps ahead (spec: 1..100). */
  maxPredict: 100,
  /** Inverse velocity: fewest (time, displacement) points. */
  minInversePoints: 5,
  /** Inverse velocity: most points. */
  maxInversePoints: 10000,
  /** Inverse velocity: largest smoothing window (intervals). */
  maxWindow: 20,
} as const;

/** Prediction model: 0 = Holt's double exponential smoothing (getPrediction), 1 = grey model GM(1,1) (gmPrediction). */
export const PREDICTION_TYPES = [0, 1] as const;
export type PredictionType = (typeof PREDICTION_TYPES)[number];
export const PREDICTION_METHOD: Record<PredictionType, 'holt' | 'gm11'> = { 0: 'holt', 1: 'gm11' };

/** The validation rule (server RULES key) of a field holding malformed JSON array text (`data=[1,2`). */
export const NUM_LIST_JSON_RULE = 'jsonNumberArray';

/**
 * A list of finite numbers: a JSON array in a JSON body, a JSON array as the text of a form field (what a
 * form-encoded client sends for an array: `data=[1.2,1.3,1.5]`), a repeated form field, or comma-separated text
 * (`data=1.2,1.3,1.5`). Text starting with `[` must be a JSON array of numbers: malformed JSON is refused with its
 * own rule (`NUM_LIST_JSON_RULE`), not read as comma-separated text. Blank items are refused, not skipped.
 */
export const zNumList = (max: number): z.ZodPreprocess<z.ZodArray<z.ZodNumber>, unknown> =>
  z.preprocess((v, ctx) => {
    if (v === undefined || v === null) return v;
    if (v === '') return [];
    let arr: unknown[];
    if (typeof v === 'string' && v.trim().startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(v);
        if (!Array.isArray(parsed)) throw new Error('not an array');
        arr = parsed;
      } catch {
        ctx.addIssue({ code: 'custom', message: NUM_LIST_JSON_RULE, params: { rule: NUM_LIST_JSON_RULE }, input: v });
        return z.NEVER;
      }
    } else arr = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
    return arr.map((x) => (typeof x === 'string' ? (x.trim() === '' ? NaN : Number(x.trim())) : x));
  }, z.array(z.number().finite()).max(max));

const SERIES_FORMS =
  'data: a JSON array, or in a form-encoded body a JSON array as text (data=[1.2,1.3]), comma-separated ' +
  'numbers (data=1.2,1.3) or a repeated field; malformed JSON array text is refused with its own message.';
/** API document text of getPrediction: the model and its fit-statistics convention. */
export const HOLT_DESCRIPTION =
  "Holt's linear (double exponential) smoothing, initial level x1 and trend x2 - x1, alpha and beta chosen on " +
  'a 0.01 grid by the least sum of squared one-step errors. Fit statistics convention: C (posterior variance ' +
  'ratio, population standard deviations) and P are computed on the n - 1 one-step-ahead errors of values ' +
  '2..n (the first value is the starting level, never forecast); RMSE and MAPE on values 2..n. ' +
  SERIES_FORMS;
/** API document text of gmPrediction. */
export const GM_DESCRIPTION =
  'Grey model GM(1,1) (values <= 0 are shifted before fitting and back after). Fit statistics convention ' +
  '(textbook posterior-error test): C = S2 / S1 and P over all n residuals, the first being 0 (e.g. 2.874, ' +
  '3.278, 3.337, 3.390, 3.679 gives C = 0.2125, P = 1, good); RMSE and MAPE on values 2..n. ' +
  SERIES_FORMS;
/** API document text of inverseVelocity: the velocity convention and what the band means. */
export const INVERSE_VELOCITY_DESCRIPTION =
  "Fukuzono's inverse-velocity failure-time estimate (decision support, not a warning). Velocity = change of " +
  'cumulative displacement over `window` intervals / elapsed days, placed at the midpoint in time of those ' +
  'intervals; 1/v of the positive velocities is fitted by least squares against time and the failure time is ' +
  'where the line reaches 0. The band (failureTimeEarliest..failureTimeLatest) is where the line shifted by ' +
  '+-2 residual standard errors of 1/v reaches 0: the scatter of the points about the line, not a confidence ' +
  'interval; it leaves out the uncertainty of the slope and any change of regime.';

/**
 * Body of both prediction calls (spec §7): the series, how many of its last values to fit, how many steps
 * to predict. `type` is accepted on both paths and must match the path when given (0 on getPrediction,
 * 1 on gmPrediction).
 */
const predictionFields = {
  data: zNumList(FORECAST_LIMITS.maxData),
  sampleNum: zInt().pipe(z.number().min(FORECAST_LIMITS.minSample).max(FORECAST_LIMITS.maxSample)),
  predictNum: zInt().pipe(z.number().min(1).max(FORECAST_LIMITS.maxPredict)),
  type: zInt()
    .pipe(z.union([z.literal(0), z.literal(1)]))
    .optional(),
};
export const predictionBody = z.object(predictionFields);
/** The bodies as the API document describes them (the same validation, with each model's convention). */
const holtBody = z.object(predictionFields).describe(HOLT_DESCRIPTION);
const gmBody = z.object(predictionFields).describe(GM_DESCRIPTION);
export type PredictionBody = z.output<typeof predictionBody>;

/**
 * Body of the inverse-velocity call (beyond the spec): a cumulative displacement series.
 * `times` epoch milliseconds, strictly increasing; `values` cumulative displacement in mm (same length).
 * `window`: velocity = displacement difference over this many intervals (smoothing; default 3).
 */
export const inverseVelocityBody = z
  .object({
    times: zNumList(FORECAST_LIMITS.maxInversePoints),
    values: zNumList(FORECAST_LIMITS.maxInversePoints),
    window: zInt().pipe(z.number().min(1).max(FORECAST_LIMITS.maxWindow)).optional(),
  })
  .describe(INVERSE_VELOCITY_DESCRIPTION);
export type InverseVelocityBody = z.output<typeof inverseVelocityBody>;

/**
 * Accuracy grade of a fit (grey-system posterior-error test, used for both models):
 * good: P > 0.95 and C < 0.35; qualified: P > 0.80 and C < 0.5; barely: P > 0.70 and C < 0.65; else unqualified.
 */
export const ACCURACY_GRADES = ['good', 'qualified', 'barely', 'unqualified'] as const;
export type AccuracyGrade = (typeof ACCURACY_GRADES)[number];

/**
 * Which residuals the posterior-error test (C, P) is computed on:
 * - `allResiduals` (GM(1,1), the textbook convention of grey-system theory): e(k) = x0(k) - x^0(k) for all n
 *   values of the sample, the first being 0 (the model starts from x0(1));
 * - `oneStepAhead` (Holt): the n - 1 one-step-ahead errors of values 2..n (the first value is the starting
 *   level and is never forecast, so it is no test of the model).
 */
export const FIT_CONVENTIONS = ['allResiduals', 'oneStepAhead'] as const;
export type FitConvention = (typeof FIT_CONVENTIONS)[number];
/** The convention of each prediction type. */
export const FIT_CONVENTION_OF: Record<PredictionType, FitConvention> = { 0: 'oneStepAhead', 1: 'allResiduals' };

/** Fit statistics of a prediction. */
export const fitStatsSchema = z.object({
  /** Which residuals C and P are computed on (see FitConvention), and how many. */
  convention: z.enum(FIT_CONVENTIONS),
  residualCount: z.number().int(),
  /** Root mean square error of values 2..n (both models), in the series' unit. */
  rmse: z.number(),
  /** Mean absolute percentage error of values 2..n, in percent (values equal to 0 are left out; null when all are 0). */
  mape: z.number().nullable(),
  /** Posterior variance ratio C = S2 / S1 (population standard deviations; S1 of the sample, S2 of the residuals). */
  c: z.number(),
  /** Small-error probability P = share of residuals with |e - mean(e)| < 0.6745 * S1. */
  p: z.number(),
  grade: z.enum(ACCURACY_GRADES),
});
export type FitStats = z.output<typeof fitStatsSchema>;

/** GM(1,1) details: the whitening equation dx1/dt + a*x1 = b and the class-ratio (smoothness) check. */
export const gmDetailsSchema = z.object({
  /** Development coefficient. */
  a: z.number(),
  /** Grey input. */
  b: z.number(),
  /** Class ratios x0(k-1)/x0(k), k = 2..n (of the shifted sample when shifted). */
  classRatios: z.array(z.number()),
  /** The admissible interval (e^(-2/(n+1)), e^(2/(n+1))). */
  classRatioRange: z.tuple([z.number(), z.number()]),
  /** Whether every class ratio lies in the interval (when not, the model may be unreliable: the answer still comes). */
  classRatioPassed: z.boolean(),
});
export type GmDetails = z.output<typeof gmDetailsSchema>;

/** Holt details: smoothing constants found by minimising the sum of squared one-step errors on a 0.01 grid. */
export const holtDetailsSchema = z.object({
  alpha: z.number(),
  beta: z.number(),
  /** Final level and trend (the forecast h steps ahead is level + h * trend). */
  level: z.number(),
  trend: z.number(),
  sse: z.number(),
});
export type HoltDetails = z.output<typeof holtDetailsSchema>;

/**
 * The answer of getPrediction and gmPrediction. Both carry the same fields so the screen can show either:
 * `sample` (the last sampleNum values), `fitted` (same length; fitted[0] = sample[0]), `residuals`
 * (sample - fitted, same length, residuals[0] = 0), `predicted` (predictNum values after the sample), `stats`.
 *
 * Type 0 is Holt's linear (double exponential) smoothing: it follows a level and a trend, suits series
 * that drift or turn, and accepts any sign; its C and P are computed on the n - 1 one-step-ahead errors
 * (`oneStepAhead`). Type 1 is the grey model GM(1,1): it fits an exponential to the
 * accumulated series, suits short, smooth, monotone-ish series, and needs positive values, so when a
 * sampled value is <= 0 the whole sample is shifted by `shift` = max(1, range) - min before fitting and the
 * results are shifted back (`shift` > 0 and `notes` say so); its C and P follow the textbook: all n residuals,
 * the first being 0 (`allResiduals`; the series 2.874, 3.278, 3.337, 3.390, 3.679 gives C = 0.2125, P = 1, good).
 * Values built by arithmetic are answered without float noise (12 significant digits).
 */
export const predictionAnswerSchema = z.object({
  type: z.union([z.literal(0), z.literal(1)]),
  method: z.enum(['holt', 'gm11']),
  sampleNum: z.number().int(),
  predictNum: z.number().int(),
  sample: z.array(z.number()),
  fitted: z.array(z.number()),
  residuals: z.array(z.number()),
  predicted: z.array(z.number()),
  stats: fitStatsSchema,
  /** Constant added before fitting (GM(1,1) with values <= 0), else 0. */
  shift: z.number(),
  gm: gmDetailsSchema.nullable(),
  holt: holtDetailsSchema.nullable(),
  /** Translated remarks for the user (shift applied, class-ratio check failed, ...). */
  notes: z.array(z.string()),
});
export type PredictionAnswer = z.output<typeof predictionAnswerSchema>;

/** Why an inverse-velocity estimate does not apply. */
export const INVERSE_VELOCITY_REASONS = ['notMoving', 'notAccelerating', 'poorFit'] as const;
export type InverseVelocityReason = (typeof INVERSE_VELOCITY_REASONS)[number];

/**
 * One velocity point: t (epoch ms) is the midpoint of the difference window (the velocity over an interval is
 * the mean velocity, best placed at its middle), v (mm/day), inv = 1/v (day/mm; null when v <= 0).
 */
export const velocityPointSchema = z.object({ t: z.number(), v: z.number(), inv: z.number().nullable() });
export type VelocityPoint = z.output<typeof velocityPointSchema>;

/** A point of the fitted line 1/v = intercept + slope * t, with the band of +- 2 residual standard errors. */
export const inverseLinePointSchema = z.object({ t: z.number(), inv: z.number(), low: z.number(), high: z.number() });
export type InverseLinePoint = z.output<typeof inverseLinePointSchema>;

/**
 * The answer of inverseVelocity (Fukuzono's method; decision support, not a warning by itself).
 * Convention: velocity = difference of cumulative displacement over `window` intervals / elapsed days, placed
 * at the midpoint (in time) of those intervals; the inverse velocity 1/v of the positive velocities is fitted
 * by least squares against time (days); the predicted failure time is where the line reaches 1/v = 0.
 * The band is the scatter of the points about the line, not a confidence interval of the failure time: the
 * line shifted by +-2 residual standard errors of 1/v (about 95 % of the points lie within it when the
 * scatter is normal) reaches zero between failureTimeEarliest and failureTimeLatest. It does not include the
 * uncertainty of the slope, nor a change of the movement's regime. `applicable` is false (with `reason` and a
 * translated `reasonText`) when the movement is not accelerating (slope >= 0), too few velocities are
 * positive, or the line explains too little (R^2 < 0.5).
 */
export const inverseVelocityAnswerSchema = z.object({
  decisionSupport: z.literal(true),
  applicable: z.boolean(),
  reason: z.enum(INVERSE_VELOCITY_REASONS).nullable(),
  reasonText: z.string().nullable(),
  window: z.number().int(),
  velocities: z.array(velocityPointSchema),
  /** Slope in (day/mm) per day, intercept in day/mm at `t0`, R^2, residual standard error (day/mm), points used. */
  fit: z
    .object({
      t0: z.number(),
      slope: z.number(),
      intercept: z.number(),
      r2: z.number(),
      residualStdError: z.number(),
      n: z.number().int(),
    })
    .nullable(),
  /** Predicted failure time (epoch ms) and its band; null when not applicable. */
  failureTime: z.number().nullable(),
  failureTimeEarliest: z.number().nullable(),
  failureTimeLatest: z.number().nullable(),
  /** The fitted line from the first velocity to the predicted failure time (for the chart). */
  line: z.array(inverseLinePointSchema),
});
export type InverseVelocityAnswer = z.output<typeof inverseVelocityAnswerSchema>;

const tags = ['forecast'];
const A = '/api/v2/data/algorithm';
const P = perm('monitor:predict');
export const forecastRoutes = routeTable({
  prediction: {
    method: 'POST',
    path: `${A}/getPrediction`,
    permission: P,
    summary: "Predict a series with Holt's double exponential smoothing (type 0)",
    tags,
    body: holtBody,
    response: predictionAnswerSchema,
  },
  gmPrediction: {
    method: 'POST',
    path: `${A}/gmPrediction`,
    permission: P,
    summary: 'Predict a series with the grey model GM(1,1) (type 1)',
    tags,
    body: gmBody,
    response: predictionAnswerSchema,
  },
  inverseVelocity: {
    method: 'POST',
    path: `${A}/inverseVelocity`,
    permission: P,
    summary: 'Inverse-velocity (Fukuzono) failure-time estimate of a displacement series; decision support',
    tags,
    body: inverseVelocityBody,
    response: inverseVelocityAnswerSchema,
  },
});

/** The path of the prediction call for a type (spec §7: the client chooses the call by type). */
export function predictionRouteOf(type: PredictionType): (typeof forecastRoutes)['prediction' | 'gmPrediction'] {
  return type === 1 ? forecastRoutes.gmPrediction : forecastRoutes.prediction;
}
