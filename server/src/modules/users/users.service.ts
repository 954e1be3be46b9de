import { Status, passwordKey, type UserRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { encrypt } from '../../platform/auth/crypto.ts';
import { endSessions } from '../../platform/auth/sessions.ts';
import { isSuperAdmin, type SessionUser } from '../../platform/auth/access.ts';
import { writeAudit } from '../../platform/audit.ts';
import { assertPasswordRules } from '../session/index.ts';
import {
  assertMayGrantRole,
  assertMayGrantScope,
  assertMayManageUser,
  roleReach,
  sameScope,
  type RoleReach,
  type Scope,
} from '../roles/index.ts';
import * as repo from './users.repository.ts';

interface Meta {
  ip: string;
}

/** The edit form: the role and the scope may be left out (then they stay as they are). */
export type UserEdit = Omit<repo.UserWrite, 'roleId' | 'scopeAll'> & {
  roleId?: number | undefined;
  scopeAll?: boolean | undefined;
  platformIds?: number[] | undefined;
};

/** Setting a data scope is guarded by its own route permission (setDataScope: system:data). */
const mayCallSetScope = (actor: SessionUser): boolean => isSuperAdmin(actor) || actor.permissions.has('system:data');

export class UsersService {
  constructor(private readonly ctx: AppContext) {}

  list(f: repo.UserListFilter): Promise<{ list: UserRow[]; total: number }> {
    return repo.listUsers(this.ctx.db, f);
  }

  private async mustGet(id: number): Promise<UserRow> {
    const u = await repo.getUser(this.ctx.db, id);
    if (!u) throw new AppError(Status.notFound, 'userNotFound');
    return u;
  }

  private async mustRole(roleId: number): Promise<RoleReach> {
    const r = await roleReach(this.ctx.db, roleId);
    if (!r) throw new AppError(Status.invalid, 'roleRequired');
    return r;
  }

  /**
   * The user a management call is about, refused when they reach beyond the actor (a super
   * administrator, or more permissions or sites than the actor holds): see assertMayManageUser.
   */
  private async mustManage(actor: SessionUser, id: number): Promise<UserRow & { reach: RoleReach }> {
    const u = await this.mustGet(id);
    const role = await this.mustRole(u.roleId);
    assertMayManageUser(actor, { id, role, scopeAll: u.scopeAll, platformIds: u.platformIds });
    return { ...u, reach: role };
  }

  /** A scope change needs what setDataScope needs, and gives nothing beyond the actor's own scope. */
  private assertScopeChange(actor: SessionUser, before: Scope, after: Scope): void {
    if (sameScope(before, after)) return;
    if (!mayCallSetScope(actor)) throw new AppError(Status.forbidden, 'scopeNeedsDataPermission');
    assertMayGrantScope(actor, before, after);
  }

  async add(
    actor: SessionUser,
    input: repo.UserWrite & { account: string; password: string; platformIds: number[] },
    meta: Meta,
  ): Promise<number> {
    assertMayGrantRole(actor, await this.mustRole(input.roleId));
    const scope: Scope = { scopeAll: input.scopeAll, platformIds: input.scopeAll ? [] : input.platformIds };
    this.assertScopeChange(actor, { scopeAll: false, platformIds: [] }, scope);
    assertPasswordRules(input.password, input.account);
    let id: number;
    try {
      id = await repo.insertUser(this.ctx.db, {
        ...input,
        keyEnc: encrypt(this.ctx.secret, passwordKey(input.password)),
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'accountExists');
      throw e;
    }
    await repo.setScope(this.ctx.db, id, input.scopeAll, input.platformIds);
    await writeAudit(this.ctx.db, {
      action: 'user.add',
      userId: actor.id,
      account: actor.account,
      target: input.account,
      ip: meta.ip,
      detail: { roleId: input.roleId },
    });
    return id;
  }

  async edit(actor: SessionUser, id: number, input: UserEdit, meta: Meta): Promise<void> {
    const before = await this.mustManage(actor, id);
    // The role: what bindRole checks (not one's own, nothing beyond the actor's reach).
    const roleId = input.roleId ?? before.roleId;
    if (roleId !== before.roleId) {
      if (id === actor.id) throw new AppError(Status.forbidden, 'cannotBindOwnRole');
      assertMayGrantRole(actor, await this.mustRole(roleId));
    }
    // The scope: what setDataScope checks. Left out, it stays; given, the site list goes with scopeAll.
    const beforeScope: Scope = { scopeAll: before.scopeAll, platformIds: before.platformIds };
    const scopeGiven = input.scopeAll !== undefined || input.platformIds !== undefined;
    const scopeAll = input.scopeAll ?? false;
    const scope: Scope = scopeGiven
      ? { scopeAll, platformIds: scopeAll ? [] : (input.platformIds ?? []) }
      : beforeScope;
    const scopeChanged = !sameScope(beforeScope, scope);
    this.assertScopeChange(actor, beforeScope, scope);
    await repo.updateUser(this.ctx.db, id, { ...input, roleId, scopeAll: scope.scopeAll });
    if (scopeChanged) await repo.setScope(this.ctx.db, id, scope.scopeAll, [...scope.platformIds]);
    await writeAudit(this.ctx.db, {
      action: 'user.edit',
      userId: actor.id,
      account: actor.account,
      target: before.account,
      ip: meta.ip,
      detail: {
        roleId: [before.roleId, roleId],
        ...(scopeChanged ? { scopeAll: scope.scopeAll, platformIds: scope.platformIds } : {}),
      },
    });
  }

  async remove(actor: SessionUser, id: number, meta: Meta): Promise<void> {
    if (id === actor.id) throw new AppError(Status.forbidden, 'cannotDeleteSelf');
    const u = await this.mustManage(actor, id);
    const ended = await endSessions(this.ctx.db, { userId: id }, 'deleted');
    this.ctx.hub.endSessions(ended);
    await repo.deleteUser(this.ctx.db, id);
    await writeAudit(this.ctx.db, {
      action: 'user.delete',
      userId: actor.id,
      account: actor.account,
      target: u.account,
      ip: meta.ip,
    });
  }

  async enable(actor: SessionUser, id: number, enabled: boolean, meta: Meta): Promise<void> {
    if (id === actor.id && !enabled) throw new AppError(Status.forbidden, 'cannotDisableSelf');
    const u = await this.mustManage(actor, id);
    await repo.setEnabled(this.ctx.db, id, enabled);
    if (!enabled) this.ctx.hub.endSessions(await endSessions(this.ctx.db, { userId: id }, 'disabled'));
    await writeAudit(this.ctx.db, {
      action: enabled ? 'user.enable' : 'user.disable',
      userId: actor.id,
      account: actor.account,
      target: u.account,
      ip: meta.ip,
    });
  }

  async resetPassword(actor: SessionUser, id: number, password: string, meta: Meta): Promise<void> {
    const u = await this.mustManage(actor, id);
    assertPasswordRules(password, u.account);
    await repo.setKey(this.ctx.db, id, encrypt(this.ctx.secret, passwordKey(password)));
    this.ctx.hub.endSessions(await endSessions(this.ctx.db, { userId: id }, 'password'));
    await writeAudit(this.ctx.db, {
      action: 'password.reset',
      userId: actor.id,
      account: actor.account,
      target: u.account,
      ip: meta.ip,
    });
  }

  async bindRole(actor: SessionUser, userId: number, roleId: number, meta: Meta): Promise<void> {
    if (userId === actor.id) throw new AppError(Status.forbidden, 'cannotBindOwnRole');
    const u = await this.mustManage(actor, userId);
    assertMayGrantRole(actor, await this.mustRole(roleId));
    await repo.setRole(this.ctx.db, userId, roleId);
    await writeAudit(this.ctx.db, {
      action: 'user.bindRole',
      userId: actor.id,
      account: actor.account,
      target: u.account,
      ip: meta.ip,
      detail: { roleId: [u.roleId, roleId] },
    });
  }

  async setScope(
    actor: SessionUser,
    userId: number,
    scopeAll: boolean,
    platformIds: number[],
    meta: Meta,
  ): Promise<void> {
    const u = await this.mustManage(actor, userId);
    assertMayGrantScope(
      actor,
      { scopeAll: u.scopeAll, platformIds: u.platformIds },
      { scopeAll, platformIds: scopeAll ? [] : platformIds },
    );
    await repo.setScope(this.ctx.db, userId, scopeAll, platformIds);
    await writeAudit(this.ctx.db, {
      action: 'user.scope',
      userId: actor.id,
      account: actor.account,
      target: u.account,
      ip: meta.ip,
      detail: { scopeAll, platformIds },
    });
  }

  /**
   * Clears the account's failed sign-ins and lockout (finding 7), so a lock cannot keep an
   * administrator out for good: another administrator (or a super administrator) lets them in again.
   */
  async unlock(actor: SessionUser, id: number, meta: Meta): Promise<void> {
    const u = await this.mustManage(actor, id);
    const cleared = await repo.clearLoginAttempts(this.ctx.db, u.account);
    await writeAudit(this.ctx.db, {
      action: 'user.unlock',
      userId: actor.id,
      account: actor.account,
      target: u.account,
      ip: meta.ip,
      detail: { cleared },
    });
  }
}
