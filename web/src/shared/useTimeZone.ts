import { useSession } from './session.ts';
import { isBrowserZone, userTimeZone, zoneLabel } from './time.ts';

/**
 * The zone times are shown in (the user's, else the browser's), re-rendering when it changes; `label` is
 * "UTC+08:00 Asia/Shanghai" when it is not the browser's own zone, else null (nothing to say).
 */
export function useTimeZone(): { zone: string; label: string | null } {
  useSession();
  const zone = userTimeZone();
  return { zone, label: isBrowserZone(zone) ? null : zoneLabel(zone) };
}

/** "Time" or, in another zone than the browser's, "Time (UTC+08:00 Asia/Shanghai)". */
export function withZone(text: string, label: string | null): string {
  return label ? `${text} (${label})` : text;
}
