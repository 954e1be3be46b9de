import { monitorViewsRoutes, sectionsRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';

/** Reads that several views may ask at the same moment: none cancels another. */
const read = { keepEarlier: true } as const;

export const viewKeys = {
  sites: ['monitorViews', 'sites'] as const,
  overview: (platformId: number | undefined) => ['monitorViews', 'overview', platformId ?? null] as const,
  sections: (platformId: number | undefined) => ['monitorViews', 'sections', platformId ?? null] as const,
  reservoir: (platformId: number | undefined, segmentId: number | undefined) =>
    ['monitorViews', 'reservoir', platformId ?? null, segmentId ?? null] as const,
};

export const fetchViewSites = () => call(monitorViewsRoutes.platforms, {}, read);
export const fetchOverview = (platformId: number) => call(monitorViewsRoutes.overview, { platformId }, read);
export const fetchSections = (platformId: number) => call(sectionsRoutes.byPlatform, { platformId }, read);
export const fetchReservoirSection = (platformId: number, segmentId: number) =>
  call(monitorViewsRoutes.reservoirSection, { platformId, segmentId }, read);

export type PlacementChange =
  | { deviceId: number; sketchX: number; sketchY: number }
  | { deviceId: number; lon: number; lat: number }
  | { deviceId: number; clear: 'sketch' | 'map' };

/** Saves a placement; several devices may be moved one after another (none cancels another). */
export const savePlacement = (p: PlacementChange) =>
  call(monitorViewsRoutes.updatePosition, { ...p }, { keepEarlier: true });

/** The address of a site picture for <img> (the token travels in the query, spec §7). */
export function pictureUrl(fileId: string): string {
  const token = getToken() ?? '';
  return `/api/v2/file/getOriginalImage?file_id=${encodeURIComponent(fileId)}&token=${encodeURIComponent(token)}`;
}
