// The configured offline map as one picture of an extent (the imagery draped over a site's 3D terrain).
import { Resvg } from '@resvg/resvg-js';
import { PROVIDER_SCHEME, providerPoint, type MapType } from '@geosentry/contract';

/** A picture of an extent and where a WGS-84 point falls on it (u right, v down, 0 to 1). */
export interface ExtentImage {
  png: Buffer;
  uv(lon: number, lat: number): [number, number];
}

export interface Extent {
  west: number;
  south: number;
  east: number;
  north: number;
}

const TILE = 256;
/** Web Mercator pixel of a longitude and latitude at zoom z. */
const px = (lon: number, z: number): number => ((lon + 180) / 360) * TILE * 2 ** z;
const py = (lat: number, z: number): number => {
  const r = (lat * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * TILE * 2 ** z;
};

/**
 * Composes the tiles of a Web Mercator tile set over an extent (given in WGS-84; the provider's datum shift, e.g.
 * GCJ-02, is applied to every point) at the largest zoom of the set whose picture stays within maxPx a side.
 * Missing tiles stay blank; answers null for Baidu's scheme, WebP tiles, or when no tile of the extent exists.
 */
export async function composeExtent(
  type: MapType,
  set: { minZoom: number; maxZoom: number; imageType: string },
  tile: (z: number, x: number, y: number) => Promise<Buffer | null>,
  e: Extent,
  maxPx = 2048,
): Promise<ExtentImage | null> {
  if (PROVIDER_SCHEME[type] !== 'xyz' || (set.imageType !== 'png' && set.imageType !== 'jpg')) return null;
  const corners = [
    providerPoint(type, e.west, e.north),
    providerPoint(type, e.east, e.north),
    providerPoint(type, e.west, e.south),
    providerPoint(type, e.east, e.south),
  ];
  const w = Math.min(...corners.map((c) => c[0]));
  const ea = Math.max(...corners.map((c) => c[0]));
  const s = Math.min(...corners.map((c) => c[1]));
  const n = Math.max(...corners.map((c) => c[1]));
  let z = set.minZoom;
  for (let k = set.maxZoom; k >= set.minZoom; k--)
    if (px(ea, k) - px(w, k) <= maxPx && py(s, k) - py(n, k) <= maxPx) {
      z = k;
      break;
    }
  const left = px(w, z);
  const top = py(n, z);
  const width = Math.max(1, Math.ceil(px(ea, z) - left));
  const height = Math.max(1, Math.ceil(py(s, z) - top));
  const images: string[] = [];
  const mime = set.imageType === 'png' ? 'image/png' : 'image/jpeg';
  for (let ty = Math.floor(top / TILE); ty <= Math.floor((top + height) / TILE); ty++)
    for (let tx = Math.floor(left / TILE); tx <= Math.floor((left + width) / TILE); tx++) {
      if (ty < 0 || tx < 0 || ty >= 2 ** z || tx >= 2 ** z) continue;
      const bytes = await tile(z, tx, ty);
      if (!bytes) continue;
      images.push(
        `<image x="${tx * TILE - left}" y="${ty * TILE - top}" width="${TILE}" height="${TILE}" href="data:${mime};base64,${bytes.toString('base64')}"/>`,
      );
    }
  if (images.length === 0) return null;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${images.join('')}</svg>`;
  const png = new Resvg(svg, { background: '#e8eef3', font: { loadSystemFonts: false } }).render().asPng();
  return {
    png,
    uv: (lon, lat) => {
      const [x, y] = providerPoint(type, lon, lat);
      return [(px(x, z) - left) / width, (py(y, z) - top) / height];
    },
  };
}
