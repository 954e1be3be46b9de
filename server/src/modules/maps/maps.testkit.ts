// Synthetic offline tile sets for tests, the browser test and screenshots (issue 21): small PNG tiles drawn here
// (a provider's colour, a grid and the tile's z/x/y in a 3x5 pixel font), packed as a zip of an XYZ folder, an
// MBTiles file (sql.js) or a PMTiles v3 archive (written here: the pmtiles package only reads).
import zlib from 'node:zlib';
import initSqlJs from 'sql.js';
import { zxyToTileId } from 'pmtiles';

const FONT: Record<string, number[]> = {
  '0': [7, 5, 5, 5, 7],
  '1': [2, 6, 2, 2, 7],
  '2': [7, 1, 7, 4, 7],
  '3': [7, 1, 7, 1, 7],
  '4': [5, 5, 7, 1, 1],
  '5': [7, 4, 7, 1, 7],
  '6': [7, 4, 7, 5, 7],
  '7': [7, 1, 1, 1, 1],
  '8': [7, 5, 7, 5, 7],
  '9': [7, 5, 7, 1, 7],
  '/': [1, 1, 2, 4, 4],
  '-': [0, 0, 7, 0, 0],
};

function crcChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

/** A 256 px PNG tile: background colour, a darker grid, the label written large. */
export function tilePng(rgb: [number, number, number], label: string, size = 256): Buffer {
  const px = Buffer.alloc(size * (size * 3 + 1));
  const scale = 4;
  const textW = label.length * 4 * scale;
  const tx = Math.max(2, Math.floor((size - textW) / 2));
  const ty = Math.floor(size / 2 - 10);
  for (let y = 0; y < size; y++) {
    px[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      let c: [number, number, number] = rgb;
      if (x % 32 === 0 || y % 32 === 0) c = [rgb[0] * 0.85, rgb[1] * 0.85, rgb[2] * 0.85];
      if (x < 2 || y < 2) c = [rgb[0] * 0.5, rgb[1] * 0.5, rgb[2] * 0.5];
      const gx = Math.floor((x - tx) / scale);
      const gy = Math.floor((y - ty) / scale);
      if (gx >= 0 && gy >= 0 && gy < 5 && gx < label.length * 4) {
        const ch = FONT[label[Math.floor(gx / 4)]!];
        const col = gx % 4;
        if (ch && col < 3 && (ch[gy]! >> (2 - col)) & 1) c = [40, 40, 40];
      }
      const o = y * (size * 3 + 1) + 1 + x * 3;
      px[o] = c[0];
      px[o + 1] = c[1];
      px[o + 2] = c[2];
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    crcChunk('IHDR', ihdr),
    crcChunk('IDAT', zlib.deflateSync(px)),
    crcChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface SynthTile {
  z: number;
  x: number;
  y: number;
  data: Buffer;
}

/** Web Mercator XYZ tile of a lon/lat at a zoom. */
export function xyzTile(lon: number, lat: number, z: number): { x: number; y: number } {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
  return { x, y };
}

/** The tiles around a point from zoom z0 to z1 (radius r tiles at each zoom). */
export function tilesAround(
  tileAt: (z: number) => { x: number; y: number },
  z0: number,
  z1: number,
  r: number,
  rgb: [number, number, number],
): SynthTile[] {
  const out: SynthTile[] = [];
  for (let z = z0; z <= z1; z++) {
    const c = tileAt(z);
    for (let dx = -r; dx <= r; dx++)
      for (let dy = -r; dy <= r; dy++) {
        const x = c.x + dx;
        const y = c.y + dy;
        out.push({ z, x, y, data: tilePng(rgb, `${z}/${x}/${y}`) });
      }
  }
  return out;
}

/** A zip (stored entries) of an XYZ folder: root/z/x/y.png. */
export function xyzZip(tiles: readonly SynthTile[], root = 'tiles', extra: Record<string, Buffer> = {}): Buffer {
  const files: [string, Buffer][] = [
    ...tiles.map((t) => [`${root}/${t.z}/${t.x}/${t.y}.png`, t.data] as [string, Buffer]),
    ...Object.entries(extra),
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of files) {
    const n = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data) >>> 0;
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(data.length, 18);
    h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(n.length, 26);
    locals.push(h, n, data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(data.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(n.length, 28);
    c.writeUInt32LE(offset, 42);
    centrals.push(c, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** An MBTiles file (TMS rows). */
export async function mbtiles(tiles: readonly SynthTile[]): Promise<Buffer> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.run(
    'create table metadata (name text, value text); create table tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)',
  );
  db.run("insert into metadata values ('format', 'png')");
  const st = db.prepare('insert into tiles values (?, ?, ?, ?)');
  for (const t of tiles) st.run([t.z, t.x, 2 ** t.z - 1 - t.y, t.data]);
  st.free();
  const out = Buffer.from(db.export());
  db.close();
  return out;
}

// PMTiles v3: Hilbert tile ids, an uncompressed root directory, no metadata.
function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
}

export function pmtiles(tiles: readonly SynthTile[], bounds: [number, number, number, number]): Buffer {
  const sorted = tiles.map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), t })).sort((a, b) => a.id - b.id);
  const dir: number[] = [];
  varint(sorted.length, dir);
  let last = 0;
  for (const e of sorted) {
    varint(e.id - last, dir);
    last = e.id;
  }
  for (let i = 0; i < sorted.length; i++) varint(1, dir);
  for (const e of sorted) varint(e.t.data.length, dir);
  for (let i = 0; i < sorted.length; i++) varint(i === 0 ? 1 : 0, dir);
  const dirBuf = Buffer.from(dir);
  const data = Buffer.concat(sorted.map((e) => e.t.data));
  const meta = Buffer.from('{}');
  const h = Buffer.alloc(127);
  h.write('PMTiles', 0, 'latin1');
  h[7] = 3;
  const rootOff = 127;
  const metaOff = rootOff + dirBuf.length;
  const dataOff = metaOff + meta.length;
  const u64 = (v: number, at: number) => h.writeBigUInt64LE(BigInt(v), at);
  u64(rootOff, 8);
  u64(dirBuf.length, 16);
  u64(metaOff, 24);
  u64(meta.length, 32);
  u64(dataOff + data.length, 40);
  u64(0, 48);
  u64(dataOff, 56);
  u64(data.length, 64);
  u64(sorted.length, 72);
  u64(sorted.length, 80);
  u64(sorted.length, 88);
  h[96] = 1; // clustered
  h[97] = 1; // internal compression: none
  h[98] = 1; // tile compression: none
  h[99] = 2; // png
  h[100] = Math.min(...tiles.map((t) => t.z));
  h[101] = Math.max(...tiles.map((t) => t.z));
  h.writeInt32LE(Math.round(bounds[0] * 1e7), 102);
  h.writeInt32LE(Math.round(bounds[1] * 1e7), 106);
  h.writeInt32LE(Math.round(bounds[2] * 1e7), 110);
  h.writeInt32LE(Math.round(bounds[3] * 1e7), 114);
  h[118] = h[100]!;
  h.writeInt32LE(Math.round(((bounds[0] + bounds[2]) / 2) * 1e7), 119);
  h.writeInt32LE(Math.round(((bounds[1] + bounds[3]) / 2) * 1e7), 123);
  return Buffer.concat([h, dirBuf, meta, data]);
}

/** A multipart/form-data body of fields and one file. */
export function multipartBody(
  fields: Record<string, string>,
  file: { name: string; data: Buffer; field?: string } | null,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----gs${Math.random().toString(36).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
