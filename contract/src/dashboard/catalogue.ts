// The dashboard feature's catalogue: the home page and the big screen (spec §2 home, /digitalGallery; §4 states;
// §9 dashboard widget defaults). Constants only: a screen that shows a state downloads no schema.
import type { DeviceState } from '../devices/catalogue.ts';

/** Site states (spec §4): the same five words as a device's. */
export const SITE_STATES = ['normal', 'alert', 'alarm', 'abnormal', 'offline'] as const;
export type SiteState = (typeof SITE_STATES)[number];

/** Device counts of a site by state, as the site state rule reads them. */
export type DeviceStateCounts = Record<DeviceState, number>;

/**
 * The state of a site from its devices (spec §4 leaves the rule to us), first match wins:
 * 1. alarm: a device is in alarm (an open orange or red alert);
 * 2. alert: a device is in alert (an open blue or yellow alert);
 * 3. offline: no device reports (every device is offline, or the site has none: it is not monitored);
 * 4. abnormal: a device is abnormal, or some (not all) of its devices are offline: data is missing;
 * 5. normal: every device reports and none is in alert.
 * An offline alert keeps its device offline (not alert): a silent logger is "offline", not "in alert".
 */
export function siteStateOf(c: DeviceStateCounts): SiteState {
  const total = c.normal + c.alert + c.alarm + c.abnormal + c.offline;
  if (c.alarm > 0) return 'alarm';
  if (c.alert > 0) return 'alert';
  if (total === 0 || c.offline === total) return 'offline';
  if (c.abnormal > 0 || c.offline > 0) return 'abnormal';
  return 'normal';
}

/** State colours shared by home and the big screen (alert levels keep their own colours, spec §4). */
export const SITE_STATE_COLOURS: Record<SiteState, string> = {
  normal: '#52c41a',
  alert: '#FFCC33',
  alarm: '#CC0033',
  abnormal: '#8c5cd6',
  offline: '#8c8c8c',
};

/** Home: days of the alert statistics, and rows of the latest alerts. */
export const HOME_ALERT_DAYS = 30;
export const HOME_LATEST_ALERTS = 10;

/** Spec §9 dashboard widget defaults. */
export const RANKING_BOARD = { rowNum: 5, waitTime: 2000, headerHeight: 35, carousel: 'single', sort: true } as const;
export const WATER_POND = { waveNum: 3, waveHeight: 40, waveOpacity: 0.4, formatter: '{value}%' } as const;

/** The big screen's design size: a fixed composition scaled to the screen. */
export const BIG_SCREEN_SIZE = { width: 1920, height: 1080 } as const;

/** The big screen's two variants (spec §2): `common` for holders of digitalGallery:common, `xqh` for the others. */
export const BIG_SCREEN_VARIANTS = ['common', 'xqh'] as const;
export type BigScreenVariant = (typeof BIG_SCREEN_VARIANTS)[number];
export const BIG_SCREEN_PERMISSION = 'digitalGallery';
export const BIG_SCREEN_COMMON_PERMISSION = 'digitalGallery:common';

/** Rainfall ranking: hours summed, and rows. */
export const RAIN_RANKING_HOURS = 24;
export const RAIN_RANKING_ROWS = 10;
/** Live curves of devices in alarm: devices at most, and the minutes of history each starts with. */
export const ALARM_CURVES_MAX = 6;
export const ALARM_CURVES_MINUTES = 60;

/** Weather (spec §7 weather widget): 16 compass points for a wind direction in degrees (spec §4). */
export const COMPASS_16 = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;
export type Compass16 = (typeof COMPASS_16)[number];
/** The compass point of a direction in degrees, or null when the wind speed is 0 (shown as '--', spec §4). */
export function compassOf(degrees: number, speed: number): Compass16 | null {
  if (!(speed > 0) || !Number.isFinite(degrees)) return null;
  const i = Math.round((((degrees % 360) + 360) % 360) / 22.5) % 16;
  return COMPASS_16[i]!;
}
