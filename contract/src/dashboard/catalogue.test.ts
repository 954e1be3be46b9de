import { describe, expect, it } from 'vitest';
import { compassOf, siteStateOf, type DeviceStateCounts } from './catalogue.ts';

const c = (x: Partial<DeviceStateCounts>): DeviceStateCounts => ({
  normal: 0,
  alert: 0,
  alarm: 0,
  abnormal: 0,
  offline: 0,
  ...x,
});

describe('siteStateOf: a site state from its devices (spec §4)', () => {
  it('alarm before alert before offline before abnormal before normal', () => {
    expect(siteStateOf(c({ alarm: 1, alert: 3, offline: 5, abnormal: 1, normal: 2 }))).toBe('alarm');
    expect(siteStateOf(c({ alert: 1, offline: 5, abnormal: 1 }))).toBe('alert');
    // Every device offline, or none at all: nothing reports.
    expect(siteStateOf(c({ offline: 3 }))).toBe('offline');
    expect(siteStateOf(c({}))).toBe('offline');
    // Data missing: an abnormal device, or some (not all) offline.
    expect(siteStateOf(c({ normal: 2, offline: 1 }))).toBe('abnormal');
    expect(siteStateOf(c({ abnormal: 1 }))).toBe('abnormal');
    expect(siteStateOf(c({ abnormal: 1, offline: 1 }))).toBe('abnormal');
    expect(siteStateOf(c({ normal: 4 }))).toBe('normal');
  });
});

describe('compassOf: 16 points, none in calm', () => {
  it('names a direction, rounding to the nearest point and wrapping', () => {
    expect(compassOf(0, 1)).toBe('N');
    expect(compassOf(90, 1)).toBe('E');
    expect(compassOf(191, 1)).toBe('S');
    expect(compassOf(348.75, 1)).toBe('N');
    expect(compassOf(-90, 1)).toBe('W');
    expect(compassOf(720 + 22.5, 1)).toBe('NNE');
    expect(compassOf(90, 0)).toBeNull();
    expect(compassOf(Number.NaN, 2)).toBeNull();
  });
});
