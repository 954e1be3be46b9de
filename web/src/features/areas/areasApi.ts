import { areasRoutes, type ParsedPolygon } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { upload } from '../maps/index.ts';

export { AREA_SORT_FIELDS } from '@geosentry/contract';
export interface AreaListParams {
  pageNum: number;
  pageSize: number;
  sortField?: string | undefined;
  sortOrder?: 'ascend' | 'descend' | undefined;
  platformId?: number | undefined;
  name?: string | undefined;
}
const change = { keepEarlier: true } as const;
export const areaKeys = {
  list: (p: AreaListParams) => ['areas', 'list', p] as const,
  info: (id: number) => ['areas', 'info', id] as const,
};
export const fetchAreas = (p: AreaListParams) => call(areasRoutes.list, { ...p });
export const fetchArea = (id: number) => call(areasRoutes.info, { id }, change);
export interface AreaDraft {
  id?: number;
  platformId: number;
  name: string;
  description?: string;
  points: { lat: number; lon: number }[];
  rule: { steps: { level: number; count: number; makes: number }[] };
}
export const saveArea = (d: AreaDraft) => {
  const body = {
    platformId: d.platformId,
    name: d.name,
    description: d.description ?? '',
    points: JSON.stringify(d.points),
    rule: JSON.stringify(d.rule),
  };
  return d.id === undefined
    ? call(areasRoutes.add, body, { ...change, silent: true })
    : call(areasRoutes.edit, { ...body, id: d.id }, { ...change, silent: true });
};
export const deleteArea = (id: number) => call(areasRoutes.delete, { id }, change);
export const parseAreaFile = (file: File) => upload<ParsedPolygon[]>(areasRoutes.parseFile.path, file, {});
