import type { AlertLevel, DeviceState, PlatformType } from '@geosentry/contract';
import { hasPermission, type SessionSnapshot } from '../../../shared/session.ts';
import { KIND_SCREENS } from '../../platforms/index.ts';

/**
 * Where each count of home leads: the list it counts, filtered by the parameters that list keeps in its address
 * (ServerTable's URL state, web/src/shared/table/serverTable.ts), with the region picked on home, so each count
 * equals the list it opens. null: the user may not open that list.
 */

/** The monitoring device list (devices/routes.tsx; filters keyword, platformId, moduleId, terminalId, state, regionCode). */
const DEVICE_LIST = { path: '/information/monitoringDeviceManagement', permission: 'information:device' };
/** The alert list (alerts/AlertsPage.tsx; filters level, status, platformId, regionCode, startTime, endTime, keyword). */
const ALERT_LIST = { path: '/alert/alert', permission: 'alert-predict:alert' };

const withQuery = (path: string, q: Record<string, string | number | undefined>): string => {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') sp.set(k, String(v));
  const s = sp.toString();
  return s ? `${path}?${s}` : path;
};

/** The device list, all devices or those of a state (and of a monitor type), narrowed to the region. */
export function deviceListLink(
  s: SessionSnapshot,
  state?: DeviceState,
  moduleId?: number,
  regionCode?: string,
): string | null {
  return hasPermission(DEVICE_LIST.permission, s) ? withQuery(DEVICE_LIST.path, { moduleId, state, regionCode }) : null;
}

/** The site list of a kind, narrowed to the region (the list takes a region and every region below it). */
export function siteListLink(s: SessionSnapshot, type: PlatformType, regionCode?: string): string | null {
  const screen = KIND_SCREENS.find((k) => k.kind === type);
  if (!screen || !hasPermission(screen.role, s)) return null;
  return withQuery(`/information/${screen.path}`, { regionCode });
}

/** The alert list of the open (untreated or pre-processed) alerts of a level, or of every level, in the region. */
export function openAlertsLink(s: SessionSnapshot, level?: AlertLevel, regionCode?: string): string | null {
  return hasPermission(ALERT_LIST.permission, s)
    ? withQuery(ALERT_LIST.path, { level, status: 'open', regionCode })
    : null;
}

/** One alert: the alert list opens its detail (`?id=`). */
export function alertLink(s: SessionSnapshot, id: number): string | null {
  return hasPermission(ALERT_LIST.permission, s) ? withQuery(ALERT_LIST.path, { id }) : null;
}
