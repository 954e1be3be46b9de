import {
  DEFAULT_REMIND_DAYS,
  EXPIRING_DOC_TYPES,
  FILE_TYPES,
  MAX_PLAN_FILES,
  MAX_PROBLEM_PHOTOS,
  Status,
  type ArchiveContact,
  type AuditAction,
  type ArchiveFile,
  type ArchiveSite,
  type Drill,
  type FileType,
  type Inspection,
  type InspectionItem,
  type InspectionProblem,
  type Plan,
  type PlanDetail,
  type PlanKind,
  type RectificationState,
  type SafetyDocType,
  type SafetyDocument,
  type SafetyDocumentVersion,
  type SafetyFolder,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { writeAudit } from '../../platform/audit.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { findSite } from '../../platform/auth/sites.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { MessageKey } from '../../platform/http/messages.ts';
import { checkCompletion, todayOf, type CompletionMessages } from '../../platform/rectification.ts';
import type { Paging } from '../../platform/db/sql.ts';
import { findFiles } from '../files/index.ts';
import * as repo from './archives.repository.ts';

const COMPLETION: CompletionMessages = {
  required: 'archivesCompletedDateRequired',
  beforeInspection: 'archivesCompletedBeforeInspection',
  inFuture: 'archivesCompletedInFuture',
};
const IMAGE_TYPES: readonly string[] = ['jpg', 'png', 'gif', 'bmp'];
const dedupe = (ids: readonly string[]): string[] => [...new Set(ids)];
const invalid = (key: MessageKey, params?: Record<string, string | number>) =>
  new AppError(Status.invalid, key, params);

/** Where a call came from (the audit record's address). */
export interface Meta {
  ip: string;
}

export interface InspectionInput {
  platformId: number;
  inspectionDate: string;
  inspector: string;
  items: InspectionItem[];
  problems: InspectionProblem[];
  requirement?: string | undefined;
  deadline?: string | undefined;
  state: RectificationState;
  completedDate?: string | undefined;
  result?: string | undefined;
}

/**
 * Safety supervision (spec §2 /archives). Rules shared by its three screens: a record belongs to a site in the
 * caller's data scope, and a record of another site answers like a missing one; its files are uploads the
 * caller may see, made for the same site (so that downloading them takes the same scope). Dynamic
 * supervision follows the rectification model of tailings supervision (platform/rectification.ts). A plan's
 * versions are numbered and kept; an approved version is never changed, and a version is approved once. A
 * certificate or licence has an expiry date. Reminders are mailed once per plan (or document) and end date.
 */
export class ArchivesService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.db;
  }

  private async site(user: SessionUser, platformId: number): Promise<string> {
    const site = await findSite(this.db, user.scope, platformId);
    if (!site) throw new AppError(Status.notFound, 'platformNotFound');
    return site.name;
  }

  /** The audit record of a change (target `<kind>:<id>`: inspection, plan, safetyFolder, safetyDocument). */
  private audit(
    user: SessionUser,
    meta: Meta,
    action: AuditAction,
    target: string,
    detail: Record<string, unknown>,
  ): Promise<void> {
    return writeAudit(this.db, { action, userId: user.id, account: user.account, target, detail, ip: meta.ip });
  }

  /** The files exist for the caller, belong to this site, and (photos) are images. */
  private async checkFiles(
    user: SessionUser,
    platformId: number,
    ids: readonly string[],
    images = false,
  ): Promise<void> {
    if (!ids.length) return;
    const found = new Map((await findFiles(this.db, user.scope, ids)).map((f) => [f.id, f]));
    for (const id of ids) {
      const f = found.get(id);
      if (!f) throw invalid('archivesFileNotFound', { file: id });
      if (f.platformId !== platformId) throw invalid('archivesFileOtherSite', { name: f.originalName });
      if (images && !IMAGE_TYPES.includes(f.ext)) throw invalid('archivesPhotoNotImage', { name: f.originalName });
    }
  }

  /** Files as records name them (a file no longer readable keeps its id, without name and type). */
  private async describe(user: SessionUser, ids: readonly string[]): Promise<(id: string) => ArchiveFile> {
    const files = new Map((await findFiles(this.db, user.scope, dedupe(ids))).map((f) => [f.id, f]));
    return (id) => {
      const f = files.get(id);
      return {
        file_id: id,
        name: f?.originalName ?? null,
        mime: f ? (FILE_TYPES[f.ext as FileType]?.mime ?? f.mime) : null,
      };
    };
  }

  private async contact(id: number | undefined): Promise<void> {
    if (id !== undefined && !(await repo.contactExists(this.db, id))) throw invalid('archivesContactNotFound');
  }

  sites(user: SessionUser): Promise<ArchiveSite[]> {
    return repo.sites(this.db, user.scope);
  }

  contacts(): Promise<ArchiveContact[]> {
    return repo.contacts(this.db);
  }

  // -------------------------------------------------------------------------- dynamic supervision

  private async checkInspection(user: SessionUser, input: InspectionInput): Promise<repo.InspectionWrite> {
    await this.site(user, input.platformId);
    const today = await todayOf(this.db);
    if (input.inspectionDate > today) throw invalid('archivesInspectionInFuture');
    const faulty = input.items.filter((i) => i.result === 'problem');
    const noted = faulty.find((i) => !i.note);
    if (noted) throw invalid('archivesItemNoteRequired', { item: noted.name });
    const problems = input.problems.map((p) => ({ description: p.description, photos: dedupe(p.photos) }));
    for (const p of problems)
      if (p.photos.length > MAX_PROBLEM_PHOTOS) throw invalid('archivesTooManyPhotos', { max: MAX_PROBLEM_PHOTOS });
    await this.checkFiles(user, input.platformId, dedupe(problems.flatMap((p) => p.photos)), true);
    const problemCount = Math.max(problems.length, faulty.length);
    if (problemCount > 0 && !input.requirement) throw invalid('archivesRequirementRequired');
    if (problemCount > 0 && !input.deadline) throw invalid('archivesDeadlineRequired');
    if (input.deadline && input.deadline < input.inspectionDate) throw invalid('archivesDeadlineBeforeInspection');
    if (input.state === 'completed') checkCompletion(input.inspectionDate, input.completedDate, today, COMPLETION);
    return { ...input, problems, problemCount };
  }

  private async mustInspection(user: SessionUser, id: number): Promise<repo.InspectionRaw> {
    const r = await repo.getInspection(this.db, user.scope, id);
    if (!r) throw new AppError(Status.notFound, 'archivesInspectionNotFound');
    return r;
  }

  async listInspections(
    user: SessionUser,
    f: repo.InspectionFilter & Paging,
  ): Promise<{ list: Inspection[]; total: number }> {
    const page = await repo.listInspections(this.db, user.scope, f);
    const describe = await this.describe(
      user,
      page.list.flatMap((r) => r.problems.flatMap((p) => p.photos)),
    );
    return {
      total: page.total,
      list: page.list.map((r) => ({
        ...r,
        problems: r.problems.map((p) => ({ description: p.description, photos: p.photos.map(describe) })),
      })),
    };
  }

  async addInspection(user: SessionUser, input: InspectionInput, meta: Meta): Promise<number> {
    const id = await repo.insertInspection(this.db, await this.checkInspection(user, input), user.id);
    await this.audit(user, meta, 'inspection.add', `inspection:${id}`, {
      site: await this.site(user, input.platformId),
      inspectionDate: input.inspectionDate,
      state: input.state,
    });
    return id;
  }

  async editInspection(user: SessionUser, id: number, input: InspectionInput, meta: Meta): Promise<void> {
    const before = await this.mustInspection(user, id);
    await repo.updateInspection(this.db, id, await this.checkInspection(user, input));
    await this.audit(user, meta, 'inspection.edit', `inspection:${id}`, {
      site: before.platformName,
      inspectionDate: input.inspectionDate,
      ...(before.state !== input.state ? { state: { from: before.state, to: input.state } } : {}),
    });
  }

  async rectifyInspection(
    user: SessionUser,
    id: number,
    completedDate: string,
    result: string | undefined,
    meta: Meta,
  ): Promise<void> {
    const r = await this.mustInspection(user, id);
    if (r.state === 'completed') throw invalid('archivesAlreadyRectified');
    checkCompletion(r.inspectionDate, completedDate, await todayOf(this.db), COMPLETION);
    if (!(await repo.rectifyInspection(this.db, id, completedDate, result))) throw invalid('archivesAlreadyRectified');
    await this.audit(user, meta, 'inspection.rectify', `inspection:${id}`, {
      site: r.platformName,
      inspectionDate: r.inspectionDate,
      completedDate,
    });
  }

  async deleteInspection(user: SessionUser, id: number, meta: Meta): Promise<void> {
    const r = await this.mustInspection(user, id);
    await repo.deleteInspection(this.db, id);
    await this.audit(user, meta, 'inspection.delete', `inspection:${id}`, {
      site: r.platformName,
      inspectionDate: r.inspectionDate,
    });
  }

  // ---------------------------------------------------------------------------------------- plans

  private async checkVersion(user: SessionUser, platformId: number, v: repo.VersionWrite): Promise<repo.VersionWrite> {
    if (v.validTo < v.validFrom) throw invalid('archivesValidToBeforeFrom');
    const files = dedupe(v.files);
    if (files.length > MAX_PLAN_FILES) throw invalid('archivesTooManyFiles', { max: MAX_PLAN_FILES });
    await this.checkFiles(user, platformId, files);
    return { ...v, files };
  }

  private async mustPlan(user: SessionUser, id: number): Promise<repo.PlanRaw> {
    const p = await repo.getPlan(this.db, user.scope, id);
    if (!p) throw new AppError(Status.notFound, 'archivesPlanNotFound');
    return p;
  }

  listPlans(user: SessionUser, f: repo.PlanFilter & Paging): Promise<{ list: Plan[]; total: number }> {
    return repo.listPlans(this.db, user.scope, f);
  }

  async planDetail(user: SessionUser, id: number): Promise<PlanDetail> {
    const plan = await this.mustPlan(user, id);
    const [versions, drills] = await Promise.all([repo.planVersions(this.db, id), repo.planDrills(this.db, id)]);
    const describe = await this.describe(user, [
      ...versions.flatMap((v) => v.files),
      ...drills.flatMap((d) => d.files),
    ]);
    return {
      ...plan,
      versions: versions.map(({ planId: _p, ...v }) => ({ ...v, files: v.files.map(describe) })),
      drillList: drills.map((d): Drill => ({ ...d, files: d.files.map(describe) })),
    };
  }

  async addPlan(
    user: SessionUser,
    input: repo.VersionWrite & {
      platformId: number;
      kind: PlanKind;
      name: string;
      contactId?: number | undefined;
      remindDays?: number | undefined;
    },
    meta: Meta,
  ): Promise<number> {
    const site = await this.site(user, input.platformId);
    await this.contact(input.contactId);
    const v = await this.checkVersion(user, input.platformId, input);
    const id = await repo.insertPlan(
      this.db,
      input.platformId,
      {
        kind: input.kind,
        name: input.name,
        contactId: input.contactId,
        remindDays: input.remindDays ?? DEFAULT_REMIND_DAYS,
      },
      v,
      user.id,
    );
    await this.audit(user, meta, 'plan.add', `plan:${id}`, { site, name: input.name, kind: input.kind });
    return id;
  }

  async editPlan(
    user: SessionUser,
    id: number,
    input: { kind: PlanKind; name: string; contactId?: number | undefined; remindDays?: number | undefined },
    meta: Meta,
  ): Promise<void> {
    const plan = await this.mustPlan(user, id);
    await this.contact(input.contactId);
    await repo.updatePlan(this.db, id, { ...input, remindDays: input.remindDays ?? plan.remindDays });
    await this.audit(user, meta, 'plan.edit', `plan:${id}`, {
      site: plan.platformName,
      name: plan.name === input.name ? input.name : { from: plan.name, to: input.name },
    });
  }

  async deletePlan(user: SessionUser, id: number, meta: Meta): Promise<void> {
    const plan = await this.mustPlan(user, id);
    await repo.deletePlan(this.db, id);
    await this.audit(user, meta, 'plan.delete', `plan:${id}`, { site: plan.platformName, name: plan.name });
  }

  async addVersion(user: SessionUser, planId: number, input: repo.VersionWrite, meta: Meta): Promise<number> {
    const plan = await this.mustPlan(user, planId);
    const id = await repo.insertVersion(
      this.db,
      planId,
      await this.checkVersion(user, plan.platformId, input),
      user.id,
    );
    const v = await repo.getVersion(this.db, user.scope, id);
    await this.audit(user, meta, 'plan.version', `plan:${planId}`, {
      site: plan.platformName,
      name: plan.name,
      version: v?.version ?? null,
      validTo: input.validTo,
    });
    return id;
  }

  async approveVersion(
    user: SessionUser,
    versionId: number,
    meta: Meta,
  ): Promise<{ approvedBy: string; approvedAt: string }> {
    const v = await repo.getVersion(this.db, user.scope, versionId);
    if (!v) throw new AppError(Status.notFound, 'archivesPlanVersionNotFound');
    const done = await repo.approveVersion(this.db, versionId, user);
    if (done) {
      const plan = await this.mustPlan(user, v.planId);
      await this.audit(user, meta, 'plan.approve', `plan:${v.planId}`, {
        site: plan.platformName,
        name: plan.name,
        version: v.version,
      });
      return done;
    }
    const now = await repo.getVersion(this.db, user.scope, versionId);
    if (now?.approvedBy) throw invalid('archivesVersionApproved', { version: v.version, name: now.approvedBy });
    throw invalid('archivesVersionSuperseded', { version: v.version });
  }

  async addDrill(user: SessionUser, planId: number, input: repo.DrillWrite, meta: Meta): Promise<number> {
    const plan = await this.mustPlan(user, planId);
    if (input.drillDate > (await todayOf(this.db))) throw invalid('archivesDrillInFuture');
    const files = dedupe(input.files);
    if (files.length > MAX_PLAN_FILES) throw invalid('archivesTooManyFiles', { max: MAX_PLAN_FILES });
    await this.checkFiles(user, plan.platformId, files);
    const id = await repo.insertDrill(this.db, planId, { ...input, files }, user.id);
    await this.audit(user, meta, 'plan.drillAdd', `plan:${planId}`, {
      site: plan.platformName,
      name: plan.name,
      drillDate: input.drillDate,
    });
    return id;
  }

  async deleteDrill(user: SessionUser, id: number, meta: Meta): Promise<void> {
    const d = await repo.getDrill(this.db, user.scope, id);
    if (!d) throw new AppError(Status.notFound, 'archivesDrillNotFound');
    const plan = await this.mustPlan(user, d.planId);
    await repo.deleteDrill(this.db, id);
    await this.audit(user, meta, 'plan.drillDelete', `plan:${d.planId}`, {
      site: plan.platformName,
      name: plan.name,
      drillDate: d.drillDate,
    });
  }

  // ------------------------------------------------------------------------------- security files

  async folders(user: SessionUser, platformId: number): Promise<SafetyFolder[]> {
    await this.site(user, platformId);
    return repo.folders(this.db, platformId);
  }

  private async mustFolder(user: SessionUser, id: number, platformId?: number): Promise<repo.FolderRaw> {
    const f = await repo.getFolder(this.db, user.scope, id);
    if (!f || (platformId !== undefined && f.platformId !== platformId))
      throw new AppError(Status.notFound, 'archivesFolderNotFound');
    return f;
  }

  async addFolder(
    user: SessionUser,
    platformId: number,
    parentId: number | undefined,
    name: string,
    meta: Meta,
  ): Promise<number> {
    const site = await this.site(user, platformId);
    if (parentId !== undefined) await this.mustFolder(user, parentId, platformId);
    const id = await repo.insertFolder(this.db, platformId, parentId ?? null, name);
    if (id === undefined) throw invalid('archivesFolderExists', { name });
    await this.audit(user, meta, 'safetyFolder.add', `safetyFolder:${id}`, { site, name });
    return id;
  }

  async deleteFolder(user: SessionUser, id: number, meta: Meta): Promise<void> {
    const f = await this.mustFolder(user, id);
    if (!(await repo.deleteEmptyFolder(this.db, id))) throw invalid('archivesFolderNotEmpty');
    await this.audit(user, meta, 'safetyFolder.delete', `safetyFolder:${id}`, {
      site: await this.site(user, f.platformId),
      name: f.name,
    });
  }

  private async checkDocument(user: SessionUser, platformId: number, w: repo.DocumentWrite): Promise<void> {
    if (w.folderId !== undefined) await this.mustFolder(user, w.folderId, platformId);
    if (EXPIRING_DOC_TYPES.includes(w.docType) && !w.expiresOn) throw invalid('archivesExpiryRequired');
    await this.contact(w.contactId);
  }

  private async mustDocument(user: SessionUser, id: number): Promise<repo.DocumentRaw> {
    const d = await repo.getDocument(this.db, user.scope, id);
    if (!d) throw new AppError(Status.notFound, 'archivesDocumentNotFound');
    return d;
  }

  async listDocuments(
    user: SessionUser,
    f: repo.DocumentFilter & Paging,
  ): Promise<{ list: SafetyDocument[]; total: number }> {
    const page = await repo.listDocuments(this.db, user.scope, f);
    const describe = await this.describe(
      user,
      page.list.map((d) => d.fileId),
    );
    return { total: page.total, list: page.list.map(({ fileId, ...d }) => ({ ...d, file: describe(fileId) })) };
  }

  async documentVersions(user: SessionUser, id: number): Promise<SafetyDocumentVersion[]> {
    await this.mustDocument(user, id);
    const versions = await repo.documentVersions(this.db, id);
    const describe = await this.describe(
      user,
      versions.map((v) => v.fileId),
    );
    return versions.map(({ fileId, ...v }) => ({ ...v, file: describe(fileId) }));
  }

  async addDocument(
    user: SessionUser,
    input: {
      platformId: number;
      folderId?: number | undefined;
      name: string;
      docType: SafetyDocType;
      expiresOn?: string | undefined;
      contactId?: number | undefined;
      remindDays?: number | undefined;
      fileId: string;
      note?: string | undefined;
    },
    meta: Meta,
  ): Promise<number> {
    const site = await this.site(user, input.platformId);
    const w: repo.DocumentWrite = { ...input, remindDays: input.remindDays ?? DEFAULT_REMIND_DAYS };
    await this.checkDocument(user, input.platformId, w);
    await this.checkFiles(user, input.platformId, [input.fileId]);
    const id = await repo.insertDocument(this.db, input.platformId, w, input, user);
    await this.audit(user, meta, 'safetyDocument.add', `safetyDocument:${id}`, {
      site,
      name: input.name,
      docType: input.docType,
      ...(input.expiresOn ? { expiresOn: input.expiresOn } : {}),
    });
    return id;
  }

  async editDocument(
    user: SessionUser,
    id: number,
    input: Omit<repo.DocumentWrite, 'remindDays'> & { remindDays?: number | undefined },
    meta: Meta,
  ): Promise<void> {
    const d = await this.mustDocument(user, id);
    const w: repo.DocumentWrite = { ...input, remindDays: input.remindDays ?? d.remindDays };
    await this.checkDocument(user, d.platformId, w);
    await repo.updateDocument(this.db, id, w);
    await this.audit(user, meta, 'safetyDocument.edit', `safetyDocument:${id}`, {
      site: d.platformName,
      name: d.name === input.name ? input.name : { from: d.name, to: input.name },
      ...(d.expiresOn !== (input.expiresOn ?? null) ? { expiresOn: { from: d.expiresOn, to: input.expiresOn } } : {}),
    });
  }

  async addDocumentVersion(
    user: SessionUser,
    documentId: number,
    file: { fileId: string; note?: string | undefined },
    meta: Meta,
  ): Promise<number> {
    const d = await this.mustDocument(user, documentId);
    await this.checkFiles(user, d.platformId, [file.fileId]);
    const id = await repo.insertDocumentVersion(this.db, documentId, file, user);
    await this.audit(user, meta, 'safetyDocument.version', `safetyDocument:${documentId}`, {
      site: d.platformName,
      name: d.name,
      version: d.version + 1,
    });
    return id;
  }

  async deleteDocument(user: SessionUser, id: number, meta: Meta): Promise<void> {
    const d = await this.mustDocument(user, id);
    await repo.deleteDocument(this.db, id);
    await this.audit(user, meta, 'safetyDocument.delete', `safetyDocument:${id}`, {
      site: d.platformName,
      name: d.name,
    });
  }
}
