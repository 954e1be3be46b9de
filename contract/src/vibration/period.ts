// The period of a site report (vibration, reservoir): startTime and endTime read in the report's zone, a
// date-only end taking that whole local day. Pure.
import { isDateOnly, parseTime } from '../moduleData/helpers.ts';
import { nextBucket } from '../moduleData/time.ts';

const DAY_MS = 86_400_000;

/** [from, to) epoch ms; 'empty' when the end is not after the start, 'tooLong' beyond maxDays days. */
export function reportPeriod(
  startTime: string | number,
  endTime: string | number,
  timeZone: string,
  maxDays: number,
): { from: number; to: number } | 'empty' | 'tooLong' {
  const from = parseTime(startTime, timeZone);
  let to = parseTime(endTime, timeZone);
  if (from === null || to === null) return 'empty';
  if (isDateOnly(endTime)) to = nextBucket(to, 'day', timeZone);
  if (to <= from) return 'empty';
  // A daylight-saving change adds an hour to a local calendar span: allow it.
  if (to - from > maxDays * DAY_MS + 3_600_000) return 'tooLong';
  return { from, to };
}
