// Alerts with their evidence, the handling workflow, queries, report and events.
import { z } from 'zod';
import { pageQuery, zInt, zOptText } from '../api/zod.ts';
import { optBool, optEnum, optInt } from '../devices/fields.ts';
import { fileIdSchema } from '../files/index.ts';
import {
  ALERT_KINDS,
  ALERT_REPORT_PERIODS,
  ALERT_STATUSES,
  ALERT_VALUE_TYPES,
  type AlertChannel,
  type AlertLevel,
  type AlertStatus,
  type AlertValueType,
  FALSE_ALARM_TYPES,
} from './catalogue.ts';
import {
  alertLevelSchema,
  channelsSchema,
  directionSchema,
  int,
  levelCountsSchema,
  nInt,
  nNum,
  nStr,
  valueTypeOrOffline,
  windowUnitSchema,
  blank,
} from './parts.ts';
import { SITE_STATES } from '../dashboard/catalogue.ts';

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
/** The status filter: a status, or `open` (untreated or pre-process: what home's open alert counts count). */
export const ALERT_STATUS_FILTERS = [...ALERT_STATUSES, 'open'] as const;
const alertFilters = {
  level: optInt(),
  status: optEnum(ALERT_STATUS_FILTERS),
  kind: optEnum(ALERT_KINDS),
  valueType: optEnum([...ALERT_VALUE_TYPES, 'offline'] as const),
  /** Range on the alert's last time (ISO date or date-time). */
  startTime: zOptText(40),
  endTime: zOptText(40),
  /** Device name or number, site name, quantity. */
  keyword: zOptText(100),
};
export const alertsByPlatformQuery = pageQuery().extend({
  platformId: optInt(),
  /** The alerts of the sites in this region and every region below it (home's regional screening links here). */
  regionCode: zOptText(20),
  ...alertFilters,
});
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
  /** The site state from its devices (siteStateOf, contract/src/dashboard/catalogue.ts), as home and the big screen show it. */
  state: z.enum(SITE_STATES),
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
 * notifications feature consumes it (server: the `AlertEvents` bus `app.ts` builds, server/src/modules/alerts/alerts.events.ts).
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
