// Request and answer shapes of the dashboard feature (home and the big screen).
import { z } from 'zod';
import { zOptText } from '../api/zod.ts';
import { optInt } from '../devices/fields.ts';
import { DEVICE_STATES } from '../devices/catalogue.ts';
import { PLATFORM_TYPES } from '../platforms/kinds.ts';
import { ALERT_STATUSES, ALERT_KINDS } from '../alerts/catalogue.ts';
import { alertLevelSchema, levelCountsSchema } from '../alerts/parts.ts';
import { SITE_STATES } from './catalogue.ts';

const int = z.number().int();
const nNum = z.number().nullable();
const nStr = z.string().nullable();
const stateCounts = z.record(z.enum(DEVICE_STATES), int);
const siteStateSchema = z.enum(SITE_STATES);

/** Every dashboard read: the caller's data scope, narrowed to a region (and every region below it). */
export const dashboardQuery = z.object({
  regionCode: zOptText(20).describe('Region code: sites in this region or any region below it'),
  timeZone: zOptText(64).describe("IANA zone of the days (default the user's zone, else TIME_ZONE)"),
});

/** A site on the map of home and the big screen. */
export const dashboardSiteSchema = z.object({
  platformId: int,
  name: z.string(),
  type: z.enum(PLATFORM_TYPES),
  regionCode: nStr,
  lon: nNum,
  lat: nNum,
  state: siteStateSchema,
  /** Its devices by state (the state follows from these: siteStateOf). */
  devices: stateCounts,
  /** Its open (untreated or pre-processed) alerts by level. */
  open: levelCountsSchema,
});
export type DashboardSite = z.output<typeof dashboardSiteSchema>;

/** An alert as home's latest list and the big screen's ticker show it. */
export const dashboardAlertSchema = z.object({
  id: int,
  platformId: z.number().int().nullable(),
  platformName: nStr,
  deviceId: z.number().int().nullable(),
  deviceName: nStr,
  moduleId: z.number().int().nullable(),
  quantity: nStr,
  kind: z.enum(ALERT_KINDS),
  level: alertLevelSchema,
  status: z.enum(ALERT_STATUSES),
  /** The value that raised its level, and the limit it crossed. */
  value: nNum,
  threshold: nNum,
  firstAt: z.string(),
  lastAt: z.string(),
});
export type DashboardAlert = z.output<typeof dashboardAlertSchema>;

/**
 * dashboard/getHome: everything home shows, in one answer (spec §2 home: statistics status, regional screening,
 * alert statistics, alert count, classification status), in the caller's scope and region.
 */
export const homeSchema = z.object({
  timeZone: z.string(),
  /** When these counts were read (ISO, UTC). */
  at: z.string(),
  sites: z.object({
    total: int,
    byState: z.record(siteStateSchema, int),
    /**
     * Every kind, in PLATFORM_TYPES order, kinds without sites with 0: the caller's data scope decides the sites
     * (each total equals that kind's site list with the same regionCode).
     */
    byType: z.array(z.object({ type: z.enum(PLATFORM_TYPES), total: int, byState: z.record(siteStateSchema, int) })),
  }),
  /** The devices bound to the sites (each byState count equals the device list with state=S&bound=true). */
  devices: z.object({
    total: int,
    /** Online: seen within its offline hours; offline = total - online. */
    online: int,
    offline: int,
    byState: stateCounts,
  }),
  alerts: z.object({
    /** Open (untreated + pre-process) alerts by level; each equals the alert list filtered by level and status=open. */
    open: levelCountsSchema,
    openTotal: int,
    untreated: int,
    preProcess: int,
  }),
  /** Alerts raised per local day over HOME_ALERT_DAYS days (oldest first), by level. */
  alertDays: z.array(z.object({ day: z.string(), total: int, levels: levelCountsSchema })),
  /** Alerts raised over the same days, by monitor type (offline alerts under moduleId null). */
  alertTypes: z.array(z.object({ moduleId: z.number().int().nullable(), total: int, levels: levelCountsSchema })),
  /** Classification status: devices per monitor type and state. */
  classification: z.array(z.object({ moduleId: int, total: int, byState: stateCounts })),
  /** The sites, for the map (those without coordinates included, lon/lat null). */
  map: z.array(dashboardSiteSchema),
  /** The newest HOME_LATEST_ALERTS alerts by last time, open or not. */
  latestAlerts: z.array(dashboardAlertSchema),
});
export type HomeData = z.output<typeof homeSchema>;

