import { z } from 'zod';
import {
  Status,
  enterpriseVariantOf,
  platformDetailsSchemas,
  type Language,
  type PlatformRow,
  type PlatformType,
  type RoadSegmentRow,
  type SelectableSite,
} from '@geosentry/contract';
import { writeAudit } from '../../platform/audit.ts';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { RegionsService, regionName, type RegionIndex } from '../regions/index.ts';
import { findEnterprise } from '../enterprises/index.ts';
import * as repo from './platforms.repository.ts';

/** A site's fields as the contract's add/edit bodies carry them (details not yet checked against the kind). */
export type PlatformInput = Omit<repo.PlatformWrite, 'details'> & { details?: Record<string, unknown> | undefined };

export class PlatformsService {
  private readonly regions: RegionsService;
  constructor(private readonly ctx: AppContext) {
    this.regions = new RegionsService(ctx);
  }

  private named(index: RegionIndex, lang: Language, r: repo.PlatformRecord): PlatformRow {
    const path = index.path(r.regionCode);
    return { ...r, regionPath: path.map((x) => x.code), regionNames: path.map((x) => regionName(x, lang)) };
  }

  async list(
    user: SessionUser,
    type: PlatformType,
    f: repo.PlatformListFilter,
    lang: Language,
  ): Promise<{ list: PlatformRow[]; total: number }> {
    const [r, index] = await Promise.all([repo.listPlatforms(this.ctx.db, user.scope, type, f), this.regions.index()]);
    return { list: r.list.map((p) => this.named(index, lang, p)), total: r.total };
  }

  async get(user: SessionUser, id: number, lang: Language): Promise<PlatformRow> {
    const p = await repo.getPlatform(this.ctx.db, user.scope, id);
    if (!p) throw new AppError(Status.notFound, 'platformNotFound');
    return this.named(await this.regions.index(), lang, p);
  }

  /** The sites a picker offers: the caller's data scope, with the region named in the caller's language. */
  async selectable(user: SessionUser, lang: Language): Promise<SelectableSite[]> {
    const [rows, index] = await Promise.all([repo.selectablePlatforms(this.ctx.db, user.scope), this.regions.index()]);
    return rows.map((r) => {
      const leaf = r.regionCode ? index.path(r.regionCode).at(-1) : undefined;
      return { ...r, regionName: leaf ? regionName(leaf, lang) : null };
    });
  }

  options(): ReturnType<typeof repo.platformOptions> {
    return repo.platformOptions(this.ctx.db);
  }

  roadSegments(user: SessionUser): Promise<RoadSegmentRow[]> {
    return repo.roadSegments(this.ctx.db, user.scope);
  }

  /** A site of this kind within the caller's scope; anything else answers like a missing site. */
  private async mustFind(user: SessionUser, type: PlatformType, id: number): Promise<void> {
    const p = await repo.findPlatform(this.ctx.db, user.scope, id);
    if (!p || p.type !== type) throw new AppError(Status.notFound, 'platformNotFound');
  }

  /** Checks the rules that need the database or the kind: details, region (a leaf), enterprise (its variant). */
  private async checked(type: PlatformType, input: PlatformInput, adding: boolean): Promise<repo.PlatformWrite> {
    let details: Record<string, unknown> | undefined;
    if (input.details !== undefined || adding) {
      // Validated under the name `details`, so a bad field reads e.g. "details.code is required".
      const parsed = z.object({ details: platformDetailsSchemas[type] }).parse({ details: input.details ?? {} });
      details = parsed.details;
    }
    if (input.regionCode !== undefined) await this.regions.assertLeaf(input.regionCode);
    if (input.enterpriseId !== undefined) {
      const e = await findEnterprise(this.ctx.db, input.enterpriseId);
      if (!e) throw new AppError(Status.notFound, 'enterpriseNotFound');
      if (e.variant !== enterpriseVariantOf(type)) throw new AppError(Status.invalid, 'enterpriseWrongKind');
    }
    return { ...input, details };
  }

  async add(user: SessionUser, type: PlatformType, input: PlatformInput): Promise<number> {
    const w = await this.checked(type, input, true);
    // A caller limited to some sites is given the site they made, so they can see it.
    const id = await repo.insertPlatform(this.ctx.db, type, w, user.id, user.scope.all ? null : user.id);
    await writeAudit(this.ctx.db, {
      action: 'platform.add',
      userId: user.id,
      account: user.account,
      target: `${type}:${id}`,
      detail: { name: w.name },
    });
    return id;
  }

  async edit(user: SessionUser, type: PlatformType, id: number, input: PlatformInput): Promise<void> {
    await this.mustFind(user, type, id);
    await repo.updatePlatform(this.ctx.db, id, await this.checked(type, input, false));
    await writeAudit(this.ctx.db, {
      action: 'platform.edit',
      userId: user.id,
      account: user.account,
      target: `${type}:${id}`,
    });
  }

  async remove(user: SessionUser, type: PlatformType, id: number): Promise<void> {
    await this.mustFind(user, type, id);
    const devices = await repo.deviceCount(this.ctx.db, id);
    if (devices > 0) throw new AppError(Status.conflict, 'platformHasDevices', { count: devices });
    const sections = await repo.sectionCount(this.ctx.db, id);
    if (sections > 0) throw new AppError(Status.conflict, 'platformHasSections', { count: sections });
    await repo.deletePlatform(this.ctx.db, id);
    await writeAudit(this.ctx.db, {
      action: 'platform.delete',
      userId: user.id,
      account: user.account,
      target: `${type}:${id}`,
    });
  }
}
