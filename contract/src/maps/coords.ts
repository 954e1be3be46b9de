// Coordinate systems of the map providers (issue 21). Devices and sites are stored in WGS-84 (what GNSS gives);
// Amap and Google's China maps draw in GCJ-02 (the "Mars" offset of the national survey), Baidu in BD-09 (GCJ-02
// shifted once more), Tianditu in CGCS2000 (WGS-84 to within centimetres: used as is). The forward transforms are
// the published ones (the GCJ-02 formula in its widely published form with the Krasovsky ellipsoid, Baidu's
// documented GCJ-02 -> BD-09 rotation); the inverses iterate the forward transform until the error is under 1e-9°.

/** A point as [lon, lat] in degrees. */
export type LonLat = readonly [number, number];

export const COORD_SYSTEMS = ['wgs84', 'gcj02', 'bd09'] as const;
export type CoordSystem = (typeof COORD_SYSTEMS)[number];

const A = 6378245.0; // Krasovsky 1940 semi-major axis, m
const EE = 0.006693421622965943; // its first eccentricity squared
const X_PI = (Math.PI * 3000.0) / 180.0;

/** GCJ-02 is defined (and offset) only inside China's bounding box; outside it equals WGS-84. */
export function outOfChina(lon: number, lat: number): boolean {
  return lon < 72.004 || lon > 137.8347 || lat < 0.8293 || lat > 55.8271;
}

function dLat(x: number, y: number): number {
  let r = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  r += ((20.0 * Math.sin(y * Math.PI) + 40.0 * Math.sin((y / 3.0) * Math.PI)) * 2.0) / 3.0;
  r += ((160.0 * Math.sin((y / 12.0) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30.0)) * 2.0) / 3.0;
  return r;
}

function dLon(x: number, y: number): number {
  let r = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  r += ((20.0 * Math.sin(x * Math.PI) + 40.0 * Math.sin((x / 3.0) * Math.PI)) * 2.0) / 3.0;
  r += ((150.0 * Math.sin((x / 12.0) * Math.PI) + 300.0 * Math.sin((x / 30.0) * Math.PI)) * 2.0) / 3.0;
  return r;
}

/** WGS-84 -> GCJ-02 (the published forward transform). */
export function wgs84ToGcj02(lon: number, lat: number): [number, number] {
  if (outOfChina(lon, lat)) return [lon, lat];
  let dlat = dLat(lon - 105.0, lat - 35.0);
  let dlon = dLon(lon - 105.0, lat - 35.0);
  const radLat = (lat / 180.0) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  dlat = (dlat * 180.0) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  dlon = (dlon * 180.0) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return [lon + dlon, lat + dlat];
}

/** GCJ-02 -> BD-09 (Baidu's published transform). */
export function gcj02ToBd09(lon: number, lat: number): [number, number] {
  const z = Math.sqrt(lon * lon + lat * lat) + 0.00002 * Math.sin(lat * X_PI);
  const theta = Math.atan2(lat, lon) + 0.000003 * Math.cos(lon * X_PI);
  return [z * Math.cos(theta) + 0.0065, z * Math.sin(theta) + 0.006];
}

/**
 * Inverts a forward transform f by fixed-point iteration: p ← p - (f(p) - target). Both offsets are smooth and
 * small (hundreds of metres), so each step gains about three orders of magnitude; stops under 1e-9°.
 */
function invert(f: (lon: number, lat: number) => [number, number], lon: number, lat: number): [number, number] {
  let x = lon;
  let y = lat;
  for (let i = 0; i < 30; i++) {
    const [fx, fy] = f(x, y);
    const ex = fx - lon;
    const ey = fy - lat;
    x -= ex;
    y -= ey;
    if (Math.abs(ex) < 1e-9 && Math.abs(ey) < 1e-9) break;
  }
  return [x, y];
}

/** GCJ-02 -> WGS-84 (exact inverse by iteration, error under 1e-9°). */
export function gcj02ToWgs84(lon: number, lat: number): [number, number] {
  if (outOfChina(lon, lat)) return [lon, lat];
  return invert(wgs84ToGcj02, lon, lat);
}

/** BD-09 -> GCJ-02 (exact inverse by iteration). */
export function bd09ToGcj02(lon: number, lat: number): [number, number] {
  return invert(gcj02ToBd09, lon, lat);
}

export const wgs84ToBd09 = (lon: number, lat: number): [number, number] => gcj02ToBd09(...wgs84ToGcj02(lon, lat));
export const bd09ToWgs84 = (lon: number, lat: number): [number, number] => gcj02ToWgs84(...bd09ToGcj02(lon, lat));

/** Converts a point between any two of the systems. */
export function convert(from: CoordSystem, to: CoordSystem, lon: number, lat: number): [number, number] {
  if (from === to) return [lon, lat];
  const wgs: [number, number] =
    from === 'wgs84' ? [lon, lat] : from === 'gcj02' ? gcj02ToWgs84(lon, lat) : bd09ToWgs84(lon, lat);
  if (to === 'wgs84') return wgs;
  const gcj = wgs84ToGcj02(...wgs);
  return to === 'gcj02' ? gcj : gcj02ToBd09(...gcj);
}

