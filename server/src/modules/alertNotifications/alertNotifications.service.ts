import {
  LANGUAGES,
  Status,
  TEMPLATE_PLACEHOLDERS,
  placeholdersOf,
  type AlertContactRow,
  type AlertDeliveryRow,
  type AlertGroupRow,
  type AlertLevelRow,
  type AlertTemplateRow,
  type PerLanguageText,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { SessionUser } from '../../platform/auth/access.ts';
import { sitesInScope } from '../../platform/auth/sites.ts';
import { getPerson } from '../persons/index.ts';
import * as repo from './alertNotifications.repository.ts';
import * as templatesRepo from './alertNotifications.templates.repository.ts';
import * as outboxRepo from './alertNotifications.outbox.repository.ts';
import type { AlertNotifier } from './alertNotifications.outbox.ts';

type Paging = { pageNum: number; pageSize: number; sortField?: string | undefined; sortOrder?: string | undefined };

/** Drops empty languages; answers undefined when no language is left. */
function cleanTexts(t: PerLanguageText | undefined): PerLanguageText {
  const out: PerLanguageText = {};
  for (const l of LANGUAGES) {
    const v = t?.[l]?.trim();
    if (v) out[l] = v;
  }
  return out;
}

/** Every {placeholder} of the texts must be one of TEMPLATE_PLACEHOLDERS. */
function checkPlaceholders(...all: PerLanguageText[]): void {
  for (const t of all)
    for (const text of Object.values(t))
      for (const name of placeholdersOf(text ?? ''))
        if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name))
          throw new AppError(Status.invalid, 'notifyTemplatePlaceholder', {
            name: `{${name}}`,
            allowed: TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' '),
          });
}

/** Contacts, groups, templates, colour levels and deliveries: the rules; SQL is in the repository. */
export class AlertNotificationsService {
  constructor(
    private readonly ctx: AppContext,
    private readonly notifier: AlertNotifier,
  ) {}

  private get db() {
    return this.ctx.db;
  }

  private async contactsMustExist(ids: readonly number[]): Promise<number[]> {
    const wanted = [...new Set(ids)];
    const ok = await repo.existingContacts(this.db, wanted);
    if (ok.size !== wanted.length) throw new AppError(Status.notFound, 'notifyContactNotFound');
    return wanted;
  }

  // ------------------------------------------------------------------------------------------ contacts

  listContacts(user: SessionUser, f: repo.ContactFilter & Paging): Promise<{ list: AlertContactRow[]; total: number }> {
    return repo.listContacts(this.db, user.scope, f);
  }

  private async mustGetContact(user: SessionUser, id: number): Promise<AlertContactRow> {
    const c = await repo.getContact(this.db, user.scope, id);
    if (!c) throw new AppError(Status.notFound, 'notifyContactNotFound');
    return c;
  }

  private async checkContact(user: SessionUser, w: repo.ContactWrite): Promise<void> {
    if (!w.phone && !w.email) throw new AppError(Status.invalid, 'notifyContactNeedsAddress');
    if (w.personId !== undefined && !(await getPerson(this.db, user.scope, w.personId)))
      throw new AppError(Status.notFound, 'personNotFound');
  }

  async addContact(user: SessionUser, w: repo.ContactWrite): Promise<number> {
    await this.checkContact(user, w);
    return repo.insertContact(this.db, w);
  }

  async editContact(user: SessionUser, id: number, w: repo.ContactWrite): Promise<void> {
    const current = await this.mustGetContact(user, id);
    // A link to a person outside the caller's scope that is kept unchanged stays valid.
    if (w.personId !== undefined && w.personId === current.personId) {
      if (!w.phone && !w.email) throw new AppError(Status.invalid, 'notifyContactNeedsAddress');
    } else await this.checkContact(user, w);
    await repo.updateContact(this.db, id, w);
  }

  async removeContact(user: SessionUser, id: number): Promise<void> {
    await this.mustGetContact(user, id);
    await repo.deleteContact(this.db, id);
  }

  // -------------------------------------------------------------------------------------------- groups

  listGroups(user: SessionUser, f: repo.GroupFilter & Paging): Promise<{ list: AlertGroupRow[]; total: number }> {
    return repo.listGroups(this.db, user.scope, f);
  }

  private async mustGetGroup(user: SessionUser, id: number): Promise<AlertGroupRow> {
    const g = await repo.getGroup(this.db, user.scope, id);
    if (!g) throw new AppError(Status.notFound, 'notifyGroupNotFound');
    return g;
  }

  private async checkGroup(
    user: SessionUser,
    id: number | null,
    w: repo.GroupWrite & { contactIds: number[]; platformIds: number[] },
  ): Promise<void> {
    if (await repo.groupNameTaken(this.db, w.name, id)) throw new AppError(Status.conflict, 'notifyGroupNameTaken');
    await this.contactsMustExist(w.contactIds);
    const sites = [...new Set(w.platformIds)];
    const ok = await sitesInScope(this.db, user.scope, sites);
    if (ok.size !== sites.length) throw new AppError(Status.notFound, 'platformNotFound');
  }

