import { Status, type PermissionNode } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { isSuperAdmin, type SessionUser } from '../../platform/auth/access.ts';
import { writeAudit } from '../../platform/audit.ts';
import { beyond } from '../roles/index.ts';
import * as repo from './permissions.repository.ts';

interface Meta {
  ip: string;
}

/** Two-level permissions: a level 2 permission sits under a level 1 parent; deleting a parent deletes its children. */
export class PermissionsService {
  constructor(private readonly ctx: AppContext) {}

  tree(): Promise<PermissionNode[]> {
    return repo.permissionTree(this.ctx.db);
  }

  private async levelFor(id: number | null, parentId: number | undefined): Promise<1 | 2> {
    if (parentId === undefined) return 1;
    const parent = await repo.getPermission(this.ctx.db, parentId);
    if (!parent || parent.level !== 1 || parent.id === id) throw new AppError(Status.invalid, 'permissionParentLevel');
    if (id !== null && (await repo.hasChildren(this.ctx.db, id)))
      throw new AppError(Status.invalid, 'permissionParentLevel');
    return 2;
  }

  async add(actor: SessionUser, p: repo.PermissionWrite, meta: Meta): Promise<number> {
    const level = await this.levelFor(null, p.parentId);
    try {
      const id = await repo.insertPermission(this.ctx.db, p, level);
      await writeAudit(this.ctx.db, {
        action: 'permission.add',
        userId: actor.id,
        account: actor.account,
        target: p.code,
        ip: meta.ip,
      });
      return id;
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'permissionCodeExists');
      throw e;
    }
  }

  async edit(actor: SessionUser, id: number, p: repo.PermissionWrite, meta: Meta): Promise<void> {
    const before = await repo.getPermission(this.ctx.db, id);
    if (!before) throw new AppError(Status.notFound, 'permissionNotFound');
    // A code is what routes check: renaming one changes what every role holding it may do (a holder of
    // some permission could turn it into one they lack), so only a super administrator may.
    if (p.code !== before.code && !isSuperAdmin(actor)) throw new AppError(Status.forbidden, 'permissionCodeSuperOnly');
    const level = await this.levelFor(id, p.parentId);
    try {
      await repo.updatePermission(this.ctx.db, id, p, level);
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'permissionCodeExists');
      throw e;
    }
    await writeAudit(this.ctx.db, {
      action: 'permission.edit',
      userId: actor.id,
      account: actor.account,
      target: p.code,
      ip: meta.ip,
      detail: { from: before.code },
    });
  }

  async remove(actor: SessionUser, id: number, meta: Meta): Promise<void> {
    const p = await repo.getPermission(this.ctx.db, id);
    if (!p) throw new AppError(Status.notFound, 'permissionNotFound');
    // Deleting takes the permission (and its children) from every role: only what the actor holds.
    const missing = beyond(actor, [p.code, ...(await repo.childCodes(this.ctx.db, id))]);
    if (missing.length)
      throw new AppError(Status.forbidden, 'permissionDeleteBeyondOwn', { codes: missing.slice(0, 5).join(', ') });
    await repo.deletePermission(this.ctx.db, id);
    await writeAudit(this.ctx.db, {
      action: 'permission.delete',
      userId: actor.id,
      account: actor.account,
      target: p.code,
      ip: meta.ip,
    });
  }
}
