import {
  INFO_TEMPLATE_SORT_FIELDS,
  PLATFORM_TYPES,
  platformsRoutes,
  templatesRoutes,
  type PlatformType,
  type TemplateFieldKind,
} from '@geosentry/contract';
import { call, callAt, isCancel } from '../../shared/api.ts';
import { hasPermission } from '../../shared/session.ts';
import type { PagedParams } from '../../shared/table/serverTable.ts';

export { INFO_TEMPLATE_SORT_FIELDS };

/** The list's paging, sort and filters (keyword; bound to an owner or not). */
export interface TemplateListParams extends PagedParams {
  keyword?: string | undefined;
  bound?: boolean | undefined;
}

export const templateKeys = {
  all: ['templates'] as const,
  list: ['templates', 'list'] as const,
  page: (p: TemplateListParams) => ['templates', 'page', p] as const,
  owners: (menuId: number) => ['templates', 'owners', menuId] as const,
  data: (owner: string) => ['templates', 'data', owner] as const,
  sites: (kind: PlatformType) => ['templates', 'sites', kind] as const,
};

export const retryUnlessCancelled = (count: number, error: unknown): boolean => !isCancel(error) && count < 1;

export interface FieldDraft {
  name: string;
  kind: TemplateFieldKind;
  sort?: number | null | undefined;
  /** The stored name of an existing field (a rename when it differs from name). */
  orig?: string | undefined;
}

export interface TemplateDraft {
  menuName: string;
  menuCode?: string | undefined;
  menuContext?: string | undefined;
  directoryName: string;
  fields?: FieldDraft[] | undefined;
}

const change = { keepEarlier: true } as const;

/** Every template (the bind picker of an owner). */
export const fetchTemplates = () => call(templatesRoutes.getMenuList);
/** A page of the list, filtered and sorted by the server. */
export const fetchTemplatePage = (p: TemplateListParams) => call(templatesRoutes.getListPage, { ...p });
export const fetchOwners = (menuId: number) => call(templatesRoutes.getOwnerByMenuId, { menuId });
export const fetchOwnerData = (owner: string) => call(templatesRoutes.getDataByOwner, { owner }, { keepEarlier: true });

const fieldsJson = (fields: FieldDraft[] | undefined) =>
  JSON.stringify((fields ?? []).map((f, i) => ({ name: f.name.trim(), kind: f.kind, sort: f.sort ?? (i + 1) * 10 })));
const body = (d: TemplateDraft) => ({
  menuName: d.menuName.trim(),
  menuCode: d.menuCode?.trim() || undefined,
  menuContext: d.menuContext?.trim() || undefined,
  directoryName: d.directoryName.trim(),
  fields: fieldsJson(d.fields),
});

export const addTemplate = (d: TemplateDraft) => call(templatesRoutes.addMenu, body(d), change);
export const editTemplate = (menuId: number, d: TemplateDraft) =>
  call(templatesRoutes.updateMenu, { menuId, ...body(d) }, change);
export const deleteTemplate = (menuId: number) => call(templatesRoutes.deleteMenu, { menuId }, change);
export const bindTemplate = (menuId: number, owner: string) => call(templatesRoutes.bind, { menuId, owner }, change);
export const unbindTemplate = (menuId: number, owner: string) =>
  call(templatesRoutes.unbind, { menuId, owner }, change);
export const saveValues = (menuId: number, owner: string, data: Record<string, unknown>) =>
  call(templatesRoutes.updateObject, { menuId, owner, data: JSON.stringify(data) }, change);
export const renameField = (menuId: number, oldField: string, newField: string) =>
  call(templatesRoutes.renameField, { menuId, oldField, newField }, change);
export const deleteField = (menuId: number, key: string) => call(templatesRoutes.deleteField, { menuId, key }, change);

/** The site kinds whose lists the signed-in user may read (information:platform:<kind>; super admin: all). */
export const readableKinds = (): PlatformType[] =>
  PLATFORM_TYPES.filter((k) => hasPermission(`information:platform:${k}`));

export const fetchSites = (kind: PlatformType) =>
  callAt(
    platformsRoutes.list,
    { type: kind },
    { pageNum: 1, pageSize: 1000 },
    { keepEarlier: true, silent: true },
  ).then((p) => p.list);

/** The site id an owner names (platform:<id>), for attaching uploads to it. */
export function siteOfOwner(owner: string): number | undefined {
  const m = /^platform:(\d+)$/.exec(owner);
  return m ? Number(m[1]) : undefined;
}
