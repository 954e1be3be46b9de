import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ID = /^[0-9a-f]{32}$/;
const EXT = /^[a-z]{3,4}$/;

/**
 * The bytes of uploaded files: DATA_DIR/files/<first 2 hex of the id>/<id>.<ext>, outside any web root.
 * Names on disk are always generated (a random id and the detected extension), never taken from the client.
 * A file is written to DATA_DIR/files/.tmp first (flushed to disk), then renamed into place.
 */
export class FileStore {
  readonly tmpDir: string;

  constructor(readonly root: string) {
    this.tmpDir = path.join(root, '.tmp');
  }

  /** A new random file id (128 bits, hex). */
  static newId(): string {
    return crypto.randomBytes(16).toString('hex');
  }

  /** Where a stored file lives; throws on an id or extension that could not have been generated. */
  pathOf(id: string, ext: string): string {
    if (!ID.test(id) || !EXT.test(ext)) throw new Error('invalid stored file name');
    return path.join(this.root, id.slice(0, 2), `${id}.${ext}`);
  }

  /** Writes bytes to a new temporary file (flushed); answers its path. */
  async stage(bytes: Buffer): Promise<string> {
    await fs.promises.mkdir(this.tmpDir, { recursive: true, mode: 0o750 });
    const tmp = path.join(this.tmpDir, `${FileStore.newId()}.part`);
    const fh = await fs.promises.open(tmp, 'wx', 0o640);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } catch (e) {
      await fh.close().catch(() => undefined);
      await this.remove(tmp);
      throw e;
    }
    await fh.close();
    return tmp;
  }

  /** Moves a staged file into its final place; answers that path. */
  async commit(tmp: string, id: string, ext: string): Promise<string> {
    const dest = this.pathOf(id, ext);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true, mode: 0o750 });
    await fs.promises.rename(tmp, dest);
    return dest;
  }

  /** Removes a file; a file already gone is not an error. */
  async remove(p: string): Promise<void> {
    await fs.promises.rm(p, { force: true });
  }

  /** Size of a stored file, or null when it is missing on disk. */
  async sizeOf(id: string, ext: string): Promise<number | null> {
    try {
      const st = await fs.promises.stat(this.pathOf(id, ext));
      return st.isFile() ? st.size : null;
    } catch {
      return null;
    }
  }

  open(id: string, ext: string): fs.ReadStream {
    return fs.createReadStream(this.pathOf(id, ext));
  }
}

/**
 * The display name of an upload: the last path segment only, without control or bidirectional-override
 * characters (which can disguise an extension), trimmed, at most 200 characters (the extension kept).
 */
export function displayName(raw: string | undefined): string {
  let name = (raw ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  name = name.replace(/\s+/g, ' ').trim();
  while (name.startsWith('.')) name = name.slice(1);
  if (name.length > 200) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, 200 - ext.length) + ext;
  }
  return name;
}

/** The lower-case extension of a name ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * A Content-Disposition value: an ASCII fallback filename (quotes, backslashes, control and non-ASCII characters
 * replaced by '_') and the exact name in RFC 5987 `filename*`.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_') || 'file';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
