import { Document, NodeIO } from '@gltf-transform/core';
import type { Dem } from './threeD.dem.ts';

/** A picture draped over the terrain and where a WGS-84 point falls on it (u right, v down, 0 to 1). */
export interface Imagery {
  png: Buffer;
  uv(lon: number, lat: number): [number, number];
}

/** A site's terrain as a model: its GLB, and where a WGS-84 point stands on it (model coordinates), or null outside. */
export interface Terrain {
  glb: Buffer;
  triangles: number;
  place(lon: number, lat: number): { x: number; y: number; z: number } | null;
}

/** Vertices per side at most: 400 x 400 quads, 320,000 triangles (the viewer's preview takes it down further). */
export const TERRAIN_MAX_SIDE = 401;

/** Metres per degree (WGS-84 ellipsoid, at the terrain's mid latitude): a local east-north frame, exact to < 0.5 %. */
function metresPerDegree(lat: number): { lon: number; lat: number } {
  const r = (lat * Math.PI) / 180;
  return {
    lon: 111_412.84 * Math.cos(r) - 93.5 * Math.cos(3 * r),
    lat: 111_132.92 - 559.82 * Math.cos(2 * r) + 1.175 * Math.cos(4 * r),
  };
}

/** Hypsometric colours (low green, mid ochre, high grey-white) where there is no map to drape. */
function tint(t: number): [number, number, number] {
  const stops: [number, [number, number, number]][] = [
    [0, [0.3, 0.5, 0.28]],
    [0.45, [0.62, 0.6, 0.38]],
    [0.75, [0.55, 0.45, 0.33]],
    [1, [0.92, 0.92, 0.9]],
  ];
  for (let i = 1; i < stops.length; i++) {
    const [t1, c1] = stops[i]!;
    const [t0, c0] = stops[i - 1]!;
    if (t <= t1) {
      const f = (t - t0) / (t1 - t0 || 1);
      return [c0[0] + (c1[0] - c0[0]) * f, c0[1] + (c1[1] - c0[1]) * f, c0[2] + (c1[2] - c0[2]) * f];
    }
  }
  return stops[stops.length - 1]![1];
}

/**
 * The terrain of an elevation model as a triangle mesh: the DEM's cell centres resampled (bilinear) to at most
 * TERRAIN_MAX_SIDE vertices a side, in metres east (x), up (y, from the lowest point) and south (z) of the DEM's
 * centre; gaps in the data take the lowest height. With imagery, the map is its texture; without, heights colour it.
 */
