import fs from 'node:fs';
import path from 'node:path';
import {
  CAMERA_GROUP_MAX_LEVEL,
  Status,
  type Camera,
  type CameraGroupNode,
  type RoleCameraConfig,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { isSuperAdmin, type SessionUser } from '../../platform/auth/access.ts';
import { encrypt } from '../../platform/auth/crypto.ts';
import { findSite } from '../../platform/auth/sites.ts';
import { writeAudit } from '../../platform/audit.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import * as repo from './cameras.repository.ts';

/**
 * Where a snapshot's file is kept: DATA_DIR/cameras/<site>/<camera>/<id>.jpg, or <id>.mp4 for a clip (a file of
 * the site).
 */
export const snapshotFile = (
  dataDir: string,
  platformId: number,
  cameraId: number,
  id: number,
  media: string = 'jpeg',
): string =>
  path.join(dataDir, 'cameras', String(platformId), String(cameraId), `${id}.${media === 'mp4' ? 'mp4' : 'jpg'}`);

/** Removes the files of snapshots, pictures or clips alike. */
export function removeSnapshotFiles(
  dataDir: string,
  snaps: { id: number; cameraId: number; platformId: number }[],
): void {
  for (const s of snaps)
    for (const media of ['jpeg', 'mp4'])
      fs.rmSync(snapshotFile(dataDir, s.platformId, s.cameraId, s.id, media), { force: true });
}

export type CameraInput = repo.CameraWrite & { vmPassword?: string | undefined; clearVmPassword?: boolean | undefined };

/** The camera as answered: never the encrypted VM password. */
export const publicCamera = ({ vmPasswordEnc: _, ...c }: repo.CameraRow): Camera => c;

/**
 * The camera registry: groups three levels deep, cameras of the caller's sites, the role camera configuration.
 * Rules: a camera's site is in the caller's data scope and its group within his role's camera configuration; a
 * vendor whose address cannot be built (ONVIF, other) needs the RTSP address; a PTZ camera needs the ONVIF address;
 * serial number and channel are unique; the VM password is encrypted with the server secret and never answered.
 */
export class CameraRegistry {
  constructor(private readonly ctx: AppContext) {}

  /** Groups the caller may see: all, or (restricted role) the granted groups, those below and above them. */
  private async groupsFor(user: SessionUser): Promise<{ all: repo.GroupRow[]; granted: Set<number> | null }> {
    const all = await repo.allGroups(this.ctx.db);
    const cfg = await repo.callerConfig(this.ctx.db, user);
    if (!cfg.restricted) return { all, granted: null };
    const grantedIds = new Set(cfg.groupIds);
    return { all, granted: new Set(all.filter((g) => g.path.some((p) => grantedIds.has(p))).map((g) => g.id)) };
  }

  async tree(user: SessionUser): Promise<CameraGroupNode[]> {
    const { all, granted } = await this.groupsFor(user);
    const counts = await repo.visibleCountsByGroup(this.ctx.db, user);
    if (!granted) return repo.toTree(all, counts);
    const byId = new Map(all.map((g) => [g.id, g]));
    const shown = new Set<number>();
    for (const id of [...granted, ...counts.keys()]) for (const p of byId.get(id)?.path ?? []) shown.add(p);
    return repo.toTree(
      all.filter((g) => shown.has(g.id)),
      counts,
    );
  }

  /** A group the caller may change (restricted roles: only their granted groups and below). */
  private async mustGroup(user: SessionUser, id: number): Promise<repo.GroupRow> {
    const { all, granted } = await this.groupsFor(user);
    const g = all.find((x) => x.id === id);
    if (!g || (granted && !granted.has(g.id))) throw new AppError(Status.notFound, 'cameraGroupNotFound');
    return g;
  }

  async addGroup(user: SessionUser, b: { name: string; parentId?: number | undefined; sort?: number | undefined }) {
    const cfg = await repo.callerConfig(this.ctx.db, user);
    const parent = b.parentId !== undefined ? await this.mustGroup(user, b.parentId) : null;
    if (!parent && cfg.restricted) throw new AppError(Status.notFound, 'cameraGroupNotFound');
    if ((parent?.level ?? 0) + 1 > CAMERA_GROUP_MAX_LEVEL)
      throw new AppError(Status.invalid, 'cameraGroupTooDeep', { max: CAMERA_GROUP_MAX_LEVEL });
    return repo.insertGroup(this.ctx.db, { name: b.name, parent, sort: b.sort ?? 0 });
  }

  async editGroup(user: SessionUser, b: { id: number; name: string; sort?: number | undefined }): Promise<void> {
    await this.mustGroup(user, b.id);
    await repo.updateGroup(this.ctx.db, b.id, b.name, b.sort);
  }

  /** Spec §8: deleting a group deletes its videos (the groups below, their cameras and snapshots). */
  async deleteGroup(user: SessionUser, id: number) {
    const g = await this.mustGroup(user, id);
    const n = await repo.groupCameraCounts(this.ctx.db, user, g.id);
    if (n.visible < n.all) throw new AppError(Status.forbidden, 'cameraGroupForeign');
    const r = await repo.deleteGroup(this.ctx.db, g.id);
    removeSnapshotFiles(this.ctx.config.dataDir, r.snapshots);
    return { groups: r.groups, cameras: r.cameras, snapshots: r.snapshots.length };
  }

  list(user: SessionUser, f: Parameters<typeof repo.listCameras>[2]) {
    return repo.listCameras(this.ctx.db, user, f);
  }

  async mustCamera(user: SessionUser, id: number): Promise<repo.CameraRow> {
    const c = await repo.getCamera(this.ctx.db, user, id);
    if (!c) throw new AppError(Status.notFound, 'cameraNotFound');
    return c;
  }

  private async check(user: SessionUser, w: CameraInput): Promise<void> {
    await this.mustGroup(user, w.groupId);
    if (!(await findSite(this.ctx.db, user.scope, w.platformId)))
      throw new AppError(Status.notFound, 'platformNotFound');
    if ((w.vendor === 'onvif' || w.vendor === 'other') && !w.rtspUrl)
      throw new AppError(Status.invalid, 'cameraRtspRequired');
    if (w.ptz && !w.onvifUrl) throw new AppError(Status.invalid, 'cameraOnvifRequired');
  }

  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'cameraExists');
      throw e;
    }
  }

  async add(user: SessionUser, input: CameraInput): Promise<number> {
    await this.check(user, input);
    const { vmPassword, clearVmPassword: _, ...w } = input;
    const enc = vmPassword ? encrypt(this.ctx.secret, vmPassword) : null;
    return this.write(() => repo.insertCamera(this.ctx.db, w, enc));
  }

  async edit(user: SessionUser, id: number, input: CameraInput): Promise<void> {
    await this.mustCamera(user, id);
    await this.check(user, input);
    const { vmPassword, clearVmPassword, ...w } = input;
    const enc = vmPassword ? encrypt(this.ctx.secret, vmPassword) : clearVmPassword ? null : undefined;
    await this.write(() => repo.updateCamera(this.ctx.db, id, w, enc));
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    await this.mustCamera(user, id);
    const snaps = await repo.deleteCamera(this.ctx.db, id);
    removeSnapshotFiles(
      this.ctx.config.dataDir,
      snaps.map((s) => ({ ...s, cameraId: id })),
    );
  }

  async roleConfig(user: SessionUser, roleId: number): Promise<RoleCameraConfig> {
    if (!(await repo.roleExists(this.ctx.db, roleId))) throw new AppError(Status.notFound, 'roleNotFound');
    return { roleId, ...(await repo.roleConfig(this.ctx.db, roleId)) };
  }

  /** A caller grants only what he sees himself, and never changes his own role's configuration. */
  async setRoleConfig(user: SessionUser, c: RoleCameraConfig, ip: string): Promise<void> {
    if (!(await repo.roleExists(this.ctx.db, c.roleId))) throw new AppError(Status.notFound, 'roleNotFound');
    if (!isSuperAdmin(user) && c.roleId === user.roleId) throw new AppError(Status.forbidden, 'cameraOwnRole');
    const groupIds = [...new Set(c.groupIds)];
    const cameraIds = [...new Set(c.cameraIds)];
    const mine = await repo.callerConfig(this.ctx.db, user);
    if (mine.restricted && !c.restricted) throw new AppError(Status.forbidden, 'cameraGrantBeyondOwn');
    const { all, granted } = await this.groupsFor(user);
    const known = new Set(all.map((g) => g.id));
    for (const id of groupIds) {
      if (!known.has(id)) throw new AppError(Status.notFound, 'cameraGroupNotFound');
      if (granted && !granted.has(id)) throw new AppError(Status.forbidden, 'cameraGrantBeyondOwn');
    }
    const seen = await repo.camerasByIds(this.ctx.db, user, cameraIds);
    if (seen.length !== cameraIds.length) throw new AppError(Status.notFound, 'cameraNotFound');
    await repo.saveRoleConfig(this.ctx.db, c.roleId, { restricted: c.restricted, groupIds, cameraIds });
    await writeAudit(this.ctx.db, {
      action: 'role.edit',
      userId: user.id,
      account: user.account,
      target: `role:${c.roleId}:cameras`,
      detail: { restricted: c.restricted, groupIds, cameraIds },
      ip,
    });
  }
}
