import path from 'node:path';
import {
  Status,
  THREE_D_RECENT_HOURS,
  threeDRoutes,
  type Language,
  type ThreeDModel,
  type ThreeDPlacement,
  type ThreeDRecent,
  type ThreeDScene,
  type ThreeDSite,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { checkGlb, glbReason } from './threeD.glb.ts';
import { buildPreview, PREVIEW_TRIANGLES } from './threeD.lod.ts';
import { demReason, readDem } from './threeD.dem.ts';
import { buildTerrain } from './threeD.terrain.ts';
import { TilesetStore } from './threeD.tilesets.ts';
import type { Extent, ExtentImage } from '../maps/index.ts';

/** Elevation models become a terrain model: GeoTIFF and ESRI ASCII grid. */
const DEM_EXTENSIONS = new Set(['tif', 'tiff', 'asc']);
import { BlobStore, displayName, extensionOf, type SingleUpload } from '../../platform/files/upload.ts';
import * as repo from './threeD.repository.ts';

const MAX_RECENT_POINTS = 500;

const notFound = (): AppError => new AppError(Status.notFound, 'platformNotFound');

/** A site's tileset.json through the server; its content's relative addresses resolve beside it. */
const tilesetUrl = (platformId: number): string =>
  threeDRoutes.tileFile.path.replace(':platformId', String(platformId)).replace('*', 'tileset.json');

/** The extension of a model's preview, stored beside the model under the same key. */
const PREVIEW = 'lod';

export function modelUrl(m: repo.ModelRow, detail: 'full' | 'preview' = 'full'): string {
  const url = `${threeDRoutes.modelFile.path}?platformId=${m.platformId}&v=${m.fileKey.slice(0, 8)}`;
  return detail === 'preview' ? `${url}&detail=preview` : url;
}

const toModel = (m: repo.ModelRow, hasPreview: boolean): ThreeDModel => ({
  id: m.id,
  platformId: m.platformId,
  name: m.name,
  size: m.size,
  triangles: m.triangles,
  url: modelUrl(m),
  previewUrl: hasPreview ? modelUrl(m, 'preview') : null,
  updatedAt: m.updatedAt,
});

/** Sites' 3D scenes: a GLB model per site and the places of the site's devices on it. */
export class ThreeDService {
  readonly store: BlobStore;
  readonly tilesets: TilesetStore;

  constructor(
    private readonly ctx: AppContext,
    /** The map: its offline tiles drape a terrain (absent: terrains are coloured by height). */
    private readonly maps?: { imagery(e: Extent): Promise<ExtentImage | null> },
  ) {
    this.store = new BlobStore(path.join(ctx.config.dataDir, 'threeD'));
    this.tilesets = new TilesetStore(path.join(ctx.config.dataDir, 'threeD', 'tilesets'));
  }

  /** A site in the caller's scope that may have a scene (missing and foreign answer alike). */
  private async site(user: SessionUser, platformId: number) {
    const s = await repo.sceneSite(this.ctx.db, user.scope, platformId);
    if (!s) throw notFound();
    if (repo.isHiddenType(s.type)) throw new AppError(Status.invalid, 'threeDSiteNoScene');
    return s;
  }

  sites(user: SessionUser): Promise<ThreeDSite[]> {
    return repo.scenesInScope(this.ctx.db, user.scope);
  }

  async scene(user: SessionUser, platformId: number): Promise<ThreeDScene> {
    const s = await this.site(user, platformId);
    const [model, devices] = await Promise.all([repo.modelOf(this.ctx.db, s.id), repo.sceneDevices(this.ctx.db, s.id)]);
    const preview = model ? await this.store.has(model.fileKey, PREVIEW) : false;
    const tileset = await repo.tilesetOf(this.ctx.db, s.id);
    return {
      platformId: s.id,
      name: s.name,
      model: model ? toModel(model, preview) : null,
      tileset: tileset ? { name: tileset, url: tilesetUrl(s.id) } : null,
      devices,
    };
  }

  async openModel(user: SessionUser, platformId: number, detail: 'full' | 'preview' = 'full') {
    const s = await this.site(user, platformId);
    const m = await repo.modelOf(this.ctx.db, s.id);
    if (!m) throw new AppError(Status.notFound, 'threeDModelNotFound');
    const f = await this.store.open(m.fileKey, detail === 'preview' ? PREVIEW : 'glb');
    if (!f) throw new AppError(Status.notFound, 'threeDModelNotFound');
    return { model: m, ...f };
  }

  async upload(user: SessionUser, lang: Language, u: SingleUpload): Promise<ThreeDModel> {
    const platformId = Number(u.fields.platformId);
    if (!Number.isInteger(platformId) || platformId <= 0)
      throw new AppError(Status.invalid, 'validation', { details: 'platformId' });
    const s = await this.site(user, platformId);
    if (!u.file || u.file.bytes.length === 0) throw new AppError(Status.invalid, 'uploadNoFile');
    const name = displayName(u.file.filename);
    const ext = extensionOf(u.file.filename);
    if (DEM_EXTENSIONS.has(ext)) return this.uploadTerrain(user, lang, s.id, name, u.file.bytes);
    const check = checkGlb(u.file.bytes);
    if (!check.ok) throw new AppError(Status.invalid, 'threeDNotGlb', { name, reason: glbReason(check.reason, lang) });
    if (ext !== 'glb') throw new AppError(Status.invalid, 'threeDNotGlb', { name, reason: glbReason('magic', lang) });
    return this.storeModel(user, s.id, name, u.file.bytes, check.triangles);
  }

  /**
   * A site's terrain from an elevation model (GeoTIFF or ESRI ASCII grid in WGS-84): a mesh with the offline map
   * draped over it when one is configured, stored as the site's model; the site's devices with a map position
   * inside it are placed on its surface (others keep their places).
   */
  private async uploadTerrain(
    user: SessionUser,
    lang: Language,
    platformId: number,
    name: string,
    bytes: Buffer,
  ): Promise<ThreeDModel> {
    const read = await readDem(bytes);
    if (!read.ok) throw new AppError(Status.invalid, 'threeDNotDem', { name, reason: demReason(read.reason, lang) });
    const { dem } = read;
    const imagery = (await this.maps?.imagery(dem)) ?? null;
    const terrain = await buildTerrain(dem, imagery);
    const model = await this.storeModel(user, platformId, name, terrain.glb, terrain.triangles);
    const coords = await repo.deviceCoords(this.ctx.db, platformId);
    const placed = new Map<number, ThreeDPlacement>();
    for (const d of await repo.sceneDevices(this.ctx.db, platformId))
      if (d.placement) placed.set(d.deviceId, { deviceId: d.deviceId, ...d.placement });
    for (const c of coords) {
      const p = terrain.place(c.lon, c.lat);
      if (p) placed.set(c.deviceId, { deviceId: c.deviceId, ...p });
    }
    await repo.replacePlacements(this.ctx.db, platformId, [...placed.values()]);
    return model;
  }

  private async storeModel(
    user: SessionUser,
    platformId: number,
    name: string,
    bytes: Buffer,
    triangles: number,
  ): Promise<ThreeDModel> {
    const fileKey = await this.store.put(bytes, 'glb');
    // The preview is built before the row points at the model, so a scene never lists a preview still being written.
    const preview = triangles > PREVIEW_TRIANGLES ? await buildPreview(bytes) : null;
    if (preview) await this.store.putAs(fileKey, PREVIEW, preview.bytes);
    let result: Awaited<ReturnType<typeof repo.putModel>>;
    try {
      result = await repo.putModel(this.ctx.db, {
        platformId,
        name,
        fileKey,
        size: bytes.length,
        triangles,
        userId: user.id,
      });
    } catch (e) {
      await this.removeFiles(fileKey);
      throw e;
    }
    if (result.replaced) await this.removeFiles(result.replaced);
    return toModel(result.row, preview !== null);
  }

  private async removeFiles(key: string): Promise<void> {
    await this.store.remove(key, 'glb');
    await this.store.remove(key, PREVIEW);
  }

  /** The tilesets under DATA_DIR/threeD/tilesets, with how many sites show each. */
  async listTilesets(): Promise<{ name: string; sites: number }[]> {
    const [names, use] = await Promise.all([this.tilesets.list(), repo.tilesetUse(this.ctx.db)]);
    return names.map((name) => ({ name, sites: use.get(name) ?? 0 }));
  }

  async setTileset(user: SessionUser, platformId: number, name: string): Promise<void> {
    const s = await this.site(user, platformId);
    if (name && !(await this.tilesets.exists(name)))
      throw new AppError(Status.invalid, 'threeDTilesetMissing', { name });
    await repo.setTileset(this.ctx.db, s.id, name || null, user.id);
  }

  /** A file of the tileset a site in the caller's scope shows. */
  async openTile(user: SessionUser, platformId: number, rel: string) {
    const s = await this.site(user, platformId);
    const name = await repo.tilesetOf(this.ctx.db, s.id);
    const f = name ? await this.tilesets.open(name, rel) : null;
    if (!f) throw new AppError(Status.notFound, 'threeDTileNotFound');
    return f;
  }

  async deleteModel(user: SessionUser, platformId: number): Promise<void> {
    const s = await this.site(user, platformId);
    const key = await repo.deleteModel(this.ctx.db, s.id);
    if (!key) throw new AppError(Status.notFound, 'threeDModelNotFound');
    await this.removeFiles(key);
  }

  async savePlacements(user: SessionUser, platformId: number, placements: readonly ThreeDPlacement[]): Promise<void> {
    const s = await this.site(user, platformId);
    const seen = new Set<number>();
    for (const p of placements) {
      if (seen.has(p.deviceId)) throw new AppError(Status.invalid, 'threeDDuplicateDevice', { id: p.deviceId });
      seen.add(p.deviceId);
    }
    const own = await repo.devicesOfSite(
      this.ctx.db,
      s.id,
      placements.map((p) => p.deviceId),
    );
    const foreign = placements.find((p) => !own.has(p.deviceId));
    if (foreign) throw new AppError(Status.invalid, 'threeDDeviceNotOnSite', { id: foreign.deviceId });
    await repo.replacePlacements(this.ctx.db, s.id, placements);
  }

  async recent(user: SessionUser, deviceId: number): Promise<ThreeDRecent> {
    const d = await repo.deviceInScope(this.ctx.db, user.scope, deviceId);
    if (!d) throw new AppError(Status.notFound, 'deviceNotFound');
    const rows = await repo.recentReadings(this.ctx.db, d.id, THREE_D_RECENT_HOURS, 5000);
    const step = Math.max(1, Math.ceil(rows.length / MAX_RECENT_POINTS));
    const points = step === 1 ? rows : rows.filter((_, i) => i % step === 0 || i === rows.length - 1);
    return { deviceId: d.id, points };
  }
}
