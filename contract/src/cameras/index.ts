// The cameras feature's contract: camera groups (levels 1 to 3), cameras (spec §3 Camera), role camera
// configuration (§6), live view streams behind the session (§2 realtimecamera, §5 concurrency limit), PTZ over
// ONVIF (§9 speeds fast, middle, slow), camera tasks and snapshots (§2 cameraTask). The spec shows no camera
// calls: they are designed under /api/v2/data/camera/... in the spec's style.
import { z } from 'zod';
import { pageQuery, textToInt, zInt, zIntList, zOptText, zPage, zText } from '../api/zod.ts';
import { PUBLIC, perm, routeTable } from '../api/routes.ts';
import { optChoice, optDate, optFlag, optId, optNumber, optText } from '../platforms/fields.ts';
import {
  CAMERA_CHANNEL_MAX,
  CAMERA_CHANNEL_MIN,
  CAMERA_GROUP_MAX_LEVEL,
  CAMERA_TYPES,
  CAMERA_VENDORS,
  PTZ_DIRECTIONS,
  PTZ_SPEEDS,
  CAMERA_TASK_KINDS,
  RECORDING_MAX_SEC,
  RECORDING_MIN_SEC,
  SNAPSHOT_MEDIA,
  SNAPSHOT_SOURCES,
} from './catalogue.ts';

export * from './catalogue.ts';

const blank = (v: unknown): unknown => (v === '' || v === null ? undefined : v);

/** An IPv4 or IPv6 address (spec §5: IP must be valid). */
export const cameraIp = z
  .string()
  .trim()
  .pipe(z.union([z.ipv4(), z.ipv6()]));

/** An rtsp:// (or rtsps://) address with a host and no credentials in it (they are the camera's VM user and password). */
export const isRtspUrl = (v: string): boolean => {
  if (v.length > 500 || /\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'rtsp:' || u.protocol === 'rtsps:') && u.hostname !== '' && !u.username && !u.password;
  } catch {
    return false;
  }
};
/** An http(s) address (an ONVIF device service). */
export const isHttpUrl = (v: string): boolean => {
  if (v.length > 500 || /\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.username && !u.password;
  } catch {
    return false;
  }
};

const optRtsp = z
  .preprocess(
    blank,
    z.string().trim().refine(isRtspUrl, { message: 'rtsp://host[:port]/path, without user or password' }).optional(),
  )
  .describe(
    'RTSP address of the main stream (rtsp://host:port/path); built from the vendor, IP and channel if left out',
  );
const optSubRtsp = z
  .preprocess(
    blank,
    z.string().trim().refine(isRtspUrl, { message: 'rtsp://host[:port]/path, without user or password' }).optional(),
  )
  .describe(
    'RTSP address of the sub stream (a smaller picture, played in the 9 and 16 tile grids); Hikvision, Dahua and ' +
      'Uniview cameras without one use their vendor sub stream path, other cameras without one their main stream',
  );
const optOnvif = z
  .preprocess(blank, z.string().trim().refine(isHttpUrl, { message: 'http://host[:port]/path' }).optional())
  .describe('ONVIF device service address (http://ip/onvif/device_service); needed for PTZ');

export const cameraGroupAddBody = z.object({
  name: zText(50).describe('Group name'),
  parentId: optId('The parent group (none: a level 1 group); the new group is one level below it, at most level 3'),
  sort: optNumber('Order among its siblings', 0, 100000),
});
export const cameraGroupEditBody = z.object({
  id: zInt(),
  name: zText(50).describe('Group name'),
  sort: optNumber('Order among its siblings', 0, 100000),
});
export const cameraIdBody = z.object({ id: zInt() });

export interface CameraGroupNode {
  id: number;
  parentId: number | null;
  name: string;
  level: number;
  sort: number;
  /** Cameras the caller sees in this group alone (not below). */
  cameraCount: number;
  children: CameraGroupNode[];
}
export const cameraGroupNodeSchema: z.ZodType<CameraGroupNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    parentId: z.number().int().nullable(),
    name: z.string(),
    level: z.number().int().min(1).max(CAMERA_GROUP_MAX_LEVEL),
    sort: z.number(),
    cameraCount: z.number().int(),
    children: z.array(cameraGroupNodeSchema),
  }),
);

