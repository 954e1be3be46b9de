import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PLATFORM_TYPES, platformsRoutes, type SelectableSite } from '@geosentry/contract';
import { call } from './api.ts';
import { picker, retryUnlessCancelled } from './query.ts';

export interface SiteOption {
  platformId: number;
  type: string;
  name: string;
  regionCode?: string | null;
  regionName?: string | null;
}

export const siteKeys = {
  all: ['selectable-sites'] as const,
};

/**
 * The sites the caller may pick: every site of the caller's data scope with its kind and region, by name, in
 * one server call any signed-in user may make (GET platform/getSelectable).
 */
export const fetchSelectableSites = (): Promise<SelectableSite[]> =>
  call(platformsRoutes.selectable, {}, { ...picker, silent: true });

/** Sites for pickers, grouped by kind, with a name lookup. */
export function useSiteOptions(enabled = true) {
  const { t } = useTranslation('monitorTypes');
  const q = useQuery({
    queryKey: siteKeys.all,
    queryFn: fetchSelectableSites,
    enabled,
    staleTime: 30_000,
    retry: retryUnlessCancelled,
  });
  const sites = useMemo((): SiteOption[] => q.data ?? [], [q.data]);
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
