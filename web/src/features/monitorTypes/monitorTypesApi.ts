import { monitorTypesRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { change } from '../../shared/query.ts';

export const moduleKeys = {
  all: ['site-modules'] as const,
  of: (platformId: number) => ['site-modules', platformId] as const,
};

export const fetchSiteModules = (platformId: number) => call(monitorTypesRoutes.getModules, { platformId });
export const bindModules = (platformId: number, moduleIds: number[]) =>
  call(monitorTypesRoutes.bindModules, { platformId, moduleId: moduleIds.join(',') }, change);
export const unbindModule = (platformId: number, moduleId: number) =>
  call(monitorTypesRoutes.unbindModule, { platformId, moduleId }, change);
