import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { RealTimeDevice } from '@geosentry/contract';
import { useSiteReadings, type SiteEvent } from '../../../shared/socket.ts';
import { retryUnlessCancelled } from '../../../shared/query.ts';
import { fetchHistory, fetchRealTime, liveKeys } from '../monitorApi.ts';
import type { Point } from './point.ts';

/** Readings kept per device for the live charts. */
export const LIVE_POINTS = 60;

export interface LiveReading {
  ts: number;
  values: Record<string, number>;
}

/**
 * The newest values of a site's devices, kept current from the socket without refetching: a reading merges
 * its values into the device's row (and marks the changed cells to flash), a state change updates the state.
 * `live` holds the readings received since the screen opened (the last LIVE_POINTS per device).
 */
export function useLiveDevices(platformId: number | undefined, moduleId?: number) {
  const q = useQuery({
    queryKey: liveKeys.realtime(platformId, moduleId),
    queryFn: () => fetchRealTime(platformId!, moduleId),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const [rows, setRows] = useState<Map<number, RealTimeDevice>>(new Map());
  const [flash, setFlash] = useState<Map<string, number>>(new Map());
  const [live, setLive] = useState<Map<number, LiveReading[]>>(new Map());

  useEffect(() => {
    setRows(new Map((q.data ?? []).map((d) => [d.deviceId, d])));
  }, [q.data]);
  useEffect(() => {
    setLive(new Map());
    setFlash(new Map());
  }, [platformId]);

  const onEvent = useCallback((e: SiteEvent) => {
    if (e.type === 'deviceState') {
      setRows((m) => {
        const d = m.get(e.deviceId);
        if (!d) return m;
        const n = new Map(m);
        n.set(e.deviceId, { ...d, state: e.state, online: e.state !== 'offline' });
        return n;
      });
      setFlash((f) => new Map(f).set(`${e.deviceId}:state`, Date.now()));
      return;
    }
    const ts = Date.parse(e.ts);
    setRows((m) => {
      const d = m.get(e.deviceId);
      if (!d) return m;
      // An older reading (a logger catching up) does not replace newer values.
      if (d.lastReadingAt && Date.parse(d.lastReadingAt) > ts) return m;
      const n = new Map(m);
      n.set(e.deviceId, {
        ...d,
        values: { ...d.values, ...e.values },
        lastReadingAt: e.ts,
        lastSeenAt: e.ts,
        online: true,
        battery: e.values.battery ?? d.battery,
        voltage: e.values.voltage ?? d.voltage,
      });
      return n;
    });
    setFlash((f) => {
      const n = new Map(f);
      const now = Date.now();
      for (const k of Object.keys(e.values)) n.set(`${e.deviceId}:${k}`, now);
      n.set(`${e.deviceId}:time`, now);
      return n;
    });
    setLive((m) => {
      const n = new Map(m);
      const list = [...(n.get(e.deviceId) ?? []), { ts, values: e.values }].sort((a, b) => a.ts - b.ts);
      n.set(e.deviceId, list.slice(-LIVE_POINTS));
      return n;
    });
  }, []);

  const socket = useSiteReadings(platformId === undefined ? null : [platformId], onEvent);
  const list = useMemo(
    () =>
      [...rows.values()]
        .filter((d) => moduleId === undefined || d.moduleId === moduleId)
        .sort((a, b) => a.moduleId - b.moduleId || a.deviceName.localeCompare(b.deviceName)),
    [rows, moduleId],
  );
  return { query: q, devices: list, flash, live, ...socket };
}

/** The main quantity of a device (the first of its type that it has reported, else the first of its type). */
export function mainQuantity(d: RealTimeDevice): string | undefined {
  const keys = Object.keys(d.units);
  return keys.find((k) => d.values[k] !== undefined && k !== 'battery' && k !== 'voltage') ?? keys[0];
}

/**
 * The last readings of one quantity of a device: the last day's history (up to LIVE_POINTS, server-downsampled)
 * followed by the readings pushed since.
 */
export function useDeviceTrail(
  deviceId: number,
  quantity: string | undefined,
  live: readonly LiveReading[] | undefined,
  current?: { ts: string | null; values: Record<string, number> },
) {
  const h = useQuery({
    queryKey: liveKeys.history({ trail: deviceId, quantity }),
    queryFn: () =>
      fetchHistory(
        { deviceId, quantity, range: { kind: '24h' }, aggregation: 'original', maxPoints: LIVE_POINTS },
        true,
      ),
    enabled: quantity !== undefined,
    staleTime: 60_000,
    retry: retryUnlessCancelled,
  });
  return useMemo(() => {
    if (!quantity) return [] as Point[];
    const base: Point[] = (h.data?.devices[0]?.series.find((s) => s.quantity === quantity)?.points ?? []).map((p) => [
      Date.parse(p.ts),
      p.value,
    ]);
    const last = base.at(-1)?.[0] ?? -Infinity;
    const more: Point[] = (live ?? [])
      .filter((r) => r.ts > last && r.values[quantity] !== undefined)
      .map((r) => [r.ts, r.values[quantity]!]);
    const all = [...base, ...more];
    // The newest value of the row (it may be newer than the cached history and the pushes seen here).
    const at = current?.ts ? Date.parse(current.ts) : NaN;
    const v = current?.values[quantity];
    if (v !== undefined && Number.isFinite(at) && at > (all.at(-1)?.[0] ?? -Infinity)) all.push([at, v]);
    return all.slice(-LIVE_POINTS);
  }, [h.data, live, quantity, current?.ts, current?.values]);
}
