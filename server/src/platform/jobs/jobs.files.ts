import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/db.ts';

const ID = /^[0-9a-f]{32}$/;
const EXT = /^[a-z]{3,4}$/;

export interface JobFile {
  id: string;
  ownerId: number;
  name: string;
  ext: string;
  size: number;
  path: string;
}

/**
 * Files of jobs (uploads waiting for their import, results): DATA_DIR/jobs/<id>.<ext>, a row in `job_files` with
 * its owner and expiry. Only the owner reaches a file; names on disk are generated, never the client's.
 */
export class JobFiles {
  readonly root: string;
  readonly tmpDir: string;

  constructor(
    private readonly db: Db,
    dataDir: string,
  ) {
    this.root = path.join(dataDir, 'jobs');
    this.tmpDir = path.join(this.root, '.tmp');
  }

  pathOf(id: string, ext: string): string {
    if (!ID.test(id) || !EXT.test(ext)) throw new Error('invalid job file name');
    return path.join(this.root, `${id}.${ext}`);
  }

  /** A new temporary path for a file being written (moved into place by adopt, or removed). */
  async tempPath(): Promise<string> {
    await fs.promises.mkdir(this.tmpDir, { recursive: true, mode: 0o750 });
    return path.join(this.tmpDir, `${crypto.randomBytes(16).toString('hex')}.part`);
  }

  /** Moves a written temporary file into place and records it (kept `days` days); answers its id. */
  async adopt(tmp: string, f: { ownerId: number; name: string; ext: string; size: number }, days: number) {
    const id = crypto.randomBytes(16).toString('hex');
    const dest = this.pathOf(id, f.ext);
    await fs.promises.rename(tmp, dest);
    try {
      await sql`insert into job_files (id, owner_id, name, ext, size, expires_at)
        values (${id}, ${f.ownerId}, ${f.name}, ${f.ext}, ${f.size}, now() + make_interval(days => ${days}))`.execute(
        this.db.k,
      );
    } catch (e) {
      await fs.promises.rm(dest, { force: true });
      throw e;
    }
    return id;
  }

  /** The owner's file of this id (another's, an expired or a missing one: undefined). */
  async own(ownerId: number, id: string): Promise<JobFile | undefined> {
    if (!ID.test(id)) return undefined;
    const r = await sql<{ id: string; owner_id: number; name: string; ext: string; size: number }>`
      select id, owner_id, name, ext, size from job_files
      where id = ${id} and owner_id = ${ownerId} and expires_at > now()`.execute(this.db.k);
    const row = r.rows[0];
    if (!row) return undefined;
    const p = this.pathOf(row.id, row.ext);
    if (!fs.existsSync(p)) return undefined;
    return { id: row.id, ownerId: row.owner_id, name: row.name, ext: row.ext, size: Number(row.size), path: p };
  }

  /** Removes expired files (rows and bytes) and the named ones; answers how many went. */
  async purge(alsoIds: readonly string[] = []): Promise<number> {
    const r = await sql<{ id: string; ext: string }>`
      delete from job_files where expires_at < now() or id = any(${[...alsoIds]}::text[]) returning id, ext`.execute(
      this.db.k,
    );
    for (const f of r.rows) await fs.promises.rm(this.pathOf(f.id, f.ext), { force: true }).catch(() => undefined);
    // Temporary files of uploads a stop interrupted.
    const old = Date.now() - 24 * 3600_000;
    for (const name of await fs.promises.readdir(this.tmpDir).catch(() => [] as string[])) {
      const p = path.join(this.tmpDir, name);
      const st = await fs.promises.stat(p).catch(() => null);
      if (st && st.mtimeMs < old) await fs.promises.rm(p, { force: true }).catch(() => undefined);
    }
    return r.rows.length;
  }
}
