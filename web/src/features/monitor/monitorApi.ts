import {
  forecastRoutes,
  moduleDataRoutes,
  predictionRouteOf,
  type Aggregation,
  type PredictionType,
  type SmoothMethod,
  type StatisticsType,
} from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { getToken } from '../../shared/storage.ts';
import { change } from '../../shared/query.ts';
import { fmtDate, periodOf, resolveRange, type TimeRange } from './shared/timeRange.ts';
import { userTimeZone, type Period } from '../../shared/time.ts';

/**
 * A range as a query key: its name, a custom range's picked dates, the calendar period they are picked in and
 * the user's zone (stable while the clock moves; the instants are computed when the request goes out).
 */
export function rangeParams(
  r: TimeRange,
  period: Period = 'day',
): { range: string; startTime?: string; endTime?: string; period?: Period; timeZone: string } {
  const timeZone = userTimeZone();
  if (r.kind === 'custom' && r.custom)
    return { range: 'custom', startTime: fmtDate(r.custom[0]), endTime: fmtDate(r.custom[1]), period, timeZone };
  return { range: r.kind, timeZone };
}

/**
 * The range parameters of a request: "today" and custom ranges as instants computed in the user's zone
 * (picking 1 January means 00:00 to 24:00 of 1 January there), relative ranges by name; always with the zone,
 * which the server buckets days, weeks, months and years in.
 */
export function rangeRequest(
  r: TimeRange,
  period: Period = 'day',
): { range: string; startTime?: string; endTime?: string; timeZone: string } {
  const timeZone = userTimeZone();
  if (r.kind !== 'today' && r.kind !== 'custom') return { range: r.kind, timeZone };
  const { start, end } = resolveRange(r, { zone: timeZone, period });
  return {
    range: 'custom',
    startTime: new Date(start).toISOString(),
    endTime: new Date(end).toISOString(),
    timeZone,
  };
}

export const liveKeys = {
  realtime: (platformId: number | undefined, moduleId: number | undefined) =>
    ['monitor', 'realtime', platformId ?? null, moduleId ?? null] as const,
  status: (platformId: number | undefined) => ['monitor', 'status', platformId ?? null] as const,
  history: (p: object) => ['monitor', 'history', p] as const,
};

/** Newest values of the devices of a site (optionally one monitor type). */
export const fetchRealTime = (platformId: number, moduleId?: number) =>
  call(moduleDataRoutes.getRealTimeData, { platformId, moduleId }, { keepEarlier: true });

export const fetchDeviceStatus = (platformId: number) =>
  call(moduleDataRoutes.getRealTimeDataAndDeviceStatus, { platformId }, { keepEarlier: true });

export interface HistoryParams {
  deviceId?: number | undefined;
  deviceIds?: number[] | undefined;
  quantity?: string | undefined;
  range: TimeRange;
  aggregation: Aggregation;
  maxPoints?: number | undefined;
}

/** A device's (or a comparison's) history; a newer request of the same screen cancels the older. */
export const fetchHistory = (p: HistoryParams, keepEarlier = false) =>
  call(
    moduleDataRoutes.getHistoricalData,
    {
      deviceId: p.deviceId,
      deviceIds: p.deviceIds?.join(','),
      quantity: p.quantity,
      aggregation: p.aggregation,
      maxPoints: p.maxPoints,
      ...rangeRequest(p.range, periodOf(p.aggregation)),
    },
    { keepEarlier },
  );

export const fetchMaxMinAvg = (
  deviceId: number,
  quantity: string | undefined,
  range: TimeRange,
  period: Period = 'day',
) =>
  call(
    moduleDataRoutes.getMaxMinAvgData,
    { deviceId, quantity, ...rangeRequest(range, period) },
    { keepEarlier: true },
  );

export const fetchSmoothPreview = (p: {
  deviceId: number;
  quantity: string;
  range: TimeRange;
  method: SmoothMethod;
  window: number;
}) =>
  call(moduleDataRoutes.getSmoothHandleData, {
    deviceId: p.deviceId,
    quantity: p.quantity,
    method: p.method,
    window: p.window,
    ...rangeRequest(p.range),
  });

export const applySmooth = (p: {
  deviceId: number;
  quantity: string;
  startTime: string;
  endTime: string;
  method: SmoothMethod;
  window: number;
}) => call(moduleDataRoutes.smoothHandleData, p, change);

export const deleteData = (p: { deviceId: number; startTime?: string; endTime?: string; ts?: string[] }) =>
  call(moduleDataRoutes.deleteData, { ...p, ts: p.ts?.join(',') }, change);

export const editGnss = (p: { deviceId: number; ts: string; dN?: number; dE?: number; dH?: number }) =>
  call(moduleDataRoutes.editGNSSData, p, change);

export const predict = (type: PredictionType, data: number[], sampleNum: number, predictNum: number) =>
  call(predictionRouteOf(type), { data: data.join(','), sampleNum, predictNum, type }, change);

export const inverseVelocity = (times: number[], values: number[], window: number) =>
  call(forecastRoutes.inverseVelocity, { times: times.join(','), values: values.join(','), window }, change);

/** Downloads the server's xlsx report of a device's monitor type (getModuleDataReport?format=xlsx). */
export async function downloadReport(p: {
  platformId: number;
  moduleId: number;
  deviceName: string;
  startTime: string;
  endTime: string;
  statisticsType: StatisticsType;
  timeZone?: string;
}): Promise<void> {
  const q = new URLSearchParams({
    ...Object.fromEntries(Object.entries(p).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))),
    template: 'A',
    format: 'xlsx',
    language: currentLanguage(),
  });
  const token = getToken();
  const res = await fetch(`${moduleDataRoutes.getModuleDataReport.path}?${q.toString()}`, {
    headers: { language: currentLanguage(), ...(token ? { token } : {}) },
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const env = (await res.json().catch(() => null)) as { info?: string } | null;
    throw new Error(env?.info ?? res.statusText);
  }
  const blob = await res.blob();
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'report.xlsx';
  const { saveBlob } = await import('./shared/csv.ts');
  saveBlob(blob, decodeURIComponent(name));
}