export async function buildTerrain(dem: Dem, imagery: Imagery | null): Promise<Terrain> {
  const { cols, rows, west, south, east, north, heights } = dem;
  let low = Infinity;
  let high = -Infinity;
  for (const h of heights)
    if (Number.isFinite(h)) {
      if (h < low) low = h;
      if (h > high) high = h;
    }
  const dx = (east - west) / cols;
  const dy = (north - south) / rows;
  const lon0 = (west + east) / 2;
  const lat0 = (south + north) / 2;
  const m = metresPerDegree(lat0);
  const at = (c: number, r: number): number => {
    const h = heights[r * cols + c]!;
    return Number.isFinite(h) ? h : low;
  };
  /** Height at a point (bilinear between the four cell centres around it), or null outside the cell centres. */
  const heightAt = (lon: number, lat: number): number | null => {
    const fc = (lon - west) / dx - 0.5;
    const fr = (north - lat) / dy - 0.5;
    if (fc < -1e-9 || fr < -1e-9 || fc > cols - 1 + 1e-9 || fr > rows - 1 + 1e-9) return null;
    const c = Math.min(cols - 2, Math.max(0, Math.floor(fc)));
    const r = Math.min(rows - 2, Math.max(0, Math.floor(fr)));
    const u = Math.min(1, Math.max(0, fc - c));
    const v = Math.min(1, Math.max(0, fr - r));
    const top = at(c, r) * (1 - u) + at(c + 1, r) * u;
    const bottom = at(c, r + 1) * (1 - u) + at(c + 1, r + 1) * u;
    return top * (1 - v) + bottom * v;
  };
  const local = (lon: number, lat: number, h: number) => ({
    x: (lon - lon0) * m.lon,
    y: h - low,
    z: -(lat - lat0) * m.lat,
  });

  const nx = Math.min(cols, TERRAIN_MAX_SIDE);
  const nz = Math.min(rows, TERRAIN_MAX_SIDE);
  const lonOf = (i: number): number => west + dx / 2 + ((east - west - dx) * i) / (nx - 1);
  const latOf = (j: number): number => north - dy / 2 - ((north - south - dy) * j) / (nz - 1);
  const n = nx * nz;
  const position = new Float32Array(n * 3);
  const uv = new Float32Array(n * 2);
  const color = new Float32Array(n * 3);
  const span = high - low || 1;
  for (let j = 0; j < nz; j++)
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i;
      const lon = lonOf(i);
      const lat = latOf(j);
      const p = local(lon, lat, heightAt(lon, lat) ?? low);
      position.set([p.x, p.y, p.z], k * 3);
      if (imagery) uv.set(imagery.uv(lon, lat), k * 2);
      else color.set(tint(p.y / span), k * 3);
    }
  // Normals from the neighbours (central differences on the grid).
  const normal = new Float32Array(n * 3);
  const P = (i: number, j: number, a: number): number =>
    position[(Math.min(nz - 1, Math.max(0, j)) * nx + Math.min(nx - 1, Math.max(0, i))) * 3 + a]!;
  for (let j = 0; j < nz; j++)
    for (let i = 0; i < nx; i++) {
      const ex = [P(i + 1, j, 0) - P(i - 1, j, 0), P(i + 1, j, 1) - P(i - 1, j, 1), P(i + 1, j, 2) - P(i - 1, j, 2)];
      const ez = [P(i, j + 1, 0) - P(i, j - 1, 0), P(i, j + 1, 1) - P(i, j - 1, 1), P(i, j + 1, 2) - P(i, j - 1, 2)];
      // ez x ex points up (z grows southwards, x eastwards).
      const cx = ez[1]! * ex[2]! - ez[2]! * ex[1]!;
      const cy = ez[2]! * ex[0]! - ez[0]! * ex[2]!;
      const cz = ez[0]! * ex[1]! - ez[1]! * ex[0]!;
      const len = Math.hypot(cx, cy, cz) || 1;
      normal.set([cx / len, cy / len, cz / len], (j * nx + i) * 3);
    }
  const quads = (nx - 1) * (nz - 1);
  const index = new Uint32Array(quads * 6);
  let w = 0;
  for (let j = 0; j < nz - 1; j++)
    for (let i = 0; i < nx - 1; i++) {
      const a = j * nx + i;
      const b = a + 1;
      const c = a + nx;
      const d = c + 1;
      index.set([a, c, b, b, c, d], w);
      w += 6;
    }

  const doc = new Document();
  const buffer = doc.createBuffer();
  const acc = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint32Array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const material = doc.createMaterial('terrain').setMetallicFactor(0).setRoughnessFactor(1);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', position))
    .setAttribute('NORMAL', acc('VEC3', normal))
    .setIndices(acc('SCALAR', index))
    .setMaterial(material);
  if (imagery) {
    prim.setAttribute('TEXCOORD_0', acc('VEC2', uv));
    material.setBaseColorTexture(doc.createTexture('map').setImage(imagery.png).setMimeType('image/png'));
  } else prim.setAttribute('COLOR_0', acc('VEC3', color));
  const mesh = doc.createMesh('terrain').addPrimitive(prim);
  doc.createScene('site').addChild(doc.createNode('terrain').setMesh(mesh));
  const glb = Buffer.from(await new NodeIO().writeBinary(doc));
  return {
    glb,
    triangles: quads * 2,
    place: (lon, lat) => {
      const h = heightAt(lon, lat);
      if (h === null) return null;
      const p = local(lon, lat, h);
      const r = (v: number): number => Math.round(v * 100) / 100;
      return { x: r(p.x), y: r(p.y), z: r(p.z) };
    },
  };
}