/** A device with its newest values (bigData/getDeviceAndData). */
export const deviceAndDataSchema = z.object({
  deviceId: int,
  deviceName: z.string(),
  number: z.string(),
  platformId: int,
  platformName: z.string(),
  moduleId: int,
  state: z.enum(DEVICE_STATES),
  online: z.boolean(),
  lastReadingAt: nStr,
  /** The newest value of each quantity, and its unit. */
  values: z.record(z.string(), z.number()),
  units: z.record(z.string(), z.string()),
});
export type DeviceAndData = z.output<typeof deviceAndDataSchema>;
export const bigDataQuery = z.object({
  platformId: optInt().describe('One site (in scope)'),
  regionCode: zOptText(20).describe('Sites in this region or below it'),
});

/** Reservoir level against its limits (big screen). */
export const reservoirLevelSchema = z.object({
  platformId: int,
  name: z.string(),
  /** Newest water level (m) of its water-level device, and when. */
  level: nNum,
  at: nStr,
  floodLevel: nNum,
  limitedFloodLevel: nNum,
  /** level / floodLevel as a percent, 1 decimal (the water-pond gauge), null without both. */
  percentOfFlood: nNum,
});

/** dashboard/getBigScreen: what the big screen shows besides the sites and devices. */
export const bigScreenSchema = z.object({
  at: z.string(),
  devices: z.object({ total: int, online: int, offline: int, byState: stateCounts }),
  /** online / total as a percent, 1 decimal (0 without devices). */
  onlineRate: z.number(),
  sites: z.array(dashboardSiteSchema),
  /** Rainfall of the last RAIN_RANKING_HOURS hours per rain gauge, largest first (mm, 1 decimal). */
  rainRanking: z.array(z.object({ deviceId: int, deviceName: z.string(), platformName: z.string(), rain: z.number() })),
  reservoirs: z.array(reservoirLevelSchema),
  /** Open alerts by level, and the newest alerts (ticker). */
  open: levelCountsSchema,
  latestAlerts: z.array(dashboardAlertSchema),
  /**
   * Devices in alarm (at most ALARM_CURVES_MAX, highest open level first) with the readings of the quantity of
   * their highest open alert over the ALARM_CURVES_MINUTES up to the device's newest reading.
   */
  alarmCurves: z.array(
    z.object({
      deviceId: int,
      deviceName: z.string(),
      platformName: z.string(),
      quantity: z.string(),
      unit: z.string(),
      points: z.array(z.tuple([z.string(), z.number()])),
    }),
  ),
});
export type BigScreenData = z.output<typeof bigScreenSchema>;

/** A site's weather from its own sensors (spec §7 weather widget, offline-capable). */
export const weatherQuery = z.object({ platformId: optInt().describe('The site; default the first site in scope') });
export const weatherSchema = z.object({
  platformId: z.number().int().nullable(),
  platformName: nStr,
  /** Newest values of the site's sensors; null where it has none. */
  at: nStr,
  temperature: nNum,
  humidity: nNum,
  /** Rain of the last hour and of the last 24 hours, mm. */
  rain1h: nNum,
  rain24h: nNum,
  windSpeed: nNum,
  windDirection: nNum,
  /** 16-point compass name, null when the speed is 0 or unknown (shown as '--'). */
  windCompass: nStr,
  /** A configured third-party provider (WEATHER_URL with {lat}/{lon} filled), shown instead when set. */
  providerUrl: nStr,
});
export type Weather = z.output<typeof weatherSchema>;
