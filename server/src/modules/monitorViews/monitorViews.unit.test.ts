import { describe, expect, it } from 'vitest';
import { volumeAt } from '@geosentry/contract';

const rows = [
  { index: 2, waterLevelElevation: 100, waterVolume: 100 },
  { index: 1, waterLevelElevation: 90, waterVolume: 0 },
  { index: 3, waterLevelElevation: 120, waterVolume: 500 },
];

describe('volumeAt (capacity table interpolation)', () => {
  it('interpolates linearly between rows, in any row order', () => {
    expect(volumeAt(rows, 95)).toBeCloseTo(50, 9);
    expect(volumeAt(rows, 110)).toBeCloseTo(300, 9);
  });
  it('answers a row exactly at its level, including both ends', () => {
    expect(volumeAt(rows, 90)).toBe(0);
    expect(volumeAt(rows, 100)).toBe(100);
    expect(volumeAt(rows, 120)).toBe(500);
  });
  it('answers null outside the table or without enough rows', () => {
    expect(volumeAt(rows, 89.9)).toBeNull();
    expect(volumeAt(rows, 120.1)).toBeNull();
    expect(volumeAt([], 100)).toBeNull();
    expect(volumeAt([rows[0]!], 100)).toBe(100);
    expect(volumeAt([rows[0]!], 101)).toBeNull();
  });
});
