// Offline tile sets (issue 21): imported through the console into DATA_DIR/maps/tiles and served from there.
// A PMTiles archive is kept as it is and read by range with the `pmtiles` package; an MBTiles file (read with
// sql.js) and a zip of an XYZ folder are unpacked into an XYZ folder <id>/z/x/y.<ext>. Every tile's bytes are
// checked to be an image of the set's one type.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PMTiles, TileType, type RangeResponse, type Source } from 'pmtiles';
import initSqlJs from 'sql.js';
import { Status, type TileSetFormat } from '@geosentry/contract';
import { AppError } from '../../platform/http/errors.ts';
import { zipBomb, zipEntries, zipRead } from '../../platform/files/zip.ts';

export type ImageType = 'png' | 'jpg' | 'webp';
export const IMAGE_MIME: Record<ImageType, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

export function imageTypeOf(b: Uint8Array): ImageType | null {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (
    b.length >= 12 &&
    Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' &&
    Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

const badFile = (): AppError => new AppError(Status.invalid, 'mapTileSetBadFile');

export interface Imported {
  format: TileSetFormat;
  imageType: ImageType;
  minZoom: number;
  maxZoom: number;
  tiles: number;
  bytes: number;
}

/** Reads a PMTiles archive from a local file by range. */
class NodeFileSource implements Source {
  constructor(private readonly file: string) {}
  getKey(): string {
    return this.file;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const fh = await fsp.open(this.file, 'r');
    try {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, offset);
      const data = buf.subarray(0, bytesRead);
      return { data: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer };
    } finally {
      await fh.close();
    }
  }
}

const PM_TYPES: Partial<Record<TileType, ImageType>> = {
  [TileType.Png]: 'png',
  [TileType.Jpeg]: 'jpg',
  [TileType.Webp]: 'webp',
};

const TILE_PATH = /^(?:[^/]+\/)?(\d{1,2})\/(-?\d{1,8})\/(-?\d{1,8})\.(png|jpg|jpeg|webp)$/i;

export class TileStore {
  private readonly root: string;
  private readonly pm = new Map<number, PMTiles>();
  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'maps', 'tiles');
  }

  tmpPath(): string {
    fs.mkdirSync(path.join(this.root, 'tmp'), { recursive: true });
    return path.join(this.root, 'tmp', `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  }

  /** Checks and unpacks an uploaded file (at `file`) into a staging place; `commit(id)` then moves it under the id. */
  async prepare(file: string): Promise<Imported & { commit(id: number): Promise<void>; discard(): Promise<void> }> {
    const head = Buffer.alloc(16);
    const fh = await fsp.open(file, 'r');
    const size = (await fh.stat()).size;
    await fh.read(head, 0, 16, 0);
    await fh.close();
    const staged = `${file}.d`;
    const discard = async () => {
      await fsp.rm(staged, { recursive: true, force: true });
      await fsp.rm(file, { force: true });
    };
    try {
      if (head.subarray(0, 7).toString('latin1') === 'PMTiles' && head[7] === 3) {
        const h = await new PMTiles(new NodeFileSource(file)).getHeader().catch(() => null);
        const imageType = h ? PM_TYPES[h.tileType] : undefined;
        if (!h || !imageType) throw badFile();
        if (!h.numAddressedTiles) throw new AppError(Status.invalid, 'mapTileSetEmpty');
        return {
          format: 'pmtiles',
          imageType,
          minZoom: h.minZoom,
          maxZoom: h.maxZoom,
          tiles: h.numAddressedTiles,
          bytes: size,
          commit: async (id) => {
            await fsp.rename(file, path.join(this.root, `${id}.pmtiles`));
          },
          discard,
        };
      }
      let unpacked: Omit<Imported, 'format' | 'bytes'>;
      let format: TileSetFormat;
      if (head.subarray(0, 16).toString('latin1') === 'SQLite format 3\0') {
        format = 'mbtiles';
        unpacked = await this.unpackMbtiles(file, staged);
      } else if (head.subarray(0, 4).toString('latin1') === 'PK\x03\x04') {
        format = 'xyz';
        unpacked = await this.unpackZip(file, staged);
      } else throw badFile();
      return {
        format,
        ...unpacked,
        bytes: size,
        commit: async (id) => {
          await fsp.rename(staged, path.join(this.root, String(id)));
          await fsp.rm(file, { force: true });
        },
        discard,
      };
    } catch (e) {
      await discard();
      throw e;
    }
  }

  private async writeTiles(
    staged: string,
    tiles: Iterable<{ z: number; x: number; y: number; data: Uint8Array }>,
  ): Promise<Omit<Imported, 'format' | 'bytes'>> {
    let imageType: ImageType | null = null;
    let minZoom = 99;
    let maxZoom = -1;
    let count = 0;
    for (const t of tiles) {
      const type = imageTypeOf(t.data);
      if (!type || (imageType && type !== imageType)) throw badFile();
      imageType = type;
      if (t.z < 0 || t.z > 22) throw badFile();
      const dir = path.join(staged, String(t.z), String(t.x));
      await fsp.mkdir(dir, { recursive: true });
      await fsp.writeFile(path.join(dir, `${t.y}.${type}`), t.data);
      minZoom = Math.min(minZoom, t.z);
      maxZoom = Math.max(maxZoom, t.z);
      count++;
    }
    if (!count || !imageType) throw new AppError(Status.invalid, 'mapTileSetEmpty');
    return { imageType, minZoom, maxZoom, tiles: count };
  }

  private async unpackMbtiles(file: string, staged: string): Promise<Omit<Imported, 'format' | 'bytes'>> {
    const SQL = await initSqlJs();
    let db: InstanceType<typeof SQL.Database>;
    try {
      db = new SQL.Database(await fsp.readFile(file));
    } catch {
      throw badFile();
    }
    try {
      let stmt;
      try {
        stmt = db.prepare('select zoom_level, tile_column, tile_row, tile_data from tiles');
      } catch {
        throw badFile();
      }
      const rows: { z: number; x: number; y: number; data: Uint8Array }[] = [];
      while (stmt.step()) {
        const [z, x, row, data] = stmt.get() as [number, number, number, Uint8Array];
        if (!Number.isInteger(z) || !Number.isInteger(x) || !Number.isInteger(row) || !(data instanceof Uint8Array))
          throw badFile();
        // MBTiles rows count from the south (TMS): XYZ y is flipped.
        rows.push({ z, x, y: 2 ** z - 1 - row, data });
      }
      stmt.free();
      return await this.writeTiles(staged, rows);
    } finally {
      db.close();
    }
  }

  private async unpackZip(file: string, staged: string): Promise<Omit<Imported, 'format' | 'bytes'>> {
    const buf = await fsp.readFile(file);
    const entries = zipEntries(buf);
    if (!entries || zipBomb(entries)) throw badFile();
    function* tiles() {
      for (const e of entries!) {
        if (e.name.endsWith('/')) continue;
        const m = TILE_PATH.exec(e.name);
        if (!m) continue; // other files (a readme, metadata) are ignored
        const data = zipRead(buf, e, 4 * 1024 * 1024);
        if (!data) throw badFile();
        yield { z: Number(m[1]), x: Number(m[2]), y: Number(m[3]), data };
      }
    }
    return this.writeTiles(staged, tiles());
  }

  /** One tile's bytes, or null when the set has none there. */
  async tile(
    set: { id: number; format: string; imageType: ImageType },
    z: number,
    x: number,
    y: number,
  ): Promise<Buffer | null> {
    if (set.format === 'pmtiles') {
      let p = this.pm.get(set.id);
      if (!p) {
        p = new PMTiles(new NodeFileSource(path.join(this.root, `${set.id}.pmtiles`)));
        this.pm.set(set.id, p);
      }
      if (x < 0 || y < 0 || x >= 2 ** z || y >= 2 ** z) return null;
      const r = await p.getZxy(z, x, y).catch(() => undefined);
      return r ? Buffer.from(r.data) : null;
    }
    const f = path.join(this.root, String(set.id), String(z), String(x), `${y}.${set.imageType}`);
    try {
      return await fsp.readFile(f);
    } catch {
      return null;
    }
  }

  async remove(id: number): Promise<void> {
    this.pm.delete(id);
    await fsp.rm(path.join(this.root, String(id)), { recursive: true, force: true });
    await fsp.rm(path.join(this.root, `${id}.pmtiles`), { force: true });
  }
}
