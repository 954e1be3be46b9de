import { Status, type Language, type RegionNode } from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import * as repo from './regions.repository.ts';

/** The deepest level: 4, county or district. */
const MAX_LEVEL = 4;

export function regionName(r: repo.RegionRecord, lang: Language): string {
  return lang === 'zh' ? r.nameZh : lang === 'ko' ? r.nameKo : r.nameEn;
}

/** The path of each region from its country down to itself. */
export interface RegionIndex {
  path(code: string | null): repo.RegionRecord[];
}

export class RegionsService {
  constructor(private readonly ctx: AppContext) {}

  async tree(lang: Language): Promise<RegionNode[]> {
    const all = await repo.allRegions(this.ctx.db);
    const nodes = new Map<string, RegionNode>();
    const roots: RegionNode[] = [];
    for (const r of all) {
      const n: RegionNode = { ...r, name: regionName(r, lang) };
      nodes.set(r.code, n);
      const parent = r.parentCode ? nodes.get(r.parentCode) : undefined;
      if (parent) (parent.children ??= []).push(n);
      else roots.push(n);
    }
    return roots;
  }

  /** Loads every region once, to name the region paths of many sites. */
  async index(): Promise<RegionIndex> {
    const byCode = new Map((await repo.allRegions(this.ctx.db)).map((r) => [r.code, r]));
    return {
      path(code) {
        const out: repo.RegionRecord[] = [];
        let r = code ? byCode.get(code) : undefined;
        while (r && out.length <= MAX_LEVEL) {
          out.unshift(r);
          r = r.parentCode ? byCode.get(r.parentCode) : undefined;
        }
        return out;
      },
    };
  }

  /** Spec §5: a site's region must be fully selected, i.e. a region without subordinate regions. */
  async assertLeaf(code: string): Promise<void> {
    if (!(await repo.getRegion(this.ctx.db, code))) throw new AppError(Status.invalid, 'regionNotFound');
    if ((await repo.childCount(this.ctx.db, code)) > 0) throw new AppError(Status.invalid, 'regionNotLeaf');
  }

  private async mustGet(code: string): Promise<repo.RegionRecord> {
    const r = await repo.getRegion(this.ctx.db, code);
    if (!r) throw new AppError(Status.notFound, 'regionNotFound');
    return r;
  }

  private names(input: {
    nameEn: string;
    nameZh?: string | undefined;
    nameKo?: string | undefined;
    sort?: number | undefined;
  }): repo.RegionWrite {
    return {
      nameEn: input.nameEn,
      nameZh: input.nameZh ?? input.nameEn,
      nameKo: input.nameKo ?? input.nameEn,
      sort: input.sort ?? 0,
    };
  }

  async add(input: {
    code: string;
    parentCode?: string | undefined;
    nameEn: string;
    nameZh?: string | undefined;
    nameKo?: string | undefined;
    sort?: number | undefined;
  }): Promise<void> {
    let level = 1;
    if (input.parentCode !== undefined) {
      const parent = await repo.getRegion(this.ctx.db, input.parentCode);
      if (!parent) throw new AppError(Status.notFound, 'regionNotFound');
      if (parent.level >= MAX_LEVEL) throw new AppError(Status.invalid, 'regionTooDeep');
      // A region that sites use must stay a leaf, or those sites would no longer be fully selected.
      const used = await repo.platformCount(this.ctx.db, parent.code);
      if (used > 0) throw new AppError(Status.conflict, 'regionHasPlatforms', { count: used });
      level = parent.level + 1;
    }
    try {
      await repo.insertRegion(this.ctx.db, {
        ...this.names(input),
        code: input.code,
        parentCode: input.parentCode ?? null,
        level,
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'regionCodeExists');
      throw e;
    }
  }

  async edit(input: {
    code: string;
    nameEn: string;
    nameZh?: string | undefined;
    nameKo?: string | undefined;
    sort?: number | undefined;
  }): Promise<void> {
    await this.mustGet(input.code);
    await repo.updateRegion(this.ctx.db, input.code, this.names(input));
  }

  async remove(code: string): Promise<void> {
    await this.mustGet(code);
    const children = await repo.childCount(this.ctx.db, code);
    if (children > 0) throw new AppError(Status.conflict, 'regionHasChildren', { count: children });
    const used = await repo.platformCount(this.ctx.db, code);
    if (used > 0) throw new AppError(Status.conflict, 'regionHasPlatforms', { count: used });
    await repo.deleteRegion(this.ctx.db, code);
  }
}