const cameraFields = {
  groupId: zInt().describe('The camera group'),
  platformId: zInt().describe('The site the camera watches'),
  name: zText(100).describe('Camera name'),
  serialNumber: zText(64).describe('Serial number'),
  channel: zInt()
    .pipe(z.number().min(CAMERA_CHANNEL_MIN).max(CAMERA_CHANNEL_MAX))
    .describe('Channel of the recorder or camera, 1 to 16'),
  type: z.enum(CAMERA_TYPES).describe('Camera type'),
  vendor: z.enum(CAMERA_VENDORS).describe('Vendor'),
  vmCode: optText(64, 'VM code (the video platform code)'),
  vmUser: z
    .preprocess(
      blank,
      z
        .string()
        .trim()
        .max(64)
        // RTSP (Basic and Digest) and ONVIF logins split "user:password" at the first colon.
        .refine((v) => !v.includes(':'), { params: { rule: 'vmUser' } })
        .optional(),
    )
    .describe('VM user (the camera login; no colon, which camera logins cannot carry)'),
  vmPassword: z
    .preprocess(blank, z.string().max(128).optional())
    .describe('VM password: stored encrypted, never answered; left out on edit keeps the stored one'),
  ip: cameraIp.describe('IP address of the camera or recorder'),
  rtspUrl: optRtsp,
  subRtspUrl: optSubRtsp,
  onvifUrl: optOnvif,
  ptz: optFlag('Pan, tilt and zoom over ONVIF'),
  lon: optNumber('Longitude, degrees', -180, 180),
  lat: optNumber('Latitude, degrees', -90, 90),
  address: optText(200, 'Address'),
  principal: optText(50, 'Principal (the person in charge)'),
};
export const cameraAddBody = z.object(cameraFields);
export const cameraEditBody = z.object({
  id: zInt(),
  ...cameraFields,
  clearVmPassword: optFlag('Remove the stored VM password'),
});
export const CAMERA_SORT_FIELDS = ['name', 'platformName', 'groupName', 'channel', 'vendor', 'createdAt'] as const;
export const cameraListQuery = pageQuery(10).extend({
  groupId: optId('Cameras of this group and the groups below it'),
  platformId: optId('Cameras of this site'),
  vendor: optChoice(CAMERA_VENDORS, 'Vendor'),
  keyword: zOptText(100),
});

