import { sql, type SqlBool } from 'kysely';
import type { DeviceState, HotspotInput, Hotspot, PanoramaRow } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';
import { numericValues } from '../threeD/index.ts';

/** Panoramas and hotspots: every read takes the caller's data scope through the panorama's site. */

export interface PanoramaFile {
  id: number;
  platformId: number;
  fileKey: string;
  ext: string;
}

const SORTABLE: Record<string, string> = { name: 'v.name', platformName: 'p.name', createdAt: 'v.created_at' };

export function imageUrl(id: number, fileKey: string): string {
  return `/api/v2/data/vr/getImage?id=${id}&v=${fileKey.slice(0, 8)}`;
}

function base(db: Db, scope: DataScope) {
  return whereInScope(
    db.k.selectFrom('panoramas as v').innerJoin('platforms as p', 'p.id', 'v.platform_id'),
    scope,
    'v.platform_id',
  );
}

const rowColumns = [
  'v.id',
  'v.platform_id',
  'p.name as platform_name',
  'v.name',
  'v.width',
  'v.height',
  'v.size',
  'v.file_key',
  'v.created_at',
  sql<number>`(select count(*)::int from panorama_hotspots h where h.panorama_id = v.id)`.as('hotspots'),
] as const;

type RawRow = {
  id: number;
  platform_id: number;
  platform_name: string;
  name: string;
  width: number;
  height: number;
  size: number | string;
  file_key: string;
  created_at: Date;
  hotspots: number;
};

const toRow = (r: RawRow): PanoramaRow => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  name: r.name,
  width: r.width,
  height: r.height,
  size: Number(r.size),
  hotspots: Number(r.hotspots),
  url: imageUrl(r.id, r.file_key),
  createdAt: iso(r.created_at),
});

export async function listPanoramas(
  db: Db,
  scope: DataScope,
  f: {
    platformId?: number | undefined;
    keyword?: string | undefined;
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: PanoramaRow[]; total: number }> {
  let q = base(db, scope);
  if (f.platformId !== undefined) q = q.where('v.platform_id', '=', isDbId(f.platformId) ? f.platformId : 0);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(sql<SqlBool>`(lower(v.name) like ${k} or lower(p.name) like ${k})`);
  }
  const total = await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  const col = SORTABLE[f.sortField ?? ''];
  const rows = (await q
    .select(rowColumns)
    .orderBy(col ? orderBy(col, f.sortOrder) : sql`p.name, v.name`)
    .orderBy('v.id')
    .limit(f.pageSize)
    .offset((f.pageNum - 1) * f.pageSize)
    .execute()) as RawRow[];
  return { list: rows.map(toRow), total: Number(total.n) };
}

/** A panorama in scope (missing and foreign alike: undefined). */
export async function panoramaInScope(db: Db, scope: DataScope, id: number): Promise<PanoramaRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = (await base(db, scope).select(rowColumns).where('v.id', '=', id).executeTakeFirst()) as RawRow | undefined;
  return r ? toRow(r) : undefined;
}

export async function panoramaFile(db: Db, scope: DataScope, id: number): Promise<PanoramaFile | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await base(db, scope)
    .select(['v.id', 'v.platform_id', 'v.file_key', 'v.ext'])
    .where('v.id', '=', id)
    .executeTakeFirst();
  return r ? { id: r.id, platformId: r.platform_id, fileKey: r.file_key, ext: r.ext } : undefined;
}

