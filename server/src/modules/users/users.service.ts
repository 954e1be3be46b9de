import { Status, passwordKey, type UserRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { encrypt } from '../../platform/auth/crypto.ts';
import { endSessions } from '../../platform/auth/sessions.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { writeAudit } from '../audit/audit.repository.ts';
import { assertPasswordRules } from '../session/session.service.ts';
import * as repo from './users.repository.ts';

interface Meta {
  ip: string;
}

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

  private async mustRole(roleId: number): Promise<void> {
    if (!(await repo.roleExists(this.ctx.db, roleId))) throw new AppError(Status.invalid, 'roleRequired');
  }

  async add(
    actor: SessionUser,
    input: repo.UserWrite & { account: string; password: string; platformIds: number[] },
    meta: Meta,
  ): Promise<number> {
    await this.mustRole(input.roleId);
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

  async edit(
    actor: SessionUser,
    id: number,
    input: repo.UserWrite & { platformIds: number[] },
    meta: Meta,
  ): Promise<void> {
    const before = await this.mustGet(id);
    await this.mustRole(input.roleId);
    if (id === actor.id && input.roleId !== before.roleId) throw new AppError(Status.forbidden, 'cannotBindOwnRole');
    await repo.updateUser(this.ctx.db, id, input);
    await repo.setScope(this.ctx.db, id, input.scopeAll, input.platformIds);
    await writeAudit(this.ctx.db, {
      action: 'user.edit',
      userId: actor.id,
      account: actor.account,
      target: before.account,
      ip: meta.ip,
      detail: { roleId: [before.roleId, input.roleId], scopeAll: input.scopeAll, platformIds: input.platformIds },
    });
  }

  async remove(actor: SessionUser, id: number, meta: Meta): Promise<void> {
    if (id === actor.id) throw new AppError(Status.forbidden, 'cannotDeleteSelf');
    const u = await this.mustGet(id);
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
    const u = await this.mustGet(id);
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
    const u = await this.mustGet(id);
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
    const u = await this.mustGet(userId);
    await this.mustRole(roleId);
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
    const u = await this.mustGet(userId);
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
}
