import { z } from 'zod';
import { zInt } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { optNumber } from '../platforms/fields.ts';
import { PLATFORM_TYPES } from '../platforms/kinds.ts';
import { DEVICE_STATES, type DeviceState } from '../devices/index.ts';
import { WATER_LEVEL_SOURCES, type CapacityRow, type UpstreamPoint } from '../sections/index.ts';

/**
 * The graphical monitor screens (spec §2 /monitor: platform displays, sketchMap, moduleMap, reservoirMap /
 * riverMap, segmentMap, MonitorStation): one site overview call, device placement on the site's schematic
 * picture and on the map, and everything the reservoir (dam section) view draws in one call.
 * These routes are not in the spec; they follow its style (GET with query, POST with a form body).
 */

/** Monitor types whose devices give a water level elevation, m (spec §1: 3, 11, 16). */
export const VIEW_WATER_LEVEL_MODULE_IDS: readonly number[] = [3, 11, 16];
/** Groundwater level (piezometer, m) and seepage pressure (kPa) devices draw the phreatic line. */
export const PIEZOMETER_MODULE_ID = 16;
export const SEEPAGE_PRESSURE_MODULE_ID = 17;
/** kPa per metre of water head. */
export const KPA_PER_METRE_WATER = 9.80665;

export const viewPlatformsQuery = z.object({
  type: z
    .preprocess((v) => (v === '' ? undefined : v), z.enum(PLATFORM_TYPES).optional())
    .describe('Sites of this kind'),
});
export const viewPlatformQuery = z.object({ platformId: zInt() });
export const viewSectionQuery = z.object({ platformId: zInt(), segmentId: zInt() });

/**
 * Place (or un-place) a device: the schematic position (both sketchX and sketchY, 0..1 of the picture from
 * the top left; needs monitor:sketchMap) and/or the map position (both lon and lat; needs monitor:moduleMap).
 * `clear` removes one of the two placements instead.
 */
export const updatePositionBody = z.object({
  deviceId: zInt(),
  sketchX: optNumber('Across the schematic picture, 0 (left) to 1 (right)', 0, 1),
  sketchY: optNumber('Down the schematic picture, 0 (top) to 1 (bottom)', 0, 1),
  lon: optNumber('Longitude, degrees, -180 to 180', -180, 180),
  lat: optNumber('Latitude, degrees, -90 to 90', -90, 90),
  clear: z
    .preprocess((v) => (v === '' ? undefined : v), z.enum(['sketch', 'map']).optional())
    .describe('Remove the schematic (sketch) or the map placement'),
});

export const viewSiteSchema = z.object({
  platformId: z.number().int(),
  type: z.enum(PLATFORM_TYPES),
  name: z.string(),
});
export type ViewSite = z.output<typeof viewSiteSchema>;

const deviceStateSchema = z.enum(DEVICE_STATES);
const optNum = z.number().nullable();

export const devicePositionSchema = z.object({
  deviceId: z.number().int(),
  sketchX: optNum,
  sketchY: optNum,
  lon: optNum,
  lat: optNum,
  updatedAt: z.string(),
});
export type DevicePosition = z.output<typeof devicePositionSchema>;

/** A device as the monitor screens show it: its newest values and its state. */
export const viewDeviceSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  number: z.string(),
  moduleId: z.number().int(),
  terminalId: z.number().int().nullable(),
  terminalName: z.string().nullable(),
  state: deviceStateSchema,
  lastSeenAt: z.string().nullable(),
  lastReadingAt: z.string().nullable(),
  /** The newest value of each quantity (see quantitiesOf(moduleId)). */
  lastValues: z.record(z.string(), z.number()),
  sketchX: optNum,
  sketchY: optNum,
  lon: optNum,
  lat: optNum,
});
export type ViewDevice = z.output<typeof viewDeviceSchema>;

export const viewTerminalSchema = z.object({
  terminalId: z.number().int(),
  name: z.string(),
  serial: z.string(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  protocolType: z.string(),
  /** Online when at least one of its devices is not offline. */
  online: z.boolean(),
  /** The newest last-seen time of its devices. */
  lastSeenAt: z.string().nullable(),
  deviceIds: z.array(z.number().int()),
});
export type ViewTerminal = z.output<typeof viewTerminalSchema>;

export const stateCountsSchema = z.record(deviceStateSchema, z.number().int());
export type StateCounts = Record<DeviceState, number>;

/** A site overview: the header, its devices (newest values, states, placements) and its terminals. */
export const siteOverviewSchema = z.object({
  platformId: z.number().int(),
  type: z.enum(PLATFORM_TYPES),
  name: z.string(),
  description: z.string().nullable(),
  manager: z.string().nullable(),
  regionNames: z.array(z.string()),
  lon: optNum,
  lat: optNum,
  /** Schematic pictures: file ids (GET /api/v2/file/getOriginalImage?file_id=&token=). */
  pictures: z.array(z.string()),
  /** The monitor types the site uses (bound types and types of its devices). */
  moduleIds: z.array(z.number().int()),
  stateCounts: stateCountsSchema,
  devices: z.array(viewDeviceSchema),
  terminals: z.array(viewTerminalSchema),
  /** Sections with their core-wall device ids. */
  sections: z.array(z.object({ segmentId: z.number().int(), name: z.string(), deviceIds: z.array(z.number().int()) })),
});
export type SiteOverview = z.output<typeof siteOverviewSchema>;

/** A point of the phreatic line: a core-wall piezometer or seepage-pressure device's water elevation. */
export const phreaticPointSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  moduleId: z.number().int(),
  state: deviceStateSchema,
  /** Water elevation, m: a piezometer's level, or for seepage pressure (initial level or bottom) + kPa / 9.80665. */
  level: optNum,
  /** The raw value it came from (m or kPa). */
  raw: optNum,
  ts: z.string().nullable(),
});
export type PhreaticPoint = z.output<typeof phreaticPointSchema>;

