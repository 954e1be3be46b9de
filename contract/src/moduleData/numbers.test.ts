import { describe, expect, it } from 'vitest';
import { clean, round2, round2Exact } from './numbers.ts';

/** Reference: (ma·10^-da − mb·10^-db) to 2 decimals, half away from zero, in BigInt. */
function reference(ma: bigint, da: number, mb: bigint, db: number): number {
  const D = ma * 10n ** BigInt(4 - da) - mb * 10n ** BigInt(4 - db); // at 4 decimals
  const neg = D < 0n;
  const ad = neg ? -D : D;
  let n = ad / 100n;
  if (ad % 100n >= 50n) n++;
  const r = Number(`${neg ? '-' : ''}${n}e-2`);
  return r === 0 ? 0 : r;
}

/** Deterministic generator (mulberry32), so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('round2 (spec §9: 2 decimals on decimal values, half away from zero)', () => {
  it('rounds the decimal difference, not the binary one', () => {
    // The binary differences are 0.3349999999999991 and -0.33500000000000085: the old rounding split them.
    const old = (x: number) => Math.round(x * 100) / 100;
    expect([old(12.54 - 12.205), old(11.87 - 12.205)]).toEqual([0.33, -0.34]);
    expect(round2(12.54, 12.205)).toBe(0.34);
    expect(round2(11.87, 12.205)).toBe(-0.34);
  });

  it('rounds equal rises and falls alike', () => {
    expect(round2(0.125)).toBe(0.13);
    expect(round2(-0.125)).toBe(-0.13);
    expect(round2(10.125, 10)).toBe(0.13);
    expect(round2(10, 10.125)).toBe(-0.13);
    expect(round2(1.005)).toBe(1.01); // 1.005 is 1.00499999999999989... in binary
    expect(round2(-1.005)).toBe(-1.01);
    expect(round2(0.13, 0.26)).toBe(-0.13); // an acceleration: a difference of rates
  });

  it('answers plain values unchanged and never -0', () => {
    expect(round2(0.34)).toBe(0.34);
    expect(round2(7)).toBe(7);
    expect(Object.is(round2(-0.001), 0)).toBe(true);
    expect(Object.is(round2(5, 5), 0)).toBe(true);
    expect(round2(NaN)).toBeNaN();
    expect(round2(Infinity, 1)).toBe(Infinity);
  });

  it('takes the exact path for values the fast one leaves (17 digits, huge)', () => {
    expect(round2(0.1 + 0.2, 0.1)).toBe(0.2); // 0.30000000000000004 - 0.1
    expect(round2(1e21, 1e21 - 2 ** 17)).toBe(round2Exact(1e21, 1e21 - 2 ** 17));
    expect(round2(2 ** 53, 1)).toBe(2 ** 53 - 1);
    expect(round2(1.23456789012345e-7, -0.0049999)).toBe(0.01);
  });

  it('equals a BigInt decimal reference over random values of up to 4 decimals', () => {
    const rand = rng(14);
    let mismatches = 0;
    const first: unknown[] = [];
    for (let k = 0; k < 200_000; k++) {
      const da = Math.floor(rand() * 5);
      const db = Math.floor(rand() * 5);
      const scale = [1e3, 1e6, 1e9][Math.floor(rand() * 3)]!;
      const ma = BigInt(Math.floor((rand() - 0.5) * scale));
      // Half the pairs sit next to a tie: b = a - (x.xx5) exactly.
      const mb =
        rand() < 0.5
          ? BigInt(Math.floor((rand() - 0.5) * scale))
          : (ma * 10n ** BigInt(4 - da) - BigInt(Math.floor((rand() - 0.5) * 2000)) * 100n - 50n) /
            10n ** BigInt(4 - db);
      const a = Number(`${ma}e-${da}`);
      const b = Number(`${mb}e-${db}`);
      const want = reference(ma, da, mb, db);
      const got = round2(a, b);
      if (!Object.is(got, want) || !Object.is(round2Exact(a, b), want)) {
        mismatches++;
        if (first.length < 5) first.push({ a, b, want, got, exact: round2Exact(a, b) });
      }
    }
    expect(first).toEqual([]);
    expect(mismatches).toBe(0);
  });
});

describe('clean', () => {
  it('removes float noise', () => {
    expect(clean(959.9999999999994)).toBe(960);
    expect(clean(0.1 + 0.2)).toBe(0.3);
    expect(Object.is(clean(-0), 0)).toBe(true);
  });
});
