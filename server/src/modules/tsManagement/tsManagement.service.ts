import {
  FILE_TYPES,
  Status,
  TS_ITEMS,
  TS_MAX_ATTACHMENTS,
  type FileType,
  type TsAttachment,
  type TsRecord,
  type TsSite,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findSite } from '../devices/common.ts';
import { findFiles } from '../files/files.repository.ts';
import * as repo from './tsManagement.repository.ts';

/** The input of add and edit; attachments left out of an edit keep the stored ones. */
export type TsInput = Omit<repo.TsWrite, 'attachments'> & { attachments?: string[] | undefined };

/**
 * Tailings supervision records (TS management). Rules: the site is a tailings site in the caller's scope;
 * an item marked as a problem says what the problem is; a record with a problem says what must be rectified
 * and by when; dates follow one another (inspection, then deadline and completion, none in the future);
 * a completed record has its completion date; at most 3 attachments, files the caller may see and that belong
 * to no other site.
 */
export class TsManagementService {
  constructor(private readonly ctx: AppContext) {}

  private async mustGet(user: SessionUser, id: number): Promise<repo.TsRaw> {
    const r = await repo.getTs(this.ctx.db, user.scope, id);
    if (!r) throw new AppError(Status.notFound, 'tsRecordNotFound');
    return r;
  }

  private async check(user: SessionUser, w: repo.TsWrite): Promise<void> {
    const site = await findSite(this.ctx.db, user.scope, w.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    if (site.type !== 'tailings') throw new AppError(Status.invalid, 'tsSiteNotTailings');
    const today = await repo.todayOf(this.ctx.db);
    if (w.inspectionDate > today) throw new AppError(Status.invalid, 'tsInspectionInFuture');
    const problems = TS_ITEMS.filter((k) => w.items[k].result === 'problem');
    if (problems.some((k) => !w.items[k].note)) throw new AppError(Status.invalid, 'tsItemNoteRequired');
    if (problems.length > 0 && !w.requirement) throw new AppError(Status.invalid, 'tsRequirementRequired');
    if (problems.length > 0 && !w.deadline) throw new AppError(Status.invalid, 'tsDeadlineRequired');
    if (w.deadline && w.deadline < w.inspectionDate) throw new AppError(Status.invalid, 'tsDeadlineBeforeInspection');
    if (w.state === 'completed') this.checkCompletion(w.inspectionDate, w.completedDate, today);
    await this.checkAttachments(user, w.platformId, w.attachments);
  }

  private checkCompletion(inspectionDate: string, completedDate: string | undefined, today: string): void {
    if (!completedDate) throw new AppError(Status.invalid, 'tsCompletedDateRequired');
    if (completedDate < inspectionDate) throw new AppError(Status.invalid, 'tsCompletedBeforeInspection');
    if (completedDate > today) throw new AppError(Status.invalid, 'tsCompletedInFuture');
  }

  private async checkAttachments(user: SessionUser, platformId: number, ids: string[]): Promise<void> {
    if (ids.length > TS_MAX_ATTACHMENTS)
      throw new AppError(Status.invalid, 'tsTooManyAttachments', { max: TS_MAX_ATTACHMENTS });
    const found = new Map((await findFiles(this.ctx.db, user.scope, ids)).map((f) => [f.id, f]));
    for (const id of ids) {
      const f = found.get(id);
      if (!f) throw new AppError(Status.invalid, 'tsAttachmentNotFound', { file: id });
      if (f.platformId !== null && f.platformId !== platformId)
        throw new AppError(Status.invalid, 'tsAttachmentOtherSite', { name: f.originalName });
    }
  }

  private async present(user: SessionUser, rows: repo.TsRaw[]): Promise<TsRecord[]> {
    const files = new Map(
      (
        await findFiles(
          this.ctx.db,
          user.scope,
          rows.flatMap((r) => r.attachments),
        )
      ).map((f) => [f.id, f]),
    );
    return rows.map((r) => ({
      ...r,
      problems: TS_ITEMS.filter((k) => r.items[k]?.result === 'problem').length,
      attachments: r.attachments.map((id): TsAttachment => {
        const f = files.get(id);
        return {
          file_id: id,
          name: f?.originalName ?? null,
          mime: f ? (FILE_TYPES[f.ext as FileType]?.mime ?? f.mime) : null,
        };
      }),
    }));
  }

  async list(
    user: SessionUser,
    f: repo.TsFilter & { pageNum: number; pageSize: number; sortField?: string; sortOrder?: string },
  ): Promise<{ list: TsRecord[]; total: number }> {
    const page = await repo.listTs(this.ctx.db, user.scope, f);
    return { list: await this.present(user, page.list), total: page.total };
  }

  sites(user: SessionUser): Promise<TsSite[]> {
    return repo.tailingsSites(this.ctx.db, user.scope);
  }

  async add(user: SessionUser, input: TsInput): Promise<number> {
    const w: repo.TsWrite = { ...input, attachments: dedupe(input.attachments ?? []) };
    await this.check(user, w);
    return repo.insertTs(this.ctx.db, w, user.id);
  }

  async edit(user: SessionUser, id: number, input: TsInput): Promise<void> {
    const stored = await this.mustGet(user, id);
    const w: repo.TsWrite = { ...input, attachments: dedupe(input.attachments ?? stored.attachments) };
    await this.check(user, w);
    await repo.updateTs(this.ctx.db, id, w);
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    await this.mustGet(user, id);
    await repo.deleteTs(this.ctx.db, id);
  }

  async setRectified(user: SessionUser, id: number, completedDate: string, note: string | undefined): Promise<void> {
    const r = await this.mustGet(user, id);
    if (r.state === 'completed') throw new AppError(Status.invalid, 'tsAlreadyRectified');
    this.checkCompletion(r.inspectionDate, completedDate, await repo.todayOf(this.ctx.db));
    await repo.setRectified(this.ctx.db, id, completedDate, note);
  }
}

const dedupe = (ids: string[]): string[] => [...new Set(ids)];
