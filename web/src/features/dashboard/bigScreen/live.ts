import { useCallback, useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ALARM_CURVES_MINUTES, dashboardRoutes, type BigScreenData, type DeviceAndData } from '@geosentry/contract';
import { call } from '../../../shared/api.ts';
import { onSocketMessage, useSiteReadings, useSocketConnected, type SiteEvent } from '../../../shared/socket.ts';

/** At most one refetch per THROTTLE_MS while events arrive; a refetch every SAFETY_MS even without events. */
export const THROTTLE_MS = 5_000;
export const SAFETY_MS = 60_000;
/** Points kept per live curve: the window's readings at most (the chart never grows). */
export const CURVE_MAX_POINTS = 360;

export const bigScreenKeys = {
  screen: ['dashboard', 'bigScreen'] as const,
  devices: (platformId: number | null) => ['dashboard', 'bigScreen', 'devices', platformId] as const,
  weather: (platformId: number | null) => ['dashboard', 'bigScreen', 'weather', platformId] as const,
};

/** Calls of the big screen: silent (a wall has no message layer; the header shows the connection instead). */
const quiet = { silent: true, keepEarlier: true } as const;

/**
 * A function that runs `fn` at most once per `ms`: the first call runs it at once, calls inside the window run it
 * once at the window's end. Its timer is cleared on unmount.
 */
function useThrottled(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  latest.current = fn;
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    const wait = Math.max(0, last.current + ms - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, [ms]);
}

export interface LiveCurve {
  deviceId: number;
  deviceName: string;
  platformName: string;
  quantity: string;
  unit: string;
  /** [epoch ms, value], oldest first, at most CURVE_MAX_POINTS, within ALARM_CURVES_MINUTES of the newest. */
  points: Array<[number, number]>;
}

/**
 * The big screen's data: getBigScreen once, then kept current by the session socket. Every reading, device state
 * and alert event asks for a refetch, throttled to one per THROTTLE_MS; a refetch every SAFETY_MS catches anything
 * missed, and one follows each reconnect (events sent while the socket was down are lost). Readings of the devices
 * in alarm are also appended to their curves at once (sliding window, capped). `platformIds`: the sites whose
 * readings to subscribe to ('all' for the network overview).
 */
export function useBigScreen(platformIds: readonly number[] | 'all' | null, devicesOf: number | null) {
  const client = useQueryClient();
  const screen = useQuery({
    queryKey: bigScreenKeys.screen,
    queryFn: () => call(dashboardRoutes.bigScreen, {}, quiet),
    refetchInterval: SAFETY_MS,
    refetchIntervalInBackground: true,
    retry: 2,
  });
  const devices = useQuery({
    queryKey: bigScreenKeys.devices(devicesOf),
    queryFn: () => call(dashboardRoutes.deviceAndData, { platformId: devicesOf ?? undefined }, quiet),
    enabled: devicesOf !== null,
    refetchInterval: SAFETY_MS,
    refetchIntervalInBackground: true,
  });

  const refetch = useThrottled(() => {
    void client.invalidateQueries({ queryKey: bigScreenKeys.screen, exact: true });
    if (devicesOf !== null) void client.invalidateQueries({ queryKey: bigScreenKeys.devices(devicesOf) });
  }, THROTTLE_MS);

  // ---- live curves: the server's points, then readings appended as they come ----
  const curves = useRef(new Map<number, LiveCurve>());
  const [curveVersion, setCurveVersion] = useState(0);
  const redraw = useThrottled(() => setCurveVersion((v) => v + 1), 1000);
  const serverCurves = screen.data?.alarmCurves;
  useEffect(() => {
    if (!serverCurves) return;
    const next = new Map<number, LiveCurve>();
    for (const c of serverCurves) {
      const points = c.points.map(([t, v]): [number, number] => [Date.parse(t), v]);
      // Readings that came over the socket after the server's newest point stay.
      const held = curves.current.get(c.deviceId);
      const newest = points.at(-1)?.[0] ?? 0;
      if (held && held.quantity === c.quantity) for (const p of held.points) if (p[0] > newest) points.push(p);
      next.set(c.deviceId, { ...c, points: trim(points) });
    }
    curves.current = next;
    setCurveVersion((v) => v + 1);
  }, [serverCurves]);

  const onEvent = useCallback(
    (e: SiteEvent) => {
      if (e.type === 'reading') {
        const c = curves.current.get(e.deviceId);
        const v = e.values[c?.quantity ?? ''];
        if (c && typeof v === 'number') {
          const t = Date.parse(e.ts);
          if (Number.isFinite(t) && t > (c.points.at(-1)?.[0] ?? 0)) {
            c.points.push([t, v]);
            c.points = trim(c.points);
            redraw();
          }
        }
        // The site's device list shows newest values: patched in place, the refetch confirms them.
        if (devicesOf !== null && e.platformId === devicesOf)
          client.setQueryData<DeviceAndData[]>(bigScreenKeys.devices(devicesOf), (list) =>
            list?.map((d) =>
              d.deviceId === e.deviceId ? { ...d, values: { ...d.values, ...e.values }, lastReadingAt: e.ts } : d,
            ),
          );
      }
      refetch();
    },
    [client, devicesOf, redraw, refetch],
  );
  const { connected } = useSiteReadings(platformIds, onEvent);
  useEffect(
    () =>
      onSocketMessage((m) => {
        const type = typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : null;
        if (type === 'alert' || type === 'alertStatus') refetch();
      }),
    [refetch],
  );
  // After a reconnect: read everything again (events of the gap are lost).
  const wasConnected = useRef(false);
  const live = useSocketConnected();
  useEffect(() => {
    if (live && !wasConnected.current && screen.dataUpdatedAt > 0) refetch();
    wasConnected.current = live;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on a change of the connection
  }, [live]);

  return {
    data: screen.data as BigScreenData | undefined,
    updatedAt: screen.dataUpdatedAt,
    failed: screen.isError && !screen.data,
    devices: devices.data,
    connected,
    curves: curves.current,
    curveVersion,
  };
}

/** The sliding window: points within ALARM_CURVES_MINUTES of the newest, at most CURVE_MAX_POINTS. */
function trim(points: Array<[number, number]>): Array<[number, number]> {
  const newest = points.at(-1)?.[0] ?? 0;
  const from = newest - ALARM_CURVES_MINUTES * 60_000;
  let i = 0;
  while (i < points.length && points[i]![0] < from) i++;
  const start = Math.max(i, points.length - CURVE_MAX_POINTS);
  return start > 0 ? points.slice(start) : points;
}

/** A site's weather, refreshed every minute. */
export function useWeather(platformId: number | null) {
  return useQuery({
    queryKey: bigScreenKeys.weather(platformId),
    queryFn: () => call(dashboardRoutes.weather, { platformId: platformId ?? undefined }, quiet),
    refetchInterval: SAFETY_MS,
    refetchIntervalInBackground: true,
  }).data;
}
