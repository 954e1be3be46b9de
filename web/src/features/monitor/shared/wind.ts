/** The 16 compass points, clockwise from north (spec §4: 16 directions shown; 8 in other places). */
export const COMPASS_16 = [
  'N',
  'NNE',
  'NE',
  'ENE',
  'E',
  'ESE',
  'SE',
  'SSE',
  'S',
  'SSW',
  'SW',
  'WSW',
  'W',
  'WNW',
  'NW',
  'NNW',
] as const;
export type Compass = (typeof COMPASS_16)[number];

/** The compass point of an angle in degrees (0 = north, clockwise); null when the wind speed is 0 (shown '--'). */
export function compassOf(angle: number, speed?: number | null): Compass | null {
  if (speed === 0 || !Number.isFinite(angle)) return null;
  const a = ((angle % 360) + 360) % 360;
  return COMPASS_16[Math.round(a / 22.5) % 16]!;
}

/** Quantity keys that carry a wind direction or speed. */
export const isWindDirectionKey = (k: string): boolean => /^wind_?dir(ection)?$/i.test(k);
export const isWindSpeedKey = (k: string): boolean => /^wind_?speed$/i.test(k);
