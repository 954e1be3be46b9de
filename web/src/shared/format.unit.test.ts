import { describe, expect, it } from 'vitest';
import { cleanValue, decimalsOf, formatValue } from './format.ts';

describe('formatValue: values shown without float noise', () => {
  it('trims to 12 significant digits', () => {
    expect(formatValue(959.9999999999994)).toBe('960');
    expect(formatValue(0.1 + 0.2)).toBe('0.3');
    expect(formatValue(-0)).toBe('0');
    expect(formatValue(123456.789012345)).toBe('123456.789012');
    expect(formatValue(1.2e-7)).toBe('0.00000012');
    expect(formatValue(null)).toBe('-');
    expect(formatValue(NaN)).toBe('-');
  });

  it("then rounds to the quantity's decimals, half away from zero", () => {
    expect(formatValue(12.3456, 2)).toBe('12.35');
    expect(formatValue(1.005, 2)).toBe('1.01'); // 1.00499999999999989... in binary
    expect(formatValue(-1.005, 2)).toBe('-1.01');
    expect(formatValue(0.125, 2)).toBe('0.13');
    expect(formatValue(-0.125, 2)).toBe('-0.13');
    expect(formatValue(959.9999999999994, 1)).toBe('960');
    expect(formatValue(-0.001, 2)).toBe('0');
    expect(cleanValue(2.675, 2)).toBe(2.68);
  });

  it('finds the decimals a series is read with', () => {
    expect(decimalsOf([12.205, 12.5, 13])).toBe(3);
    expect(decimalsOf([1, 2, 3])).toBe(0);
    expect(decimalsOf([0.1 + 0.2])).toBe(1);
    expect(decimalsOf([Math.PI])).toBe(6);
  });
});
