/**
 * Label placement without overlaps (issue 21, the sketch map): each point's label takes the first candidate spot,
 * nearest first, that stays inside the stage and meets no placed label, no pin and no fixed obstacle (the site
 * label, the "no schematic picture" text). Greedy, in the given order; a label with no free spot nearby goes to the
 * least crowded candidate. Pure: positions in pixels of the stage.
 */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface LabelInput {
  id: number | string;
  /** The point (pin centre). */
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface Placed extends Rect {
  id: number | string;
  /** Moved away from its pin (draw a leader line). */
  displaced: boolean;
}

export const overlaps = (a: Rect, b: Rect, gap = 0): boolean =>
  a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;

const area = (a: Rect, b: Rect): number =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

export function placeLabels(
  items: readonly LabelInput[],
  stage: { w: number; h: number },
  obstacles: readonly Rect[] = [],
  pin = 16,
): Placed[] {
  const pins: Rect[] = items.map((p) => ({ x: p.x - pin / 2, y: p.y - pin / 2, w: pin, h: pin }));
  const taken: Rect[] = [...obstacles];
  const out: Placed[] = [];
  const gap = 2;
  for (const [i, p] of items.entries()) {
    const r = pin / 2 + 4;
    const cands: { x: number; y: number; far: boolean }[] = [];
    for (const ring of [0, 1, 2, 3, 4]) {
      const d = ring * (p.h + 4);
      const far = ring > 0;
      cands.push(
        { x: p.x + r, y: p.y - p.h / 2 - d, far },
        { x: p.x - r - p.w, y: p.y - p.h / 2 - d, far },
        { x: p.x + r, y: p.y - p.h / 2 + d, far },
        { x: p.x - r - p.w, y: p.y - p.h / 2 + d, far },
        { x: p.x - p.w / 2, y: p.y - r - p.h - d, far: true },
        { x: p.x - p.w / 2, y: p.y + r + d, far: true },
      );
    }
    let best: Rect | null = null;
    let bestFar = false;
    let bestCost = Infinity;
    for (const c of cands) {
      const rect = {
        x: Math.min(Math.max(0, c.x), Math.max(0, stage.w - p.w)),
        y: Math.min(Math.max(0, c.y), Math.max(0, stage.h - p.h)),
        w: p.w,
        h: p.h,
      };
      let cost = 0;
      for (const tk of taken) if (overlaps(rect, tk, gap)) cost += 1 + area(rect, tk);
      for (const [j, pr] of pins.entries()) if (j !== i && overlaps(rect, pr)) cost += 1 + area(rect, pr);
      if (cost === 0) {
        best = rect;
        bestFar = c.far;
        break;
      }
      if (cost < bestCost) {
        bestCost = cost;
        best = rect;
        bestFar = c.far;
      }
    }
    const placed = best!;
    taken.push(placed);
    out.push({ ...placed, id: p.id, displaced: bestFar });
  }
  return out;
}
