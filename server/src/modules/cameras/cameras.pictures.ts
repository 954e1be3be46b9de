import fs from 'node:fs';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { isDbId, likePattern } from '../../platform/db/sql.ts';
import * as repo from './cameras.repository.ts';
import { snapshotFile } from './cameras.service.ts';

/** A camera snapshot as a picture of its site (the image-comparison report picks from them). */
export interface SitePictureSnapshot {
  id: number;
  platformId: number;
  cameraName: string;
  takenAt: Date;
  size: number;
}

/**
 * The snapshots of a site's cameras that the caller sees (data scope and role camera configuration), newest first:
 * the first `limit` of them and how many there are. `keyword` matches the camera's name.
 */
export async function siteSnapshots(
  db: Db,
  user: SessionUser,
  platformId: number,
  f: { limit: number; keyword?: string | undefined },
): Promise<{ total: number; rows: SitePictureSnapshot[] }> {
  if (!isDbId(platformId)) return { total: 0, rows: [] };
  let q = repo
    .visible(db, user)
    .innerJoin('camera_snapshots as s', 's.camera_id', 'c.id')
    .where('s.platform_id', '=', platformId)
    // Pictures only: a clip (mp4) is no picture to compare.
    .where('s.media', '=', 'jpeg');
  const kw = f.keyword?.trim();
  if (kw) q = q.where(sql<SqlBool>`lower(c.name) like ${likePattern(kw)}`);
  const [rows, total] = await Promise.all([
    q
      .select(['s.id', 's.platform_id', 'c.name', 's.taken_at', 's.size'])
      .orderBy('s.taken_at', 'desc')
      .orderBy('s.id', 'desc')
      .limit(f.limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total.n),
    rows: rows.map((r) => ({
      id: r.id,
      platformId: r.platform_id,
      cameraName: r.name,
      takenAt: new Date(r.taken_at),
      size: r.size,
    })),
  };
}

/**
 * A snapshot the caller sees, with its JPEG's path; null for a missing or foreign one, a clip (no picture), or a
 * lost file.
 */
export async function snapshotPicture(
  db: Db,
  dataDir: string,
  user: SessionUser,
  id: number,
): Promise<(SitePictureSnapshot & { path: string }) | null> {
  if (!isDbId(id)) return null;
  const r = await repo
    .visible(db, user)
    .innerJoin('camera_snapshots as s', 's.camera_id', 'c.id')
    .select(['s.id', 's.camera_id', 's.platform_id', 'c.name', 's.taken_at', 's.size'])
    .where('s.id', '=', id)
    .where('s.media', '=', 'jpeg')
    .executeTakeFirst();
  if (!r) return null;
  const path = snapshotFile(dataDir, r.platform_id, r.camera_id, r.id);
  if (!fs.existsSync(path)) return null;
  return {
    id: r.id,
    platformId: r.platform_id,
    cameraName: r.name,
    takenAt: new Date(r.taken_at),
    size: r.size,
    path,
  };
}
