import { monitorTypesRoutes, type PlatformModule } from '@geosentry/contract';
import { callUntyped } from '../../shared/api.ts';
import { change } from '../../shared/query.ts';

export const moduleKeys = {
  all: ['site-modules'] as const,
  of: (platformId: number) => ['site-modules', platformId] as const,
};

export const fetchSiteModules = (platformId: number) =>
  callUntyped<PlatformModule[]>(monitorTypesRoutes.getModules, { platformId });
export const bindModules = (platformId: number, moduleIds: number[]) =>
  callUntyped<null>(monitorTypesRoutes.bindModules, { platformId, moduleId: moduleIds.join(',') }, change);
export const unbindModule = (platformId: number, moduleId: number) =>
  callUntyped<null>(monitorTypesRoutes.unbindModule, { platformId, moduleId }, change);
