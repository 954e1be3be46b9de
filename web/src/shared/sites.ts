import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  PLATFORM_TYPES,
  monitorViewsRoutes,
  permissionCodes,
  platformsRoutes,
  terminalsRoutes,
  type Page,
  type PlatformRow,
  type PlatformType,
} from '@geosentry/contract';
import { call, callUntyped, request } from './api.ts';
import { hasPermission, useSession } from './session.ts';
import { picker, retryUnlessCancelled } from './query.ts';

export interface SiteOption {
  platformId: number;
  type: string;
  name: string;
}

export const siteKeys = {
  all: ['equipment-sites'] as const,
};

/** Holding any of these keys allows the one call answering the sites of the caller's data scope. */
const SITE_LIST_CODES = permissionCodes(monitorViewsRoutes.platforms.permission);

/**
 * The sites the caller may pick: the sites of the caller's data scope with their kind, by one call the keys of
 * the screens with a site picker allow. Without such a key: each kind's list the caller may read
 * (information:platform:<type>, limited to the data scope), else every site (system:data), plus the sites of the
 * caller's terminals.
 */
async function fetchSites(codes: { scope: boolean; kinds: PlatformType[]; options: boolean; terminals: boolean }) {
  const found = new Map<number, SiteOption>();
  const add = (s: SiteOption) => {
    if (!found.has(s.platformId)) found.set(s.platformId, s);
  };
  const quiet = { ...picker, silent: true };
  if (codes.scope) {
    const sites = await call(monitorViewsRoutes.platforms, {}, quiet);
    return sites
      .map((s): SiteOption => ({ platformId: s.platformId, type: s.type, name: s.name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
  const lists = await Promise.allSettled(
    codes.kinds.map((type) =>
      request<Page<PlatformRow>>(
        'GET',
        platformsRoutes.list.path.replace(':type', type),
        { pageNum: 1, pageSize: 10000, sortField: 'name', sortOrder: 'ascend' },
        quiet,
      ),
    ),
  );
  for (const r of lists)
    if (r.status === 'fulfilled')
      for (const p of r.value.list) add({ platformId: p.platformId, type: p.type, name: p.name });
  if (found.size === 0 && codes.options) {
    const all = await callUntyped<SiteOption[]>(platformsRoutes.options, {}, quiet).catch(() => []);
    all.forEach(add);
  }
  if (codes.terminals) {
    const terminals = await call(terminalsRoutes.all, {}, quiet).catch(() => []);
    for (const t of terminals) add({ platformId: t.platformId, type: '', name: t.platformName });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Sites for pickers, grouped by kind, with a name lookup. */
export function useSiteOptions(enabled = true) {
  const session = useSession();
  const { t } = useTranslation('monitorTypes');
  const codes = useMemo(
    () => ({
      scope: SITE_LIST_CODES.some((code) => hasPermission(code, session)),
      kinds: PLATFORM_TYPES.filter((type) => hasPermission(`information:platform:${type}`, session)),
      options: hasPermission('system:data', session),
      terminals: hasPermission('information:terminal', session),
    }),
    [session],
  );
  const q = useQuery({
    queryKey: [...siteKeys.all, codes],
    queryFn: () => fetchSites(codes),
    enabled,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const sites = useMemo(() => q.data ?? [], [q.data]);
  const options = useMemo(() => {
    const byType = new Map<string, SiteOption[]>();
    for (const s of sites) byType.set(s.type, [...(byType.get(s.type) ?? []), s]);
    const order = (type: string) => {
      const i = (PLATFORM_TYPES as readonly string[]).indexOf(type);
      return i < 0 ? PLATFORM_TYPES.length : i;
    };
    return [...byType.entries()]
      .sort(([a], [b]) => order(a) - order(b))
      .map(([type, list]) => ({
        label: t(`siteTypes.${type || 'other'}`, { defaultValue: type || t('siteTypes.other') }),
        title: type || 'other',
        options: list.map((s) => ({ value: s.platformId, label: s.name })),
      }));
  }, [sites, t]);
  const names = useMemo(() => new Map(sites.map((s) => [s.platformId, s.name])), [sites]);
  return { sites, options, names, isLoading: q.isLoading, refetch: q.refetch };
}
