// The monitorTypes feature's contract: the monitor type catalogue, modules per site, multi-module statistics.
import { z } from 'zod';
import { pageQuery, zInt, zIntList, zOptText, zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { optInt } from '../devices/fields.ts';
import { isMonitorTypeId, type MonitorType } from './catalogue.ts';

export * from './catalogue.ts';

/** A module id that exists in the catalogue. */
export const monitorTypeId = () => zInt().refine(isMonitorTypeId, { message: 'unknown monitor type' });

export const modulesOfPlatformQuery = z.object({ platformId: zInt() });
/** Binds one or more monitor types to a site (already bound ones are kept). */
export const bindModulesBody = z.object({
  platformId: zInt(),
  moduleId: zIntList().pipe(
    z.array(z.number().int().refine(isMonitorTypeId, { message: 'unknown monitor type' })).min(1),
  ),
});
export const unbindModuleBody = z.object({ platformId: zInt(), moduleId: monitorTypeId() });

/** A monitor type bound to a site, with how many of the site's devices are of that type. */
export interface PlatformModule extends MonitorType {
  deviceCount: number;
}

/** How a multi-module statistic combines the values of its devices. */
export const MULTI_STATISTICS_TYPES = ['compare', 'sum', 'avg', 'max', 'min', 'difference'] as const;
export type MultiStatisticsType = (typeof MULTI_STATISTICS_TYPES)[number];

const multiFields = {
  platformId: zInt(),
  multiName: zText(100),
  multiStatisticsType: z.enum(MULTI_STATISTICS_TYPES),
  /** Optional: the monitor type and quantity the statistic is about. */
  moduleId: optInt().refine((v) => v === undefined || isMonitorTypeId(v), { message: 'unknown monitor type' }),
  quantity: zOptText(64),
  /** Devices of the same site, in display order. */
  deviceIds: zIntList().pipe(z.array(z.number().int()).min(1).max(100)),
};
export const multiStatisticAddBody = z.object(multiFields);
export const multiStatisticEditBody = z.object({ sid: zInt(), ...multiFields });
export const multiStatisticSidBody = z.object({ sid: zInt() });
export const multiStatisticSidQuery = z.object({ sid: zInt() });
export const multiStatisticListQuery = pageQuery().extend({ platformId: optInt(), keyword: zOptText(100) });
export const multiStatisticNameQuery = z.object({ platformId: optInt() });

export interface MultiStatisticRow {
  sid: number;
  platformId: number;
  platformName: string;
  multiName: string;
  multiStatisticsType: MultiStatisticsType;
  moduleId: number | null;
  quantity: string | null;
  devices: { deviceId: number; deviceName: string; number: string; moduleId: number }[];
  createdAt: string;
}

const tags = ['monitorTypes'];
const M = '/api/v2/data/module';
export const monitorTypesRoutes = routeTable({
  getAllModules: {
    method: 'GET',
    path: `${M}/getAllModules`,
    permission: LOGIN,
    summary: 'The monitor type catalogue (module ids 1 to 37) with quantities and units',
    tags,
  },
  getModules: {
    method: 'GET',
    path: `${M}/getModules`,
    permission: LOGIN,
    summary: "Monitor types of one site in the caller's data scope, with device counts",
    tags,
    query: modulesOfPlatformQuery,
  },
  bindModules: {
    method: 'POST',
    path: `${M}/bindModules`,
    permission: perm('information:device'),
    summary: 'Bind monitor types to a site (moduleId: one id or a list)',
    tags,
    body: bindModulesBody,
  },
  unbindModule: {
    method: 'POST',
    path: `${M}/unbindModule`,
    permission: perm('information:device'),
    summary: 'Remove a monitor type from a site (refused while the site has devices of that type)',
    tags,
    body: unbindModuleBody,
  },
});

const MM = '/api/v2/data/module/multi';
export const multiStatisticsRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${MM}/getListPage`,
    permission: LOGIN,
    summary: "Multi-module statistics in the caller's data scope, paged",
    tags,
    query: multiStatisticListQuery,
  },
  names: {
    method: 'GET',
    path: `${MM}/getNameList`,
    permission: LOGIN,
    summary: 'Names and sids of multi-module statistics (for pickers)',
    tags,
    query: multiStatisticNameQuery,
  },
  get: {
    method: 'GET',
    path: `${MM}/getBySid`,
    permission: LOGIN,
    summary: 'One multi-module statistic with its devices',
    tags,
    query: multiStatisticSidQuery,
  },
  add: {
    method: 'POST',
    path: `${MM}/add`,
    permission: perm('information:device'),
    summary: 'Create a multi-module statistic from devices of one site',
    tags,
    body: multiStatisticAddBody,
  },
  edit: {
    method: 'POST',
    path: `${MM}/edit`,
    permission: perm('information:device'),
    summary: 'Edit a multi-module statistic',
    tags,
    body: multiStatisticEditBody,
  },
  delete: {
    method: 'POST',
    path: `${MM}/delete`,
    permission: perm('information:device'),
    summary: 'Delete a multi-module statistic',
    tags,
    body: multiStatisticSidBody,
  },
});
