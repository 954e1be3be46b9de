// The alerts feature's contract (early warning core): alert values (rules), multi-device rules, criteria,
// alerts with their evidence, the handling workflow, queries, report and the event notifications consume.
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { optBool, optEnum, optInt } from '../devices/fields.ts';
import { fileIdSchema } from '../files/index.ts';

// ---------------------------------------------------------------------------------------------------------
// Catalogues (spec §4, §9)
// ---------------------------------------------------------------------------------------------------------

/** Alert levels 1..4 (spec §4): blue, yellow, orange, red. */
export const ALERT_LEVELS = [1, 2, 3, 4] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];
/** The colour codes in the one format, `#rrggbb` lower-case (colourCode; spec §4 writes them CC0033 ...). */
export const ALERT_LEVEL_COLOURS: Record<AlertLevel, { name: 'blue' | 'yellow' | 'orange' | 'red'; hex: string }> = {
  1: { name: 'blue', hex: '#0099ff' },
  2: { name: 'yellow', hex: '#ffcc33' },
  3: { name: 'orange', hex: '#ff6600' },
  4: { name: 'red', hex: '#cc0033' },
};
/** Device state an open alert of a level gives its device (levels 1-2 alert, 3-4 alarm). */
export const stateOfLevel = (level: number): 'alert' | 'alarm' => (level >= 3 ? 'alarm' : 'alert');

/**
 * Alert value types (spec §3 "static plane or other", §9). For a reading v_i of the rule's quantity at t_i:
 * - threshold: the value itself (static plane);
 * - cumulativeChange: v_i minus the device's initial value of the quantity (devices.initialValues) or, when
 *   unset, its first stored reading;
 * - currentChange: v_i minus the first reading inside the window (t_i - window, t_i];
 * - rate: v_i - v_(i-1), rounded to 2 decimals (spec §9; the window, if set, is the longest gap allowed: the
 *   previous reading at most one window before);
 * - thresholdRate: the value crosses `value` AND the rate crosses `rateValue` (both in the rule's direction);
 * - acceleration: rate_i - rate_(i-1), rounded to 2 decimals (spec §9);
 * - increment: the sum of the quantity over the window (e.g. rainfall over 24 h, mm);
 * - rainfallIntensity (beyond the spec): intensity-duration threshold I = a·D^(-b) over the rainfall windows
 *   1, 3, 6, 12, 24, 48 h: fires when the mean intensity (mm/h) over some window D reaches a·D^(-b).
 * Every window is (t_i - window, t_i], open at its start and closed at its end: a reading exactly one window
 * before t_i is outside (current change, the ratio's share, increment, rainfall intensity alike).
 * Readings that arrive late (older than readings already judged) are judged in their place, and the later
 * readings whose value they change (within the rules' windows; for rate / acceleration the next one or two)
 * are judged again: firings are keyed by (rule, device, reading time), so nothing is raised twice.
 */
export const ALERT_VALUE_TYPES = [
  'threshold',
  'cumulativeChange',
  'currentChange',
  'rate',
  'thresholdRate',
  'acceleration',
  'increment',
  'rainfallIntensity',
] as const;
export type AlertValueType = (typeof ALERT_VALUE_TYPES)[number];
/** Value types that need a time window. */
export const WINDOWED_VALUE_TYPES: readonly AlertValueType[] = ['currentChange', 'increment'];
/** Rainfall windows of the intensity-duration type (spec §9), hours. */
export const RAINFALL_WINDOWS_HOURS = [1, 3, 6, 12, 24, 48] as const;

/** How the computed value is compared with the alert value: >= value, <= value, or |x| >= value. */
export const ALERT_DIRECTIONS = ['above', 'below', 'abs'] as const;
export type AlertDirection = (typeof ALERT_DIRECTIONS)[number];

/** Time window units (spec §9: hour, day, minute). */
export const WINDOW_UNITS = ['minute', 'hour', 'day'] as const;
export type WindowUnit = (typeof WINDOW_UNITS)[number];
export const WINDOW_UNIT_MS: Record<WindowUnit, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };

