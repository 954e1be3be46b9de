import fs from 'node:fs';
import path from 'node:path';
import { THREE_D_TILESET_NAME } from '@geosentry/contract';

/** The content types of a tileset's files (3D Tiles 1.0 and 1.1); others are served as bytes. */
const TYPES: Record<string, string> = {
  json: 'application/json',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  b3dm: 'application/octet-stream',
  i3dm: 'application/octet-stream',
  pnts: 'application/octet-stream',
  cmpt: 'application/octet-stream',
  subtree: 'application/octet-stream',
  bin: 'application/octet-stream',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  ktx2: 'image/ktx2',
};

/**
 * The 3D Tiles tilesets the operator put under DATA_DIR/threeD/tilesets: one folder each, with its tileset.json.
 * Files are read from inside a tileset's folder only (no '..', no absolute path, no link leading out of it).
 */
export class TilesetStore {
  constructor(readonly root: string) {}

  /** Folder names holding a tileset.json, by name. */
  async list(): Promise<string[]> {
    const entries = await fs.promises.readdir(this.root, { withFileTypes: true }).catch(() => []);
    const names: string[] = [];
    for (const e of entries)
      if (e.isDirectory() && THREE_D_TILESET_NAME.test(e.name) && (await this.isFile(e.name, 'tileset.json')))
        names.push(e.name);
    return names.sort();
  }

  async exists(name: string): Promise<boolean> {
    return THREE_D_TILESET_NAME.test(name) && this.isFile(name, 'tileset.json');
  }

  private async isFile(name: string, rel: string): Promise<boolean> {
    return fs.promises.stat(path.join(this.root, name, rel)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  /** A file of a tileset: its stream, size and type, or null when it is not a file inside the tileset's folder. */
  async open(name: string, rel: string): Promise<{ stream: fs.ReadStream; size: number; type: string } | null> {
    if (!THREE_D_TILESET_NAME.test(name)) return null;
    let clean: string;
    try {
      clean = decodeURIComponent(rel.split('?')[0] ?? '');
    } catch {
      return null;
    }
    if (!clean || clean.includes('\0') || path.isAbsolute(clean) || clean.split(/[\\/]/).includes('..')) return null;
    const folder = await fs.promises.realpath(path.join(this.root, name)).catch(() => null);
    if (!folder) return null;
    const file = await fs.promises.realpath(path.join(folder, clean)).catch(() => null);
    if (!file || !file.startsWith(folder + path.sep)) return null;
    const st = await fs.promises.stat(file).catch(() => null);
    if (!st?.isFile()) return null;
    const ext = path.extname(file).slice(1).toLowerCase();
    return { stream: fs.createReadStream(file), size: st.size, type: TYPES[ext] ?? 'application/octet-stream' };
  }
}
