// The map providers (spec §3 Map config, §9 map types) and what each needs of the coordinates.
import { wgs84ToBd09, wgs84ToGcj02, type CoordSystem } from './coords.ts';

export const MAP_TYPES = ['tianditu', 'baidu', 'amap', 'google', 'kml'] as const;
export type MapType = (typeof MAP_TYPES)[number];
export const MAP_MODES = ['online', 'offline'] as const;
export type MapMode = (typeof MAP_MODES)[number];

/**
 * The datum each provider draws in. Tianditu uses CGCS2000, which agrees with WGS-84 to a few centimetres: drawn
 * as WGS-84. A KML map (the system's KML layers over the coordinate grid, or over offline tiles) is WGS-84, as KML is.
 */
export const PROVIDER_SYSTEM: Record<MapType, CoordSystem> = {
  tianditu: 'wgs84',
  baidu: 'bd09',
  amap: 'gcj02',
  google: 'gcj02',
  kml: 'wgs84',
};

/** The tile scheme of a provider: Web Mercator XYZ, or Baidu's own (BD-09 Mercator, y up, 2^(18-z) m a pixel). */
export const PROVIDER_SCHEME: Record<MapType, 'xyz' | 'baidu'> = {
  tianditu: 'xyz',
  baidu: 'baidu',
  amap: 'xyz',
  google: 'xyz',
  kml: 'xyz',
};

/** A stored WGS-84 point as [lon, lat] in the provider's own coordinates (where its map draws that place). */
export function providerPoint(type: MapType, lon: number, lat: number): [number, number] {
  const s = PROVIDER_SYSTEM[type];
  return s === 'gcj02' ? wgs84ToGcj02(lon, lat) : s === 'bd09' ? wgs84ToBd09(lon, lat) : [lon, lat];
}

/**
 * Online tile templates ({s} subdomain, {z}/{x}/{y}). Tianditu's needs a key: the server fetches it (the key never
 * reaches the browser of a user without the system permission), so its template is the server's proxy route.
 */
export const ONLINE_TILES: Record<Exclude<MapType, 'tianditu' | 'kml'>, { url: string; subdomains: string }> = {
  amap: {
    url: 'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}',
    subdomains: '1234',
  },
  google: { url: 'https://mt{s}.google.com/vt/lyrs=m&hl=zh-CN&gl=cn&x={x}&y={y}&z={z}', subdomains: '0123' },
  baidu: {
    url: 'https://maponline{s}.bdimg.com/tile/?qt=vtile&x={x}&y={y}&z={z}&styles=pl&scaler=1&udt=20240101',
    subdomains: '0123',
  },
};

/** Tianditu's WMTS tiles (Web Mercator "w" matrix set): the base layer and its annotation layer. */
export const TIANDITU_LAYERS = ['vec', 'cva', 'img', 'cia'] as const;
export type TiandituLayer = (typeof TIANDITU_LAYERS)[number];
export function tiandituUrl(layer: TiandituLayer, z: number, x: number, y: number, key: string, sub: number): string {
  return (
    `https://t${sub}.tianditu.gov.cn/${layer}_w/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=${layer}` +
    `&STYLE=default&TILEMATRIXSET=w&FORMAT=tiles&TILEMATRIX=${z}&TILEROW=${y}&TILECOL=${x}&tk=${encodeURIComponent(key)}`
  );
}
