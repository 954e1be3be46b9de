/**
 * The map tile source. The default is an OpenStreetMap-style XYZ template; a deployment without internet
 * access (or with its own tile server) sets another one, by priority:
 *   1. the `tileUrl` prop of the map component,
 *   2. localStorage 'mapTileUrl' (set from the browser console, per user),
 *   3. the build variable VITE_MAP_TILE_URL,
 *   4. DEFAULT_TILE_URL.
 * An empty template ('none') shows only the coordinate grid.
 */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '&copy; OpenStreetMap contributors';
export const TILE_URL_KEY = 'mapTileUrl';

export function tileUrl(override?: string): string {
  const candidates = [
    override,
    typeof localStorage === 'undefined' ? null : localStorage.getItem(TILE_URL_KEY),
    import.meta.env.VITE_MAP_TILE_URL as string | undefined,
  ];
  for (const c of candidates) if (typeof c === 'string' && c.trim() !== '') return c.trim() === 'none' ? '' : c.trim();
  return DEFAULT_TILE_URL;
}

/** Where the map opens when no point is set: central Sichuan (the seeded regions), zoom 5. */
export const DEFAULT_CENTER: [number, number] = [30.66, 104.07];
export const DEFAULT_ZOOM = 5;
export const POINT_ZOOM = 13;
