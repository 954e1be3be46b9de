import path from 'node:path';
import {
  PANORAMA_MAX_WIDTH,
  PANORAMA_MIN_WIDTH,
  PANORAMA_TYPES,
  Status,
  type HotspotInput,
  type PanoramaDetail,
  type PanoramaRow,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { findSite } from '../../platform/auth/sites.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { BlobStore, displayName, extensionOf, type SingleUpload } from '../../platform/files/upload.ts';
import { imageInfo, isEquirectangular } from './panoramas.image.ts';
import * as repo from './panoramas.repository.ts';

const missing = (): AppError => new AppError(Status.notFound, 'panoramaNotFound');
const nameTaken = (): AppError => new AppError(Status.conflict, 'panoramaNameTaken');

/** 360° photos of a site, with hotspots bound to its devices and links between them (a walk-through). */
export class PanoramasService {
  readonly store: BlobStore;

  constructor(private readonly ctx: AppContext) {
    this.store = new BlobStore(path.join(ctx.config.dataDir, 'panoramas'));
  }

  list(user: SessionUser, f: Parameters<typeof repo.listPanoramas>[2]) {
    return repo.listPanoramas(this.ctx.db, user.scope, f);
  }

  async detail(user: SessionUser, id: number): Promise<PanoramaDetail> {
    const p = await repo.panoramaInScope(this.ctx.db, user.scope, id);
    if (!p) throw missing();
    return { ...p, spots: await repo.hotspotsOf(this.ctx.db, p.id) };
  }

  async openImage(user: SessionUser, id: number) {
    const p = await repo.panoramaFile(this.ctx.db, user.scope, id);
    if (!p) throw missing();
    const f = await this.store.open(p.fileKey, p.ext);
    if (!f) throw missing();
    return { ...f, mime: p.ext === 'png' ? 'image/png' : 'image/jpeg' };
  }

  async upload(user: SessionUser, u: SingleUpload): Promise<PanoramaRow> {
    const platformId = Number(u.fields.platformId);
    if (!Number.isInteger(platformId) || platformId <= 0)
      throw new AppError(Status.invalid, 'validation', { details: 'platformId' });
    const site = await findSite(this.ctx.db, user.scope, platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    if (!u.file || u.file.bytes.length === 0) throw new AppError(Status.invalid, 'uploadNoFile');
    const fileName = displayName(u.file.filename);
    const name = (u.fields.name ?? '').trim().slice(0, 100) || fileName.replace(/\.[^.]+$/, '');
    const info = imageInfo(u.file.bytes);
    const ext = extensionOf(u.file.filename);
    if (!info || !(PANORAMA_TYPES[info.ext] as readonly string[]).includes(ext))
      throw new AppError(Status.invalid, 'panoramaNotImage', { name: fileName });
    if (!isEquirectangular(info))
      throw new AppError(Status.invalid, 'panoramaNotPanorama', {
        name: fileName,
        width: info.width,
        height: info.height,
      });
    if (info.width < PANORAMA_MIN_WIDTH || info.width > PANORAMA_MAX_WIDTH)
      throw new AppError(Status.invalid, 'panoramaSizeRange', {
        min: PANORAMA_MIN_WIDTH,
        max: PANORAMA_MAX_WIDTH,
        width: info.width,
      });
    const fileKey = await this.store.put(u.file.bytes, info.ext);
    let id: number;
    try {
      id = await repo.insertPanorama(this.ctx.db, {
        platformId: site.id,
        name,
        fileKey,
        ext: info.ext,
        width: info.width,
        height: info.height,
        size: u.file.bytes.length,
        userId: user.id,
      });
    } catch (e) {
      await this.store.remove(fileKey, info.ext);
      if (isUniqueViolation(e, 'panoramas_name_uq')) throw nameTaken();
      throw e;
    }
    return (await repo.panoramaInScope(this.ctx.db, user.scope, id))!;
  }

  async rename(user: SessionUser, id: number, name: string): Promise<void> {
    const p = await repo.panoramaInScope(this.ctx.db, user.scope, id);
    if (!p) throw missing();
    try {
      await repo.renamePanorama(this.ctx.db, p.id, name);
    } catch (e) {
      if (isUniqueViolation(e, 'panoramas_name_uq')) throw nameTaken();
      throw e;
    }
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    const p = await repo.panoramaFile(this.ctx.db, user.scope, id);
    if (!p) throw missing();
    await repo.deletePanorama(this.ctx.db, p.id);
    await this.store.remove(p.fileKey, p.ext);
  }

  async devices(user: SessionUser, platformId: number) {
    const site = await findSite(this.ctx.db, user.scope, platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    return repo.devicesOf(this.ctx.db, site.id);
  }

  async saveHotspots(user: SessionUser, id: number, spots: readonly HotspotInput[]): Promise<void> {
    const p = await repo.panoramaInScope(this.ctx.db, user.scope, id);
    if (!p) throw missing();
    const devices = await repo.idsOfSite(
      this.ctx.db,
      'devices',
      p.platformId,
      spots.flatMap((s) => (s.kind === 'device' && s.deviceId !== undefined ? [s.deviceId] : [])),
    );
    const targets = await repo.idsOfSite(
      this.ctx.db,
      'panoramas',
      p.platformId,
      spots.flatMap((s) => (s.kind === 'link' && s.targetId !== undefined ? [s.targetId] : [])),
    );
    for (const s of spots) {
      if (s.kind === 'device' && !devices.has(s.deviceId!))
        throw new AppError(Status.invalid, 'threeDDeviceNotOnSite', { id: s.deviceId! });
      if (s.kind === 'link' && (!targets.has(s.targetId!) || s.targetId === p.id))
        throw new AppError(Status.invalid, 'panoramaTargetNotFound', { id: s.targetId! });
    }
    await repo.replaceHotspots(this.ctx.db, p.id, spots);
  }
}