export const cameraSchema = z.object({
  id: z.number().int(),
  groupId: z.number().int(),
  groupName: z.string(),
  /** Names of the group's levels, from level 1. */
  groupPath: z.array(z.string()),
  platformId: z.number().int(),
  platformName: z.string(),
  name: z.string(),
  serialNumber: z.string(),
  channel: z.number().int(),
  type: z.enum(CAMERA_TYPES),
  vendor: z.enum(CAMERA_VENDORS),
  vmCode: z.string().nullable(),
  vmUser: z.string().nullable(),
  /** Whether a VM password is stored (the password itself is never answered). */
  hasVmPassword: z.boolean(),
  ip: z.string(),
  rtspUrl: z.string().nullable(),
  subRtspUrl: z.string().nullable(),
  /** Whether the camera gives a sub stream (its own address, or its vendor's path). */
  hasSubStream: z.boolean(),
  onvifUrl: z.string().nullable(),
  ptz: z.boolean(),
  lon: z.number().nullable(),
  lat: z.number().nullable(),
  address: z.string().nullable(),
  principal: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Camera = z.output<typeof cameraSchema>;

export const roleCameraQuery = z.object({ roleId: zInt() });
export const roleCameraConfigSchema = z.object({
  roleId: z.number().int(),
  /** false: the role sees every camera of its data scope; true: only the groups and cameras below. */
  restricted: z.boolean(),
  groupIds: z.array(z.number().int()),
  cameraIds: z.array(z.number().int()),
});
export type RoleCameraConfig = z.output<typeof roleCameraConfigSchema>;
export const roleCameraBody = z.object({
  roleId: zInt(),
  restricted: optFlag('Limit the role to the listed groups (with the groups below) and cameras').pipe(z.boolean()),
  groupIds: zIntList().optional().default([]).describe('Groups the role sees (with their subgroups)'),
  cameraIds: zIntList().optional().default([]).describe('Single cameras the role sees'),
});

export const LIVE_QUALITIES = ['main', 'sub'] as const;
export type LiveQuality = (typeof LIVE_QUALITIES)[number];
export const liveOpenBody = z.object({
  cameraId: zInt(),
  quality: z
    .preprocess(blank, z.enum(LIVE_QUALITIES).optional().default('main'))
    .describe('main: the main stream (default); sub: the sub stream, where the camera gives one (else the main)'),
});
export const liveStreamSchema = z.object({
  streamId: z.string(),
  /** The stream served: sub only when asked for and the camera gives one. */
  quality: z.enum(LIVE_QUALITIES),
  /** The HLS playlist, signed for this session; it expires at expiresAt. */
  url: z.string(),
  expiresAt: z.string(),
});
export type LiveStream = z.output<typeof liveStreamSchema>;
export const liveCloseBody = z.object({ streamId: z.string().max(64) });
export const liveStatusSchema = z.object({
  streamId: z.string(),
  /** starting: connecting to the camera; playing; lost: the camera went away, reconnecting. */
  state: z.enum(['starting', 'playing', 'lost']),
});
export const cameraHlsFileQuery = z.object({
  exp: zInt().describe('Expiry, seconds since 1970'),
  sig: z.string().max(128).describe('Signature of the stream, session and expiry'),
});

export const ptzMoveBody = z.object({
  cameraId: zInt(),
  direction: z.enum(PTZ_DIRECTIONS),
  speed: z.enum(PTZ_SPEEDS).describe('Spec §9 response speed'),
});
export const ptzCameraBody = z.object({ cameraId: zInt() });
export const ptzPresetQuery = z.object({ cameraId: zInt() });
export const ptzGotoBody = z.object({
  cameraId: zInt(),
  presetToken: z.string().trim().min(1).max(64),
  speed: z.enum(PTZ_SPEEDS),
});
export const ptzPresetSchema = z.object({ token: z.string(), name: z.string() });

export const cameraTaskFields = {
  name: zText(100).describe('Task name'),
  cameraIds: zIntList().pipe(z.array(z.number().int()).min(1).max(64)).describe('Cameras that take pictures'),
  /** Local times of day (HH:mm) at which pictures are taken. */
  times: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(',').map((x) => x.trim()) : v),
      z
        .array(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/))
        .min(1)
        .max(24),
    )
    .describe('Times of day, HH:mm, comma separated'),
  retentionDays: zInt().pipe(z.number().min(1).max(3650)).describe('Days the pictures are kept'),
  enabled: optFlag('Whether the task runs'),
  kind: z
    .preprocess(blank, z.enum(CAMERA_TASK_KINDS).default('snapshot'))
    .describe('snapshot (one picture of each camera) or recording (a clip of durationSec seconds); default snapshot'),
  durationSec: z
    .preprocess((v) => textToInt(blank(v)), z.number().optional())
    .describe(
      `Seconds a recording lasts, ${RECORDING_MIN_SEC} to ${RECORDING_MAX_SEC}; required for a recording, ignored for a snapshot`,
    ),
};
/** A recording needs a whole number of seconds within the bounds (message: RULES.recordingDuration). */
const checkDuration = (t: { kind: string; durationSec?: number | undefined }, ctx: z.RefinementCtx): void => {
  const d = t.durationSec;
  if (
    t.kind === 'recording' &&
    (d === undefined || !Number.isInteger(d) || d < RECORDING_MIN_SEC || d > RECORDING_MAX_SEC)
  )
    ctx.addIssue({
      code: 'custom',
      path: ['durationSec'],
      message: `a recording lasts ${RECORDING_MIN_SEC} to ${RECORDING_MAX_SEC} seconds`,
      params: { rule: 'recordingDuration' },
    });
};
export const cameraTaskAddBody = z.object(cameraTaskFields).superRefine(checkDuration);
export const cameraTaskEditBody = z.object({ id: zInt(), ...cameraTaskFields }).superRefine(checkDuration);
export const cameraTaskSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(CAMERA_TASK_KINDS),
  /** Seconds a recording lasts; null for a snapshot task. */
  durationSec: z.number().int().nullable(),
  cameraIds: z.array(z.number().int()),
  cameraNames: z.array(z.string()),
  times: z.array(z.string()),
  retentionDays: z.number().int(),
  enabled: z.boolean(),
  lastRunAt: z.string().nullable(),
  createdAt: z.string(),
});
export type CameraTask = z.output<typeof cameraTaskSchema>;
export const cameraTaskListQuery = pageQuery(10).extend({ keyword: zOptText(100) });

