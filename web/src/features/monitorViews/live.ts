import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import {
  DEVICE_STATES,
  quantitiesOf,
  type DeviceState,
  type PlatformType,
  type StateCounts,
  type ViewDevice,
  type ViewSite,
} from '@geosentry/contract';
import { useSiteReadings, type SiteEvent } from '../../shared/socket.ts';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchOverview, fetchViewSites, viewKeys } from './viewsApi.ts';

/** The control-room state colours (spec §4): normal green, alert orange, alarm red, abnormal purple, offline grey. */
export const STATE_COLORS: Record<DeviceState, string> = {
  normal: '#389e0d',
  alert: '#FF6600',
  alarm: '#CC0033',
  abnormal: '#722ed1',
  offline: '#8c8c8c',
};

/** The monitor screens share the chosen site with the data screens (same storage key). */
const STORE_KEY = 'monitor.platformId';

/**
 * The sites a view offers (of the given kinds, or all) and the chosen one: `?platformId=` wins, then the last
 * site chosen on any monitor screen (when it is of these kinds), then the first. Choosing writes both.
 */
export function useViewSite(kinds?: readonly PlatformType[]) {
  const q = useQuery({
    queryKey: viewKeys.sites,
    queryFn: fetchViewSites,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const kindKey = kinds === undefined ? null : kinds.join(',');
  const sites = useMemo<ViewSite[]>(
    () => (q.data ?? []).filter((s) => kindKey === null || kindKey.split(',').includes(s.type)),
    [q.data, kindKey],
  );
  const [search, setSearch] = useSearchParams();
  const fromUrl = Number(search.get('platformId'));
  const stored = Number(localStorage.getItem(STORE_KEY));
  const has = (id: number) => Number.isInteger(id) && id > 0 && sites.some((s) => s.platformId === id);
  // Without a choice, the first site of the first kind asked for (the reservoir view opens on a reservoir).
  const firstOfKind = kinds?.map((k) => sites.find((s) => s.type === k)).find((s) => s !== undefined);
  const platformId = has(fromUrl) ? fromUrl : has(stored) ? stored : (firstOfKind ?? sites[0])?.platformId;
  const setPlatformId = (id: number | undefined) => {
    if (id === undefined) localStorage.removeItem(STORE_KEY);
    else localStorage.setItem(STORE_KEY, String(id));
    setSearch(
      (p) => {
        const n = new URLSearchParams(p);
        if (id === undefined) n.delete('platformId');
        else n.set('platformId', String(id));
        n.delete('segmentId');
        return n;
      },
      { replace: true },
    );
  };
  return {
    sites,
    platformId,
    setPlatformId,
    loading: q.isLoading,
    site: sites.find((s) => s.platformId === platformId),
  };
}

type LivePatch = Pick<ViewDevice, 'lastValues' | 'lastReadingAt' | 'lastSeenAt' | 'state'>;

/**
 * A site overview kept current: the overview call, then readings and state changes from the socket merged
 * into the devices (values, times, states). Without a socket the overview is read again every 10 s.
 */
export function useSiteOverview(platformId: number | undefined) {
  const [connectedFlag, setConnectedFlag] = useState(false);
  const q = useQuery({
    queryKey: viewKeys.overview(platformId),
    queryFn: () => fetchOverview(platformId!),
    enabled: platformId !== undefined,
    retry: retryUnlessCancelled,
    refetchInterval: connectedFlag ? 120_000 : 10_000,
  });
  const [patches, setPatches] = useState<Map<number, Partial<LivePatch>>>(new Map());
  const [lastEventAt, setLastEventAt] = useState<number | null>(null);
  useEffect(() => setPatches(new Map()), [q.dataUpdatedAt, platformId]);

  const onEvent = useCallback((e: SiteEvent) => {
    setLastEventAt(Date.now());
    setPatches((m) => {
      const n = new Map(m);
      const cur = n.get(e.deviceId) ?? {};
      if (e.type === 'deviceState') n.set(e.deviceId, { ...cur, state: e.state });
      else {
        // An older reading (a logger catching up) does not replace newer values.
        if (cur.lastReadingAt && Date.parse(cur.lastReadingAt) > Date.parse(e.ts)) return m;
        n.set(e.deviceId, {
          ...cur,
          lastValues: { ...(cur.lastValues ?? {}), ...e.values },
          lastReadingAt: e.ts,
          lastSeenAt: new Date().toISOString(),
          ...(cur.state === 'offline' ? { state: 'normal' as const } : {}),
        });
      }
      return n;
    });
  }, []);
  const socket = useSiteReadings(platformId === undefined ? null : [platformId], onEvent);
  useEffect(() => setConnectedFlag(socket.connected), [socket.connected]);

  const devices = useMemo<ViewDevice[]>(
    () =>
      (q.data?.devices ?? []).map((d) => {
        const p = patches.get(d.deviceId);
        if (!p) return d;
        const newer =
          p.lastReadingAt && (!d.lastReadingAt || Date.parse(p.lastReadingAt) >= Date.parse(d.lastReadingAt));
        return {
          ...d,
          ...(newer
            ? {
                lastValues: { ...d.lastValues, ...p.lastValues },
                lastReadingAt: p.lastReadingAt ?? d.lastReadingAt,
                lastSeenAt: p.lastSeenAt ?? d.lastSeenAt,
                // A reading brings an offline device back (the server does the same).
                state: p.state ?? (d.state === 'offline' ? 'normal' : d.state),
              }
            : {}),
          ...(p.state ? { state: p.state } : {}),
        };
      }),
    [q.data, patches],
  );
  const stateCounts = useMemo(() => countStates(devices), [devices]);
  return { query: q, overview: q.data, devices, stateCounts, lastEventAt, ...socket };
}

export function countStates(devices: readonly { state: DeviceState }[]): StateCounts {
  const c = Object.fromEntries(DEVICE_STATES.map((s) => [s, 0])) as StateCounts;
  for (const d of devices) c[d.state] += 1;
  return c;
}

/** The quantities a device shows, main ones first: those of its type it reported, then any others it reported. */
export function shownQuantities(d: Pick<ViewDevice, 'moduleId' | 'lastValues'>, withCommon = false): string[] {
  const own = quantitiesOf(d.moduleId)
    .map((q) => q.key)
    .filter((k) => withCommon || (k !== 'battery' && k !== 'voltage'));
  const reported = Object.keys(d.lastValues);
  const extra = withCommon ? reported.filter((k) => !own.includes(k)) : [];
  return [...own.filter((k) => d.lastValues[k] !== undefined), ...extra];
}

/** The main quantity of a device: the first of its type that it reported, else the first of its type. */
export function mainQuantity(d: Pick<ViewDevice, 'moduleId' | 'lastValues'>): string | undefined {
  return shownQuantities(d)[0] ?? quantitiesOf(d.moduleId)[0]?.key;
}
