import { describe, expect, it } from 'vitest';
import {
  bd09ToBdMercator,
  bd09ToGcj02,
  bd09ToWgs84,
  bdMercatorToBd09,
  convert,
  distanceM,
  gcj02ToBd09,
  gcj02ToWgs84,
  wgs84ToBd09,
  wgs84ToGcj02,
} from './coords.ts';
import { providerPoint } from './providers.ts';

// Published conversion values: the coordtransform library's documented results (wandergis/coordtransform,
// test/app.js) for Tiananmen (116.404, 39.915), and Baidu Mercator pairs published with converters of Baidu's
// LL2MC/MC2LL tables (BaiduMapPointConverter's README; TeslaMate's BaiduMercator tests).
const P: [number, number] = [116.404, 39.915];
const within1m = (a: readonly [number, number], b: readonly [number, number]) =>
  expect(distanceM(a, b)).toBeLessThan(1);

describe('WGS-84, GCJ-02 and BD-09', () => {
  it('forward transforms match the published values to 1 m (in fact to 1e-9°)', () => {
    within1m(wgs84ToGcj02(...P), [116.41024449916938, 39.91640428150164]);
    within1m(gcj02ToBd09(...P), [116.41036949371029, 39.92133699351021]);
    within1m(bd09ToGcj02(...P), [116.39762729119315, 39.90865673957631]);
    expect(Math.abs(wgs84ToGcj02(...P)[0] - 116.41024449916938)).toBeLessThan(1e-9);
  });

  it('the published one-step GCJ-02 -> WGS-84 value is within 1 m of the exact inverse', () => {
    within1m(gcj02ToWgs84(...P), [116.39775550083061, 39.91359571849836]);
  });

  it('the inverses are exact: back to the start to better than 1e-7° across China', () => {
    for (let lon = 74; lon <= 134; lon += 3.7)
      for (let lat = 18; lat <= 53; lat += 2.9) {
        const g = wgs84ToGcj02(lon, lat);
        const w = gcj02ToWgs84(...g);
        expect(Math.abs(w[0] - lon)).toBeLessThan(1e-7);
        expect(Math.abs(w[1] - lat)).toBeLessThan(1e-7);
        const b = wgs84ToBd09(lon, lat);
        const w2 = bd09ToWgs84(...b);
        expect(Math.abs(w2[0] - lon)).toBeLessThan(1e-7);
        expect(Math.abs(w2[1] - lat)).toBeLessThan(1e-7);
      }
  });

  it('outside China GCJ-02 is WGS-84 (BD-09 still shifts)', () => {
    expect(wgs84ToGcj02(2.35, 48.85)).toEqual([2.35, 48.85]);
    expect(convert('wgs84', 'gcj02', -74, 40.7)).toEqual([-74, 40.7]);
  });

  it('convert() chains the systems both ways', () => {
    const b = convert('wgs84', 'bd09', ...P);
    within1m(convert('bd09', 'wgs84', ...b), P);
    within1m(convert('gcj02', 'bd09', ...P), [116.41036949371029, 39.92133699351021]);
    within1m(convert('bd09', 'gcj02', ...P), [116.39762729119315, 39.90865673957631]);
  });
});

describe('Baidu Mercator (BD-09MC)', () => {
  it('matches published pairs to 1 m', () => {
    const pairs: [[number, number], [number, number]][] = [
      [
        [116.403874, 39.914889],
        [12958160.97, 4825907.72],
      ],
      [
        [116.404, 39.915],
        [12958175.0, 4825923.77],
      ],
      [
        [121.499, 31.24],
        [13525353.98, 3641593.36],
      ],
    ];
    for (const [ll, mc] of pairs) {
      const m = bd09ToBdMercator(...ll);
      expect(Math.hypot(m[0] - mc[0], m[1] - mc[1])).toBeLessThan(1);
      within1m(bdMercatorToBd09(...mc), ll);
    }
  });
});

describe('reference points on each provider', () => {
  // A GNSS (WGS-84) point lands where each provider's own coordinates of that place are.
  it('Tianditu (CGCS2000) takes WGS-84 as is; Amap and Google (GCJ-02); Baidu (BD-09)', () => {
    expect(providerPoint('tianditu', ...P)).toEqual(P);
    within1m(providerPoint('amap', ...P), [116.41024449916938, 39.91640428150164]);
    within1m(providerPoint('google', ...P), [116.41024449916938, 39.91640428150164]);
    // WGS-84 -> GCJ-02 (published) -> BD-09 (published formula applied to the published GCJ-02 value).
    within1m(providerPoint('baidu', ...P), gcj02ToBd09(116.41024449916938, 39.91640428150164));
    expect(providerPoint('kml', ...P)).toEqual(P);
  });
});
