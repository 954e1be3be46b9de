// The rules of the maps module: the one map configuration, offline tile sets, map layers (issue 21).
import fsp from 'node:fs/promises';
import {
  MAP_LIMITS,
  MAP_MODES,
  MAP_SYSTEM_PERMISSION,
  MAP_TYPES,
  PROVIDER_SCHEME,
  Status,
  tiandituUrl,
  tileSetUploadFields,
  layerUploadFields,
  type MapConfig,
  type MapLayerRow,
  type MapSettings,
  type MapType,
  type TiandituLayer,
  type TileSet,
  mapSettingsBody,
} from '@geosentry/contract';
import type { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { isSuperAdmin, type SessionUser } from '../../platform/auth/access.ts';
import { findSite } from '../../platform/auth/sites.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import * as repo from './maps.repository.ts';
import { TileStore, IMAGE_MIME, type ImageType } from './maps.tiles.ts';
import { countKinds, parseGeoFile } from './maps.geo.ts';
import { readUpload } from './maps.upload.ts';
import { composeExtent, type Extent, type ExtentImage } from './maps.imagery.ts';

/** Where the map opens before anything is configured: central Sichuan (the seeded regions), zoom 5. */
export const DEFAULT_MAP: repo.StoredMap = {
  type: 'tianditu',
  mode: 'online',
  center: { lat: 30.66, lon: 104.07 },
  zoom: 5,
  tileSetId: null,
  keys: { tianditu: '', amap: '', baidu: '', google: '' },
  updatedAt: null,
};

const isSystem = (u: SessionUser): boolean => isSuperAdmin(u) || u.permissions.has(MAP_SYSTEM_PERMISSION);
const validation = (field: string, rule: string): AppError =>
  new AppError(Status.invalid, 'validation', { details: `${field}: ${rule}` });

function stored(v: Partial<repo.StoredMap> | null): repo.StoredMap {
  const s = { ...DEFAULT_MAP, ...(v ?? {}) };
  if (!MAP_TYPES.includes(s.type as MapType)) s.type = DEFAULT_MAP.type;
  if (!MAP_MODES.includes(s.mode as 'online')) s.mode = DEFAULT_MAP.mode;
  s.keys = { ...DEFAULT_MAP.keys, ...(v?.keys ?? {}) };
  return s;
}

export class MapsService {
  readonly tiles: TileStore;
  constructor(private readonly ctx: AppContext) {
    this.tiles = new TileStore(ctx.config.dataDir);
  }
  private get db() {
    return this.ctx.db;
  }

  async config(): Promise<MapConfig> {
    const s = stored(await repo.readMap(this.db));
    const tileSet = s.tileSetId !== null ? ((await repo.findTileSet(this.db, s.tileSetId)) ?? null) : null;
    return {
      type: s.type as MapType,
      mode: s.mode as MapConfig['mode'],
      center: s.center,
      zoom: s.zoom,
      tileSet,
      tiandituReady: s.keys.tianditu !== '',
      updatedAt: s.updatedAt,
    };
  }

  async settings(): Promise<MapSettings> {
    const s = stored(await repo.readMap(this.db));
    return { ...(await this.config()), keys: s.keys };
  }

  async setSettings(b: z.output<typeof mapSettingsBody>): Promise<MapSettings> {
    const old = stored(await repo.readMap(this.db));
    const keys = {
      tianditu: b.tiandituKey ?? old.keys.tianditu,
      amap: b.amapKey ?? old.keys.amap,
      baidu: b.baiduKey ?? old.keys.baidu,
      google: b.googleKey ?? old.keys.google,
    };
    let tileSetId: number | null = b.tileSetId ?? null;
    if (tileSetId !== null) {
      const set = await repo.findTileSet(this.db, tileSetId);
      if (!set) throw validation('tileSetId', 'not found');
      // Tiles drawn in Baidu's scheme only fit a Baidu map, and a Baidu map only Baidu's tiles.
      if (
        PROVIDER_SCHEME[set.provider] !== PROVIDER_SCHEME[b.type] ||
        (b.type !== 'kml' && set.provider !== b.type && set.provider !== 'kml')
      )
        throw new AppError(Status.invalid, 'mapTileSetProvider', { provider: set.provider, type: b.type });
    }
    if (b.mode === 'offline' && tileSetId === null && b.type !== 'kml')
      throw new AppError(Status.invalid, 'mapTileSetMissing');
    if (b.mode === 'online' && b.type === 'tianditu' && !keys.tianditu)
      throw new AppError(Status.invalid, 'mapTiandituNoKey');
    if (b.mode === 'online') tileSetId = tileSetId ?? null;
    await repo.writeMap(this.db, {
      type: b.type,
      mode: b.mode,
      center: { lat: b.centerLat, lon: b.centerLon },
      zoom: b.zoom,
      tileSetId,
      keys,
      updatedAt: new Date().toISOString(),
    });
    return this.settings();
  }

  // ---------------------------------------------------------------------------------------------- tile sets
  listTileSets(): Promise<TileSet[]> {
    return repo.listTileSets(this.db);
  }

  async uploadTileSet(req: FastifyRequest): Promise<TileSet> {
    const tmp = this.tiles.tmpPath();
    const up = await readUpload(req, MAP_LIMITS.maxTileSetBytes, tmp);
    const parsed = tileSetUploadFields.safeParse(up.fields);
    if (!parsed.success) {
      await fsp.rm(tmp, { force: true });
      const issue = parsed.error.issues[0];
      throw validation(String(issue?.path[0] ?? 'name'), issue?.message ?? 'invalid');
    }
    const p = await this.tiles.prepare(tmp);
    let id: number;
    try {
      id = await repo.insertTileSet(this.db, {
        name: parsed.data.name,
        provider: parsed.data.provider,
        format: p.format,
        imageType: p.imageType,
        minZoom: p.minZoom,
        maxZoom: p.maxZoom,
        tiles: p.tiles,
        bytes: p.bytes,
      });
    } catch (e) {
      await p.discard();
      throw e;
    }
    try {
      await p.commit(id);
    } catch (e) {
      await repo.deleteTileSet(this.db, id);
      await p.discard();
      throw e;
    }
    return (await repo.findTileSet(this.db, id))!;
  }

  async deleteTileSet(id: number): Promise<void> {
    const set = await repo.findTileSet(this.db, id);
    if (!set) throw notFound();
    const s = stored(await repo.readMap(this.db));
    if (s.tileSetId === id) throw new AppError(Status.conflict, 'mapTileSetInUse');
    await repo.deleteTileSet(this.db, id);
    await this.tiles.remove(id);
  }

  async tile(setId: number, z: number, x: number, y: number): Promise<{ mime: string; data: Buffer }> {
    const set = await repo.findTileSet(this.db, setId);
    if (!set) throw notFound();
    const data = await this.tiles.tile({ id: set.id, format: set.format, imageType: set.imageType }, z, x, y);
    if (!data) throw notFound();
    return { mime: IMAGE_MIME[set.imageType as ImageType], data };
  }

  /**
   * The configured offline map over an extent as one picture (the imagery of a 3D terrain), or null when the map is
   * online, has no tile set, or its tiles cannot be composed (Baidu's scheme, WebP).
   */
  async imagery(e: Extent): Promise<ExtentImage | null> {
    const s = stored(await repo.readMap(this.db));
    if (s.mode !== 'offline' || s.tileSetId === null) return null;
    const set = await repo.findTileSet(this.db, s.tileSetId);
    if (!set) return null;
    const ref = { id: set.id, format: set.format, imageType: set.imageType };
    return composeExtent(set.provider, set, async (z, x, y) => (await this.tiles.tile(ref, z, x, y)) ?? null, e);
  }

  /** A Tianditu tile fetched with the configured key (never handed to the browser). */
  async tianditu(layer: TiandituLayer, z: number, x: number, y: number): Promise<{ mime: string; data: Buffer }> {
    if (x >= 2 ** z || y >= 2 ** z) throw notFound();
    const s = stored(await repo.readMap(this.db));
    if (!s.keys.tianditu) throw new AppError(Status.invalid, 'mapTiandituNoKey');
    const url = tiandituUrl(layer, z, x, y, s.keys.tianditu, (x + y) % 8);
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(8000), headers: { 'user-agent': 'Geosentry' } });
    } catch {
      throw notFound();
    }
    const data = Buffer.from(await res.arrayBuffer());
    const mime = res.headers.get('content-type') ?? '';
    if (!res.ok || !/^image\//.test(mime)) throw notFound();
    return { mime, data };
  }

  // ---------------------------------------------------------------------------------------------- layers
  async listLayers(u: SessionUser, platformId: number | undefined): Promise<MapLayerRow[]> {
    if (platformId !== undefined && !(await findSite(this.db, u.scope, platformId))) return [];
    return repo.listLayers(this.db, u.scope, platformId ?? null);
  }

  async getLayer(u: SessionUser, id: number) {
    const l = await repo.findLayer(this.db, u.scope, id);
    if (!l) throw notFound();
    return l;
  }

  async importLayer(u: SessionUser, req: FastifyRequest): Promise<MapLayerRow> {
    const up = await readUpload(req, MAP_LIMITS.maxLayerBytes);
    const f = layerUploadFields.safeParse(up.fields);
    if (!f.success) {
      const issue = f.error.issues[0];
      throw validation(String(issue?.path[0] ?? 'name'), issue?.message ?? 'invalid');
    }
    const platformId = f.data.platformId ?? null;
    if (platformId === null ? !isSystem(u) : !(await findSite(this.db, u.scope, platformId)))
      throw platformId === null ? new AppError(Status.noPermission, 'noPermission') : notFound();
    const { format, data } = parseGeoFile(up.fileName ?? '', up.buffer!);
    const name = f.data.name ?? (up.fileName ?? 'layer').replace(/\.[^.]+$/, '').slice(0, 100);
    const id = await repo.insertLayer(this.db, { platformId, name, format, data, ...countKinds(data), userId: u.id });
    const row = await repo.findLayer(this.db, u.scope, id);
    const { data: _d, ...rest } = row!;
    void _d;
    return rest;
  }

  async deleteLayer(u: SessionUser, id: number): Promise<void> {
    const l = await repo.findLayer(this.db, u.scope, id);
    if (!l) throw notFound();
    if (l.platformId === null && !isSystem(u)) throw new AppError(Status.noPermission, 'noPermission');
    await repo.deleteLayer(this.db, id);
  }
}
