// The maps contract (issue 21; spec §3 Map config, §9 map types): the system's map configuration, offline tile
// sets served from the server's data folder, and KML/KMZ/GeoJSON layers of a site or of the system map.
// Calls the spec does not show live under /api/v2/data/map/... in its style.
import { z } from 'zod';
import { zInt, zNum, zOptText, zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { MAP_MODES, MAP_TYPES, TIANDITU_LAYERS } from './providers.ts';

export * from './coords.ts';
export * from './providers.ts';

/**
 * Who edits the map configuration, imports tile sets and system map layers, and reads the provider keys: the
 * holders of the System group ('system', the system role keys of spec §6).
 */
export const MAP_SYSTEM_PERMISSION = 'system';

export const TILE_SET_FORMATS = ['pmtiles', 'mbtiles', 'xyz'] as const;
export type TileSetFormat = (typeof TILE_SET_FORMATS)[number];
export const TILE_IMAGE_TYPES = ['png', 'jpg', 'webp'] as const;
export const LAYER_FORMATS = ['kml', 'kmz', 'geojson'] as const;
export type LayerFormat = (typeof LAYER_FORMATS)[number];

export const MAP_LIMITS = {
  /** A tile set upload (PMTiles, MBTiles, or a zip of an XYZ folder). */
  maxTileSetBytes: 512 * 1024 * 1024,
  /** A KML, KMZ or GeoJSON upload. */
  maxLayerBytes: 10 * 1024 * 1024,
  /** Features of one layer. */
  maxFeatures: 20_000,
  maxZoom: 22,
  keyChars: 200,
} as const;

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const opt = <T extends z.ZodType>(s: T) => z.preprocess((v) => (blank(v) ? undefined : v), s.optional());
export const zLat = () => zNum().pipe(z.number().min(-90).max(90));
export const zLon = () => zNum().pipe(z.number().min(-180).max(180));
const zoom = () => zInt().pipe(z.number().int().min(1).max(MAP_LIMITS.maxZoom));
/** A provider key: letters, digits and - _ . only (it is put in a URL). '' clears it. */
const key = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z
      .string()
      .max(MAP_LIMITS.keyChars)
      .regex(/^[A-Za-z0-9._-]*$/)
      .optional(),
  );

// ------------------------------------------------------------------------------------------------ answers
export const tileSetSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Whose tiles they are (their projection and tile scheme): a Web Mercator provider or Baidu. */
  provider: z.enum(MAP_TYPES),
  format: z.enum(TILE_SET_FORMATS),
  imageType: z.enum(TILE_IMAGE_TYPES),
  minZoom: z.number().int(),
  maxZoom: z.number().int(),
  tiles: z.number().int(),
  bytes: z.number(),
  createdAt: z.string(),
});
export type TileSet = z.output<typeof tileSetSchema>;

/** What every map of the console reads (no secrets). */
export const mapConfigSchema = z.object({
  type: z.enum(MAP_TYPES),
  mode: z.enum(MAP_MODES),
  center: z.object({ lat: z.number(), lon: z.number() }),
  zoom: z.number().int(),
  /** The tile set shown offline (null: the coordinate grid only). */
  tileSet: tileSetSchema.nullable(),
  /** Whether a Tianditu key is set (its tiles then come through the server). */
  tiandituReady: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type MapConfig = z.output<typeof mapConfigSchema>;

/** The configuration with the provider keys: holders of the system permission only. */
export const mapSettingsSchema = mapConfigSchema.extend({
  keys: z.object({ tianditu: z.string(), amap: z.string(), baidu: z.string(), google: z.string() }),
});
export type MapSettings = z.output<typeof mapSettingsSchema>;

export const mapSettingsBody = z.object({
  type: z.enum(MAP_TYPES),
  mode: z.enum(MAP_MODES),
  centerLat: zLat(),
  centerLon: zLon(),
  zoom: zoom(),
  tileSetId: opt(zInt()),
  tiandituKey: key(),
  amapKey: key(),
  baiduKey: key(),
  googleKey: key(),
});

export const tileQuery = z.object({
  set: zInt(),
  z: zInt().pipe(z.number().int().min(0).max(MAP_LIMITS.maxZoom)),
  x: zInt(),
  y: zInt(),
  token: z.string().max(200).optional(),
});
export const tiandituQuery = z.object({
  layer: z.enum(TIANDITU_LAYERS),
  z: zInt().pipe(z.number().int().min(1).max(18)),
  x: zInt().pipe(z.number().int().min(0)),
  y: zInt().pipe(z.number().int().min(0)),
  token: z.string().max(200).optional(),
});
/** The multipart fields of a tile set upload (besides the file). */
export const tileSetUploadFields = z.object({ name: zText(100), provider: z.enum(MAP_TYPES) });
export const mapIdBody = z.object({ id: zInt() });

export const layerStyleSchema = z.object({
  color: z.string().nullable(),
  weight: z.number().nullable(),
  fillColor: z.string().nullable(),
  fillOpacity: z.number().nullable(),
  opacity: z.number().nullable(),
});
export const layerRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  platformId: z.number().int().nullable(),
  platformName: z.string().nullable(),
  format: z.enum(LAYER_FORMATS),
  points: z.number().int(),
  lines: z.number().int(),
  polygons: z.number().int(),
  createdAt: z.string(),
});
export type MapLayerRow = z.output<typeof layerRowSchema>;
/** A GeoJSON FeatureCollection in WGS-84; each feature's properties carry name and style. */
export const featureCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      geometry: z.object({ type: z.string(), coordinates: z.unknown() }).loose(),
      properties: z.object({ name: z.string().nullable(), style: layerStyleSchema }).loose(),
    }),
  ),
});
export type MapFeatureCollection = z.output<typeof featureCollectionSchema>;
export const layerSchema = layerRowSchema.extend({ data: featureCollectionSchema });
export type MapLayer = z.output<typeof layerSchema>;
export const layerListQuery = z.object({ platformId: opt(zInt()) });
/** The multipart fields of a layer import (besides the file: .kml, .kmz, .geojson or .json). */
export const layerUploadFields = z.object({
  name: zOptText(100),
  platformId: z.preprocess((v) => (blank(v) ? undefined : v), zInt().pipe(z.number().int().positive()).optional()),
});

