import { describe, expect, it } from 'vitest';
import { FramePace } from './framePace.ts';

const feed = (pace: FramePace, waits: number[]): number[] => waits.map((w) => pace.add(w));

describe('the pace of moving frames (dynamic resolution)', () => {
  it('asks for a lower resolution after a window of slow frames, judged by their median', () => {
    const pace = new FramePace();
    // One long frame (a shader compiled) among quick ones is not slowness.
    expect(feed(pace, [16, 16, 120, 17, 16, 16])).toEqual([0, 0, 0, 0, 0, 0]);
    expect(feed(pace, [45, 60, 16, 50, 48, 52])).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it('raises it only after three windows of quick frames in a row', () => {
    const pace = new FramePace();
    const quick = [8, 9, 10, 8, 9, 10];
    expect(feed(pace, quick).at(-1)).toBe(0);
    expect(feed(pace, quick).at(-1)).toBe(0);
    expect(feed(pace, quick).at(-1)).toBe(-1);
    // A window in between (neither slow nor quick) starts the count again.
    const pace2 = new FramePace();
    feed(pace2, quick);
    feed(pace2, quick);
    feed(pace2, [20, 22, 24, 20, 22, 24]);
    expect(feed(pace2, quick).at(-1)).toBe(0);
  });

  it('judges a new window after a reset (a change of resolution is judged on its own frames)', () => {
    const pace = new FramePace();
    feed(pace, [50, 50, 50, 50, 50]);
    pace.reset();
    expect(feed(pace, [16, 16, 16, 16, 16, 16]).at(-1)).toBe(0);
  });
});
