import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { retryUnlessCancelled } from '../../shared/query.ts';
import { fetchSites, threeDKeys } from './threeDApi.ts';

/** The site a 3D screen shows: `?platformId=` in the URL, else the first site with a model, else the first. */
export function useSitePick() {
  const [params, setParams] = useSearchParams();
  const sites = useQuery({ queryKey: threeDKeys.sites, queryFn: fetchSites, retry: retryUnlessCancelled });
  const asked = Number(params.get('platformId'));
  const list = sites.data ?? [];
  const platformId =
    list.find((s) => s.platformId === asked)?.platformId ??
    list.find((s) => s.hasModel)?.platformId ??
    list[0]?.platformId;
  const pick = (id: number): void => {
    const next = new URLSearchParams(params);
    next.set('platformId', String(id));
    setParams(next, { replace: true });
  };
  return { sites, platformId, pick };
}
