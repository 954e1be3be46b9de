import L from 'leaflet';
import {
  PROVIDER_SYSTEM,
  bd09ToBdMercator,
  bd09ToWgs84,
  bdMercatorToBd09,
  gcj02ToWgs84,
  wgs84ToBd09,
  wgs84ToGcj02,
  type MapType,
} from '@geosentry/contract';

/**
 * The Leaflet CRS of a map provider (issue 21). Every map of the console takes WGS-84 lat/lon (what devices and
 * sites store); the CRS carries the datum shift, so a GNSS point lands on the right spot of each provider's tiles:
 *  - Tianditu (CGCS2000 = WGS-84 to centimetres) and KML maps: plain Web Mercator (EPSG:3857);
 *  - Amap and Google China: WGS-84 -> GCJ-02, then Web Mercator;
 *  - Baidu: WGS-84 -> BD-09 -> Baidu Mercator, with Baidu's tile scheme (2^(18-z) m a pixel, y up).
 */
const SM = L.Projection.SphericalMercator;

const gcjProjection: L.Projection = {
  project(ll: L.LatLng): L.Point {
    const [lon, lat] = wgs84ToGcj02(ll.lng, ll.lat);
    return SM.project(L.latLng(lat, lon));
  },
  unproject(p: L.Point): L.LatLng {
    const g = SM.unproject(p);
    const [lon, lat] = gcj02ToWgs84(g.lng, g.lat);
    return L.latLng(lat, lon);
  },
  bounds: SM.bounds,
};

const baiduProjection: L.Projection = {
  project(ll: L.LatLng): L.Point {
    const [x, y] = bd09ToBdMercator(...wgs84ToBd09(ll.lng, ll.lat));
    return L.point(x, y);
  },
  unproject(p: L.Point): L.LatLng {
    const [lon, lat] = bd09ToWgs84(...bdMercatorToBd09(p.x, p.y));
    return L.latLng(lat, lon);
  },
  bounds: L.bounds([-20037726.37, -12474104.17], [20037726.37, 12474104.17]),
};

export const GcjCRS: L.CRS = L.extend({}, L.CRS.EPSG3857, { code: 'GCJ02:3857', projection: gcjProjection });

export const BaiduCRS: L.CRS = L.extend({}, L.CRS.Earth, {
  code: 'BD09:MC',
  projection: baiduProjection,
  transformation: new L.Transformation(1, 0, -1, 0),
  scale: (zoom: number) => 2 ** (zoom - 18),
  zoom: (scale: number) => Math.log2(scale) + 18,
  infinite: false,
  // No longitude wrapping: BD-09 shifts 180° past the antimeridian, which made Leaflet's wrap range empty and sent
  // every tile column to one.
  wrapLng: undefined,
});

export function crsOf(type: MapType): L.CRS {
  const s = PROVIDER_SYSTEM[type];
  return s === 'bd09' ? BaiduCRS : s === 'gcj02' ? GcjCRS : L.CRS.EPSG3857;
}

/** Baidu's tile row of a Leaflet tile row (Leaflet counts down from the origin, Baidu up). */
export const baiduRow = (leafletY: number): number => -leafletY - 1;
