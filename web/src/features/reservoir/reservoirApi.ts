import type { z } from 'zod';
import { reservoirRoutes, sectionsRoutes, type comprehensiveQuery } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { getToken } from '../../shared/storage.ts';
import { currentLanguage } from '../../shared/i18n.ts';

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

/** Downloads the report file (GET with the token header), saved under the server's name; throws the envelope's info. */
export async function downloadComprehensive(p: ComprehensiveParams, format: 'xlsx' | 'pdf'): Promise<string> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...p, format })) if (v !== undefined && v !== '') q.set(k, String(v));
  const token = getToken();
  const res = await fetch(`${reservoirRoutes.getReportComprehensiveFile.path}?${q.toString()}`, {
    headers: { language: currentLanguage(), ...(token ? { token } : {}) },
  });
  const type = res.headers.get('content-type') ?? '';
  if (!res.ok || type.includes('application/json')) {
    const env = (await res.json().catch(() => null)) as { info?: string } | null;
    throw new Error(env?.info ?? res.statusText);
  }
  const blob = await res.blob();
  const name = /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `reservoir.${format}`;
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}
