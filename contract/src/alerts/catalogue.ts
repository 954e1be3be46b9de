// Catalogues of the alerts feature (spec §4, §9): levels, value types, channels, statuses.

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
