import { Status, type PersonRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { sitesInScope } from '../../platform/auth/sites.ts';
import * as repo from './persons.repository.ts';

export type PersonInput = Omit<repo.PersonWrite, 'roleId'> & { roleId?: number | undefined; platformIds: number[] };

export class PersonsService {
  constructor(private readonly ctx: AppContext) {}

  list(user: SessionUser, f: Parameters<typeof repo.listPersons>[2]): Promise<{ list: PersonRow[]; total: number }> {
    return repo.listPersons(this.ctx.db, user.scope, f);
  }

  /** Persons listed under a role (default: the caller's), within the caller's scope. */
  async byRole(user: SessionUser, roleId?: number): Promise<PersonRow[]> {
    return repo.personsOfRole(this.ctx.db, user.scope, roleId ?? user.roleId);
  }

  private async mustGet(user: SessionUser, id: number): Promise<PersonRow> {
    const p = await repo.getPerson(this.ctx.db, user.scope, id);
    if (!p) throw new AppError(Status.notFound, 'personNotFound');
    return p;
  }

  private async prepare(user: SessionUser, input: PersonInput): Promise<repo.PersonWrite> {
    const roleId = input.roleId ?? user.roleId;
    if (!(await repo.roleExists(this.ctx.db, roleId))) throw new AppError(Status.notFound, 'roleNotFound');
    const wanted = [...new Set(input.platformIds)];
    const ok = await sitesInScope(this.ctx.db, user.scope, wanted);
    if (ok.size !== wanted.length) throw new AppError(Status.notFound, 'platformNotFound');
    const { platformIds: _ignored, ...rest } = input;
    return { ...rest, roleId };
  }

  async add(user: SessionUser, input: PersonInput): Promise<number> {
    const w = await this.prepare(user, input);
    return repo.savePerson(this.ctx.db, null, w, input.platformIds);
  }

  /** Edits a person; sites outside the caller's scope keep their binding (the caller cannot see them). */
  async edit(user: SessionUser, id: number, input: PersonInput): Promise<void> {
    await this.mustGet(user, id);
    const w = await this.prepare(user, input);
    const current = await repo.personSites(this.ctx.db, id);
    const visible = await sitesInScope(this.ctx.db, user.scope, current);
    const kept = current.filter((p) => !visible.has(p));
    await repo.savePerson(this.ctx.db, id, w, [...kept, ...input.platformIds]);
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    await this.mustGet(user, id);
    await repo.deletePerson(this.ctx.db, id);
  }
}
