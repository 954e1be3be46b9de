import { Status, type ExternalFileRow } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { roleExists } from '../persons/index.ts';
import * as repo from './externalFiles.repository.ts';

export type ExternalFileInput = Omit<repo.ExternalFileWrite, 'roleId'> & { roleId?: number | undefined };

/** External file links are not site data: every holder of information:external-file sees them all. */
export class ExternalFilesService {
  constructor(private readonly ctx: AppContext) {}

  list(f: Parameters<typeof repo.listExternalFiles>[1]): Promise<{ list: ExternalFileRow[]; total: number }> {
    return repo.listExternalFiles(this.ctx.db, f);
  }

  byRole(user: SessionUser, roleId?: number): Promise<ExternalFileRow[]> {
    return repo.externalFilesOfRole(this.ctx.db, roleId ?? user.roleId);
  }

  private async prepare(user: SessionUser, input: ExternalFileInput): Promise<repo.ExternalFileWrite> {
    const roleId = input.roleId ?? user.roleId;
    if (!(await roleExists(this.ctx.db, roleId))) throw new AppError(Status.notFound, 'roleNotFound');
    return { ...input, roleId };
  }

  private async mustExist(id: number): Promise<void> {
    if (!(await repo.getExternalFile(this.ctx.db, id))) throw new AppError(Status.notFound, 'externalFileNotFound');
  }

  async add(user: SessionUser, input: ExternalFileInput): Promise<number> {
    return repo.insertExternalFile(this.ctx.db, await this.prepare(user, input));
  }

  async edit(user: SessionUser, id: number, input: ExternalFileInput): Promise<void> {
    await this.mustExist(id);
    await repo.updateExternalFile(this.ctx.db, id, await this.prepare(user, input));
  }

  async remove(id: number): Promise<void> {
    await this.mustExist(id);
    await repo.deleteExternalFile(this.ctx.db, id);
  }
}
