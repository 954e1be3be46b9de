// Area monitoring (issue 21; spec §2 /areasmos: myareasmos (area:monitor), areasmosmanage (area:manage)). An area is
// a polygon of a site drawn on the map or imported (KML, GeoJSON); its devices are the site's devices inside it
// (decided on the server), its state follows them by a configurable rule. Calls under /api/v2/data/area/...
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { DEVICE_STATES } from '../devices/index.ts';

export * from './geometry.ts';

export const AREA_LIMITS = {
  maxPoints: 2000,
  maxSteps: 10,
  maxCount: 100_000,
  maxFileBytes: 10 * 1024 * 1024,
} as const;
/** Area levels: 0 normal, 1 to 4 blue, yellow, orange, red (the alert levels). */
export const AREA_LEVELS = [0, 1, 2, 3, 4] as const;

/** One step of an area's rule: when at least `count` devices are at `level` or above, the area is at least `makes`. */
export const ruleStepSchema = z.object({
  level: z.number().int().min(1).max(4),
  count: z.number().int().min(1).max(AREA_LIMITS.maxCount),
  makes: z.number().int().min(1).max(4),
});
export type AreaRuleStep = z.output<typeof ruleStepSchema>;
export const areaRuleSchema = z.object({ steps: z.array(ruleStepSchema).max(AREA_LIMITS.maxSteps) });
export type AreaRule = z.output<typeof areaRuleSchema>;
/** The default rule: 3 blue make yellow, 2 yellow make orange, 2 orange make red. */
export const DEFAULT_AREA_RULE: AreaRule = {
  steps: [
    { level: 1, count: 3, makes: 2 },
    { level: 2, count: 2, makes: 3 },
    { level: 3, count: 2, makes: 4 },
  ],
};

/**
 * An area's level from its devices' levels (0 normal .. 4 red): the highest device level, raised by every step
 * whose count of devices at its level or above is reached; applied until nothing changes (steps may chain).
 */
export function areaLevel(deviceLevels: readonly number[], rule: AreaRule): number {
  let level = deviceLevels.reduce((m, l) => Math.max(m, l), 0);
  for (let changed = true; changed;) {
    changed = false;
    for (const s of rule.steps) {
      if (s.makes <= level) continue;
      if (deviceLevels.filter((l) => l >= s.level).length >= s.count) {
        level = s.makes;
        changed = true;
      }
    }
  }
  return level;
}

const parseJson = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};
const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
/** A point in lat, lon (spec §5), range-checked. */
export const areaPointSchema = z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) });
export type AreaPoint = z.output<typeof areaPointSchema>;
/** The polygon: a JSON array of {lat, lon} (a string in a form), 3 to 2000 points, closed implicitly. */
const zPoints = () =>
  z.preprocess(parseJson, z.array(areaPointSchema).min(3).max(AREA_LIMITS.maxPoints)).describe('[{lat, lon}, ...]');

export const areaBody = z.object({
  platformId: zInt(),
  name: zText(100),
  description: zOptText(500),
  points: zPoints(),
  /** JSON {steps: [{level, count, makes}]}; omitted: the default rule. */
  rule: z.preprocess((v) => (blank(v) ? undefined : parseJson(v)), areaRuleSchema.optional()),
});
export const areaEditBody = areaBody.extend({ id: zInt() });
export const areaIdQuery = z.object({ id: zInt() });
export const AREA_SORT_FIELDS = ['name', 'platformName', 'level', 'devices', 'updatedAt'] as const;
export const areaListQuery = pageQuery(20).extend({
  platformId: z.preprocess((v) => (blank(v) ? undefined : v), zInt().optional()),
  name: zOptText(100),
});

export const areaRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  platformId: z.number().int(),
  platformName: z.string(),
  level: z.number().int(),
  devices: z.number().int(),
  /** Devices with an open alert. */
  alerting: z.number().int(),
  updatedAt: z.string(),
});
export type AreaRow = z.output<typeof areaRowSchema>;
export const areaDeviceSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  number: z.string(),
  moduleId: z.number().int(),
  lat: z.number(),
  lon: z.number(),
  state: z.enum(DEVICE_STATES),
  /** The highest level of its open alerts (0: none). */
  level: z.number().int(),
});
export type AreaDevice = z.output<typeof areaDeviceSchema>;
export const areaAlertSchema = z.object({
  id: z.number().int(),
  deviceId: z.number().int(),
  deviceName: z.string(),
  level: z.number().int(),
  status: z.string(),
  quantity: z.string().nullable(),
  lastValue: z.number().nullable(),
  lastAt: z.string(),
});
export type AreaAlert = z.output<typeof areaAlertSchema>;
export const areaInfoSchema = areaRowSchema.extend({
  points: z.array(areaPointSchema),
  rule: areaRuleSchema,
  deviceList: z.array(areaDeviceSchema),
  alerts: z.array(areaAlertSchema),
  /** Site devices without a map position (they cannot be placed in or out). */
  unplaced: z.number().int(),
});
export type AreaInfo = z.output<typeof areaInfoSchema>;
export const parsedPolygonSchema = z.object({ name: z.string().nullable(), points: z.array(areaPointSchema) });
export type ParsedPolygon = z.output<typeof parsedPolygonSchema>;

const tags = ['areas'];
const A = '/api/v2/data/area';
const READ = perm('area:monitor', 'area:manage');
const MANAGE = perm('area:manage');
export const areasRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${A}/getListPage`,
    permission: READ,
    summary: 'Monitored areas of the sites in the data scope with their state, paged, filtered and sorted',
    tags,
    query: areaListQuery,
    response: zPage(areaRowSchema),
  },
  info: {
    method: 'GET',
    path: `${A}/getInfo`,
    permission: READ,
    summary: 'An area: its polygon, rule, state, the devices inside it and their open alerts',
    tags,
    query: areaIdQuery,
    response: areaInfoSchema,
  },
  add: {
    method: 'POST',
    path: `${A}/add`,
    permission: MANAGE,
    summary: 'Add an area of a site: name, polygon as [{lat, lon}] (not crossing itself), rule',
    tags,
    body: areaBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${A}/edit`,
    permission: MANAGE,
    summary: 'Change an area (name, polygon, rule)',
    tags,
    body: areaEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${A}/delete`,
    permission: MANAGE,
    summary: 'Delete an area',
    tags,
    body: z.object({ id: zInt() }),
    response: z.null(),
  },
  parseFile: {
    method: 'POST',
    path: `${A}/parseFile`,
    permission: MANAGE,
    summary: 'Read the polygons of a KML, KMZ or GeoJSON file (multipart: file) to draw an area from; nothing is saved',
    tags,
    response: z.array(parsedPolygonSchema),
  },
});
