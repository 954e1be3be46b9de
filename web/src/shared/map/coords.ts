/** A point on the earth, in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

export const LAT_MIN = -90;
export const LAT_MAX = 90;
export const LON_MIN = -180;
export const LON_MAX = 180;

export const isLat = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= LAT_MIN && v <= LAT_MAX;
export const isLon = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= LON_MIN && v <= LON_MAX;

/** Whether both coordinates are set and in range. */
export const isLatLon = (p: Partial<LatLon> | null | undefined): p is LatLon => !!p && isLat(p.lat) && isLon(p.lon);

/**
 * Parses a pasted 'lat, lon' pair (spec §5: coordinates must be in lat, lon format): two decimal numbers
 * separated by a comma (or a Chinese comma, a semicolon or spaces), latitude first, each in range.
 * Returns null when the text does not parse.
 */
export function parseLatLon(text: string): LatLon | null {
  const m = /^\s*([-+]?\d+(?:\.\d+)?)\s*(?:[,，;；]\s*|\s+)([-+]?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lon = Number(m[2]);
  return isLat(lat) && isLon(lon) ? { lat, lon } : null;
}

/** Rounds to 6 decimals (about 0.1 m), the precision the forms keep. */
export const round6 = (v: number): number => Math.round(v * 1e6) / 1e6;

/** 'lat, lon' with 6 decimals, or '' when not set. */
export function formatLatLon(p: Partial<LatLon> | null | undefined): string {
  return isLatLon(p) ? `${round6(p.lat)}, ${round6(p.lon)}` : '';
}
