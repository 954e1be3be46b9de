// Constants of the panoramas feature (issue 21 item 7; spec §2 hidden /vr route).

/** The default size limit of a panorama image (PANORAMA_MAX_MB sets it on the server). */
export const PANORAMA_DEFAULT_MAX_MB = 40;
/** Smallest and largest accepted panorama widths, px (the height is half the width). */
export const PANORAMA_MIN_WIDTH = 512;
export const PANORAMA_MAX_WIDTH = 16384;
/** Most hotspots one panorama may hold. */
export const PANORAMA_MAX_HOTSPOTS = 500;
export const HOTSPOT_KINDS = ['device', 'link'] as const;
export type HotspotKind = (typeof HOTSPOT_KINDS)[number];
/** Accepted image types, by their extensions. */
export const PANORAMA_TYPES = { jpg: ['jpg', 'jpeg'], png: ['png'] } as const;
export type PanoramaType = keyof typeof PANORAMA_TYPES;
