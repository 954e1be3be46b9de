// All SQL of the maps module: the settings row 'map', the tile sets and the map layers.
import type { ColumnType, Generated } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, json } from '../../platform/db/sql.ts';
import type { MapFeatureCollection, MapLayerRow, TileSet } from '@geosentry/contract';

type Stamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** The tables of migration 0024 this module uses (kept beside the module, in step with the SQL). */
export type MapTables = {
  map_tile_sets: {
    id: Generated<number>;
    name: string;
    provider: string;
    format: string;
    image_type: string;
    min_zoom: number;
    max_zoom: number;
    tiles: number;
    bytes: ColumnType<string | number, number, number>;
    created_at: Stamp;
  };
  map_layers: {
    id: Generated<number>;
    platform_id: number | null;
    name: string;
    format: string;
    data: ColumnType<unknown, string, string>;
    points: number;
    lines: number;
    polygons: number;
    created_by: number | null;
    created_at: Stamp;
  };
};
export const k = (db: Db) => db.k.withTables<MapTables>();

/** The stored map configuration (settings 'map'). */
export interface StoredMap {
  type: string;
  mode: string;
  center: { lat: number; lon: number };
  zoom: number;
  tileSetId: number | null;
  keys: { tianditu: string; amap: string; baidu: string; google: string };
  updatedAt: string | null;
}

export async function readMap(db: Db): Promise<Partial<StoredMap> | null> {
  const r = await db.k.selectFrom('settings').select('value').where('key', '=', 'map').executeTakeFirst();
  return r ? json<Partial<StoredMap>>(r.value) : null;
}

export async function writeMap(db: Db, v: StoredMap): Promise<void> {
  await db.k
    .insertInto('settings')
    .values({ key: 'map', value: JSON.stringify(v) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(v) }))
    .execute();
}

type TileRow = MapTables['map_tile_sets'] & { id: number; created_at: Date };
const tileSet = (r: {
  id: number;
  name: string;
  provider: string;
  format: string;
  image_type: string;
  min_zoom: number;
  max_zoom: number;
  tiles: number;
  bytes: string | number;
  created_at: Date;
}): TileSet => ({
  id: r.id,
  name: r.name,
  provider: r.provider as TileSet['provider'],
  format: r.format as TileSet['format'],
  imageType: r.image_type as TileSet['imageType'],
  minZoom: r.min_zoom,
  maxZoom: r.max_zoom,
  tiles: r.tiles,
  bytes: Number(r.bytes),
  createdAt: iso(r.created_at),
});
export type { TileRow };

export async function listTileSets(db: Db): Promise<TileSet[]> {
  const rows = await k(db).selectFrom('map_tile_sets').selectAll().orderBy('id', 'desc').execute();
  return rows.map(tileSet);
}
export async function findTileSet(db: Db, id: number): Promise<TileSet | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return undefined;
  const r = await k(db).selectFrom('map_tile_sets').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? tileSet(r) : undefined;
}
export async function insertTileSet(db: Db, v: Omit<TileSet, 'id' | 'createdAt'>): Promise<number> {
  const r = await k(db)
    .insertInto('map_tile_sets')
    .values({
      name: v.name,
      provider: v.provider,
      format: v.format,
      image_type: v.imageType,
      min_zoom: v.minZoom,
      max_zoom: v.maxZoom,
      tiles: v.tiles,
      bytes: v.bytes,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}
export async function deleteTileSet(db: Db, id: number): Promise<boolean> {
  const r = await k(db).deleteFrom('map_tile_sets').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// ------------------------------------------------------------------------------------------------ layers
const layerCols = [
  'l.id',
  'l.name',
  'l.platform_id',
  'p.name as platform_name',
  'l.format',
  'l.points',
  'l.lines',
  'l.polygons',
  'l.created_at',
] as const;
const layerRow = (r: {
  id: number;
  name: string;
  platform_id: number | null;
  platform_name: string | null;
  format: string;
  points: number;
  lines: number;
  polygons: number;
  created_at: Date;
}): MapLayerRow => ({
  id: r.id,
  name: r.name,
  platformId: r.platform_id,
  platformName: r.platform_name,
  format: r.format as MapLayerRow['format'],
  points: r.points,
  lines: r.lines,
  polygons: r.polygons,
  createdAt: iso(r.created_at),
});

const layers = (db: Db) => k(db).selectFrom('map_layers as l').leftJoin('platforms as p', 'p.id', 'l.platform_id');

/** Layers of a site (in scope) or of the system map (platformId null). */
export async function listLayers(db: Db, scope: DataScope, platformId: number | null): Promise<MapLayerRow[]> {
  const q = layers(db).select(layerCols).orderBy('l.id');
  const rows =
    platformId === null
      ? await q.where('l.platform_id', 'is', null).execute()
      : await whereInScope(q.where('l.platform_id', '=', platformId), scope, 'l.platform_id').execute();
  return rows.map(layerRow);
}

/** A layer the caller may see (a system layer, or one of a site in scope); undefined when missing or foreign. */
export async function findLayer(
  db: Db,
  scope: DataScope,
  id: number,
): Promise<(MapLayerRow & { data: MapFeatureCollection }) | undefined> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return undefined;
  let q = layers(db)
    .select([...layerCols, 'l.data'])
    .where('l.id', '=', id);
  if (!scope.all)
    q = q.where((eb) =>
      eb.or([
        eb('l.platform_id', 'is', null),
        ...(scope.platformIds.length ? [eb('l.platform_id', 'in', scope.platformIds as number[])] : []),
      ]),
    );
  const r = await q.executeTakeFirst();
  return r ? { ...layerRow(r), data: json<MapFeatureCollection>(r.data) } : undefined;
}

export async function insertLayer(
  db: Db,
  v: {
    platformId: number | null;
    name: string;
    format: string;
    data: MapFeatureCollection;
    points: number;
    lines: number;
    polygons: number;
    userId: number;
  },
): Promise<number> {
  const r = await k(db)
    .insertInto('map_layers')
    .values({
      platform_id: v.platformId,
      name: v.name,
      format: v.format,
      data: JSON.stringify(v.data),
      points: v.points,
      lines: v.lines,
      polygons: v.polygons,
      created_by: v.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}
export async function deleteLayer(db: Db, id: number): Promise<void> {
  await k(db).deleteFrom('map_layers').where('id', '=', id).execute();
}
