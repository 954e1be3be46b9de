// The threeD feature's contract (issue 21 item 6; spec §2 /dimensional: 3D and 3DManage, §6 threeDimensional:show
// and threeDimensional:manage). The spec shows no calls: they sit under /api/v2/data/threeD in its style.
import { z } from 'zod';
import { zInt } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { DEVICE_STATES } from '../devices/catalogue.ts';
import { fromJsonText } from '../platforms/fields.ts';
import { THREE_D_MAX_COORD, THREE_D_MAX_PLACEMENTS } from './catalogue.ts';

export * from './catalogue.ts';

const coord = (what: string) => z.number().finite().min(-THREE_D_MAX_COORD).max(THREE_D_MAX_COORD).describe(what);

export const threeDSiteQuery = z.object({ platformId: zInt().describe('The site') });
export const threeDModelFileQuery = z.object({
  platformId: zInt().describe('The site'),
  token: z.string().max(200).optional(),
  /** Changes with every upload, so a cached file is never stale. */
  v: z.string().max(40).optional(),
  /** `preview`: the model's lighter level of detail (see ThreeDModel.previewUrl) instead of the full model. */
  detail: z.enum(['full', 'preview']).optional().describe("'full' (default) or 'preview', the lighter level of detail"),
});
export const threeDPlacement = z.object({
  deviceId: z.number().int().positive(),
  x: coord('East-west, m (model coordinates)'),
  y: coord('Height, m (model coordinates, y up)'),
  z: coord('North-south, m (model coordinates)'),
});
export type ThreeDPlacement = z.output<typeof threeDPlacement>;
export const threeDSavePlacementsBody = z.object({
  platformId: zInt(),
  /** Every placed device of the site (a device left out is taken off the model); a JSON string in a form. */
  placements: z
    .preprocess(fromJsonText, z.array(threeDPlacement).max(THREE_D_MAX_PLACEMENTS))
    .describe('[{deviceId, x, y, z}]: every placed device of the site; devices left out are taken off the model'),
});
export const threeDDeviceQuery = z.object({ deviceId: zInt().describe('The device') });

export const threeDSiteSchema = z.object({
  platformId: z.number().int(),
  name: z.string(),
  type: z.string(),
  hasModel: z.boolean(),
});
export type ThreeDSite = z.output<typeof threeDSiteSchema>;

export const threeDModelSchema = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  triangles: z.number().int(),
  /** The model file (GLB): append `&token=`. */
  url: z.string(),
  /**
   * The same model simplified to about 60,000 triangles (null for models lighter than that): the viewer draws it
   * first, and while the camera moves; the full model at rest.
   */
  previewUrl: z.string().nullable(),
  updatedAt: z.string(),
});
export type ThreeDModel = z.output<typeof threeDModelSchema>;

export const threeDDeviceSchema = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  number: z.string(),
  moduleId: z.number().int(),
  state: z.enum(DEVICE_STATES),
  /** The highest level (1-4) of the device's alerts not yet processed; null when none. */
  alertLevel: z.number().int().nullable(),
  values: z.record(z.string(), z.number()),
  lastReadingAt: z.string().nullable(),
  /** Where it stands on the model; null when not placed yet. */
  placement: z.object({ x: z.number(), y: z.number(), z: z.number() }).nullable(),
});
export type ThreeDDevice = z.output<typeof threeDDeviceSchema>;

/** A 3D Tiles tileset: a folder under DATA_DIR/threeD/tilesets holding tileset.json and its content. */
export const threeDTilesetSchema = z.object({
  name: z.string(),
  /** Its tileset.json through the server (the token goes in the token header): content resolves beside it. */
  url: z.string(),
});
export type ThreeDTileset = z.output<typeof threeDTilesetSchema>;
export const THREE_D_TILESET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const threeDSetTilesetBody = z.object({
  platformId: zInt().describe('The site'),
  name: z
    .string()
    .trim()
    .max(100)
    .refine((v) => v === '' || THREE_D_TILESET_NAME.test(v), { params: { rule: 'tilesetName' } })
    .describe('A folder of DATA_DIR/threeD/tilesets (see getTilesets); empty: the site shows no tileset'),
});