  async addGroup(user: SessionUser, w: repo.GroupWrite & { contactIds: number[]; platformIds: number[] }) {
    await this.checkGroup(user, null, w);
    // A caller limited to some sites may not create a group for every site: it would reach foreign alerts.
    if (!user.scope.all && w.platformIds.length === 0) throw new AppError(Status.invalid, 'notifyGroupNeedsSite');
    return repo.saveGroup(this.db, null, w, w.contactIds, w.platformIds);
  }

  /** Sites outside the caller's scope keep their binding (the caller cannot see them). */
  async editGroup(user: SessionUser, id: number, w: repo.GroupWrite & { contactIds: number[]; platformIds: number[] }) {
    await this.mustGetGroup(user, id);
    await this.checkGroup(user, id, w);
    const current = await repo.groupSites(this.db, id);
    const visible = await sitesInScope(this.db, user.scope, current);
    const kept = current.filter((p) => !visible.has(p));
    const sites = [...kept, ...w.platformIds];
    if (!user.scope.all && sites.length === 0) throw new AppError(Status.invalid, 'notifyGroupNeedsSite');
    await repo.saveGroup(this.db, id, w, w.contactIds, sites);
  }

  async removeGroup(user: SessionUser, id: number): Promise<void> {
    await this.mustGetGroup(user, id);
    await repo.deleteGroup(this.db, id);
  }

  // ----------------------------------------------------------------------------------------- templates

  listTemplates(f: { keyword?: string | undefined } & Paging): Promise<{ list: AlertTemplateRow[]; total: number }> {
    return templatesRepo.listTemplates(this.db, f);
  }

  private async mustGetTemplate(id: number): Promise<AlertTemplateRow> {
    const t = await templatesRepo.getTemplate(this.db.k, id);
    if (!t) throw new AppError(Status.notFound, 'notifyTemplateNotFound');
    return t;
  }

  private async prepareTemplate(
    id: number | null,
    input: {
      name: string;
      smsTemplateCode?: string | undefined;
      subject?: PerLanguageText | undefined;
      content?: PerLanguageText | undefined;
      isDefault?: boolean | undefined;
    },
  ): Promise<templatesRepo.TemplateWrite> {
    const content = cleanTexts(input.content);
    const subject = cleanTexts(input.subject);
    if (!Object.keys(content).length) throw new AppError(Status.invalid, 'notifyTemplateNeedsContent');
    checkPlaceholders(subject, content);
    if (await templatesRepo.templateNameTaken(this.db, input.name, id))
      throw new AppError(Status.conflict, 'notifyTemplateNameTaken');
    return {
      name: input.name,
      smsTemplateCode: input.smsTemplateCode ?? null,
      subject,
      content,
      isDefault: input.isDefault ?? false,
    };
  }

  async addTemplate(input: Parameters<AlertNotificationsService['prepareTemplate']>[1]): Promise<number> {
    return templatesRepo.saveTemplate(this.db, null, await this.prepareTemplate(null, input));
  }

  async editTemplate(id: number, input: Parameters<AlertNotificationsService['prepareTemplate']>[1]): Promise<void> {
    await this.mustGetTemplate(id);
    await templatesRepo.saveTemplate(this.db, id, await this.prepareTemplate(id, input));
  }

  async removeTemplate(id: number): Promise<void> {
    await this.mustGetTemplate(id);
    await templatesRepo.deleteTemplate(this.db, id);
  }

  // ------------------------------------------------------------------------------------- colour levels

  listLevels(): Promise<AlertLevelRow[]> {
    return templatesRepo.listLevels(this.db.k);
  }

  async editLevel(input: {
    level: number;
    suggestion?: PerLanguageText | undefined;
    contactIds: number[];
    templateId?: number | undefined;
  }): Promise<void> {
    const contacts = await this.contactsMustExist(input.contactIds);
    if (input.templateId !== undefined) await this.mustGetTemplate(input.templateId);
    const suggestion = cleanTexts(input.suggestion);
    await templatesRepo.saveLevel(this.db, input.level, suggestion, input.templateId ?? null, contacts);
  }

  // ---------------------------------------------------------------------------------------- deliveries

  async deliveries(user: SessionUser, alertId: number): Promise<AlertDeliveryRow[]> {
    if (!(await outboxRepo.alertVisible(this.db, user.scope, alertId)))
      throw new AppError(Status.notFound, 'notifyAlertNotFound');
    return outboxRepo.listDeliveries(this.db, alertId);
  }

  async retry(user: SessionUser, id: number): Promise<void> {
    const d = await outboxRepo.getDelivery(this.db, user.scope, id);
    if (!d || !(await outboxRepo.alertVisible(this.db, user.scope, d.alertId)))
      throw new AppError(Status.notFound, 'notifyDeliveryNotFound');
    if (!(await outboxRepo.requeue(this.db, id))) throw new AppError(Status.conflict, 'notifyDeliveryNotFailed');
    this.notifier.kick();
  }
}
