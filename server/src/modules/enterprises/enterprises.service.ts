import {
  Status,
  enterpriseVariantOf,
  type EnterpriseOption,
  type EnterpriseRow,
  type EnterpriseVariant,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import { findPlatform } from '../platforms/index.ts';
import * as repo from './enterprises.repository.ts';

export class EnterprisesService {
  constructor(private readonly ctx: AppContext) {}

  list(
    user: SessionUser,
    variant: EnterpriseVariant,
    f: repo.EnterpriseListFilter,
  ): Promise<{ list: EnterpriseRow[]; total: number }> {
    return repo.listEnterprises(this.ctx.db, user.scope, variant, f);
  }

  all(variant: EnterpriseVariant): Promise<EnterpriseOption[]> {
    return repo.enterpriseOptions(this.ctx.db, variant);
  }

  private async mustGet(user: SessionUser, variant: EnterpriseVariant, id: number): Promise<EnterpriseRow> {
    const e = await repo.getEnterprise(this.ctx.db, user.scope, variant, id);
    if (!e) throw new AppError(Status.notFound, 'enterpriseNotFound');
    return e;
  }

  /** The higher group is another enterprise of the same variant and not below this one (no loop). */
  private async checkParent(
    variant: EnterpriseVariant,
    id: number | null,
    parentId: number | undefined,
  ): Promise<void> {
    if (parentId === undefined) return;
    const links = await repo.parentLinks(this.ctx.db, variant);
    if (!links.has(parentId) || parentId === id) throw new AppError(Status.invalid, 'enterpriseParentInvalid');
    let cur: number | null | undefined = parentId;
    for (let hops = 0; cur != null && hops <= links.size; hops++) {
      if (cur === id) throw new AppError(Status.invalid, 'enterpriseParentInvalid');
      cur = links.get(cur);
    }
  }

  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'nameDuplicate');
      throw e;
    }
  }

  async add(variant: EnterpriseVariant, input: repo.EnterpriseWrite): Promise<number> {
    await this.checkParent(variant, null, input.parentId);
    return this.write(() => repo.insertEnterprise(this.ctx.db, variant, input));
  }

  async edit(user: SessionUser, variant: EnterpriseVariant, id: number, input: repo.EnterpriseWrite): Promise<void> {
    await this.mustGet(user, variant, id);
    await this.checkParent(variant, id, input.parentId);
    await this.write(() => repo.updateEnterprise(this.ctx.db, id, input));
  }

  async remove(user: SessionUser, variant: EnterpriseVariant, id: number): Promise<void> {
    await this.mustGet(user, variant, id);
    const bound = await repo.boundCount(this.ctx.db, id);
    if (bound > 0) throw new AppError(Status.conflict, 'enterpriseHasPlatforms', { count: bound });
    await repo.deleteEnterprise(this.ctx.db, id);
  }

  private async siteFor(
    user: SessionUser,
    variant: EnterpriseVariant,
    platformId: number,
  ): Promise<{ enterpriseId: number | null }> {
    const p = await findPlatform(this.ctx.db, user.scope, platformId);
    if (!p) throw new AppError(Status.notFound, 'platformNotFound');
    if (enterpriseVariantOf(p.type) !== variant) throw new AppError(Status.invalid, 'enterpriseWrongKind');
    return { enterpriseId: p.enterpriseId };
  }

  async bind(user: SessionUser, variant: EnterpriseVariant, enterpriseId: number, platformId: number): Promise<void> {
    await this.mustGet(user, variant, enterpriseId);
    await this.siteFor(user, variant, platformId);
    await repo.setPlatformEnterprise(this.ctx.db, platformId, enterpriseId);
  }

  async unbind(user: SessionUser, variant: EnterpriseVariant, enterpriseId: number, platformId: number): Promise<void> {
    await this.mustGet(user, variant, enterpriseId);
    const site = await this.siteFor(user, variant, platformId);
    if (site.enterpriseId !== enterpriseId) throw new AppError(Status.invalid, 'enterpriseNotBound');
    await repo.setPlatformEnterprise(this.ctx.db, platformId, null);
  }
}
