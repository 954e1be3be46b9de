// Plane geometry of area polygons (issue 21): a ring of [lon, lat] points in WGS-84. Areas are small (a landslide,
// a slope, a valley): lon/lat are treated as plane coordinates, which is exact for containment and crossing tests.

export type Ring = [number, number][];

/** The ring without a closing point equal to the first. */
export function openRing(ring: readonly (readonly [number, number])[]): Ring {
  const r = ring.map((p) => [p[0], p[1]] as [number, number]);
  while (r.length > 1 && r[0]![0] === r[r.length - 1]![0] && r[0]![1] === r[r.length - 1]![1]) r.pop();
  return r;
}

const orient = (a: readonly number[], b: readonly number[], c: readonly number[]): number => {
  const v = (b[0]! - a[0]!) * (c[1]! - a[1]!) - (b[1]! - a[1]!) * (c[0]! - a[0]!);
  return Math.abs(v) < 1e-18 ? 0 : Math.sign(v);
};
const onSegment = (a: readonly number[], b: readonly number[], p: readonly number[]): boolean =>
  Math.min(a[0]!, b[0]!) <= p[0]! &&
  p[0]! <= Math.max(a[0]!, b[0]!) &&
  Math.min(a[1]!, b[1]!) <= p[1]! &&
  p[1]! <= Math.max(a[1]!, b[1]!);

/** Whether segments ab and cd touch or cross. */
export function segmentsIntersect(
  a: readonly number[],
  b: readonly number[],
  c: readonly number[],
  d: readonly number[],
): boolean {
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && onSegment(a, b, c)) return true;
  if (o2 === 0 && onSegment(a, b, d)) return true;
  if (o3 === 0 && onSegment(c, d, a)) return true;
  if (o4 === 0 && onSegment(c, d, b)) return true;
  return false;
}

/** Whether a (open) ring crosses or touches itself: any two non-adjacent edges meet, or a point repeats. */
export function selfIntersects(ring: Ring): boolean {
  const n = ring.length;
  const seen = new Set<string>();
  for (const p of ring) {
    const k = `${p[0]},${p[1]}`;
    if (seen.has(k)) return true;
    seen.add(k);
  }
  for (let i = 0; i < n; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      // Adjacent edges share a point by construction.
      if (j === i || (j + 1) % n === i || (i + 1) % n === j) continue;
      if (segmentsIntersect(a, b, ring[j]!, ring[(j + 1) % n]!)) return true;
    }
  }
  return false;
}

/** Twice the signed area (positive: counter-clockwise). */
export function signedArea2(ring: Ring): number {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s;
}

/** Point in polygon by ray casting (a point on the edge counts as inside). */
export function pointInRing(lon: number, lat: number, ring: Ring): boolean {
  let inside = false;
  const n = ring.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (orient(a, b, [lon, lat]) === 0 && onSegment(a, b, [lon, lat])) return true;
    if (a[1] > lat !== b[1] > lat && lon < ((b[0] - a[0]) * (lat - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

export type RingProblem = 'tooFewPoints' | 'outOfRange' | 'selfCrossing' | 'noArea' | 'tooManyPoints';

/** Why a ring cannot be an area (null: it can). */
export function ringProblem(ring: readonly (readonly [number, number])[], maxPoints = 2000): RingProblem | null {
  for (const p of ring)
    if (!Number.isFinite(p[0]) || !Number.isFinite(p[1]) || Math.abs(p[0]) > 180 || Math.abs(p[1]) > 90)
      return 'outOfRange';
  const r = openRing(ring);
  if (r.length < 3) return 'tooFewPoints';
  if (r.length > maxPoints) return 'tooManyPoints';
  if (selfIntersects(r)) return 'selfCrossing';
  if (Math.abs(signedArea2(r)) < 1e-14) return 'noArea';
  return null;
}
