import {
  MONITOR_TYPES,
  monitorTypeOf,
  Status,
  type Language,
  type MultiStatisticRow,
  type PlatformModule,
  type SiteMonitorTypeRow,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { findSite } from '../../platform/auth/sites.ts';
import * as repo from './monitorTypes.repository.ts';

export class MonitorTypesService {
  constructor(private readonly ctx: AppContext) {}

  private async mustSite(user: SessionUser, platformId: number): Promise<void> {
    if (!(await findSite(this.ctx.db, user.scope, platformId))) throw new AppError(Status.notFound, 'platformNotFound');
  }

  /** The monitor types of a site: those bound to it and those its devices have. */
  async modulesOf(user: SessionUser, platformId: number): Promise<PlatformModule[]> {
    await this.mustSite(user, platformId);
    const rows = await repo.siteModules(this.ctx.db, platformId);
    return rows.flatMap((r) => {
      const m = monitorTypeOf(r.moduleId);
      return m ? [{ ...m, deviceCount: r.deviceCount }] : [];
    });
  }

  /**
   * The catalogue (37 types) with each type's binding to the site, filtered, sorted and paged here: the
   * catalogue lives in the contract, not in a table, and the name sorts in the caller's language.
   */
  async siteTypeList(
    user: SessionUser,
    lang: Language,
    f: {
      platformId: number;
      pageNum: number;
      pageSize: number;
      keyword?: string | undefined;
      bound?: boolean | undefined;
      sortField?: string | undefined;
      sortOrder?: 'ascend' | 'descend' | undefined;
    },
  ): Promise<{ list: SiteMonitorTypeRow[]; total: number }> {
    await this.mustSite(user, f.platformId);
    const counts = new Map((await repo.siteModules(this.ctx.db, f.platformId)).map((r) => [r.moduleId, r.deviceCount]));
    const word = f.keyword?.toLowerCase();
    const matches = (m: (typeof MONITOR_TYPES)[number]) =>
      !word ||
      String(m.moduleId) === word ||
      [m.code, ...Object.values(m.label), ...m.quantities.flatMap((q) => [q.key, ...Object.values(q.label)])].some(
        (text) => text.toLowerCase().includes(word),
      );
    const rows: SiteMonitorTypeRow[] = MONITOR_TYPES.filter(matches)
      .map((m) => ({ ...m, bound: counts.has(m.moduleId), deviceCount: counts.get(m.moduleId) ?? 0 }))
      .filter((r) => f.bound === undefined || r.bound === f.bound);
    const collator = new Intl.Collator(lang);
    const keyOf: Record<string, (a: SiteMonitorTypeRow, b: SiteMonitorTypeRow) => number> = {
      moduleId: (a, b) => a.moduleId - b.moduleId,
      name: (a, b) => collator.compare(a.label[lang], b.label[lang]),
      code: (a, b) => collator.compare(a.code, b.code),
      bound: (a, b) => Number(a.bound) - Number(b.bound),
      deviceCount: (a, b) => a.deviceCount - b.deviceCount,
    };
    const compare = keyOf[f.sortField ?? ''] ?? keyOf.moduleId!;
    const sign = f.sortOrder === 'descend' ? -1 : 1;
    rows.sort((a, b) => sign * compare(a, b) || a.moduleId - b.moduleId);
    const from = (f.pageNum - 1) * f.pageSize;
    return { list: rows.slice(from, from + f.pageSize), total: rows.length };
  }

  async bind(user: SessionUser, platformId: number, moduleIds: number[]): Promise<void> {
    await this.mustSite(user, platformId);
    await repo.bindModules(this.ctx.db, platformId, moduleIds);
  }

  async unbind(user: SessionUser, platformId: number, moduleId: number): Promise<void> {
    await this.mustSite(user, platformId);
    const count = await repo.countSiteDevicesOfModule(this.ctx.db, platformId, moduleId);
    if (count > 0) throw new AppError(Status.conflict, 'monitorTypeInUse', { count });
    await repo.unbindModule(this.ctx.db, platformId, moduleId);
  }

  // ---- multi-module statistics ----

  list(
    user: SessionUser,
    f: Parameters<typeof repo.listMulti>[2],
  ): Promise<{ list: MultiStatisticRow[]; total: number }> {
    return repo.listMulti(this.ctx.db, user.scope, f);
  }

  names(user: SessionUser, platformId?: number): Promise<{ sid: number; multiName: string; platformId: number }[]> {
    return repo.multiNames(this.ctx.db, user.scope, platformId);
  }

  async get(user: SessionUser, sid: number): Promise<MultiStatisticRow> {
    const m = await repo.getMulti(this.ctx.db, user.scope, sid);
    if (!m) throw new AppError(Status.notFound, 'multiStatisticNotFound');
    return m;
  }

  private async save(user: SessionUser, sid: number | null, w: repo.MultiWrite): Promise<number> {
    await this.mustSite(user, w.platformId);
    const unique = new Set(w.deviceIds);
    if ((await repo.countSiteDevices(this.ctx.db, w.platformId, [...unique])) !== unique.size) {
      throw new AppError(Status.invalid, 'multiStatisticDevices');
    }
    try {
      return await repo.saveMulti(this.ctx.db, sid, w);
    } catch (e) {
      if (isUniqueViolation(e, 'multi_statistics_name_uq')) throw new AppError(Status.conflict, 'nameDuplicate');
      throw e;
    }
  }

  add(user: SessionUser, w: repo.MultiWrite): Promise<number> {
    return this.save(user, null, w);
  }

  async edit(user: SessionUser, sid: number, w: repo.MultiWrite): Promise<void> {
    await this.get(user, sid);
    await this.save(user, sid, w);
  }

  async remove(user: SessionUser, sid: number): Promise<void> {
    await this.get(user, sid);
    await repo.deleteMulti(this.ctx.db, sid);
  }
}
