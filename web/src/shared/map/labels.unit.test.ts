import { describe, expect, it } from 'vitest';
import { overlaps, placeLabels, type LabelInput } from './labels.ts';

describe('label placement', () => {
  it('puts labels of crowded points where they meet no other label, pin or obstacle', () => {
    // Nine points 6 px apart in a row and a column: their default spots (right of the pin) all collide.
    const items: LabelInput[] = [];
    for (let i = 0; i < 9; i++)
      items.push({ id: i, x: 300 + (i % 3) * 6, y: 200 + Math.floor(i / 3) * 6, w: 110, h: 20 });
    const site = { x: 8, y: 8, w: 160, h: 24 };
    const blank = { x: 250, y: 190, w: 200, h: 22 };
    const out = placeLabels(items, { w: 800, h: 450 }, [site, blank]);
    expect(out).toHaveLength(9);
    for (const [i, a] of out.entries()) {
      expect(overlaps(a, site)).toBe(false);
      expect(overlaps(a, blank)).toBe(false);
      for (const b of out.slice(i + 1)) expect(overlaps(a, b)).toBe(false);
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.w).toBeLessThanOrEqual(800);
    }
  });

  it('keeps a lone label beside its pin', () => {
    const [a] = placeLabels([{ id: 1, x: 100, y: 100, w: 80, h: 20 }], { w: 400, h: 300 });
    expect(a).toMatchObject({ x: 112, y: 90, displaced: false });
  });

  it('keeps labels inside the stage at its edges', () => {
    const [a] = placeLabels([{ id: 1, x: 395, y: 5, w: 80, h: 20 }], { w: 400, h: 300 });
    expect(a!.x + a!.w).toBeLessThanOrEqual(400);
    expect(a!.y).toBeGreaterThanOrEqual(0);
  });
});
