import { z } from 'zod';
import { pageQuery, zInt, zIntList, zOptText, zPage, zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { fromJsonText, optId, optNumber, optText, pixelPoint, reqNumber } from '../platforms/fields.ts';
import { PLATFORM_TYPES } from '../platforms/kinds.ts';
import { DEVICE_STATES } from '../devices/index.ts';

/**
 * Sections (segments, spec §3 "Segment") of reservoirs, rivers, hazard points and slopes: the upstream-face
 * coordinates (pixels on the section drawing), the water level and its source, the capacity (storage)
 * table, core-wall ("heart wall") devices and, for rivers, manually entered water elevations.
 */

/** Monitor types (module ids) that measure water level (spec §1). */
export const SECTION_WATER_LEVEL_MODULE_IDS: readonly number[] = [3, 11, 16];
export const WATER_LEVEL_SOURCES = ['auto', 'manual'] as const;
export type WaterLevelSource = (typeof WATER_LEVEL_SOURCES)[number];
/** Spec §5, §9: at least 3 upstream-face coordinates. */
export const MIN_UPSTREAM_COORDS = 3;

const toInstant = (v: unknown): unknown => {
  if (v === '' || v === null) return undefined;
  if (typeof v === 'number') return new Date(v);
  if (typeof v === 'string') {
    const s = v.trim();
    return /^\d{10,}$/.test(s) ? new Date(Number(s)) : new Date(s.replace(' ', 'T'));
  }
  return v;
};
const instantHelp = (what: string): string => `${what}: ISO 8601, yyyy-MM-dd HH:mm:ss (server time) or epoch ms`;
/** An instant: ISO 8601, 'yyyy-MM-dd HH:mm:ss' or epoch milliseconds. */
const instant = (what: string) => z.preprocess(toInstant, z.date()).describe(instantHelp(what));
/** An optional instant; '' means not given. */
const optInstant = (what: string) => z.preprocess(toInstant, z.date().optional()).describe(instantHelp(what));

/** A point of the upstream face: pixels on the section drawing, with its elevation (m) when known. */
export const upstreamPoint = pixelPoint.extend({ elevation: optNumber('Elevation of this point, m') });
export type UpstreamPoint = z.output<typeof upstreamPoint>;

const sectionFields = {
  name: zText(100).describe('Name: unique within the site'),
  info: optText(2000, 'Information'),
  bottomElevation: optNumber('Bottom elevation, m'),
  fileId: optText(200, 'File id of the section drawing'),
};

export const sectionListQuery = pageQuery().extend({
  platformId: optId('Sections of this site'),
  keyword: zOptText(100),
});
export const SECTION_SORT_FIELDS = ['name', 'createdAt', 'platformName'] as const;
export const sectionPlatformQuery = z.object({ platformId: zInt() });
export const sectionIdQuery = z.object({ segmentId: zInt() });
export const sectionAddBody = z.object({ platformId: zInt(), ...sectionFields });
export const sectionEditBody = z.object({ segmentId: zInt(), ...sectionFields });
export const sectionIdBody = z.object({ segmentId: zInt() });
export const sectionPositionBody = z.object({ segmentId: zInt(), ...pixelPoint.shape });
export const sectionUpstreamBody = z.object({
  segmentId: zInt(),
  coords: z
    .preprocess(fromJsonText, z.array(upstreamPoint).max(500))
    .describe('Upstream-face points [{x, y, elevation?}] (a JSON string in a form); at least 3'),
});
export const sectionWaterLevelBody = z.object({
  segmentId: zInt(),
  source: z.enum(WATER_LEVEL_SOURCES),
  level: optNumber('Water level elevation, m (required for manual)'),
});

export const capacityRowSchema = z.object({
  index: reqNumber('Row number').pipe(z.number().int().min(0)),
  waterLevelElevation: reqNumber('Water level elevation, m'),
  waterVolume: reqNumber('Water volume, 10,000 m³', 0),
});
export type CapacityRow = z.output<typeof capacityRowSchema>;
export const capacityQuery = z.object({
  platformId: zInt(),
  segmentId: optId('A section of the site; left out for the site-level table'),
});
export const capacitySetBody = z.object({
  platformId: zInt(),
  segmentId: optId('A section of the site; left out for the site-level table'),
  rows: z
    .preprocess(
      (v) => (v === undefined || v === null || v === '' ? [] : fromJsonText(v)),
      z.array(capacityRowSchema).max(5000),
    )
    .describe('The whole table (replaces the stored one); a JSON string in a form'),
});

export const heartWallBindBody = z.object({ segmentId: zInt(), deviceId: zInt() });
export const heartWallBindManyBody = z.object({ segmentId: zInt(), deviceIds: zIntList() });
export const heartWallIdBody = z.object({ id: zInt() });

export const segmentWaterDeviceQuery = pageQuery().extend({
  segmentId: optId("Water-level devices of this section's site"),
  platformId: optId('Water-level devices of this site'),
});
export const SEGMENT_WATER_DEVICE_SORT_FIELDS = ['deviceName', 'number', 'platformName', 'lastReadingAt'] as const;

export const riverWaterListQuery = pageQuery().extend({
  platformId: optId('Readings of this river'),
  segmentId: optId('Readings of this section'),
  startTime: optInstant('From'),
  endTime: optInstant('To'),
});
/** Sort fields of the river water list; without one it is sorted by time, newest first unless sortOrder=ascend. */
export const RIVER_WATER_SORT_FIELDS = ['time', 'platformName', 'segmentName', 'elevation', 'createdAt'] as const;
export const riverWaterAddBody = z.object({
  segmentId: zInt(),
  time: instant('Time of the reading'),
  elevation: reqNumber('Water elevation, m'),
});
export const riverWaterIdBody = z.object({ id: zInt() });

/** Output shapes: what the server answers (strict types, no form conversion). */
const upstreamPointOut = z.object({ x: z.number(), y: z.number(), elevation: z.number().optional() });
const ts = z.string();

export const sectionRowSchema = z.object({
  segmentId: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  platformType: z.enum(PLATFORM_TYPES),
  name: z.string(),
  info: z.string().nullable(),
  bottomElevation: z.number().nullable(),
  upstreamCoords: z.array(upstreamPointOut),
  waterLevelSource: z.enum(WATER_LEVEL_SOURCES),
  manualWaterLevel: z.number().nullable(),
  fileId: z.string().nullable(),
  /** Where the section sits on the site's schematic, in pixels. */
  position: z.object({ x: z.number(), y: z.number() }).nullable(),
  createdAt: ts,
  updatedAt: ts,
});
export type SectionRow = z.output<typeof sectionRowSchema>;

export const heartWallBindingSchema = z.object({
  id: z.number().int(),
  segmentId: z.number().int(),
  deviceId: z.number().int(),
  createdAt: ts,
});
export type HeartWallBinding = z.output<typeof heartWallBindingSchema>;

/** A device of a section's site, as listed by getModuleAndDeviceBySegmentId. */
export const segmentDeviceSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  number: z.string(),
  state: z.enum(DEVICE_STATES),
  /** The id of its core-wall binding to this section, null when it is not bound. */
  heartWallBindingId: z.number().int().nullable(),
});
export type SegmentDevice = z.output<typeof segmentDeviceSchema>;

