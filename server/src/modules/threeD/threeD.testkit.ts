import zlib from 'node:zlib';

/**
 * Fixtures of the 3D and panorama features (tests, browser tests and the bench): a GLB terrain of a given size and
 * an equirectangular PNG drawn in code.
 */

/**
 * A GLB of a square terrain grid of `cells` x `cells` quads (2 triangles each) spanning `size` m, hills of up to
 * `relief` m, with normals and 32-bit indices: cells = 500 gives 500,000 triangles.
 */
export function terrainGlb(cells: number, size = 200, relief = 12): Buffer {
  const n = cells + 1;
  const pos = new Float32Array(n * n * 3);
  const nor = new Float32Array(n * n * 3);
  const h = (i: number, j: number): number => {
    const x = i / cells;
    const z = j / cells;
    return relief * (0.5 * Math.sin(x * 6.3) * Math.cos(z * 4.1) + 0.35 * Math.sin((x + z) * 11) + 0.6 * x * z);
  };
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const k = (j * n + i) * 3;
      pos[k] = (i / cells - 0.5) * size;
      pos[k + 1] = h(i, j);
      pos[k + 2] = (j / cells - 0.5) * size;
      const dx = h(Math.min(i + 1, cells), j) - h(Math.max(i - 1, 0), j);
      const dz = h(i, Math.min(j + 1, cells)) - h(i, Math.max(j - 1, 0));
      const step = (2 * size) / cells;
      const len = Math.hypot(dx, step, dz);
      nor[k] = -dx / len;
      nor[k + 1] = step / len;
      nor[k + 2] = -dz / len;
    }
  const idx = new Uint32Array(cells * cells * 6);
  let t = 0;
  for (let j = 0; j < cells; j++)
    for (let i = 0; i < cells; i++) {
      const a = j * n + i;
      const b = a + 1;
      const c = a + n;
      const d = c + 1;
      idx.set([a, c, b, b, c, d], t);
      t += 6;
    }
  let minY = Infinity;
  let maxY = -Infinity;
  for (let k = 1; k < pos.length; k += 3) {
    minY = Math.min(minY, pos[k]!);
    maxY = Math.max(maxY, pos[k]!);
  }
  const bin = Buffer.concat([Buffer.from(pos.buffer), Buffer.from(nor.buffer), Buffer.from(idx.buffer)]);
  const doc = {
    asset: { version: '2.0', generator: 'geosentry testkit' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, name: 'terrain' }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: 0 }] }],
    materials: [
      { pbrMetallicRoughness: { baseColorFactor: [0.55, 0.62, 0.45, 1], metallicFactor: 0, roughnessFactor: 0.95 } },
    ],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: pos.byteLength, target: 34962 },
      { buffer: 0, byteOffset: pos.byteLength, byteLength: nor.byteLength, target: 34962 },
      { buffer: 0, byteOffset: pos.byteLength * 2, byteLength: idx.byteLength, target: 34963 },
    ],
    accessors: [
      {
        bufferView: 0,
        componentType: 5126,
        count: n * n,
        type: 'VEC3',
        min: [-size / 2, minY, -size / 2],
        max: [size / 2, maxY, size / 2],
      },
      { bufferView: 1, componentType: 5126, count: n * n, type: 'VEC3' },
      { bufferView: 2, componentType: 5125, count: idx.length, type: 'SCALAR' },
    ],
  };
  return glbOf(doc, bin);
}

/** A GLB container of a glTF document and its binary chunk. */
export function glbOf(doc: unknown, bin: Buffer = Buffer.alloc(0)): Buffer {
  let json = Buffer.from(JSON.stringify(doc), 'utf8');
  if (json.length % 4) json = Buffer.concat([json, Buffer.alloc(4 - (json.length % 4), 0x20)]);
  const binPadded = bin.length % 4 ? Buffer.concat([bin, Buffer.alloc(4 - (bin.length % 4))]) : bin;
  const chunks = [chunk(json, 0x4e4f534a)];
  if (binPadded.length) chunks.push(chunk(binPadded, 0x004e4942));
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(12);
  head.writeUInt32LE(0x46546c67, 0);
  head.writeUInt32LE(2, 4);
  head.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([head, body]);
}

function chunk(data: Buffer, type: number): Buffer {
  const h = Buffer.alloc(8);
  h.writeUInt32LE(data.length, 0);
  h.writeUInt32LE(type, 4);
  return Buffer.concat([h, data]);
}

/** A PNG of width x height pixels, RGB from `pixel(x, y)`. */
export function pngOf(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number],
): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const part = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    part('IHDR', ihdr),
    part('IDAT', zlib.deflateSync(raw)),
    part('IEND', Buffer.alloc(0)),
  ]);
}

/** An equirectangular test panorama: a sky-to-ground gradient with a grid every 30 degrees and a dark horizon. */
export function panoramaPng(width = 1024): Buffer {
  const height = width / 2;
  return pngOf(width, height, (x, y) => {
    const v = y / height;
    const gridX = x % Math.round(width / 12) < 2;
    const gridY = y % Math.round(height / 6) < 2;
    if (Math.abs(y - height / 2) < 2) return [40, 40, 40];
    if (gridX || gridY) return [230, 230, 230];
    return v < 0.5
      ? [Math.round(90 + 100 * v), Math.round(150 + 120 * v), 235]
      : [Math.round(120 - 40 * v), Math.round(140 - 30 * v), Math.round(80 - 20 * v)];
  });
}
