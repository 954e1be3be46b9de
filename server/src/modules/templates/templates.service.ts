import {
  FILE_TYPES,
  Status,
  TEMPLATE_TEXT_MAX,
  fileUrl,
  type FileType,
  type TemplateFieldInput,
  type TemplateFieldKind,
  type TemplateFileRef,
  type TemplateOwnerData,
  type TemplateOwnerRow,
  type TemplateRow,
} from '@geosentry/contract';
import type { AppContext } from '../../platform/context.ts';
import { AppError, isUniqueViolation } from '../../platform/http/errors.ts';
import type { MessageKey } from '../../platform/http/messages.ts';
import { inScope, type SessionUser } from '../../platform/auth/access.ts';
import { clean, findFiles, siteInScope } from '../files/index.ts';
import * as repo from './templates.repository.ts';

export interface TemplateInput {
  menuName: string;
  menuCode?: string | undefined;
  menuContext?: string | undefined;
  directoryName: string;
  fields?: TemplateFieldInput[] | undefined;
}

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** A required text after control characters are removed: "… cannot be empty" with the field named in data. */
function required(value: string, field: string, key: MessageKey): string {
  const v = (clean(value) as string).trim();
  if (!v) throw new AppError(Status.invalid, key, {}, { errors: [{ field, rule: 'required' }] });
  return v;
}

/**
 * Information templates (spec §3 Info template). Templates themselves are not site data: every holder of
 * information:platformInfo sees them all. Bindings and values of an owner that names a site (platform:<id>,
 * section:<id>) are site data: a site outside the caller's scope answers like a missing one.
 */
export class TemplatesService {
  constructor(private readonly ctx: AppContext) {}

  list(): Promise<TemplateRow[]> {
    return repo.listTemplates(this.ctx.db);
  }

  page(f: repo.TemplateListFilter): Promise<{ list: TemplateRow[]; total: number }> {
    return repo.listTemplatesPage(this.ctx.db, f);
  }

  unbound(): Promise<TemplateRow[]> {
    return repo.listTemplates(this.ctx.db, { unboundOnly: true });
  }

  private async mustGet(id: number): Promise<TemplateRow> {
    const t = await repo.getTemplate(this.ctx.db, id);
    if (!t) throw new AppError(Status.notFound, 'templateNotFound');
    return t;
  }

  /** The owner's site (null for an owner that names none); a missing or foreign site answers "does not exist". */
  private async ownerSite(user: SessionUser, owner: string): Promise<number | null> {
    const platform = /^platform:(\d{1,10})$/.exec(owner);
    if (platform) {
      const id = Number(platform[1]);
      if (!(await siteInScope(this.ctx.db, user.scope, id))) throw new AppError(Status.notFound, 'platformNotFound');
      return id;
    }
    const section = /^section:(\d{1,10})$/.exec(owner);
    if (section) {
      const site = await repo.siteOfSection(this.ctx.db, Number(section[1]));
      if (site === undefined || !inScope(user.scope, site)) throw new AppError(Status.notFound, 'sectionNotFound');
      return site;
    }
    return null;
  }

  private fieldList(input: TemplateFieldInput[]): repo.FieldWrite[] {
    const seen = new Set<string>();
    return input.map((f, i) => {
      const name = this.fieldName(f.name, `fields.${i}.name`);
      if (seen.has(name)) throw new AppError(Status.invalid, 'templateFieldExists', { name });
      seen.add(name);
      return { name, kind: f.kind, sort: f.sort ?? i };
    });
  }

  private fieldName(raw: string, field: string): string {
    const name = required(raw, field, 'fieldNameRequired');
    if (RESERVED.has(name)) throw new AppError(Status.invalid, 'validation', { details: field });
    return name;
  }

  private prepare(input: TemplateInput): repo.TemplateWrite {
    return {
      menuName: required(input.menuName, 'menuName', 'templateNameRequired'),
      directoryName: required(input.directoryName, 'directoryName', 'directoryNameRequired'),
      menuCode: input.menuCode ?? null,
      menuContext: input.menuContext ? (clean(input.menuContext) as string) : null,
    };
  }

  private codeTaken(e: unknown): never {
    if (isUniqueViolation(e)) throw new AppError(Status.conflict, 'templateCodeExists');
    throw e;
  }

  async add(user: SessionUser, input: TemplateInput): Promise<number> {
    const w = this.prepare(input);
    const fields = this.fieldList(input.fields ?? []);
    return repo.insertTemplate(this.ctx.db, w, fields, user.id).catch((e: unknown) => this.codeTaken(e));
  }

  async edit(id: number, input: TemplateInput): Promise<void> {
    await this.mustGet(id);
    const w = this.prepare(input);
    const fields = input.fields ? this.fieldList(input.fields) : null;
    await repo.updateTemplate(this.ctx.db, id, w, fields).catch((e: unknown) => this.codeTaken(e));
  }

  async remove(id: number): Promise<void> {
    const t = await this.mustGet(id);
    if (t.ownerCount > 0) throw new AppError(Status.conflict, 'templateInUse', { count: t.ownerCount });
    await repo.deleteTemplate(this.ctx.db, id);
  }

