import type { z } from 'zod';
import {
  PANORAMA_SORT_FIELDS,
  panoramaListQuery,
  panoramasRoutes,
  type HotspotInput,
  type PanoramaRow,
} from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { change } from '../../shared/query.ts';
import { getToken } from '../../shared/storage.ts';

export { PANORAMA_SORT_FIELDS };
export type PanoramaListParams = z.output<typeof panoramaListQuery>;

export const panoKeys = {
  all: ['panoramas'] as const,
  list: (p: PanoramaListParams) => ['panoramas', 'list', p] as const,
  ofSite: (platformId: number) => ['panoramas', 'site', platformId] as const,
  detail: (id: number) => ['panoramas', 'detail', id] as const,
};

export const fetchPanoramas = (p: PanoramaListParams) => call(panoramasRoutes.list, { ...p });
export const fetchSitePanoramas = (platformId: number) =>
  call(
    panoramasRoutes.list,
    { platformId, pageSize: 500, sortField: 'name', sortOrder: 'ascend' },
    { keepEarlier: true },
  );
export const fetchPanorama = (id: number) => call(panoramasRoutes.detail, { id });
export const renamePanorama = (id: number, name: string) => call(panoramasRoutes.edit, { id, name }, change);
export const deletePanorama = (id: number) => call(panoramasRoutes.delete, { id }, change);
export const saveHotspots = (id: number, hotspots: HotspotInput[]) =>
  call(panoramasRoutes.saveHotspots, { id, hotspots: JSON.stringify(hotspots) }, change);

/** A panorama image's address with the token in the query (a texture loader sends no headers). */
export function imageHref(row: Pick<PanoramaRow, 'url'>): string {
  const token = getToken();
  return token ? `${row.url}&token=${encodeURIComponent(token)}` : row.url;
}
export const fetchSiteDevices = (platformId: number) =>
  call(panoramasRoutes.devices, { platformId }, { keepEarlier: true });