/** Alert channels ("tool types", spec §9): network SMS, local SMS, ordinary SMS, mail, voice. */
export const ALERT_CHANNELS = ['networkSms', 'localSms', 'sms', 'mail', 'voice'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** Alert status (spec §4): untreated, pre-process (saved, still editable), processed (locked). */
export const ALERT_STATUSES = ['untreated', 'preProcess', 'processed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** What raised an alert: a single-device rule, a multi-device rule (alertRelation) or a silent device. */
export const ALERT_KINDS = ['single', 'multi', 'offline'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/** The level an offline alert is raised at. */
export const OFFLINE_ALERT_LEVEL: AlertLevel = 2;

/** Multi-device rule modes: any member decides; or orange and red need two members to agree. */
export const RELATION_MODES = ['any', 'twoAgree'] as const;
export type RelationMode = (typeof RELATION_MODES)[number];

/** False-alarm types of the processing form. */
export const FALSE_ALARM_TYPES = ['deviceFault', 'interference', 'construction', 'weather', 'manual', 'other'] as const;
export type FalseAlarmType = (typeof FALSE_ALARM_TYPES)[number];

/** Alert attachments (spec §5): Word, PDF, jpg, png; at most 3 (uploaded first with kind=attachment). */
export const MAX_ALERT_ATTACHMENTS = 3;

/** Report periods. */
export const ALERT_REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type AlertReportPeriod = (typeof ALERT_REPORT_PERIODS)[number];

/** Days of stored readings a rule is tested against by default ("test against last month"). */
export const RULE_TEST_DEFAULT_DAYS = 30;

/** Answer schemas of the catalogue values. */
const alertLevelSchema = z.literal([1, 2, 3, 4]);
const valueTypeSchema = z.enum(ALERT_VALUE_TYPES);
const valueTypeOrOffline = z.enum([...ALERT_VALUE_TYPES, 'offline']);
const directionSchema = z.enum(ALERT_DIRECTIONS);
const windowUnitSchema = z.enum(WINDOW_UNITS);
const channelsSchema = z.array(z.enum(ALERT_CHANNELS));
const levelCountsSchema = z.record(z.enum(['1', '2', '3', '4']), z.number().int());
const int = z.number().int();
const nInt = z.number().int().nullable();
const nNum = z.number().nullable();
const nStr = z.string().nullable();
/** The answer of an add: the new row's id. */
export const createdIdSchema = z.object({ id: z.number().int() });

// ---------------------------------------------------------------------------------------------------------
// Alert values (rules)
// ---------------------------------------------------------------------------------------------------------

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
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
// Alerts, evidence, workflow
// ---------------------------------------------------------------------------------------------------------

/** What made an alert fire (kept with the alert, updated with its latest hit). */
export const alertEvidenceSchema = z.object({
  ruleId: nInt,
  relationId: nInt,
  valueType: valueTypeOrOffline,
  direction: directionSchema.nullable(),
  /** The alert value crossed, and for thresholdRate / rainfallIntensity the second value. */
  threshold: nNum,
  rateValue: nNum,
  windowN: nInt,
  windowUnit: windowUnitSchema.nullable(),
  ratio: nNum,
  /** The reading that fired. */
  ts: z.string(),
  value: nNum,
  /** Computed values at that reading (null when not computable). */
  metric: nNum,
  base: nNum,
  change: nNum,
  rate: nNum,
  acceleration: nNum,
  /** The readings window behind the decision (oldest first, at most 200). */
  readings: z.array(z.object({ ts: z.string(), value: z.number() })),
  /** Multi-device rules: each member's level and value at the decision. */
  members: z
    .array(z.object({ deviceId: int, quantity: z.string(), level: z.number(), metric: z.number(), ts: z.string() }))
    .optional(),
  /**
   * Judged with a late reading: a reading older than ones already judged arrived (a logger resending its buffer
   * after an outage) and this reading was judged (again) with it; `lateReadingAt` is that late reading's time.
   */
  late: z.boolean().optional(),
  lateReadingAt: z.string().optional(),
  /** Offline alerts: when the device was last seen, and its offline hours. */
  lastSeenAt: nStr.optional(),
  offlineHours: nNum.optional(),
});
export type AlertEvidence = z.output<typeof alertEvidenceSchema>;

/** The processing form (spec §3, §4). */
export const alertProcessingSchema = z.object({
  suggestion: nStr,
  falseAlarm: z.boolean(),
  falseAlarmType: z.enum(FALSE_ALARM_TYPES).nullable(),
  onSiteCheck: nStr,
  deformation: nStr,
  attachments: z.array(z.object({ fileId: z.string(), name: z.string(), ext: z.string() })),
});
export type AlertProcessing = z.output<typeof alertProcessingSchema>;

export const alertRowSchema = z.object({
  id: int,
  platformId: int,
  platformName: z.string(),
  platformType: z.string(),
  deviceId: int,
  deviceName: z.string(),
  deviceNumber: z.string(),
  moduleId: int,
  quantity: nStr,
  showName: z.string(),
  kind: z.enum(ALERT_KINDS),
  ruleId: nInt,
  relationId: nInt,
  valueType: valueTypeOrOffline,
  level: alertLevelSchema,
  firstLevel: alertLevelSchema,
  colour: z.string(),
  status: z.enum(ALERT_STATUSES),
  /** 0 untreated, 1 pre-process, 2 processed. */
  processed: z.literal([0, 1, 2]),
  threshold: nNum,
  firstValue: nNum,
  /** The latest reading folded into the alert (it may be back under the limit). */
  lastValue: nNum,
  /** The computed value of the latest hit (change, rate, sum ...; the reading itself for threshold). */
  metric: nNum,
  /**
   * The value that raised the alert's current level: the computed value compared with `threshold` (the limit)
   * at the raise or the last escalation; `triggerAt` is that reading's time. Null for offline alerts.
   */
  triggerValue: nNum,
  triggerAt: nStr,
  /** Hits folded into this alert (1 when raised). */
  count: int,
  firstAt: z.string(),
  lastAt: z.string(),
  escalatedAt: nStr,
  processedAt: nStr,
  processedBy: nStr,
  suggestion: nStr,
  groupId: nInt,
  channels: channelsSchema,
  pushIntervalMinutes: int,
});
export type AlertRow = z.output<typeof alertRowSchema>;

export const alertActionSchema = z.object({
  id: int,
  at: z.string(),
  /** raised, escalated, saved (pre-process), processed; system actions have no user. */
  action: z.enum(['raised', 'escalated', 'saved', 'processed']),
  userId: nInt,
  userName: nStr,
  level: alertLevelSchema.nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type AlertAction = z.output<typeof alertActionSchema>;

export const alertDetailSchema = alertRowSchema.extend({
  evidence: alertEvidenceSchema,
  processing: alertProcessingSchema.nullable(),
  actions: z.array(alertActionSchema),
  /** The latest readings that fired into this alert (newest first, at most 100). */
  hits: z.array(z.object({ ts: z.string(), level: alertLevelSchema, value: nNum, metric: nNum })),
});
export type AlertDetail = z.output<typeof alertDetailSchema>;

/**
 * POST processAlert (spec §7): `processed` 0 saves the form as pre-process (still editable), 1 finishes it
 * (processed, locked). A processed alert cannot be changed.
 */
export const processAlertBody = z.object({
  id: zInt(),
  processed: zInt().pipe(z.union([z.literal(0), z.literal(1)])),
  suggestion: zOptText(2000),
  falseAlarm: optBool(),
  falseAlarmType: optEnum(FALSE_ALARM_TYPES),
  onSiteCheck: zOptText(2000),
  deformation: zOptText(2000),
  /** File ids of uploaded attachments (upload kind attachment: Word, PDF, jpg, png), at most 3. */
  attachments: z.preprocess((v) => {
    if (blank(v)) return [];
    if (typeof v === 'string') {
      const t = v.trim();
      if (t.startsWith('[')) {
        try {
          return JSON.parse(t) as unknown;
        } catch {
          return v;
        }
      }
      return t.split(',').map((x) => x.trim());
    }
    return v;
  }, z.array(fileIdSchema)),
});

export const ALERT_SORT_FIELDS = [
  'lastAt',
  'firstAt',
  'level',
  'status',
  'platformName',
  'deviceName',
  'count',
] as const;
const alertFilters = {
  level: optInt(),
  status: optEnum(ALERT_STATUSES),
  kind: optEnum(ALERT_KINDS),
  valueType: optEnum([...ALERT_VALUE_TYPES, 'offline'] as const),
  /** Range on the alert's last time (ISO date or date-time). */
  startTime: zOptText(40),
  endTime: zOptText(40),
  /** Device name or number, site name, quantity. */
  keyword: zOptText(100),
};
export const alertsByPlatformQuery = pageQuery().extend({ platformId: optInt(), ...alertFilters });
export const alertsByDeviceQuery = pageQuery().extend({
  deviceName: zOptText(100),
  deviceId: optInt(),
  ...alertFilters,
});
export const alertDetailQuery = z.object({ id: zInt() });

/** Home page and big screen counts (scoped). */
export const alertCountsSchema = z.object({
  /** Open (untreated + pre-process) alerts by level. */
  open: levelCountsSchema,
  openTotal: int,
  untreated: int,
  preProcess: int,
  /** Alerts raised today and in the last 7 days (local days of `timeZone`). */
  today: int,
  last7Days: int,
  /** Raised per local day over the last 7 days, oldest first. */
  daily: z.array(z.object({ day: z.string(), count: int })),
  /** The zone whose days these are: the request's timeZone, else the user's, else the server's TIME_ZONE. */
  timeZone: z.string(),
});
export type AlertCounts = z.output<typeof alertCountsSchema>;
/** getCounts: timeZone (IANA name; default the user's zone, else TIME_ZONE). */
export const alertCountsQuery = z.object({ timeZone: zOptText(64) });

export const platformAndAlertQuery = z.object({ platformId: optInt(), regionCode: zOptText(20) });
/** bigData/getPlatformAndAlert: sites with their open alert counts by level and their state. */
export const platformAlertRowSchema = z.object({
  platformId: int,
  name: z.string(),
  type: z.string(),
  regionCode: nStr,
  lon: nNum,
  lat: nNum,
  /** normal, alert (open levels 1-2), alarm (open 3-4). */
  state: z.enum(['normal', 'alert', 'alarm']),
  maxLevel: alertLevelSchema.nullable(),
  open: levelCountsSchema,
  openTotal: int,
  deviceCount: int,
});
export type PlatformAlertRow = z.output<typeof platformAlertRowSchema>;

export const alertReportQuery = z.object({
  platformId: optInt(),
  startTime: zOptText(40),
  endTime: zOptText(40),
  period: optEnum(ALERT_REPORT_PERIODS),
  /** Dates without an offset and the periods are local to this IANA zone (default the user's, else TIME_ZONE). */
  timeZone: zOptText(64),
});
export const alertReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  period: z.enum(ALERT_REPORT_PERIODS),
  timeZone: z.string(),
  total: int,
  byLevel: z.array(z.object({ level: alertLevelSchema, count: int })),
  byPlatform: z.array(z.object({ platformId: int, name: z.string(), count: int, levels: levelCountsSchema })),
  byType: z.array(z.object({ valueType: z.string(), count: int })),
  byStatus: z.array(z.object({ status: z.enum(ALERT_STATUSES), count: int })),
  byPeriod: z.array(z.object({ period: z.string(), count: int, levels: levelCountsSchema })),
});
export type AlertReport = z.output<typeof alertReportSchema>;

// ---------------------------------------------------------------------------------------------------------
// Events (socket and notifications)
// ---------------------------------------------------------------------------------------------------------

/**
 * Emitted by the alerts service when an alert is raised, escalated, or raised for a silent device; the
 * notifications feature consumes it (server: `alertEvents(ctx)` in server/src/modules/alerts/alerts.events.ts).
 */
export interface AlertEvent {
  alertId: number;
  kind: 'raised' | 'escalated' | 'offline';
  level: AlertLevel;
  previousLevel: AlertLevel | null;
  platformId: number;
  platformName: string;
  deviceId: number;
  deviceName: string;
  deviceNumber: string;
  quantity: string | null;
  ruleId: number | null;
  relationId: number | null;
  groupId: number | null;
  channels: AlertChannel[];
  pushIntervalMinutes: number;
  valueType: AlertValueType | 'offline';
  value: number | null;
  metric: number | null;
  threshold: number | null;
  /** Time of the reading (or of the offline sweep), ISO. */
  at: string;
}

/** Socket message on a new or escalated alert (sent to sockets subscribed to the site and allowed to see it). */
export interface AlertSocketMessage {
  type: 'alert';
  kind: AlertEvent['kind'];
  alertId: number;
  level: AlertLevel;
  colour: string;
  platformId: number;
  platformName: string;
  deviceId: number;
  deviceName: string;
  quantity: string | null;
  valueType: AlertValueType | 'offline';
  value: number | null;
  threshold: number | null;
  at: string;
}

/** Socket message when an alert's handling status changes (pre-process saved, processed). */
export interface AlertStatusSocketMessage {
  type: 'alertStatus';
  alertId: number;
  platformId: number;
  status: AlertStatus;
}

// ---------------------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------------------

const tags = ['alerts'];
const A = '/api/v2/data/alert';
const V = `${A}/manage/value`;
const VALUE = perm('alert-predict:alert-value');
const ALERT = perm('alert-predict:alert');
const REPORT = perm('alert-predict:report');
export const alertsRoutes = routeTable({
  valuesByDevice: {
    method: 'GET',
    path: `${V}/getByDeviceName`,
    permission: VALUE,
    summary: 'Alert values of one device (by deviceName or deviceId): alertLevel, alertValue, alertValueType, showName',
    tags,
    query: alertValuesByDeviceQuery,
    response: z.array(alertRuleRowSchema),
  },
  valuesList: {
    method: 'GET',
    path: `${V}/getListPage`,
    permission: VALUE,
    summary: "Alert values in the caller's data scope, paged and filtered",
    tags,
    query: alertRuleListQuery,
    response: zPage(alertRuleRowSchema),
  },
  valueAdd: {
    method: 'POST',
    path: `${V}/add`,
    permission: VALUE,
    summary: 'Add an alert value on a device quantity (spec §5 checks)',
    tags,
    body: alertRuleAddBody,
    response: createdIdSchema,
  },
  valueEdit: {
    method: 'POST',
    path: `${V}/edit`,
    permission: VALUE,
    summary: 'Edit an alert value',
    tags,
    body: alertRuleEditBody,
    response: z.null(),
  },
  valueDelete: {
    method: 'POST',
    path: `${V}/delete`,
    permission: VALUE,
    summary: 'Delete an alert value (its alerts stay)',
    tags,
    body: alertIdBody,
    response: z.null(),
  },
  valueEnable: {
    method: 'POST',
    path: `${V}/enable`,
    permission: VALUE,
    summary: 'Switch an alert value on (enabled=1) or off (enabled=0)',
    tags,
    body: alertRuleEnableBody,
    response: z.null(),
  },
  valueTest: {
    method: 'POST',
    path: `${V}/test`,
    permission: VALUE,
    summary: 'Test an alert value (saved id or unsaved fields) against stored readings (default last 30 days)',
    tags,
    body: alertRuleTestBody,
    response: alertRuleTestResultSchema,
  },
  criteriaList: {
    method: 'GET',
    path: `${A}/manage/criteria/getList`,
    permission: VALUE,
    summary: 'Alert criteria (name, type, description)',
    tags,
    query: alertCriterionListQuery,
    response: z.array(alertCriterionRowSchema),
  },
  criteriaAdd: {
    method: 'POST',
    path: `${A}/manage/criteria/add`,
    permission: VALUE,
    summary: 'Add an alert criterion',
    tags,
    body: alertCriterionAddBody,
    response: createdIdSchema,
  },
  criteriaEdit: {
    method: 'POST',
    path: `${A}/manage/criteria/edit`,
    permission: VALUE,
    summary: 'Edit an alert criterion',
    tags,
    body: alertCriterionEditBody,
    response: z.null(),
  },
  criteriaDelete: {
    method: 'POST',
    path: `${A}/manage/criteria/delete`,
    permission: VALUE,
    summary: 'Delete an alert criterion (rules keep working, unlinked)',
    tags,
    body: alertIdBody,
    response: z.null(),
  },
  relationList: {
    method: 'GET',
    path: `${A}/manage/relation/getListPage`,
    permission: VALUE,
    summary: "Multi-device rules in the caller's data scope",
    tags,
    query: alertRelationListQuery,
    response: zPage(alertRelationRowSchema),
  },
  relationAdd: {
    method: 'POST',
    path: `${A}/manage/relation/add`,
    permission: VALUE,
    summary: 'Add a multi-device rule',
    tags,
    body: alertRelationAddBody,
    response: createdIdSchema,
  },
  relationEdit: {
    method: 'POST',
    path: `${A}/manage/relation/edit`,
    permission: VALUE,
    summary: 'Edit a multi-device rule',
    tags,
    body: alertRelationEditBody,
    response: z.null(),
  },
  relationDelete: {
    method: 'POST',
    path: `${A}/manage/relation/delete`,
    permission: VALUE,
    summary: 'Delete a multi-device rule',
    tags,
    body: alertIdBody,
    response: z.null(),
  },
  byDevice: {
    method: 'GET',
    path: `${A}/getByDeviceName`,
    permission: ALERT,
    summary: 'Alerts of one device (by deviceName or deviceId), filtered, paged and sorted',
    tags,
    query: alertsByDeviceQuery,
    response: zPage(alertRowSchema),
  },
  byPlatform: {
    method: 'GET',
    path: `${A}/getByPlatformId`,
    permission: ALERT,
    summary: "Alerts of one site (or every site in the caller's scope), filtered, paged and sorted",
    tags,
    query: alertsByPlatformQuery,
    response: zPage(alertRowSchema),
  },
  detail: {
    method: 'GET',
    path: `${A}/getDetail`,
    permission: ALERT,
    summary: 'One alert with its evidence, processing form, history and hits',
    tags,
    query: alertDetailQuery,
    response: alertDetailSchema,
  },
  process: {
    method: 'POST',
    path: `${A}/processAlert`,
    permission: ALERT,
    summary: 'Save the processing form (processed=0, pre-process) or finish it (processed=1, locked)',
    tags,
    body: processAlertBody,
    response: z.object({ id: int, status: z.enum(ALERT_STATUSES) }),
  },
  counts: {
    method: 'GET',
    path: `${A}/getCounts`,
    permission: LOGIN,
    summary: "Alert counts for the home page and the big screen (caller's data scope)",
    tags,
    query: alertCountsQuery,
    response: alertCountsSchema,
  },
  report: {
    method: 'GET',
    path: `${A}/report/get`,
    permission: REPORT,
    summary: 'Alert report: counts by level, site, type, status and period',
    tags,
    query: alertReportQuery,
    response: alertReportSchema,
  },
  reportExport: {
    method: 'GET',
    path: `${A}/report/export`,
    permission: REPORT,
    summary: 'The alert report and its alerts as an xlsx workbook (token may be given as query)',
    tags,
    query: alertReportQuery,
    tokenInQuery: true,
  },
  platformAndAlert: {
    method: 'GET',
    path: '/api/v2/data/bigData/getPlatformAndAlert',
    permission: LOGIN,
    summary: "Sites in the caller's scope with their open alert counts by level (filter platformId, regionCode)",
    tags,
    query: platformAndAlertQuery,
    response: z.array(platformAlertRowSchema),
  },
});
