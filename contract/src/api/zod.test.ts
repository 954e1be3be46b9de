import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decimalNumber, zInt, zIntList, zNum } from './zod.ts';
import { optInt, optNum } from '../devices/fields.ts';
import { optCount, optNumber } from '../platforms/fields.ts';

// Issue 15 (hygiene): "0x10" deleted object 16. Ids and numbers in text are plain decimals only.
describe('numbers in form text', () => {
  const nonDecimal = ['0x10', '0X10', '0b101', '0o17', 'Infinity', '-Infinity', '1_000', '١٢', '12px', 'NaN'];
  it('refuses anything but a plain decimal integer as an id', () => {
    for (const v of [...nonDecimal, '1e1', '1.0', '1.5', '+']) {
      expect(zInt().safeParse(v).success, v).toBe(false);
      expect(zIntList().safeParse(v).success, v).toBe(false);
      expect(optInt().safeParse(v).success, v).toBe(false);
      expect(optCount('n').safeParse(v).success, v).toBe(false);
    }
    expect(zInt().parse('16')).toBe(16);
    expect(zInt().parse(' 16 ')).toBe(16);
    expect(zInt().parse('-3')).toBe(-3);
    expect(zIntList().parse('1, 2,3')).toEqual([1, 2, 3]);
    expect(zInt().safeParse('9007199254740993').success).toBe(false);
  });
  it('reads decimals with an exponent as numbers, nothing else', () => {
    for (const v of nonDecimal) {
      expect(zNum().safeParse(v).success, v).toBe(false);
      expect(optNum().safeParse(v).success, v).toBe(false);
      expect(optNumber('m').safeParse(v).success, v).toBe(false);
    }
    expect(zNum().parse('1e1')).toBe(10);
    expect(zNum().parse('-.5')).toBe(-0.5);
    expect(optNumber('m').parse('12.50')).toBe(12.5);
    expect(decimalNumber('5.')).toBe(5);
    expect(z.object({ id: zInt() }).safeParse({ id: '0x10' }).success).toBe(false);
  });
});