/** Great-circle distance in metres (mean earth radius): for checks and tests. */
export function distanceM(a: LonLat, b: LonLat): number {
  const R = 6371008.8;
  const r = Math.PI / 180;
  const dla = (b[1] - a[1]) * r;
  const dlo = (b[0] - a[0]) * r;
  const h = Math.sin(dla / 2) ** 2 + Math.cos(a[1] * r) * Math.cos(b[1] * r) * Math.sin(dlo / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

// ----------------------------------------------------------------------------------------------- Baidu Mercator
// Baidu draws BD-09 lon/lat in its own Mercator ("BD-09MC"): a piecewise polynomial published in its JavaScript
// API (the LL2MC and MC2LL tables), tiles at zoom z cover 2^(18-z) units per pixel, tile (0,0) at the origin and
// y growing northwards.

const LL_BAND = [75, 60, 45, 30, 15, 0];
const LL2MC = [
  [
    -0.0015702102444, 111320.7020616939, 1704480524535203, -10338987376042340, 26112667856603880, -35149669176653700,
    26595700718403920, -10725012454188240, 1800819912950474, 82.6,
  ],
  [
    0.0008277824516172526, 111320.7020463578, 647795574.6671607, -4082003173.641316, 10774905663.51142,
    -15171875531.51559, 12053065338.62167, -5124939663.577472, 913311935.9512032, 67.5,
  ],
  [
    0.00337398766765, 111320.7020202162, 4481351.045890365, -23393751.19931662, 79682215.47186455, -115964993.2797253,
    97236711.15602145, -43661946.33752821, 8477230.501135234, 52.5,
  ],
  [
    0.00220636496208, 111320.7020209128, 51751.86112841131, 3796837.749470245, 992013.7397791013, -1221952.21711287,
    1340652.697009075, -620943.6990984312, 144416.9293806241, 37.5,
  ],
  [
    -0.0003441963504368392, 111320.7020576856, 278.2353980772752, 2485758.690035394, 6070.750963243378,
    54821.18345352118, 9540.606633304236, -2710.55326746645, 1405.483844121726, 22.5,
  ],
  [
    -0.0003218135878613132, 111320.7020701615, 0.00369383431289, 823725.6402795718, 0.46104986909093, 2351.343141331292,
    1.58060784298199, 8.77738589078284, 0.37238884252424, 7.45,
  ],
];
const MC_BAND = [12890594.86, 8362377.87, 5591021, 3481989.83, 1678043.12, 0];
const MC2LL = [
  [
    1.410526172116255e-8, 0.00000898305509648872, -1.9939833816331, 200.9824383106796, -187.2403703815547,
    91.6087516669843, -23.38765649603339, 2.57121317296198, -0.03801003308653, 17337981.2,
  ],
  [
    -7.435856389565537e-9, 0.000008983055097726239, -0.78625201886289, 96.32687599759846, -1.85204757529826,
    -59.36935905485877, 47.40033549296737, -16.50741931063887, 2.28786674699375, 10260144.86,
  ],
  [
    -3.030883460898826e-8, 0.00000898305509983578, 0.30071316287616, 59.74293618442277, 7.357984074871,
    -25.38371002664745, 13.45380521110908, -3.29883767235584, 0.32710905363475, 6856817.37,
  ],
  [
    -1.981981304930552e-8, 0.000008983055099779535, 0.03278182852591, 40.31678527705744, 0.65659298677277,
    -4.44255534477492, 0.85341911805263, 0.12923347998204, -0.04625736007561, 4482777.06,
  ],
  [
    3.09191371068437e-9, 0.000008983055096812155, 0.00006995724062, 23.10934304144901, -0.00023663490511,
    -0.6321817810242, -0.00663494467273, 0.03430082397953, -0.00466043876332, 2555164.4,
  ],
  [
    2.890871144776878e-9, 0.000008983055095805407, -3.068298e-8, 7.47137025468032, -0.00000353937994, -0.02145144861037,
    -0.00001234426596, 0.00010322952773, -0.00000323890364, 826088.5,
  ],
];

function polyConvert(x: number, y: number, c: number[]): [number, number] {
  const ox = c[0]! + c[1]! * Math.abs(x);
  const t = Math.abs(y) / c[9]!;
  const oy = c[2]! + c[3]! * t + c[4]! * t ** 2 + c[5]! * t ** 3 + c[6]! * t ** 4 + c[7]! * t ** 5 + c[8]! * t ** 6;
  return [ox * (x < 0 ? -1 : 1), oy * (y < 0 ? -1 : 1)];
}

/** BD-09 lon/lat -> Baidu Mercator metres (x east, y north). */
export function bd09ToBdMercator(lon: number, lat: number): [number, number] {
  const x = ((((lon + 180) % 360) + 360) % 360) - 180;
  const y = Math.max(-74, Math.min(74, lat));
  let c: number[] | undefined;
  for (let i = 0; i < LL_BAND.length; i++) {
    if (Math.abs(y) >= LL_BAND[i]!) {
      c = LL2MC[i];
      break;
    }
  }
  return polyConvert(x, y, c ?? LL2MC[LL2MC.length - 1]!);
}

/** Baidu Mercator metres -> BD-09 lon/lat. */
export function bdMercatorToBd09(x: number, y: number): [number, number] {
  const ay = Math.abs(y);
  let c: number[] | undefined;
  for (let i = 0; i < MC_BAND.length; i++) {
    if (ay >= MC_BAND[i]!) {
      c = MC2LL[i];
      break;
    }
  }
  return polyConvert(x, y, c ?? MC2LL[MC2LL.length - 1]!);
}
