import {
  FILE_TYPES,
  Status,
  TS_ITEMS,
  TS_MAX_ATTACHMENTS,
  type FileType,
  type TsAttachment,
  type TsPerson,
  type TsRecord,
  type TsSite,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { MessageKey } from '../../platform/http/messages.ts';
import { findSite } from '../../platform/auth/sites.ts';
import { findFiles } from '../files/index.ts';
import { checkCompletion, todayOf, type CompletionMessages } from '../../platform/rectification.ts';
import * as repo from './tsManagement.repository.ts';

/** The input of add and edit; documents or result documents left out of an edit keep the stored ones. */
export type TsInput = Omit<repo.TsWrite, 'attachments' | 'resultAttachments'> & {
  attachments?: string[] | undefined;
  resultAttachments?: string[] | undefined;
};

const COMPLETION: CompletionMessages = {
  required: 'tsCompletedDateRequired',
  beforeInspection: 'tsCompletedBeforeInspection',
  inFuture: 'tsCompletedInFuture',
};

type FileList = 'attachments' | 'resultAttachments';
const TOO_MANY: Record<FileList, MessageKey> = {
  attachments: 'tsTooManyAttachments',
  resultAttachments: 'tsTooManyResultAttachments',
};

/**
 * Tailings supervision records (TS management). Rules: the site is a tailings site in the caller's scope;
 * an item marked as a problem says what the problem is, and the record then has a problem type; a record with
 * a problem (an item, or a problem type) says what must be rectified and by when; dates follow one another
 * (inspection, then deadline and completion, none in the future); a completed record has its completion
 * date; the responsible person is one of the site's (or bound to no site); at most 3 documents and 3 result
 * documents, files the caller may see and that belong to no other site. Enterprise, pond name and pond status
 * are the site's.
 */
export class TsManagementService {
  constructor(private readonly ctx: AppContext) {}

  private async mustGet(user: SessionUser, id: number): Promise<repo.TsRaw> {
    const r = await repo.getTs(this.ctx.db, user.scope, id);
    if (!r) throw new AppError(Status.notFound, 'tsRecordNotFound');
    return r;
  }

  private async check(user: SessionUser, w: repo.TsWrite, stored?: repo.TsRaw): Promise<void> {
    const site = await findSite(this.ctx.db, user.scope, w.platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    if (site.type !== 'tailings') throw new AppError(Status.invalid, 'tsSiteNotTailings');
    const today = await todayOf(this.ctx.db);
    if (w.inspectionDate > today) throw new AppError(Status.invalid, 'tsInspectionInFuture');
    const problems = TS_ITEMS.filter((k) => w.items[k].result === 'problem');
    if (problems.some((k) => !w.items[k].note)) throw new AppError(Status.invalid, 'tsItemNoteRequired');
    if (problems.length > 0 && !w.problemType) throw new AppError(Status.invalid, 'tsProblemTypeRequired');
    const hasProblem = problems.length > 0 || w.problemType !== undefined;
    if (hasProblem && !w.requirement) throw new AppError(Status.invalid, 'tsRequirementRequired');
    if (hasProblem && !w.deadline) throw new AppError(Status.invalid, 'tsDeadlineRequired');
    if (w.deadline && w.deadline < w.inspectionDate) throw new AppError(Status.invalid, 'tsDeadlineBeforeInspection');
    if (w.state === 'completed') this.checkCompletion(w.inspectionDate, w.completedDate, today);
    await this.checkPerson(user, w.platformId, w.responsiblePersonId, stored?.responsiblePersonId ?? null);
    await this.checkAttachments(user, w.platformId, w.attachments, 'attachments');
    await this.checkAttachments(user, w.platformId, w.resultAttachments, 'resultAttachments');
  }

  /** The person is one of the site's responsible persons, or bound to no site; the stored one may stay. */
  private async checkPerson(
    user: SessionUser,
    platformId: number,
    id: number | undefined,
    stored: number | null,
  ): Promise<void> {
    if (id === undefined || id === stored) return;
    const choosable = await repo.choosablePersons(this.ctx.db, user.scope, platformId);
    if (!choosable.some((p) => p.id === id)) throw new AppError(Status.invalid, 'tsPersonNotChoosable');
  }

  private checkCompletion(inspectionDate: string, completedDate: string | undefined, today: string): void {
    checkCompletion(inspectionDate, completedDate, today, COMPLETION);
  }

  private async checkAttachments(user: SessionUser, platformId: number, ids: string[], list: FileList): Promise<void> {
    if (ids.length > TS_MAX_ATTACHMENTS)
      throw new AppError(Status.invalid, TOO_MANY[list], { max: TS_MAX_ATTACHMENTS });
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
          rows.flatMap((r) => [...r.attachments, ...r.resultAttachments]),
        )
      ).map((f) => [f.id, f]),
    );
    const described = (id: string): TsAttachment => {
      const f = files.get(id);
      return {
        file_id: id,
        name: f?.originalName ?? null,
        mime: f ? (FILE_TYPES[f.ext as FileType]?.mime ?? f.mime) : null,
      };
    };
    return rows.map((r) => ({
      ...r,
      problems: TS_ITEMS.filter((k) => r.items[k]?.result === 'problem').length,
      attachments: r.attachments.map(described),
      resultAttachments: r.resultAttachments.map(described),
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

  /** The persons who may be chosen for a site's records; a foreign site answers like a missing one. */
  async persons(user: SessionUser, platformId: number | undefined): Promise<TsPerson[]> {
    if (platformId !== undefined) {
      const site = await findSite(this.ctx.db, user.scope, platformId);
      if (!site) throw new AppError(Status.notFound, 'platformNotFound');
      if (site.type !== 'tailings') throw new AppError(Status.invalid, 'tsSiteNotTailings');
    }
    return repo.choosablePersons(this.ctx.db, user.scope, platformId);
  }

  async add(user: SessionUser, input: TsInput): Promise<number> {
    const w: repo.TsWrite = {
      ...input,
      attachments: dedupe(input.attachments ?? []),
      resultAttachments: dedupe(input.resultAttachments ?? []),
    };
    await this.check(user, w);
    return repo.insertTs(this.ctx.db, w, user.id);
  }

  async edit(user: SessionUser, id: number, input: TsInput): Promise<void> {
    const stored = await this.mustGet(user, id);
    const w: repo.TsWrite = {
      ...input,
      attachments: dedupe(input.attachments ?? stored.attachments),
      resultAttachments: dedupe(input.resultAttachments ?? stored.resultAttachments),
    };
    await this.check(user, w, stored);
    await repo.updateTs(this.ctx.db, id, w);
  }

  async remove(user: SessionUser, id: number): Promise<void> {
    await this.mustGet(user, id);
    await repo.deleteTs(this.ctx.db, id);
  }

  async setRectified(user: SessionUser, id: number, input: repo.TsRectification): Promise<void> {
    const r = await this.mustGet(user, id);
    if (r.state === 'completed') throw new AppError(Status.invalid, 'tsAlreadyRectified');
    this.checkCompletion(r.inspectionDate, input.completedDate, await todayOf(this.ctx.db));
    const resultAttachments = input.resultAttachments ? dedupe(input.resultAttachments) : undefined;
    if (resultAttachments) await this.checkAttachments(user, r.platformId, resultAttachments, 'resultAttachments');
    await repo.setRectified(this.ctx.db, id, { ...input, resultAttachments });
  }
}

const dedupe = (ids: string[]): string[] => [...new Set(ids)];
