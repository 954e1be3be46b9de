// The panoramas feature's contract (issue 21 item 7; spec §2: the hidden /vr panorama route). The spec shows no
// calls: they sit under /api/v2/data/vr in its style. The route's permission is the 3D one (§6 lists none for it):
// threeDimensional:show to look, threeDimensional:manage to upload and place hotspots.
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { DEVICE_STATES } from '../devices/catalogue.ts';
import { fromJsonText, optId } from '../platforms/fields.ts';
import { HOTSPOT_KINDS, PANORAMA_MAX_HOTSPOTS } from './catalogue.ts';

export * from './catalogue.ts';

export const PANORAMA_SORT_FIELDS = ['name', 'platformName', 'createdAt'] as const;
export const panoramaListQuery = pageQuery(10).extend({
  platformId: optId('Panoramas of this site'),
  keyword: zOptText(100),
});
export const panoramaIdQuery = z.object({ id: zInt() });
export const panoramaImageQuery = z.object({
  id: zInt(),
  token: z.string().max(200).optional(),
  v: z.string().max(40).optional(),
});
export const panoramaEditBody = z.object({ id: zInt(), name: zText(100) });

export const hotspotInput = z
  .object({
    kind: z.enum(HOTSPOT_KINDS),
    /** Degrees: 0 = the image's centre, positive to the right. */
    yaw: z.number().finite().min(-180).max(180),
    /** Degrees: 0 = horizon, positive up. */
    pitch: z.number().finite().min(-90).max(90),
    deviceId: z.number().int().positive().optional(),
    targetId: z.number().int().positive().optional(),
    label: z.string().trim().max(100).optional(),
  })
  .refine((h) => (h.kind === 'device' ? h.deviceId !== undefined : h.targetId !== undefined), {
    message: 'a device hotspot needs deviceId, a link needs targetId',
  });
export type HotspotInput = z.output<typeof hotspotInput>;
export const panoramaSaveHotspotsBody = z.object({
  id: zInt(),
  hotspots: z
    .preprocess(fromJsonText, z.array(hotspotInput).max(PANORAMA_MAX_HOTSPOTS))
    .describe('[{kind: device|link, yaw, pitch, deviceId | targetId, label?}]: replaces every hotspot'),
});

export const panoramaRowSchema = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  name: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int(),
  hotspots: z.number().int(),
  /** The image: append `&token=`. */
  url: z.string(),
  createdAt: z.string(),
});
export type PanoramaRow = z.output<typeof panoramaRowSchema>;

export const hotspotSchema = z.object({
  id: z.number().int(),
  kind: z.enum(HOTSPOT_KINDS),
  yaw: z.number(),
  pitch: z.number(),
  label: z.string().nullable(),
  /** A device hotspot: the device with its state, alert level and newest values. */
  device: z
    .object({
      deviceId: z.number().int(),
      deviceName: z.string(),
      moduleId: z.number().int(),
      state: z.enum(DEVICE_STATES),
      alertLevel: z.number().int().nullable(),
      values: z.record(z.string(), z.number()),
      lastReadingAt: z.string().nullable(),
    })
    .nullable(),
  /** A link: the panorama it leads to. */
  target: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type Hotspot = z.output<typeof hotspotSchema>;

export const panoramaDetailSchema = panoramaRowSchema.extend({ spots: z.array(hotspotSchema) });
export type PanoramaDetail = z.output<typeof panoramaDetailSchema>;

const tags = ['panoramas'];
const B = '/api/v2/data/vr';
const SHOW = perm('threeDimensional:show', 'threeDimensional:manage');
const MANAGE = perm('threeDimensional:manage');
export const panoramasRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${B}/getListPage`,
    permission: SHOW,
    summary:
      "Panoramas of the sites in the caller's data scope, paged (default 10); filters platformId, keyword; sortField name|platformName|createdAt",
    tags,
    query: panoramaListQuery,
    response: zPage(panoramaRowSchema),
  },
  detail: {
    method: 'GET',
    path: `${B}/getDetail`,
    permission: SHOW,
    summary: 'A panorama with its hotspots: devices with their state and newest values, links to other panoramas',
    tags,
    query: panoramaIdQuery,
    response: panoramaDetailSchema,
  },
  image: {
    method: 'GET',
    path: `${B}/getImage`,
    permission: SHOW,
    summary: "A panorama's image (token may be in the query)",
    tags,
    query: panoramaImageQuery,
    tokenInQuery: true,
  },
  upload: {
    method: 'POST',
    path: `${B}/upload`,
    permission: MANAGE,
    summary:
      'Upload a panorama (multipart/form-data: platformId, name, then one equirectangular .jpg or .png whose width is twice its height)',
    tags,
    response: panoramaRowSchema,
  },
  edit: {
    method: 'POST',
    path: `${B}/edit`,
    permission: MANAGE,
    summary: 'Rename a panorama',
    tags,
    body: panoramaEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${B}/delete`,
    permission: MANAGE,
    summary: 'Delete a panorama (links to it from other panoramas go with it)',
    tags,
    body: panoramaIdQuery,
    response: z.null(),
  },
  devices: {
    method: 'GET',
    path: `${B}/getDevices`,
    permission: MANAGE,
    summary: "The devices of a site in the caller's data scope that hotspots may show, by name",
    tags,
    query: z.object({ platformId: zInt() }),
    response: z.array(z.object({ deviceId: z.number().int(), deviceName: z.string(), moduleId: z.number().int() })),
  },
  saveHotspots: {
    method: 'POST',
    path: `${B}/saveHotspots`,
    permission: MANAGE,
    summary:
      "Set a panorama's hotspots (replaces them all): devices of the panorama's site, links to other panoramas of the site",
    tags,
    body: panoramaSaveHotspotsBody,
    response: z.null(),
  },
});
