import { SITE_MONITOR_TYPE_SORT_FIELDS, monitorTypesRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { change } from '../../shared/query.ts';
import type { PagedParams } from '../../shared/table/serverTable.ts';

export { SITE_MONITOR_TYPE_SORT_FIELDS };

/** The monitor types list of a site as the page holds it (the site may be left to the page's default). */
export interface SiteTypeListParams extends PagedParams {
  platformId?: number | undefined;
  keyword?: string | undefined;
  bound?: boolean | undefined;
}

export const moduleKeys = {
  all: ['site-modules'] as const,
  of: (platformId: number) => ['site-modules', platformId] as const,
  list: (p: SiteTypeListParams & { platformId: number }) => ['site-modules', 'list', p] as const,
};

/** The catalogue with each type's binding to the site: paged, sorted and filtered on the server. */
export const fetchSiteTypeList = (p: SiteTypeListParams & { platformId: number }) =>
  call(monitorTypesRoutes.getModuleListPage, { ...p });

export const fetchSiteModules = (platformId: number) => call(monitorTypesRoutes.getModules, { platformId });
export const bindModules = (platformId: number, moduleIds: number[]) =>
  call(monitorTypesRoutes.bindModules, { platformId, moduleId: moduleIds.join(',') }, change);
export const unbindModule = (platformId: number, moduleId: number) =>
  call(monitorTypesRoutes.unbindModule, { platformId, moduleId }, change);
