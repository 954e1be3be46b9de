// The monitorTypes feature's contract: the monitor type catalogue, modules per site, multi-module statistics.
import { z } from 'zod';
import { pageQuery, zInt, zIntList, zOptText, zPage, zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { optBool, optInt } from '../devices/fields.ts';
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

const labelsSchema = z.object({ en: z.string(), zh: z.string(), ko: z.string() });
/** A monitor type of the catalogue as answered (the shape of MonitorType). */
export const monitorTypeSchema = z.object({
  moduleId: z.number().int(),
  code: z.string(),
  label: labelsSchema,
  quantities: z
    .array(z.object({ key: z.string(), label: labelsSchema, unit: z.string(), accumulated: z.boolean().optional() }))
    .readonly(),
}) satisfies z.ZodType<MonitorType>;

/** A monitor type bound to a site, with how many of the site's devices are of that type. */
export const platformModuleSchema = monitorTypeSchema.extend({ deviceCount: z.number().int() });
export type PlatformModule = z.output<typeof platformModuleSchema>;

/**
 * The monitor types screen of a site: the catalogue with each type's binding to the site, paged, sorted and
 * filtered by the server. keyword: a type's name (any language), code, id or quantity; bound: only the types
 * bound to the site (or used by its devices), or only the others.
 */
export const siteMonitorTypeListQuery = pageQuery().extend({
  platformId: zInt(),
  keyword: zOptText(100),
  bound: optBool(),
});
/** Sort fields of that list; name sorts by the name in the caller's language; default moduleId. */
export const SITE_MONITOR_TYPE_SORT_FIELDS = ['moduleId', 'name', 'code', 'bound', 'deviceCount'] as const;
/** A monitor type of the catalogue with its binding to the site and how many of the site's devices are of it. */
export const siteMonitorTypeRowSchema = monitorTypeSchema.extend({ bound: z.boolean(), deviceCount: z.number().int() });
export type SiteMonitorTypeRow = z.output<typeof siteMonitorTypeRowSchema>;

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

export const multiStatisticRowSchema = z.object({
  sid: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  multiName: z.string(),
  multiStatisticsType: z.enum(MULTI_STATISTICS_TYPES),
  moduleId: z.number().int().nullable(),
  quantity: z.string().nullable(),
  devices: z.array(
    z.object({ deviceId: z.number().int(), deviceName: z.string(), number: z.string(), moduleId: z.number().int() }),
  ),
  createdAt: z.string(),
});
export type MultiStatisticRow = z.output<typeof multiStatisticRowSchema>;

const tags = ['monitorTypes'];
const M = '/api/v2/data/module';
export const monitorTypesRoutes = routeTable({
  getAllModules: {
    method: 'GET',
    path: `${M}/getAllModules`,
    permission: LOGIN,
    summary: 'The monitor type catalogue (module ids 1 to 37) with quantities and units',
    tags,
    response: z.array(monitorTypeSchema).readonly(),
  },
  getModules: {
    method: 'GET',
    path: `${M}/getModules`,
    permission: LOGIN,
    summary: "Monitor types of one site in the caller's data scope, with device counts",
    tags,
    query: modulesOfPlatformQuery,
    response: z.array(platformModuleSchema),
  },
  getModuleListPage: {
    method: 'GET',
    path: `${M}/getModuleListPage`,
    permission: perm('information:device'),
    summary: "The monitor type catalogue with each type's binding to a site of the caller's data scope, paged",
    tags,
    query: siteMonitorTypeListQuery,
    response: zPage(siteMonitorTypeRowSchema),
  },
  bindModules: {
    method: 'POST',
    path: `${M}/bindModules`,
    permission: perm('information:device'),
    summary: 'Bind monitor types to a site (moduleId: one id or a list)',
    tags,
    body: bindModulesBody,
    response: z.null(),
  },
  unbindModule: {
    method: 'POST',
    path: `${M}/unbindModule`,
    permission: perm('information:device'),
    summary: 'Remove a monitor type from a site (refused while the site has devices of that type)',
    tags,
    body: unbindModuleBody,
    response: z.null(),
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
    response: zPage(multiStatisticRowSchema),
  },
  names: {
    method: 'GET',
    path: `${MM}/getNameList`,
    permission: LOGIN,
    summary: 'Names and sids of multi-module statistics (for pickers)',
    tags,
    query: multiStatisticNameQuery,
    response: z.array(z.object({ sid: z.number().int(), multiName: z.string(), platformId: z.number().int() })),
  },
  get: {
    method: 'GET',
    path: `${MM}/getBySid`,
    permission: LOGIN,
    summary: 'One multi-module statistic with its devices',
    tags,
    query: multiStatisticSidQuery,
    response: multiStatisticRowSchema,
  },
  add: {
    method: 'POST',
    path: `${MM}/add`,
    permission: perm('information:device'),
    summary: 'Create a multi-module statistic from devices of one site',
    tags,
    body: multiStatisticAddBody,
    response: z.object({ sid: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${MM}/edit`,
    permission: perm('information:device'),
    summary: 'Edit a multi-module statistic',
    tags,
    body: multiStatisticEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${MM}/delete`,
    permission: perm('information:device'),
    summary: 'Delete a multi-module statistic',
    tags,
    body: multiStatisticSidBody,
    response: z.null(),
  },
});
