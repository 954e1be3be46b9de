import type { UpstreamPoint } from '@geosentry/contract';

export interface Pt {
  x: number;
  y: number;
}

/** A dam cross-section in drawing pixels (y down), with the elevation scale when it can be known. */
export interface DamGeometry {
  /** The closed outline of the dam body. */
  outline: Pt[];
  /** The upstream face from its toe up to the crest. */
  face: Pt[];
  /** 1 when the water lies left of the dam (the face rises to the right), -1 when it lies right. */
  dir: 1 | -1;
  crestY: number;
  bottomY: number;
  /** The downstream toe (where the phreatic line leaves the dam). */
  downstreamToe: Pt;
  minX: number;
  maxX: number;
  /** Pixel y of an elevation, and back; null without an elevation scale. */
  yOf: ((elevation: number) => number) | null;
  elevOf: ((y: number) => number) | null;
}

/**
 * Builds the dam from the upstream-face points. Points that rise to a crest and come down again are taken as
 * the whole outline; points that only rise are the upstream face, and the downstream face is drawn as its
 * mirror beyond a crest of a tenth of the width. The elevation scale is fitted (least squares) through the
 * points that carry an elevation; without two of them it comes from the bottom elevation (at the lowest point)
 * and the highest level of the capacity table (at the crest), when both are known.
 */
export function damGeometry(
  points: readonly UpstreamPoint[],
  bottomElevation: number | null,
  topLevel: number | null,
): DamGeometry | null {
  if (points.length < 2) return null;
  const ys = points.map((p) => p.y);
  const crestY = Math.min(...ys);
  const crestIdx = points.findIndex((p) => p.y === crestY);
  const first = points[0]!;
  const last = points[points.length - 1]!;
  const span = Math.max(...ys) - crestY || 1;
  const dir: 1 | -1 = points[crestIdx]!.x >= first.x ? 1 : -1;
  let outline: Pt[];
  const face: Pt[] = points.slice(0, crestIdx + 1).map((p) => ({ x: p.x, y: p.y }));
  // The crest may be several points at the same height: the face ends at its first one.
  let lastCrest = crestIdx;
  while (lastCrest + 1 < points.length && points[lastCrest + 1]!.y === crestY) lastCrest++;
  const comesDown = lastCrest < points.length - 1 && last.y - crestY > span * 0.5;
  if (comesDown) {
    outline = points.map((p) => ({ x: p.x, y: p.y }));
  } else {
    const xs = points.map((p) => p.x);
    const width = Math.max(...xs) - Math.min(...xs) || span;
    const crestEnd = { x: points[lastCrest]!.x + dir * Math.max(width * 0.1, 4), y: crestY };
    // The downstream face mirrors the upstream one, starting at the end of the crest.
    const pivot = points[crestIdx]!.x;
    const mirrored = face
      .slice(0, -1)
      .reverse()
      .map((p) => ({ x: crestEnd.x + (pivot - p.x), y: p.y }));
    outline = [...points.slice(0, lastCrest + 1).map((p) => ({ x: p.x, y: p.y })), crestEnd, ...mirrored];
  }
  const allY = outline.map((p) => p.y);
  const bottomY = Math.max(...allY);
  const downstreamToe = outline[outline.length - 1]!;
  const allX = outline.map((p) => p.x);

  // Elevation scale: elevation = a * y + b.
  let fit: { a: number; b: number } | null = null;
  const known = points.filter((p) => typeof p.elevation === 'number');
  const distinct = new Set(known.map((p) => p.y));
  if (distinct.size >= 2) {
    const n = known.length;
    const my = known.reduce((s, p) => s + p.y, 0) / n;
    const me = known.reduce((s, p) => s + p.elevation!, 0) / n;
    const sxy = known.reduce((s, p) => s + (p.y - my) * (p.elevation! - me), 0);
    const sxx = known.reduce((s, p) => s + (p.y - my) ** 2, 0);
    const a = sxy / sxx;
    if (Number.isFinite(a) && a < 0) fit = { a, b: me - a * my };
  }
  if (!fit && bottomElevation !== null && topLevel !== null && topLevel > bottomElevation && bottomY > crestY) {
    const a = (topLevel - bottomElevation) / (crestY - bottomY);
    fit = { a, b: bottomElevation - a * bottomY };
  }
  return {
    outline,
    face,
    dir,
    crestY,
    bottomY,
    downstreamToe,
    minX: Math.min(...allX),
    maxX: Math.max(...allX),
    yOf: fit ? (e: number) => (e - fit.b) / fit.a : null,
    elevOf: fit ? (y: number) => fit.a * y + fit.b : null,
  };
}

/** Where the upstream face crosses a height (pixel y): walking from the toe up; the crest when above it. */
export function faceXAt(face: readonly Pt[], y: number): number | null {
  if (face.length === 0) return null;
  if (y <= face[face.length - 1]!.y) return face[face.length - 1]!.x;
  for (let i = 1; i < face.length; i++) {
    const a = face[i - 1]!;
    const b = face[i]!;
    const lo = Math.min(a.y, b.y);
    const hi = Math.max(a.y, b.y);
    if (y >= lo && y <= hi) return b.y === a.y ? b.x : a.x + ((y - a.y) / (b.y - a.y)) * (b.x - a.x);
  }
  return null;
}

/** The water body on the upstream side up to a height: from the drawing's edge to the face and down it. */
export function waterPolygon(face: readonly Pt[], y: number, edgeX: number): Pt[] | null {
  const x = faceXAt(face, y);
  if (x === null || face.length === 0) return null;
  const below = face.filter((p) => p.y > y).reverse();
  const toe = face[0]!;
  return [{ x: edgeX, y }, { x, y }, ...below, { x: edgeX, y: toe.y }];
}

/** Round tick steps (1, 2, 5 × 10^n) for an axis of this span. */
export function niceTicks(lo: number, hi: number, count = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}
