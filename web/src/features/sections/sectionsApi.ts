import {
  RIVER_WATER_SORT_FIELDS,
  SECTION_SORT_FIELDS,
  sectionListQuery,
  sectionsRoutes,
  type CapacityRow,
  type UpstreamPoint,
  type WaterLevelSource,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';

export type SortOrder = 'ascend' | 'descend';
export type SectionSortField = (typeof SECTION_SORT_FIELDS)[number];

/** The list's paging, sort and filters, as the contract reads them. */
export type SectionListParams = {
  pageNum: number;
  pageSize: number;
  sortField?: SectionSortField | undefined;
  sortOrder?: SortOrder | undefined;
} & Partial<Pick<z.output<typeof sectionListQuery>, 'platformId' | 'keyword'>>;

export interface SectionFormValues {
  name: string;
  info?: string | undefined;
  bottomElevation?: number | null | undefined;
}

export { RIVER_WATER_SORT_FIELDS };

export interface RiverWaterListParams {
  pageNum: number;
  pageSize: number;
  sortField?: string | undefined;
  sortOrder?: SortOrder | undefined;
  platformId?: number | undefined;
  segmentId?: number | undefined;
  startTime?: string | undefined;
  endTime?: string | undefined;
}

export const sectionKeys = {
  all: ['sections'] as const,
  list: (p: SectionListParams) => ['sections', 'list', p] as const,
  ofSite: (platformId: number) => ['sections', 'site', platformId] as const,
  capacity: (platformId: number, segmentId: number | undefined) =>
    ['sections', 'capacity', platformId, segmentId ?? null] as const,
  heartWall: (segmentId: number) => ['sections', 'heartWall', segmentId] as const,
  riverWater: (p: RiverWaterListParams) => ['sections', 'riverWater', p] as const,
};

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;
const text = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);
const fields = (v: SectionFormValues) => ({
  name: v.name.trim(),
  info: text(v.info),
  bottomElevation: v.bottomElevation ?? undefined,
});

export const fetchSections = (p: SectionListParams) => call(sectionsRoutes.list, { ...p });
export const fetchSectionsOfSite = (platformId: number) =>
  call(sectionsRoutes.byPlatform, { platformId }, { keepEarlier: true });
export const addSection = (platformId: number, v: SectionFormValues) =>
  call(sectionsRoutes.add, { platformId, ...fields(v) }, change);
export const editSection = (segmentId: number, v: SectionFormValues) =>
  call(sectionsRoutes.edit, { segmentId, ...fields(v) }, change);
export const deleteSection = (segmentId: number) => call(sectionsRoutes.delete, { segmentId }, change);

/** Lists of objects travel as JSON text in one form field (the contract parses it). */
export const setUpstreamCoords = (segmentId: number, coords: UpstreamPoint[]) =>
  call(sectionsRoutes.setUpstreamCoords, { segmentId, coords: JSON.stringify(coords) }, change);
export const setWaterLevel = (segmentId: number, source: WaterLevelSource, level: number | undefined) =>
  call(sectionsRoutes.setWaterLevel, { segmentId, source, level: source === 'manual' ? level : undefined }, change);

export const fetchCapacity = (platformId: number, segmentId: number | undefined) =>
  call(sectionsRoutes.capacityList, { platformId, segmentId }, { keepEarlier: true });
export const saveCapacity = (platformId: number, segmentId: number | undefined, rows: CapacityRow[]) =>
  call(sectionsRoutes.setCapacityList, { platformId, segmentId, rows: JSON.stringify(rows) }, change);

export const fetchHeartWall = (segmentId: number) =>
  call(sectionsRoutes.heartWallDevices, { segmentId }, { keepEarlier: true });
export const bindHeartWall = (segmentId: number, deviceIds: number[]) =>
  call(sectionsRoutes.bindHeartWallMany, { segmentId, deviceIds }, change);
export const unbindHeartWall = (id: number) => call(sectionsRoutes.deleteHeartWall, { id }, change);

export const fetchRiverWater = (p: RiverWaterListParams) => call(sectionsRoutes.riverWaterList, { ...p });
export const addRiverWater = (segmentId: number, time: string, elevation: number) =>
  call(sectionsRoutes.riverWaterAdd, { segmentId, time, elevation }, change);
export const deleteRiverWater = (id: number) => call(sectionsRoutes.riverWaterDelete, { id }, change);
