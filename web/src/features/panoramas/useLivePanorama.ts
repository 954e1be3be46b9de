import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Hotspot } from '@geosentry/contract';
import { useSiteReadings, type SiteEvent } from '../../shared/socket.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchPanorama, panoKeys } from './panoramasApi.ts';

/** A panorama with its device hotspots kept current from the session socket (values and states). */
export function useLivePanorama(id: number | undefined) {
  const q = useQuery({
    queryKey: panoKeys.detail(id ?? 0),
    queryFn: () => fetchPanorama(id!),
    enabled: id !== undefined,
    retry: retryUnlessCancelled,
  });
  const [spots, setSpots] = useState<Hotspot[]>([]);
  useEffect(() => setSpots(q.data?.spots ?? []), [q.data]);
  const refetch = q.refetch;
  const onEvent = useCallback(
    (e: SiteEvent) => {
      setSpots((ss) =>
        ss.map((s) => {
          if (!s.device || s.device.deviceId !== e.deviceId) return s;
          return e.type === 'deviceState'
            ? { ...s, device: { ...s.device, state: e.state } }
            : { ...s, device: { ...s.device, values: { ...s.device.values, ...e.values }, lastReadingAt: e.ts } };
        }),
      );
      // A new alert's level comes with the panorama.
      if (e.type === 'deviceState' && (e.state === 'alert' || e.state === 'alarm')) void refetch();
    },
    [refetch],
  );
  const socket = useSiteReadings(q.data ? [q.data.platformId] : null, onEvent);
  return { query: q, spots, socket };
}
