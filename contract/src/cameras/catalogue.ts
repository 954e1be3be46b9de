// Constants of the cameras feature (spec §3 Camera, §9 camera constants).

/** Spec §9: camera group levels 1 to 3. */
export const CAMERA_GROUP_MAX_LEVEL = 3;
/** Spec §9: channels 1 to 16. */
export const CAMERA_CHANNEL_MIN = 1;
export const CAMERA_CHANNEL_MAX = 16;
/** Spec §3: a camera's type. */
export const CAMERA_TYPES = ['bullet', 'dome', 'ptz', 'fisheye', 'other'] as const;
export type CameraType = (typeof CAMERA_TYPES)[number];
/** Spec §3: a camera's vendor; the RTSP address of the first three is built from IP and channel. */
export const CAMERA_VENDORS = ['hikvision', 'dahua', 'uniview', 'onvif', 'other'] as const;
export type CameraVendor = (typeof CAMERA_VENDORS)[number];
/** Spec §9: PTZ response speeds. */
export const PTZ_SPEEDS = ['fast', 'middle', 'slow'] as const;
export type PtzSpeed = (typeof PTZ_SPEEDS)[number];
/** The ONVIF velocity (of 1) of each speed. */
export const PTZ_SPEED_VALUE: Record<PtzSpeed, number> = { fast: 1, middle: 0.5, slow: 0.2 };
export const PTZ_DIRECTIONS = ['up', 'down', 'left', 'right', 'zoomIn', 'zoomOut'] as const;
export type PtzDirection = (typeof PTZ_DIRECTIONS)[number];
/** The live grid's layouts (tiles). */
export const LIVE_LAYOUTS = [1, 4, 9, 16] as const;
/** Camera task kinds: a snapshot (one picture) or a recording (a short clip, remuxed into an MP4). */
export const CAMERA_TASK_KINDS = ['snapshot', 'recording'] as const;
export type CameraTaskKind = (typeof CAMERA_TASK_KINDS)[number];
/** A recording lasts 5 to 300 seconds. */
export const RECORDING_MIN_SEC = 5;
export const RECORDING_MAX_SEC = 300;
/** What a snapshot holds: a JPEG picture or an MP4 clip. */
export const SNAPSHOT_MEDIA = ['jpeg', 'mp4'] as const;
export type SnapshotMedia = (typeof SNAPSHOT_MEDIA)[number];
/** Why a snapshot was taken. */
export const SNAPSHOT_SOURCES = ['task', 'alert', 'manual'] as const;
export type SnapshotSource = (typeof SNAPSHOT_SOURCES)[number];
/**
 * A camera snapshot offered as a picture of its site (the image-comparison report picks from both): `snap-<id>`.
 * Stored files have 32 hex digits as their id, so the two never meet.
 */
export const snapshotPictureId = (id: number): string => `snap-${id}`;
/** The snapshot id of a picture id, or null when it names a stored file. */
export const snapshotIdOfPicture = (pictureId: string): number | null => {
  const m = /^snap-(\d{1,15})$/.exec(pictureId);
  return m ? Number(m[1]) : null;
};
