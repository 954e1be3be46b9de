import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { devicesRoutes, monitorViewsRoutes, type DeviceOption } from '@geosentry/contract';
import { call, callUntyped } from './api.ts';
import { retryUnlessCancelled } from './query.ts';

const quiet = { keepEarlier: true, silent: true } as const;

export const monitorKeys = {
  sites: ['monitor', 'sites'] as const,
  devices: (platformId: number | undefined) => ['monitor', 'devices', platformId ?? null] as const,
};

export interface MonitorSite {
  platformId: number;
  name: string;
  type: string;
}

/** Devices of the caller's data scope for pickers (any signed-in user), optionally of one site. */
export const fetchMonitorDevices = (platformId?: number) =>
  callUntyped<DeviceOption[]>(devicesRoutes.options, platformId ? { platformId } : {}, quiet);

/**
 * The sites a monitoring user may pick: the monitor screens' site list (monitor permission, data scope), joined
 * with the sites of the devices the caller sees (so a site is offered even where the first call is missing).
 */
async function fetchMonitorSites(): Promise<MonitorSite[]> {
  const [views, devices] = await Promise.allSettled([
    call(monitorViewsRoutes.platforms, {}, quiet),
    fetchMonitorDevices(),
  ]);
  const found = new Map<number, MonitorSite>();
  if (views.status === 'fulfilled' && Array.isArray(views.value))
    for (const s of views.value) found.set(s.platformId, { platformId: s.platformId, name: s.name, type: s.type });
  if (devices.status === 'fulfilled')
    for (const d of devices.value)
      if (d.platformId && !found.has(d.platformId))
        found.set(d.platformId, { platformId: d.platformId, name: d.platformName, type: '' });
  if (views.status === 'rejected' && devices.status === 'rejected') throw devices.reason;
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function useMonitorSites() {
  const q = useQuery({
    queryKey: monitorKeys.sites,
    queryFn: fetchMonitorSites,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const sites = useMemo(() => q.data ?? [], [q.data]);
  return { sites, isLoading: q.isLoading, error: q.error };
}

export function useSiteDevices(platformId: number | undefined) {
  return useQuery({
    queryKey: monitorKeys.devices(platformId),
    queryFn: () => fetchMonitorDevices(platformId),
    enabled: platformId !== undefined,
    staleTime: 15_000,
    retry: retryUnlessCancelled,
  });
}

const STORE_KEY = 'monitor.platformId';

/**
 * The site a data screen shows: `?platformId=` in the address wins, then the last site chosen on any data
 * screen, then the first site. Choosing a site writes both.
 */
export function useChosenSite(sites: readonly MonitorSite[]): [number | undefined, (id: number | undefined) => void] {
  const [search, setSearch] = useSearchParams();
  const fromUrl = Number(search.get('platformId'));
  const stored = Number(localStorage.getItem(STORE_KEY));
  const has = (id: number) => Number.isInteger(id) && id > 0 && sites.some((s) => s.platformId === id);
  const chosen = has(fromUrl) ? fromUrl : has(stored) ? stored : sites[0]?.platformId;
  const set = (id: number | undefined) => {
    if (id === undefined) localStorage.removeItem(STORE_KEY);
    else localStorage.setItem(STORE_KEY, String(id));
    setSearch(
      (p) => {
        const n = new URLSearchParams(p);
        if (id === undefined) n.delete('platformId');
        else n.set('platformId', String(id));
        return n;
      },
      { replace: true },
    );
  };
  return [chosen, set];
}