export const threeDSceneSchema = z.object({
  platformId: z.number().int(),
  name: z.string(),
  model: threeDModelSchema.nullable(),
  /** The site's 3D Tiles tileset, drawn with (or instead of) the model; null when none. */
  tileset: threeDTilesetSchema.nullable(),
  devices: z.array(threeDDeviceSchema),
});
export type ThreeDScene = z.output<typeof threeDSceneSchema>;

export const threeDRecentSchema = z.object({
  deviceId: z.number().int(),
  /** Readings of the last hours, oldest first: time (ISO) and values. */
  points: z.array(z.object({ ts: z.string(), values: z.record(z.string(), z.number()) })),
});
export type ThreeDRecent = z.output<typeof threeDRecentSchema>;

export const threeDUploadAnswerSchema = threeDModelSchema;

const tags = ['threeD'];
const B = '/api/v2/data/threeD';
const SHOW = perm('threeDimensional:show', 'threeDimensional:manage');
const MANAGE = perm('threeDimensional:manage');
export const threeDRoutes = routeTable({
  sites: {
    method: 'GET',
    path: `${B}/getSites`,
    permission: SHOW,
    summary: "Sites of the caller's data scope that may have a 3D scene (not bridge or sideslope), by name",
    tags,
    response: z.array(threeDSiteSchema),
  },
  scene: {
    method: 'GET',
    path: `${B}/getScene`,
    permission: SHOW,
    summary: "A site's model and its devices with their state, newest values and place on the model",
    tags,
    query: threeDSiteQuery,
    response: threeDSceneSchema,
  },
  modelFile: {
    method: 'GET',
    path: `${B}/getModelFile`,
    permission: SHOW,
    summary:
      "The bytes of a site's model (model/gltf-binary; token may be in the query); detail=preview: its lighter level of detail",
    tags,
    query: threeDModelFileQuery,
    tokenInQuery: true,
  },
  recent: {
    method: 'GET',
    path: `${B}/getDeviceRecent`,
    permission: SHOW,
    summary: "A device's readings of the last 24 hours (at most 500, evenly thinned), for its chart",
    tags,
    query: threeDDeviceQuery,
    response: threeDRecentSchema,
  },
  uploadModel: {
    method: 'POST',
    path: `${B}/uploadModel`,
    permission: MANAGE,
    summary:
      "Upload a site's model (multipart/form-data: platformId, then one file of at most THREE_D_MAX_MODEL_MB): a .glb (glTF 2.0 binary), or an elevation model (.tif/.tiff GeoTIFF or .asc ESRI ASCII grid, in WGS-84 longitude and latitude) that becomes the site's terrain, draped with the offline map when one is configured, its devices with a map position placed on it. Replaces the site's model; other placements are kept",
    tags,
    response: threeDUploadAnswerSchema,
  },
  deleteModel: {
    method: 'POST',
    path: `${B}/deleteModel`,
    permission: MANAGE,
    summary: "Delete a site's model (its placements are kept for the next model)",
    tags,
    body: threeDSiteQuery,
    response: z.null(),
  },
  tilesets: {
    method: 'GET',
    path: `${B}/getTilesets`,
    permission: MANAGE,
    summary:
      'The 3D Tiles tilesets the operator put under DATA_DIR/threeD/tilesets (folders with a tileset.json), by name',
    tags,
    response: z.array(z.object({ name: z.string(), sites: z.number().int() })),
  },
  setTileset: {
    method: 'POST',
    path: `${B}/setTileset`,
    permission: MANAGE,
    summary: "Show a tileset of DATA_DIR/threeD/tilesets on a site's 3D view (an empty name removes it)",
    tags,
    body: threeDSetTilesetBody,
    response: z.null(),
  },
  tileFile: {
    method: 'GET',
    path: `${B}/tiles/:platformId/*`,
    permission: SHOW,
    summary:
      "A file of a site's tileset (tileset.json, b3dm/i3dm/pnts/cmpt/glb content, subtrees, textures) by its path in the tileset's folder, for the site's users only (token header)",
    tags,
  },
  savePlacements: {
    method: 'POST',
    path: `${B}/savePlacements`,
    permission: MANAGE,
    summary: "Set where the site's devices stand on its model (replaces every placement of the site)",
    tags,
    body: threeDSavePlacementsBody,
    response: z.null(),
  },
});