const tags = ['maps'];
const M = '/api/v2/data/map';
const SYSTEM = perm(MAP_SYSTEM_PERMISSION);
export const mapsRoutes = routeTable({
  getConfig: {
    method: 'GET',
    path: `${M}/getConfig`,
    permission: LOGIN,
    summary: 'The map configuration every map of the console uses (type, online or offline, centre, zoom, tile set)',
    tags,
    response: mapConfigSchema,
  },
  getSettings: {
    method: 'GET',
    path: `${M}/getSettings`,
    permission: SYSTEM,
    summary: 'The map configuration with the provider keys (system permission)',
    tags,
    response: mapSettingsSchema,
  },
  setSettings: {
    method: 'POST',
    path: `${M}/setSettings`,
    permission: SYSTEM,
    summary:
      'Set the map configuration: type (tianditu, baidu, amap, google, kml), online or offline, default centre (lat, lon) and zoom, the offline tile set, provider keys (omitted: unchanged; empty: cleared)',
    tags,
    body: mapSettingsBody,
    response: mapSettingsSchema,
  },
  tileSetList: {
    method: 'GET',
    path: `${M}/tileSet/getList`,
    permission: SYSTEM,
    summary: 'The offline tile sets imported into the server',
    tags,
    response: z.array(tileSetSchema),
  },
  tileSetUpload: {
    method: 'POST',
    path: `${M}/tileSet/upload`,
    permission: SYSTEM,
    summary:
      'Import an offline tile set (multipart: file = a .pmtiles, .mbtiles, or .zip of an XYZ folder z/x/y.png; name; provider): checked by content',
    tags,
    response: tileSetSchema,
  },
  tileSetDelete: {
    method: 'POST',
    path: `${M}/tileSet/delete`,
    permission: SYSTEM,
    summary: 'Delete an offline tile set (not the one the configuration uses)',
    tags,
    body: mapIdBody,
    response: z.null(),
  },
  tile: {
    method: 'GET',
    path: `${M}/tile`,
    permission: LOGIN,
    summary: 'One tile of an offline tile set (z/x/y in the set provider’s scheme); the token may be a query parameter',
    tags,
    query: tileQuery,
    tokenInQuery: true,
  },
  tianditu: {
    method: 'GET',
    path: `${M}/online/tianditu`,
    permission: LOGIN,
    summary: 'One Tianditu tile fetched by the server with the configured key (the key never reaches the browser)',
    tags,
    query: tiandituQuery,
    tokenInQuery: true,
  },
  layerList: {
    method: 'GET',
    path: `${M}/layer/getList`,
    permission: LOGIN,
    summary: 'Map layers of a site (platformId, in the data scope) or of the system map (no platformId)',
    tags,
    query: layerListQuery,
    response: z.array(layerRowSchema),
  },
  layerGet: {
    method: 'GET',
    path: `${M}/layer/getInfo`,
    permission: LOGIN,
    summary: 'A map layer with its features (GeoJSON, WGS-84) and their names and styles',
    tags,
    query: mapIdBody,
    response: layerSchema,
  },
  layerImport: {
    method: 'POST',
    path: `${M}/layer/import`,
    permission: perm(MAP_SYSTEM_PERMISSION, 'monitor:moduleMap'),
    summary:
      'Import a KML, KMZ or GeoJSON file as a layer (multipart: file, name, platformId; without platformId a system map layer, system permission)',
    tags,
    response: layerRowSchema,
  },
  layerDelete: {
    method: 'POST',
    path: `${M}/layer/delete`,
    permission: perm(MAP_SYSTEM_PERMISSION, 'monitor:moduleMap'),
    summary: 'Delete a map layer',
    tags,
    body: mapIdBody,
    response: z.null(),
  },
});
