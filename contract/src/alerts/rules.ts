// Alert values (rules), criteria and multi-device rules: their bodies, queries and answers.
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zText } from '../api/zod.ts';
import { optBool, optEnum, optInt } from '../devices/fields.ts';
import {
  ALERT_CHANNELS,
  ALERT_DIRECTIONS,
  ALERT_LEVELS,
  ALERT_VALUE_TYPES,
  type AlertChannel,
  type AlertDirection,
  type AlertLevel,
  type AlertValueType,
  RELATION_MODES,
  WINDOWED_VALUE_TYPES,
  WINDOW_UNITS,
  type WindowUnit,
} from './catalogue.ts';
import {
  alertLevelSchema,
  channelsSchema,
  directionSchema,
  int,
  nInt,
  nNum,
  nStr,
  valueTypeSchema,
  windowUnitSchema,
  blank,
} from './parts.ts';

// ---------------------------------------------------------------------------------------------------------
// Alert values (rules)
// ---------------------------------------------------------------------------------------------------------

/** A raw value field: its format is checked by checkAlertRule (spec §5 "alert value format must be correct"). */
const rawValue = () =>
  z.preprocess((v) => (blank(v) ? undefined : v), z.union([z.string().max(40), z.number()]).optional());
/** A list of channels: JSON array, repeated form field or comma-separated text. */
const channelList = () =>
  z.preprocess(
    (v) => {
      if (blank(v)) return [];
      const arr = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
      return arr.map((x) => (typeof x === 'string' ? x.trim() : x)).filter((x) => x !== '');
    },
    z.array(z.enum(ALERT_CHANNELS)).max(ALERT_CHANNELS.length),
  );

/**
 * The fields of an alert value (rule) on one device quantity. Trigger condition (valueType), level, tool type
 * (channels) and contact group are required by spec §5; they are optional here so that the server answers
 * the spec's own message for each (see checkAlertRule).
 */
export const alertRuleFields = {
  deviceId: zInt(),
  /** A quantity key of the device's monitor type (quantitiesOf(moduleId)). */
  quantity: zText(64),
  level: optInt(),
  valueType: optEnum(ALERT_VALUE_TYPES),
  /** The alert value (threshold, change, rate, ...); for rainfallIntensity the coefficient a. */
  value: rawValue(),
  /** thresholdRate: the rate value; rainfallIntensity: the exponent b. */
  rateValue: rawValue(),
  direction: optEnum(ALERT_DIRECTIONS),
  windowN: optInt(z.number().min(1).max(1000)),
  windowUnit: optEnum(WINDOW_UNITS),
  /**
   * Alert ratio 0..1 (spec §5, §9): the share of the window's readings (t - window, t] that must meet the
   * condition. Needs a window: a ratio without one is refused (alertRatioNeedsWindow).
   */
  ratio: rawValue(),
  /** Contact group of the notifications feature (alertGroup id). */
  groupId: optInt(),
  channels: channelList(),
  /** Minutes between repeated notifications of a persisting alert (0 = notify only when raised/escalated). */
  pushIntervalMinutes: optInt(z.number().min(0).max(10080)),
  enabled: optBool(),
  criterionId: optInt(),
  description: zOptText(500),
};
export const alertRuleAddBody = z.object(alertRuleFields);
export const alertRuleEditBody = z.object({ id: zInt(), ...alertRuleFields });
export const alertIdBody = z.object({ id: zInt() });
export const alertRuleEnableBody = z.object({ id: zInt(), enabled: optBool() });
export type AlertRuleInput = z.output<typeof alertRuleAddBody>;

/** alert/manage/value/getByDeviceName: the rules of one device (by name or id). */
export const alertValuesByDeviceQuery = z.object({
  deviceName: zOptText(100),
  deviceId: optInt(),
  quantity: zOptText(64),
});
export const ALERT_RULE_SORT_FIELDS = ['deviceName', 'quantity', 'level', 'valueType', 'updatedAt'] as const;
export const alertRuleListQuery = pageQuery().extend({
  platformId: optInt(),
  deviceId: optInt(),
  level: optInt(),
  valueType: optEnum(ALERT_VALUE_TYPES),
  enabled: optBool(),
  keyword: zOptText(100),
});

/** Test a rule (saved: id; or unsaved: its fields) against stored readings; nothing is stored. */
export const alertRuleTestBody = z.object({
  id: optInt(),
  ...alertRuleFields,
  deviceId: optInt(),
  quantity: zOptText(64),
  /** Days back from now (default 30), or an explicit range. */
  days: optInt(z.number().min(1).max(366)),
  startTime: zOptText(40),
  endTime: zOptText(40),
});