/** One monitor type of a section's site with its devices (getModuleAndDeviceBySegmentId). */
export const segmentModuleDevicesSchema = z.object({
  moduleId: z.number().int(),
  /** The monitor type's name in the caller's language (language header). */
  moduleName: z.string(),
  devices: z.array(segmentDeviceSchema),
});
export type SegmentModuleDevices = z.output<typeof segmentModuleDevicesSchema>;

const sectionRef = z.object({ segmentId: z.number().int(), name: z.string() });
/** A water-level device (monitor types 3, 11, 16) with what it is bound to (getSegmentWaterDeviceListPage). */
export const segmentWaterDeviceSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  number: z.string(),
  moduleId: z.number().int(),
  moduleName: z.string(),
  platformId: z.number().int(),
  platformName: z.string(),
  terminalId: z.number().int().nullable(),
  terminalName: z.string().nullable(),
  state: z.enum(DEVICE_STATES),
  lastReadingAt: ts.nullable(),
  /** The newest water level it reported, m. */
  lastWaterLevel: z.number().nullable(),
  /** The sections of its site whose water level comes from the devices automatically. */
  autoSections: z.array(sectionRef),
  /** The sections this device is bound to as a core-wall device. */
  heartWallSections: z.array(sectionRef),
});
export type SegmentWaterDevice = z.output<typeof segmentWaterDeviceSchema>;

export const riverWaterElevationRowSchema = z.object({
  id: z.number().int(),
  segmentId: z.number().int(),
  segmentName: z.string(),
  platformId: z.number().int(),
  platformName: z.string(),
  time: ts,
  elevation: z.number(),
  createdAt: ts,
});
export type RiverWaterElevationRow = z.output<typeof riverWaterElevationRowSchema>;

/** A capacity table as answered. */
const capacityRowOut = z.object({ index: z.number().int(), waterLevelElevation: z.number(), waterVolume: z.number() });

