import { Status, SUPER_ADMIN_ROLE, type RoleRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { writeAudit } from '../../platform/audit.ts';
import * as repo from './roles.repository.ts';
import { assertMayGrantPermissions, assertMayManageRole, permissionCodesOf, roleReach } from './roles.grants.ts';

interface Meta {
  ip: string;
}

export class RolesService {
  constructor(private readonly ctx: AppContext) {}

  list(f: Parameters<typeof repo.listRoles>[1]): Promise<{ list: RoleRow[]; total: number }> {
    return repo.listRoles(this.ctx.db, f);
  }
  all(): Promise<RoleRow[]> {
    return repo.allRoles(this.ctx.db);
  }

  private async mustGet(id: number): Promise<RoleRow> {
    const r = await repo.getRole(this.ctx.db, id);
    if (!r) throw new AppError(Status.notFound, 'roleNotFound');
    return r;
  }

  /** The role, refused when it reaches beyond the actor (the super administrator role, or permissions not held). */
  private async mustManage(actor: SessionUser, id: number): Promise<RoleRow> {
    const r = await this.mustGet(id);
    const reach = await roleReach(this.ctx.db, id);
    if (reach) assertMayManageRole(actor, reach);
    return r;
  }

  private async checkParent(id: number | null, parentId: number | undefined): Promise<void> {
    if (parentId === undefined) return;
    await this.mustGet(parentId);
    if (id !== null && (await repo.ancestorIds(this.ctx.db, parentId)).includes(id))
      throw new AppError(Status.invalid, 'roleParentCycle');
  }

  async add(actor: SessionUser, input: repo.RoleWrite, meta: Meta): Promise<number> {
    await this.checkParent(null, input.parentId);
    try {
      const id = await repo.insertRole(this.ctx.db, input);
      await writeAudit(this.ctx.db, {
        action: 'role.add',
        userId: actor.id,
        account: actor.account,
        target: input.code,
        ip: meta.ip,
      });
      return id;
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'roleCodeExists');
      throw e;
    }
  }

  async edit(actor: SessionUser, id: number, input: repo.RoleWrite, meta: Meta): Promise<void> {
    const before = await this.mustManage(actor, id);
    if (before.builtin && input.code !== before.code) throw new AppError(Status.forbidden, 'builtinRole');
    await this.checkParent(id, input.parentId);
    try {
      await repo.updateRole(this.ctx.db, id, input);
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'roleCodeExists');
      throw e;
    }
    await writeAudit(this.ctx.db, {
      action: 'role.edit',
      userId: actor.id,
      account: actor.account,
      target: input.code,
      ip: meta.ip,
    });
  }

  async remove(actor: SessionUser, id: number, meta: Meta): Promise<void> {
    const r = await this.mustManage(actor, id);
    if (r.builtin) throw new AppError(Status.forbidden, 'builtinRole');
    if (r.userCount > 0) throw new AppError(Status.conflict, 'roleInUse', { count: r.userCount });
    await repo.deleteRole(this.ctx.db, id);
    await writeAudit(this.ctx.db, {
      action: 'role.delete',
      userId: actor.id,
      account: actor.account,
      target: r.code,
      ip: meta.ip,
    });
  }

  async permissions(roleId: number): Promise<number[]> {
    await this.mustGet(roleId);
    return repo.rolePermissionIds(this.ctx.db, roleId);
  }

  async setPermissions(actor: SessionUser, roleId: number, permissionIds: number[], meta: Meta): Promise<void> {
    const r = await this.mustGet(roleId);
    if (r.code === SUPER_ADMIN_ROLE) throw new AppError(Status.forbidden, 'superAdminPermissions');
    if (roleId === actor.roleId) throw new AppError(Status.forbidden, 'cannotBindOwnRole');
    // Nothing beyond the actor's own permissions: not in what the role holds now (what may be taken
    // away), nor in what it will hold (the chosen permissions and the menu groups they bring along).
    await this.mustManage(actor, roleId);
    assertMayGrantPermissions(actor, await permissionCodesOf(this.ctx.db, permissionIds));
    const before = await repo.rolePermissionIds(this.ctx.db, roleId);
    const after = await repo.setRolePermissions(this.ctx.db, roleId, permissionIds);
    await writeAudit(this.ctx.db, {
      action: 'role.permissions',
      userId: actor.id,
      account: actor.account,
      target: r.code,
      ip: meta.ip,
      detail: { added: after.filter((x) => !before.includes(x)), removed: before.filter((x) => !after.includes(x)) },
    });
  }
}