/** A checked, normalised rule (what the server stores and evaluates). */
export interface AlertRuleSpec {
  level: AlertLevel;
  valueType: AlertValueType;
  value: number;
  rateValue: number | null;
  direction: AlertDirection;
  windowN: number | null;
  windowUnit: WindowUnit | null;
  ratio: number | null;
}

/** The message keys of checkAlertRule (translated by the server and the console). */
export type AlertRuleProblem =
  | 'alertTriggerRequired'
  | 'alertLevelRequired'
  | 'alertChannelRequired'
  | 'alertGroupRequired'
  | 'alertValueFormat'
  | 'alertRateValueFormat'
  | 'alertWindowRequired'
  | 'alertRatioRange'
  | 'alertRatioNeedsWindow';

/** Value types compared "above" unless told otherwise; changes, rates and accelerations default to |x|. */
export const ABOVE_BY_DEFAULT: readonly AlertValueType[] = [
  'threshold',
  'thresholdRate',
  'increment',
  'rainfallIntensity',
];

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** Parses an alert value: a finite decimal number (no thousands separators or units). */
export function parseAlertNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || !NUMBER_TEXT.test(v.trim())) return null;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : null;
}

/**
 * Spec §5 checks of an alert value, in the order the form shows them: trigger condition, level, value format,
 * tool type (channels), contact group; then the type's own needs. `notify=false` skips channels and group
 * (rule tests). Answers the problems found (field + message key) and, when there are none, the normalised rule.
 */
export function checkAlertRule(
  input: Partial<Pick<AlertRuleInput, 'level' | 'valueType' | 'value' | 'rateValue' | 'direction' | 'windowN'>> & {
    windowUnit?: WindowUnit | undefined;
    ratio?: string | number | undefined;
    groupId?: number | undefined;
    channels?: AlertChannel[] | undefined;
  },
  notify = true,
): { problems: { field: string; key: AlertRuleProblem }[]; rule: AlertRuleSpec | null } {
  const problems: { field: string; key: AlertRuleProblem }[] = [];
  if (!input.valueType) problems.push({ field: 'valueType', key: 'alertTriggerRequired' });
  if (input.level === undefined || !(ALERT_LEVELS as readonly number[]).includes(input.level))
    problems.push({ field: 'level', key: 'alertLevelRequired' });
  const value = parseAlertNumber(input.value);
  if (value === null) problems.push({ field: 'value', key: 'alertValueFormat' });
  const type = input.valueType;
  let rateValue: number | null = null;
  if (type === 'thresholdRate' || type === 'rainfallIntensity') {
    rateValue = parseAlertNumber(input.rateValue);
    if (rateValue === null) problems.push({ field: 'rateValue', key: 'alertRateValueFormat' });
  }
  if (type === 'rainfallIntensity' && value !== null && value <= 0)
    problems.push({ field: 'value', key: 'alertValueFormat' });
  if (type && WINDOWED_VALUE_TYPES.includes(type) && (!input.windowN || !input.windowUnit))
    problems.push({ field: 'windowN', key: 'alertWindowRequired' });
  let ratio: number | null = null;
  if (!blank(input.ratio)) {
    ratio = parseAlertNumber(input.ratio);
    if (ratio === null || ratio < 0 || ratio > 1) problems.push({ field: 'ratio', key: 'alertRatioRange' });
    // A ratio is a share of the window's readings: without a window it has nothing to count.
    else if (!input.windowN || !input.windowUnit) problems.push({ field: 'ratio', key: 'alertRatioNeedsWindow' });
  }
  if (notify) {
    if (!input.channels || input.channels.length === 0)
      problems.push({ field: 'channels', key: 'alertChannelRequired' });
    if (input.groupId === undefined) problems.push({ field: 'groupId', key: 'alertGroupRequired' });
  }
  if (problems.length || !type || value === null) return { problems, rule: null };
  const windowed = input.windowN && input.windowUnit;
  return {
    problems,
    rule: {
      level: input.level as AlertLevel,
      valueType: type,
      value,
      rateValue,
      direction: input.direction ?? (ABOVE_BY_DEFAULT.includes(type) ? 'above' : 'abs'),
      windowN: windowed ? input.windowN! : null,
      windowUnit: windowed ? input.windowUnit! : null,
      ratio,
    },
  };
}

