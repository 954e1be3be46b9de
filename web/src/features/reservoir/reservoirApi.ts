import type { z } from 'zod';
import { reservoirRoutes, sectionsRoutes, type comprehensiveQuery } from '@geosentry/contract';
import { call } from '../../shared/api.ts';

export { WATER_LIST_SORT_FIELDS } from '@geosentry/contract';
export interface WaterListParams {
  pageNum: number;
  pageSize: number;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
  platformId?: number | undefined;
  segmentId?: number | undefined;
}
export type ComprehensiveParams = Omit<z.input<typeof comprehensiveQuery>, 'format'>;

const change = { keepEarlier: true } as const;
export const reservoirKeys = {
  levels: (p: WaterListParams) => ['reservoir', 'levels', p] as const,
  sections: (platformId: number) => ['reservoir', 'sections', platformId] as const,
  report: (p: ComprehensiveParams) => ['reservoir', 'report', p] as const,
};

export const fetchSections = (platformId: number) =>
  call(sectionsRoutes.byPlatform, { platformId }, { keepEarlier: true });
export const fetchLevels = (p: WaterListParams) => call(reservoirRoutes.waterList, { ...p });
export const addLevel = (segmentId: number, time: string, elevation: number) =>
  call(reservoirRoutes.waterAdd, { segmentId, time, elevation }, change);
export const editLevel = (id: number, time: string, elevation: number) =>
  call(reservoirRoutes.waterEdit, { id, time, elevation }, change);
export const deleteLevel = (id: number) => call(reservoirRoutes.waterDelete, { id }, change);
export const fetchComprehensive = (p: ComprehensiveParams) =>
  call(reservoirRoutes.getReportComprehensiveInformation, { ...p }, { keepEarlier: true });
