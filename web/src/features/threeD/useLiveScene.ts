import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ThreeDDevice, ThreeDScene } from '@geosentry/contract';
import { useSiteReadings, type SiteEvent } from '../../shared/socket.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchScene, threeDKeys } from './threeDApi.ts';

/** A live reading of one device, kept for its chart. */
export interface LivePoint {
  ts: string;
  values: Record<string, number>;
}

/**
 * A site's scene with its devices kept current from the session socket: a reading merges its values, a state
 * change sets the state (an alert level is re-read with the scene when the state changes to alert or alarm).
 */
export function useLiveScene(platformId: number | undefined) {
  const q = useQuery({
    queryKey: threeDKeys.scene(platformId ?? 0),
    queryFn: () => fetchScene(platformId!),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
  });
  const [devices, setDevices] = useState<ThreeDDevice[]>([]);
  const [live, setLive] = useState<Map<number, LivePoint[]>>(new Map());
  useEffect(() => {
    setDevices(q.data?.devices ?? []);
  }, [q.data]);
  useEffect(() => setLive(new Map()), [platformId]);
  const refetch = q.refetch;
  const onEvent = useCallback(
    (e: SiteEvent) => {
      if (e.type === 'deviceState') {
        setDevices((ds) => ds.map((d) => (d.deviceId === e.deviceId ? { ...d, state: e.state } : d)));
        if (e.state === 'alert' || e.state === 'alarm') void refetch();
        return;
      }
      setDevices((ds) =>
        ds.map((d) =>
          d.deviceId === e.deviceId ? { ...d, values: { ...d.values, ...e.values }, lastReadingAt: e.ts } : d,
        ),
      );
      setLive((m) =>
        new Map(m).set(e.deviceId, [...(m.get(e.deviceId) ?? []), { ts: e.ts, values: e.values }].slice(-200)),
      );
    },
    [refetch],
  );
  const socket = useSiteReadings(platformId !== undefined ? [platformId] : null, onEvent);
  const scene: ThreeDScene | undefined = q.data ? { ...q.data, devices } : undefined;
  return { query: q, scene, devices, live, socket };
}