/** An alert value as lists show it. `alertLevel`, `alertValue`, `alertValueType`, `showName` are the spec's names. */
export const alertRuleRowSchema = z.object({
  id: int,
  deviceId: int,
  deviceName: z.string(),
  deviceNumber: z.string(),
  platformId: int,
  platformName: z.string(),
  moduleId: int,
  quantity: z.string(),
  /** Quantity label in the caller's language, with unit (spec "showName"). */
  showName: z.string(),
  unit: z.string(),
  level: alertLevelSchema,
  alertLevel: alertLevelSchema,
  valueType: valueTypeSchema,
  /** 'static plane' for threshold, else the value type (spec "alertValueType"). */
  alertValueType: z.string(),
  value: z.number(),
  alertValue: z.number(),
  rateValue: nNum,
  direction: directionSchema,
  windowN: nInt,
  windowUnit: windowUnitSchema.nullable(),
  ratio: nNum,
  groupId: nInt,
  channels: channelsSchema,
  pushIntervalMinutes: int,
  enabled: z.boolean(),
  criterionId: nInt,
  description: nStr,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertRuleRow = z.output<typeof alertRuleRowSchema>;

/** One reading at which a tested rule would have fired. */
export const alertRuleTestHitSchema = z.object({
  ts: z.string(),
  value: z.number(),
  /** The computed value compared with the alert value (change, rate, acceleration, sum, intensity ...). */
  metric: z.number(),
  level: alertLevelSchema,
});
export type AlertRuleTestHit = z.output<typeof alertRuleTestHitSchema>;
/** The answer of the rule test: readings looked at, readings that fire, alerts it would have raised. */
export const alertRuleTestResultSchema = z.object({
  from: z.string(),
  to: z.string(),
  readings: int,
  /** Readings at which the rule fires. */
  firings: int,
  /** Separate alerts (a run of consecutive firing readings counts once). */
  alerts: int,
  firstAt: nStr,
  lastAt: nStr,
  /** The firings, oldest first (at most 500). */
  hits: z.array(alertRuleTestHitSchema),
});
export type AlertRuleTestResult = z.output<typeof alertRuleTestResultSchema>;

// ---------------------------------------------------------------------------------------------------------
// Alert criteria (name, type, description)
// ---------------------------------------------------------------------------------------------------------

export const alertCriterionFields = { name: zText(100), type: zText(50), description: zOptText(2000) };
export const alertCriterionAddBody = z.object(alertCriterionFields);
export const alertCriterionEditBody = z.object({ id: zInt(), ...alertCriterionFields });
export const alertCriterionListQuery = z.object({ keyword: zOptText(100), type: zOptText(50) });
export const alertCriterionRowSchema = z.object({
  id: int,
  name: z.string(),
  type: z.string(),
  description: nStr,
  ruleCount: int,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertCriterionRow = z.output<typeof alertCriterionRowSchema>;

// ---------------------------------------------------------------------------------------------------------
// Multi-device rules (alertRelation)
// ---------------------------------------------------------------------------------------------------------

export const relationMember = z.object({ deviceId: zInt(), quantity: zText(64) });
export const relationLevel = z.object({ level: zInt(), value: z.union([z.string().max(40), z.number()]) });
const jsonList = <T extends z.ZodType>(s: T, max: number) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, z.array(s).max(max));
/**
 * A multi-device rule: members (device + quantity, all of one site), a value type, and an alert value per
 * level. Mode `twoAgree`: orange (3) and red (4) are raised only when two members reach that level within the
 * window (default 1 hour); a single member caps the alert at yellow (2).
 */
export const alertRelationFields = {
  name: zText(100),
  members: jsonList(relationMember, 50),
  valueType: optEnum(ALERT_VALUE_TYPES),
  direction: optEnum(ALERT_DIRECTIONS),
  /** The alert value of each level (at least one). */
  levels: jsonList(relationLevel, 4),
  windowN: optInt(z.number().min(1).max(1000)),
  windowUnit: optEnum(WINDOW_UNITS),
  mode: optEnum(RELATION_MODES),
  groupId: optInt(),
  channels: channelList(),
  pushIntervalMinutes: optInt(z.number().min(0).max(10080)),
  enabled: optBool(),
  description: zOptText(500),
};
export const alertRelationAddBody = z.object(alertRelationFields);
export const alertRelationEditBody = z.object({ id: zInt(), ...alertRelationFields });
export const alertRelationListQuery = pageQuery().extend({ platformId: optInt(), keyword: zOptText(100) });
export const alertRelationRowSchema = z.object({
  id: int,
  platformId: int,
  platformName: z.string(),
  name: z.string(),
  members: z.array(z.object({ deviceId: int, deviceName: z.string(), quantity: z.string(), showName: z.string() })),
  valueType: valueTypeSchema,
  direction: directionSchema,
  levels: z.array(z.object({ level: alertLevelSchema, value: z.number() })),
  windowN: nInt,
  windowUnit: windowUnitSchema.nullable(),
  mode: z.enum(RELATION_MODES),
  groupId: nInt,
  channels: channelsSchema,
  pushIntervalMinutes: int,
  enabled: z.boolean(),
  description: nStr,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertRelationRow = z.output<typeof alertRelationRowSchema>;

// ---------------------------------------------------------------------------------------------------------