  async bind(user: SessionUser, id: number, owner: string): Promise<void> {
    await this.mustGet(id);
    await repo.bind(this.ctx.db, id, owner, await this.ownerSite(user, owner));
  }

  async unbind(user: SessionUser, id: number, owner: string): Promise<void> {
    await this.mustGet(id);
    await this.ownerSite(user, owner);
    if (!(await repo.unbind(this.ctx.db, id, owner)))
      throw new AppError(Status.notFound, 'templateNotBound', { owner });
  }

  async owners(user: SessionUser, id: number): Promise<TemplateOwnerRow[]> {
    await this.mustGet(id);
    return (await repo.owners(this.ctx.db, id)).filter(
      (o) => o.platformId === null || inScope(user.scope, o.platformId),
    );
  }

  async dataOf(user: SessionUser, owner: string): Promise<TemplateOwnerData[]> {
    await this.ownerSite(user, owner);
    const ids = await repo.templateIdsOfOwner(this.ctx.db, owner);
    const [templates, values] = await Promise.all([
      repo.listTemplates(this.ctx.db, { ids }),
      repo.valuesOf(this.ctx.db, owner, ids),
    ]);
    const refs = values.flatMap((v) => (Array.isArray(v.value) ? (v.value as TemplateFileRef[]) : []));
    const files = new Map(
      (
        await findFiles(
          this.ctx.db,
          user.scope,
          refs.map((r) => r.file_id),
        )
      ).map((f) => [f.id, f]),
    );
    return templates.map((t) => {
      const data: TemplateOwnerData['data'] = {};
      for (const v of values.filter((x) => x.templateId === t.menuId)) {
        data[v.key] = Array.isArray(v.value)
          ? (v.value as TemplateFileRef[]).map((r) => {
              const f = files.get(r.file_id);
              return f
                ? { file_id: r.file_id, name: f.originalName, mime: f.mime, url: fileUrl(f.id, f.ext as FileType) }
                : { file_id: r.file_id };
            })
          : String(v.value);
      }
      return { ...t, owner, data };
    });
  }

  /** The stored JSON of a value for a field of a kind; refuses values that do not fit. */
  private async valueJson(user: SessionUser, name: string, kind: TemplateFieldKind, value: unknown): Promise<string> {
    const wrong = (): AppError => new AppError(Status.invalid, 'templateFieldValue', { name, kind });
    if (kind === 'text') {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw wrong();
      const text = clean(String(value)) as string;
      if (text.length > TEMPLATE_TEXT_MAX) throw wrong();
      return JSON.stringify(text);
    }
    if (!Array.isArray(value)) throw wrong();
    const ids = value.map((item) => {
      const id = typeof item === 'string' ? item : (item as { file_id?: unknown } | null)?.file_id;
      if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw wrong();
      return id;
    });
    const unique = [...new Set(ids)];
    const found = new Map((await findFiles(this.ctx.db, user.scope, unique)).map((f) => [f.id, f]));
    for (const id of unique) {
      const f = found.get(id);
      if (!f) throw new AppError(Status.invalid, 'templateFieldFile', { name, file: id });
      if (kind === 'image' && !FILE_TYPES[f.ext as FileType]?.image)
        throw new AppError(Status.invalid, 'templateFieldImage', { name, file: f.originalName });
    }
    return JSON.stringify(unique.map((file_id) => ({ file_id })));
  }

  /** Sets values of a bound owner: every key must be a field of the template; null clears a value. */
  async setValues(user: SessionUser, id: number, owner: string, data: Record<string, unknown>): Promise<void> {
    const t = await this.mustGet(id);
    await this.ownerSite(user, owner);
    if (!(await repo.bindingOf(this.ctx.db, id, owner)))
      throw new AppError(Status.notFound, 'templateNotBound', { owner });
    const writes: { key: string; json: string | null }[] = [];
    for (const [rawKey, value] of Object.entries(data)) {
      const key = rawKey.trim();
      const field = t.fields.find((f) => f.name === key);
      if (!field) throw new AppError(Status.invalid, 'templateFieldNotFound', { name: key });
      writes.push({ key, json: value === null ? null : await this.valueJson(user, key, field.kind, value) });
    }
    await repo.setValues(this.ctx.db, id, owner, writes, user.id);
  }

  /** updateArray: a file or image field. */
  setArray(user: SessionUser, id: number, owner: string, key: string, value: unknown[]): Promise<void> {
    return this.setValues(user, id, owner, { [key]: value });
  }

  async deleteField(id: number, key: string): Promise<void> {
    const t = await this.mustGet(id);
    const name = key.trim();
    if (!t.fields.some((f) => f.name === name)) throw new AppError(Status.notFound, 'templateFieldNotFound', { name });
    await repo.deleteField(this.ctx.db, id, name);
  }

  async renameField(id: number, oldField: string, newField: string): Promise<void> {
    const t = await this.mustGet(id);
    const from = oldField.trim();
    const to = this.fieldName(newField, 'newField');
    if (!t.fields.some((f) => f.name === from))
      throw new AppError(Status.notFound, 'templateFieldNotFound', { name: from });
    if (from === to) return;
    if (t.fields.some((f) => f.name === to)) throw new AppError(Status.conflict, 'templateFieldExists', { name: to });
    await repo.renameField(this.ctx.db, id, from, to);
  }
}