export const snapshotQuery = pageQuery(48).extend({
  cameraId: optId('Snapshots of this camera'),
  platformId: optId('Snapshots of the cameras of this site'),
  date: optDate('Snapshots taken on this day (server time zone UTC)'),
  alertId: optId('Snapshots taken for this alert'),
});
export const snapshotSchema = z.object({
  id: z.number().int(),
  cameraId: z.number().int(),
  cameraName: z.string(),
  platformId: z.number().int(),
  takenAt: z.string(),
  source: z.enum(SNAPSHOT_SOURCES),
  taskId: z.number().int().nullable(),
  alertId: z.number().int().nullable(),
  size: z.number().int(),
  /** jpeg: a picture; mp4: a clip (served as video/mp4). */
  media: z.enum(SNAPSHOT_MEDIA),
  /** A clip's length in milliseconds; null for a picture. */
  durationMs: z.number().int().nullable(),
});
export type CameraSnapshot = z.output<typeof snapshotSchema>;
export const snapshotFileQuery = z.object({ id: zInt() });

const tags = ['cameras'];
const B = '/api/v2/data/camera';
const GROUP = perm('camera:group');
const MANAGE = perm('camera:camera');
const ANY = perm('camera:real-time', 'camera:camera', 'camera:group', 'camera:cameraTask');
const LIVE = perm('camera:real-time');
const TASK = perm('camera:cameraTask');
export const cameraRoutes = routeTable({
  groupTree: {
    method: 'GET',
    path: `${B}/group/getTree`,
    permission: ANY,
    summary:
      'Camera groups (levels 1 to 3) as a tree, limited to what the role camera configuration lets the caller see, with the count of visible cameras in each',
    tags,
    response: z.array(cameraGroupNodeSchema),
  },
  groupAdd: {
    method: 'POST',
    path: `${B}/group/add`,
    permission: GROUP,
    summary: 'Add a camera group under a parent (at most level 3)',
    tags,
    body: cameraGroupAddBody,
    response: z.object({ id: z.number().int() }),
  },
  groupEdit: {
    method: 'POST',
    path: `${B}/group/edit`,
    permission: GROUP,
    summary: 'Rename a camera group',
    tags,
    body: cameraGroupEditBody,
    response: z.null(),
  },
  groupDelete: {
    method: 'POST',
    path: `${B}/group/delete`,
    permission: GROUP,
    summary:
      'Delete a camera group with the groups below it, their cameras and the cameras’ snapshots (spec §8: deleting a group deletes its videos); refused when it holds cameras outside the caller’s scope',
    tags,
    body: cameraIdBody,
    response: z.object({ groups: z.number().int(), cameras: z.number().int(), snapshots: z.number().int() }),
  },
  list: {
    method: 'GET',
    path: `${B}/camera/getListPage`,
    permission: ANY,
    summary:
      "Cameras of the sites in the caller's data scope and the role's camera configuration, paged (default 10); filters groupId (with subgroups), platformId, vendor, keyword; sortField name|platformName|groupName|channel|vendor|createdAt",
    tags,
    query: cameraListQuery,
    response: zPage(cameraSchema),
  },
  add: {
    method: 'POST',
    path: `${B}/camera/add`,
    permission: MANAGE,
    summary: 'Add a camera (spec §3); the VM password is stored encrypted',
    tags,
    body: cameraAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${B}/camera/edit`,
    permission: MANAGE,
    summary: 'Edit a camera; a VM password left out keeps the stored one',
    tags,
    body: cameraEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${B}/camera/delete`,
    permission: MANAGE,
    summary: 'Delete a camera with its snapshots',
    tags,
    body: cameraIdBody,
    response: z.null(),
  },
  roleConfig: {
    method: 'GET',
    path: `${B}/role/getConfig`,
    permission: perm('system:role'),
    summary: "A role's camera configuration (spec §6): which groups and cameras it sees, on top of its data scope",
    tags,
    query: roleCameraQuery,
    response: roleCameraConfigSchema,
  },
  roleSetConfig: {
    method: 'POST',
    path: `${B}/role/setConfig`,
    permission: perm('system:role'),
    summary:
      "Set a role's camera configuration; a caller grants only groups and cameras he sees himself, never his own role",
    tags,
    body: roleCameraBody,
    response: z.null(),
  },
  liveOpen: {
    method: 'POST',
    path: `${B}/live/open`,
    permission: LIVE,
    summary:
      'Open the live stream of a camera (HLS, remuxed from its RTSP H.264 without transcoding): answers a signed playlist address that expires; refused past the concurrency limit (per system and per user)',
    tags,
    body: liveOpenBody,
    response: liveStreamSchema,
  },
  liveClose: {
    method: 'POST',
    path: `${B}/live/close`,
    permission: LIVE,
    summary: 'Stop watching a stream (the stream stops when nobody watches)',
    tags,
    body: liveCloseBody,
    response: z.null(),
  },
  liveStatus: {
    method: 'GET',
    path: `${B}/live/status`,
    permission: LIVE,
    summary: "A stream's state: starting, playing, or lost (the camera went away; reconnecting)",
    tags,
    query: liveCloseBody,
    response: liveStatusSchema,
  },
  liveFile: {
    method: 'GET',
    path: `${B}/live/hls/:streamId/:file`,
    permission: PUBLIC,
    summary:
      'A file of a live stream (index.m3u8 or a segment): the address carries its own signature and expiry (from live/open), bound to the session that opened it',
    tags,
    query: cameraHlsFileQuery,
  },
  ptzMove: {
    method: 'POST',
    path: `${B}/ptz/move`,
    permission: LIVE,
    summary: 'Start moving a PTZ camera (ONVIF ContinuousMove) at a speed: fast, middle or slow',
    tags,
    body: ptzMoveBody,
    response: z.null(),
  },
  ptzStop: {
    method: 'POST',
    path: `${B}/ptz/stop`,
    permission: LIVE,
    summary: 'Stop a PTZ camera (ONVIF Stop)',
    tags,
    body: ptzCameraBody,
    response: z.null(),
  },
  ptzPresets: {
    method: 'GET',
    path: `${B}/ptz/getPresets`,
    permission: LIVE,
    summary: "A PTZ camera's presets (ONVIF GetPresets)",
    tags,
    query: ptzPresetQuery,
    response: z.array(ptzPresetSchema),
  },
  ptzGoto: {
    method: 'POST',
    path: `${B}/ptz/gotoPreset`,
    permission: LIVE,
    summary: 'Move a PTZ camera to a preset (ONVIF GotoPreset)',
    tags,
    body: ptzGotoBody,
    response: z.null(),
  },
  taskList: {
    method: 'GET',
    path: `${B}/task/getListPage`,
    permission: TASK,
    summary: 'Camera tasks (snapshots or recordings on a schedule) whose cameras the caller sees, paged',
    tags,
    query: cameraTaskListQuery,
    response: zPage(cameraTaskSchema),
  },
  taskAdd: {
    method: 'POST',
    path: `${B}/task/add`,
    permission: TASK,
    summary:
      'Add a camera task: pictures or clips (durationSec seconds) of its cameras at times of day, kept a number of days',
    tags,
    body: cameraTaskAddBody,
    response: z.object({ id: z.number().int() }),
  },
  taskEdit: {
    method: 'POST',
    path: `${B}/task/edit`,
    permission: TASK,
    summary: 'Edit a camera task',
    tags,
    body: cameraTaskEditBody,
    response: z.null(),
  },
  taskDelete: {
    method: 'POST',
    path: `${B}/task/delete`,
    permission: TASK,
    summary: 'Delete a camera task (its pictures are kept until their retention ends)',
    tags,
    body: cameraIdBody,
    response: z.null(),
  },
  snapshotTake: {
    method: 'POST',
    path: `${B}/snapshot/take`,
    permission: perm('camera:real-time', 'camera:cameraTask'),
    summary: 'Take a snapshot of a camera now',
    tags,
    body: ptzCameraBody,
    response: snapshotSchema,
  },
  snapshotList: {
    method: 'GET',
    path: `${B}/snapshot/getListPage`,
    permission: perm('camera:real-time', 'camera:cameraTask', 'alert-predict:alert'),
    summary: 'Snapshots of the cameras the caller sees, newest first, by camera, site, date or alert (the gallery)',
    tags,
    query: snapshotQuery,
    response: zPage(snapshotSchema),
  },
  snapshotFile: {
    method: 'GET',
    path: `${B}/snapshot/file`,
    // Also the alert's evidence (alerts screen) and a picture of the image-comparison report (monitor:report).
    permission: perm('camera:real-time', 'camera:cameraTask', 'alert-predict:alert', 'monitor:report'),
    summary:
      'The file of a snapshot: a JPEG (image/jpeg) or a clip (video/mp4, with HTTP Range for seeking); token in the query, for <img src> and <video src>',
    tags,
    query: snapshotFileQuery,
    tokenInQuery: true,
  },
});
