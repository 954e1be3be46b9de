// Storage (water volume) from a capacity table (spec §3: index, water level elevation, water volume in
// 10,000 m³), by linear interpolation of the water level between the two rows around it. Pure.
//
// Outside the table there is no answer (null): no extrapolation. A capacity table is surveyed over the levels a
// reservoir can hold; a level under its first row or above its last is a gauge error or a flood beyond the
// survey, and a straight line continued past the table would state a volume nobody measured.

export interface CapacityPoint {
  waterLevelElevation: number;
  waterVolume: number;
}

/** The volume at `level` (10,000 m³), or null outside the table, for an empty table or a non-finite level. */
export function storageAt(table: readonly CapacityPoint[], level: number | null | undefined): number | null {
  if (level === null || level === undefined || !Number.isFinite(level) || !table.length) return null;
  const rows = [...table].sort((a, b) => a.waterLevelElevation - b.waterLevelElevation);
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  if (level < first.waterLevelElevation || level > last.waterLevelElevation) return null;
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    if (level <= b.waterLevelElevation) {
      const span = b.waterLevelElevation - a.waterLevelElevation;
      if (span <= 0) return b.waterVolume;
      return a.waterVolume + ((b.waterVolume - a.waterVolume) * (level - a.waterLevelElevation)) / span;
    }
  }
  return last.waterVolume;
}
