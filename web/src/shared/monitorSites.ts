import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { devicesRoutes } from '@geosentry/contract';
import { call } from './api.ts';
import { retryUnlessCancelled } from './query.ts';
import { fetchSelectableSites } from './sites.ts';

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
  call(devicesRoutes.options, platformId ? { platformId } : {}, quiet);

/** The sites a monitoring user may pick: the sites of the caller's data scope, by one call (shared/sites.ts). */
async function fetchMonitorSites(): Promise<MonitorSite[]> {
  const sites = await fetchSelectableSites();
  return sites.map((s) => ({ platformId: s.platformId, name: s.name, type: s.type }));
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