const upstreamPointOut: z.ZodType<UpstreamPoint> = z.object({
  x: z.number(),
  y: z.number(),
  elevation: z.number().optional(),
});
const capacityRowOut: z.ZodType<CapacityRow> = z.object({
  index: z.number().int(),
  waterLevelElevation: z.number(),
  waterVolume: z.number(),
});

/** What the reservoir (dam section) view draws. */
export const reservoirSectionViewSchema = z.object({
  segmentId: z.number().int(),
  platformId: z.number().int(),
  name: z.string(),
  info: z.string().nullable(),
  bottomElevation: optNum,
  upstreamCoords: z.array(upstreamPointOut),
  waterLevelSource: z.enum(WATER_LEVEL_SOURCES),
  /** The section's capacity table, or the site's when the section has none. */
  capacity: z.array(capacityRowOut),
  capacityOf: z.enum(['section', 'site']).nullable(),
  /**
   * The current water level: manual source, the manual level; auto, the newest level of the section's
   * water-level device (a core-wall device of types 3/11/16) or else of the site's first water-level device.
   */
  waterLevel: z.object({
    value: optNum,
    from: z.enum(['manual', 'device']).nullable(),
    deviceId: z.number().int().nullable(),
    deviceName: z.string().nullable(),
    ts: z.string().nullable(),
  }),
  /** The stored volume at the current level (10,000 m³), interpolated in the capacity table; null outside it. */
  volume: optNum,
  phreatic: z.array(phreaticPointSchema),
});
export type ReservoirSectionView = z.output<typeof reservoirSectionViewSchema>;

/**
 * The volume at a level by linear interpolation in a capacity table (rows in any order); null when the
 * table has fewer than 2 rows or the level lies outside it. An exact level answers its row's volume.
 */
export function volumeAt(rows: readonly CapacityRow[], level: number): number | null {
  const r = [...rows].sort((a, b) => a.waterLevelElevation - b.waterLevelElevation);
  if (r.length === 0) return null;
  if (r.length === 1) return r[0]!.waterLevelElevation === level ? r[0]!.waterVolume : null;
  if (level < r[0]!.waterLevelElevation || level > r[r.length - 1]!.waterLevelElevation) return null;
  for (let i = 1; i < r.length; i++) {
    const a = r[i - 1]!;
    const b = r[i]!;
    if (level <= b.waterLevelElevation) {
      const span = b.waterLevelElevation - a.waterLevelElevation;
      const f = span === 0 ? 0 : (level - a.waterLevelElevation) / span;
      return a.waterVolume + f * (b.waterVolume - a.waterVolume);
    }
  }
  return null;
}

const base = '/api/v2/data/monitor/view';
const tags = ['monitorViews'];
const monitor = perm('monitor');
export const monitorViewsRoutes = routeTable({
  platforms: {
    method: 'GET',
    path: `${base}/getPlatforms`,
    // Also allowed to the keys of screens with a site picker (alerts, report, rules, contact groups, information
    // screens), whose key need not hold a site kind; the web's pickers now ask platform/getSelectable instead.
    permission: perm(
      'monitor',
      'alert-predict:alert',
      'alert-predict:report',
      'alert-predict:alert-value',
      'alert-predict:alert-contract',
      'information:device',
      'information:commonDevice',
      'information:terminal',
      'information:responsible',
      'information:segment',
      'information:reservoirWater',
      'information:riverWater',
    ),
    summary: "Sites within the caller's data scope (optionally of one kind) for the site pickers of the screens",
    tags,
    query: viewPlatformsQuery,
    response: z.array(viewSiteSchema),
  },
  overview: {
    method: 'GET',
    path: `${base}/getOverview`,
    permission: monitor,
    summary:
      'A site overview: header, state counts, devices with newest values, states and placements, terminals with online status, sections with their core-wall devices',
    tags,
    query: viewPlatformQuery,
    response: siteOverviewSchema,
  },
  positions: {
    method: 'GET',
    path: `${base}/getPositions`,
    permission: monitor,
    summary: "The placements of a site's devices on its schematic picture (0..1) and on the map (lon/lat)",
    tags,
    query: viewPlatformQuery,
    response: z.array(devicePositionSchema),
  },
  updatePosition: {
    method: 'POST',
    path: `${base}/updatePosition`,
    permission: monitor,
    summary:
      'Place a device: sketchX+sketchY (0..1; needs monitor:sketchMap) and/or lon+lat (needs monitor:moduleMap); clear=sketch|map removes one',
    tags,
    body: updatePositionBody,
    response: z.null(),
  },
  reservoirSection: {
    method: 'GET',
    path: `${base}/reservoirSection`,
    permission: monitor,
    summary:
      'The dam section view in one call: upstream coordinates, bottom elevation, capacity table, current water level and stored volume, phreatic line points of the core-wall devices',
    tags,
    query: viewSectionQuery,
    response: reservoirSectionViewSchema,
  },
});