export async function insertPanorama(
  db: Db,
  p: {
    platformId: number;
    name: string;
    fileKey: string;
    ext: string;
    width: number;
    height: number;
    size: number;
    userId: number;
  },
): Promise<number> {
  const r = await db.k
    .insertInto('panoramas')
    .values({
      platform_id: p.platformId,
      name: p.name,
      file_key: p.fileKey,
      ext: p.ext,
      width: p.width,
      height: p.height,
      size: p.size,
      created_by: p.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function renamePanorama(db: Db, id: number, name: string): Promise<void> {
  await db.k
    .updateTable('panoramas')
    .set({ name, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function deletePanorama(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('panoramas').where('id', '=', id).execute();
}

/** The hotspots of a panorama, with the device's state and newest values, or the linked panorama's name. */
export async function hotspotsOf(db: Db, panoramaId: number): Promise<Hotspot[]> {
  const rows = await db.k
    .selectFrom('panorama_hotspots as h')
    .innerJoin('panoramas as v', 'v.id', 'h.panorama_id')
    .leftJoin('devices as d', (j) => j.onRef('d.id', '=', 'h.device_id').onRef('d.platform_id', '=', 'v.platform_id'))
    .leftJoin('panoramas as t', (j) => j.onRef('t.id', '=', 'h.target_id').onRef('t.platform_id', '=', 'v.platform_id'))
    .select([
      'h.id',
      'h.kind',
      'h.yaw',
      'h.pitch',
      'h.label',
      'd.id as device_id',
      'd.device_name',
      'd.module_id',
      'd.state',
      'd.last_values',
      'd.last_reading_at',
      sql<number | null>`(select max(a.level) from alerts a where a.device_id = d.id and a.status <> 'processed')`.as(
        'alert_level',
      ),
      't.id as target_id',
      't.name as target_name',
    ])
    .where('h.panorama_id', '=', panoramaId)
    .orderBy('h.id')
    .execute();
  const out: Hotspot[] = [];
  for (const r of rows) {
    // A device moved to another site, or a link whose target went: not shown.
    if (r.kind === 'device' && r.device_id === null) continue;
    if (r.kind === 'link' && r.target_id === null) continue;
    out.push({
      id: r.id,
      kind: r.kind as 'device' | 'link',
      yaw: r.yaw,
      pitch: r.pitch,
      label: r.label,
      device:
        r.kind === 'device' && r.device_id !== null
          ? {
              deviceId: r.device_id,
              deviceName: r.device_name ?? '',
              moduleId: r.module_id ?? 0,
              state: (r.state ?? 'offline') as DeviceState,
              alertLevel: r.alert_level === null ? null : Number(r.alert_level),
              values: numericValues(r.last_values),
              lastReadingAt: r.last_reading_at ? iso(r.last_reading_at) : null,
            }
          : null,
      target: r.kind === 'link' && r.target_id !== null ? { id: r.target_id, name: r.target_name ?? '' } : null,
    });
  }
  return out;
}

export async function idsOfSite(
  db: Db,
  table: 'devices' | 'panoramas',
  platformId: number,
  ids: readonly number[],
): Promise<Set<number>> {
  const valid = [...new Set(ids.filter((x) => isDbId(x)))];
  if (!valid.length) return new Set();
  const rows = await db.k
    .selectFrom(table)
    .select('id')
    .where('platform_id', '=', platformId)
    .where('id', 'in', valid)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function replaceHotspots(db: Db, panoramaId: number, spots: readonly HotspotInput[]): Promise<void> {
  await db.k.transaction().execute(async (tx) => {
    await tx.deleteFrom('panorama_hotspots').where('panorama_id', '=', panoramaId).execute();
    if (spots.length)
      await tx
        .insertInto('panorama_hotspots')
        .values(
          spots.map((s) => ({
            panorama_id: panoramaId,
            kind: s.kind,
            yaw: s.yaw,
            pitch: s.pitch,
            device_id: s.kind === 'device' ? (s.deviceId ?? null) : null,
            target_id: s.kind === 'link' ? (s.targetId ?? null) : null,
            label: s.label ? s.label : null,
          })),
        )
        .execute();
  });
}

/** The devices of a site (already checked in scope), by name. */
export async function devicesOf(db: Db, platformId: number) {
  const rows = await db.k
    .selectFrom('devices')
    .select(['id', 'device_name', 'module_id'])
    .where('platform_id', '=', platformId)
    .orderBy('device_name')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ deviceId: r.id, deviceName: r.device_name, moduleId: r.module_id }));
}