const base = '/api/v2/data/information/segment';
const tags = ['sections'];
const segmentPerm = perm('information:segment');
const reservoirWater = perm('information:reservoirWater');
const riverWater = perm('information:riverWater');
export const sectionsRoutes = routeTable({
  byPlatform: {
    method: 'GET',
    path: `${base}/getByPlatformId`,
    permission: LOGIN,
    summary: "The sections of a site within the caller's data scope",
    tags,
    query: sectionPlatformQuery,
    response: z.array(sectionRowSchema),
  },
  list: {
    method: 'GET',
    path: `${base}/getListPage`,
    permission: segmentPerm,
    summary:
      "Sections of the sites within the caller's data scope, paged; platformId, keyword; sortField name|createdAt|platformName",
    tags,
    query: sectionListQuery,
    response: zPage(sectionRowSchema),
  },
  add: {
    method: 'POST',
    path: `${base}/add`,
    permission: segmentPerm,
    summary: 'Add a section to a reservoir, river, hazard point or slope',
    tags,
    body: sectionAddBody,
    response: z.object({ segmentId: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${base}/edit`,
    permission: segmentPerm,
    summary: 'Edit a section',
    tags,
    body: sectionEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${base}/delete`,
    permission: segmentPerm,
    summary: 'Delete a section with its capacity table, core-wall bindings and water elevations',
    tags,
    body: sectionIdBody,
    response: z.null(),
  },
  updatePosition: {
    method: 'POST',
    path: `${base}/updatePosition`,
    permission: segmentPerm,
    summary: "Place a section on the site's schematic (pixels)",
    tags,
    body: sectionPositionBody,
    response: z.null(),
  },
  setUpstreamCoords: {
    method: 'POST',
    path: `${base}/setUpstreamCoords`,
    permission: segmentPerm,
    summary: 'Set the upstream-face (dam section) coordinates: at least 3 points',
    tags,
    body: sectionUpstreamBody,
    response: z.null(),
  },
  setWaterLevel: {
    method: 'POST',
    path: `${base}/setWaterLevel`,
    permission: reservoirWater,
    summary:
      'Set the water level source: auto needs a water-level device on the site; manual takes a level between the bottom elevation and the highest upstream point',
    tags,
    body: sectionWaterLevelBody,
    response: z.null(),
  },
  capacityList: {
    method: 'GET',
    path: `${base}/getCapacityList`,
    permission: LOGIN,
    summary: 'The capacity (storage) table of a site or one of its sections',
    tags,
    query: capacityQuery,
    response: z.array(capacityRowOut),
  },
  reservoirCapacityList: {
    method: 'GET',
    path: '/api/v2/data/reservoir/getCapacityList',
    permission: LOGIN,
    summary: "The capacity (storage) table of a site or one of its sections (the spec's path)",
    tags,
    query: capacityQuery,
    response: z.array(capacityRowOut),
  },
  setCapacityList: {
    method: 'POST',
    path: `${base}/setCapacityList`,
    permission: reservoirWater,
    summary: 'Replace the capacity table: volumes must not fall as the level rises',
    tags,
    body: capacitySetBody,
    response: z.null(),
  },
  heartWallDevices: {
    method: 'GET',
    path: `${base}/getHeartWallDevice`,
    permission: LOGIN,
    summary: 'The core-wall devices of a section',
    tags,
    query: sectionIdQuery,
    response: z.array(heartWallBindingSchema),
  },
  bindHeartWall: {
    method: 'POST',
    path: `${base}/bindHeartWallDevice`,
    permission: segmentPerm,
    summary: "Bind a device of the section's site as a core-wall device",
    tags,
    body: heartWallBindBody,
    response: z.null(),
  },
  bindHeartWallMany: {
    method: 'POST',
    path: `${base}/bindMiltiHeartWallDevice`,
    permission: segmentPerm,
    summary: "Bind several devices of the section's site as core-wall devices (all or none)",
    tags,
    body: heartWallBindManyBody,
    response: z.null(),
  },
  deleteHeartWall: {
    method: 'POST',
    path: `${base}/deleteHeartWallDevice`,
    permission: segmentPerm,
    summary: 'Remove a core-wall binding (by its id)',
    tags,
    body: heartWallIdBody,
    response: z.null(),
  },
  moduleAndDevices: {
    method: 'GET',
    path: `${base}/getModuleAndDeviceBySegmentId`,
    permission: LOGIN,
    summary:
      "The devices of a section's site grouped by monitor type (names in the caller's language), with their core-wall binding to the section",
    tags,
    query: sectionIdQuery,
    response: z.array(segmentModuleDevicesSchema),
  },
  waterDevices: {
    method: 'GET',
    path: `${base}/getSegmentWaterDeviceListPage`,
    permission: LOGIN,
    summary:
      "Water-level devices (monitor types 3, 11, 16) of a section's site, of a site, or of every site in the caller's data scope, paged, with terminal, site and section bindings; sortField deviceName|number|platformName|lastReadingAt",
    tags,
    query: segmentWaterDeviceQuery,
    response: zPage(segmentWaterDeviceSchema),
  },
  riverWaterList: {
    method: 'GET',
    path: `${base}/getRiverWaterElevationList`,
    permission: riverWater,
    summary: 'Manually entered river water elevations, paged, filtered and sorted (default: time, newest first)',
    tags,
    query: riverWaterListQuery,
    response: zPage(riverWaterElevationRowSchema),
  },
  riverWaterAdd: {
    method: 'POST',
    path: `${base}/addRiverWaterElevation`,
    permission: riverWater,
    summary: 'Enter a river water elevation for a section of a river',
    tags,
    body: riverWaterAddBody,
    response: z.object({ id: z.number().int() }),
  },
  riverWaterDelete: {
    method: 'POST',
    path: `${base}/deleteRiverWaterElevation`,
    permission: riverWater,
    summary: 'Delete a river water elevation',
    tags,
    body: riverWaterIdBody,
    response: z.null(),
  },
});
