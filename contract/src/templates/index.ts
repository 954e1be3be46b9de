// The templates feature's contract: information templates (spec §3 "Info template"), their fields, the owners
// they are bound to and the values kept per owner.
import { z } from 'zod';
import { decimalInt, pageQuery, zInt, zOptText, zPage } from '../api/zod.ts';
import { optBool } from '../devices/fields.ts';
import { perm, routeTable } from '../api/routes.ts';

/**
 * An information template ("menu") has a name (menuName, required), an optional unique code (menuCode), a
 * free description (menuContext), a directory name (required, spec §5) and fields. A field has a name
 * (required), a kind and a sort order:
 * - text: a string value (at most TEMPLATE_TEXT_MAX characters);
 * - file, image: a list of uploaded file ids, kept as [{file_id}] (image fields take only images).
 * A template is bound to owners; an owner is `platform:<id>` or `section:<id>` (then only callers whose data
 * scope holds that site see or write it) or any other identifier (letters, digits, '_', '.', ':', '-').
 * Values are kept per (template, owner, field).
 */
export const TEMPLATE_FIELD_KINDS = ['text', 'file', 'image'] as const;
export type TemplateFieldKind = (typeof TEMPLATE_FIELD_KINDS)[number];
export const TEMPLATE_TEXT_MAX = 5000;
export const TEMPLATE_MAX_FIELDS = 100;
export const TEMPLATE_MAX_FILES_PER_FIELD = 50;

const parseJsonText = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
};
/** A text that may be missing; missing becomes '' so that the service can answer "… cannot be empty". */
const requiredText = (max: number) =>
  z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string().trim().max(max));
const optionalText = (max: number) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().max(max).optional());

/** An owner of template data: `platform:<id>`, `section:<id>` or another identifier. */
export const templateOwnerSchema = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_.:-]+$/),
);

/** A field name: any letters, digits, spaces and punctuation except control characters; at most 64. */
export const templateFieldNameSchema = requiredText(64);

export const templateFieldDef = z.object({
  name: templateFieldNameSchema,
  kind: z.preprocess((v) => (v === '' || v === null || v === undefined ? 'text' : v), z.enum(TEMPLATE_FIELD_KINDS)),
  sort: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? decimalInt(v) : v),
    z.number().int().min(-100000).max(100000).optional(),
  ),
});
export type TemplateFieldInput = z.output<typeof templateFieldDef>;

/** Field definitions: a JSON array (or the JSON text of one) of {name, kind, sort}. */
const fieldList = z.preprocess(parseJsonText, z.array(templateFieldDef).max(TEMPLATE_MAX_FIELDS).optional());

const templateFields = {
  menuName: requiredText(100),
  menuCode: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string()
      .trim()
      .max(64)
      .regex(/^[A-Za-z0-9_.:-]+$/)
      .optional(),
  ),
  menuContext: optionalText(2000),
  directoryName: requiredText(200),
  /** On edit: when given, the whole field list (fields left out are deleted with their values). */
  fields: fieldList,
};

export const templateAddBody = z.object(templateFields);
export const templateEditBody = z.object({ menuId: zInt(), ...templateFields });
export const templateIdBody = z.object({ menuId: zInt() });
/**
 * The templates screen's list: keyword finds a template's name, code, description, directory or a field name;
 * bound: only templates bound to at least one owner (true) or to none (false).
 */
export const templateListQuery = pageQuery().extend({ keyword: zOptText(100), bound: optBool() });
/** Sort fields of the list; default menuId (oldest first). */
export const INFO_TEMPLATE_SORT_FIELDS = [
  'menuName',
  'menuCode',
  'directoryName',
  'ownerCount',
  'createdAt',
  'updatedAt',
] as const;
export const templateIdQuery = z.object({ menuId: zInt() });
export const templateOwnerQuery = z.object({ owner: templateOwnerSchema });
export const templateBindBody = z.object({ menuId: zInt(), owner: templateOwnerSchema });
/** updateArray: the value of a file or image field, a JSON array of file ids or {file_id} objects. */
export const templateUpdateArrayBody = z.object({
  menuId: zInt(),
  owner: templateOwnerSchema,
  key: templateFieldNameSchema,
  value: z.preprocess(parseJsonText, z.array(z.unknown()).max(TEMPLATE_MAX_FILES_PER_FIELD)),
});
/** updateObject: several fields at once, a JSON object {field: value}; null clears a field. */
export const templateUpdateObjectBody = z.object({
  menuId: zInt(),
  owner: templateOwnerSchema,
  data: z.preprocess(parseJsonText, z.record(z.string(), z.unknown())),
});
export const templateDeleteFieldBody = z.object({ menuId: zInt(), key: templateFieldNameSchema });
export const templateRenameFieldBody = z.object({
  menuId: zInt(),
  oldField: templateFieldNameSchema,
  newField: templateFieldNameSchema,
});

export const templateFieldSchema = z.object({
  name: z.string(),
  kind: z.enum(TEMPLATE_FIELD_KINDS),
  sort: z.number().int(),
});
export type TemplateField = z.output<typeof templateFieldSchema>;

export const templateRowSchema = z.object({
  menuId: z.number().int(),
  menuCode: z.string().nullable(),
  menuName: z.string(),
  menuContext: z.string().nullable(),
  directoryName: z.string(),
  fields: z.array(templateFieldSchema),
  /** How many owners the template is bound to (all owners, whatever the caller's scope). */
  ownerCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TemplateRow = z.output<typeof templateRowSchema>;

export const templateOwnerRowSchema = z.object({
  owner: z.string(),
  /** The site the owner belongs to (platform:<id>, section:<id>), or null. */
  platformId: z.number().int().nullable(),
  boundAt: z.string(),
});
export type TemplateOwnerRow = z.output<typeof templateOwnerRowSchema>;

/** A value of a file or image field: stored as {file_id}; answered with the file's name, type and URL when visible. */
export const templateFileRefSchema = z.object({
  file_id: z.string(),
  name: z.string().optional(),
  mime: z.string().optional(),
  url: z.string().optional(),
});
export type TemplateFileRef = z.output<typeof templateFileRefSchema>;

/** getDataByOwner: each template bound to the owner, with its fields and the owner's values. */
export const templateOwnerDataSchema = templateRowSchema.extend({
  owner: z.string(),
  data: z.record(z.string(), z.union([z.string(), z.array(templateFileRefSchema)])),
});
export type TemplateOwnerData = z.output<typeof templateOwnerDataSchema>;

const tags = ['templates'];
const T = '/api/v2/data/information/template';
const P = perm('information:platformInfo');
export const templatesRoutes = routeTable({
  getMenuList: {
    method: 'GET',
    path: `${T}/getMenuList`,
    permission: P,
    summary: 'Every information template with its fields',
    tags,
    response: z.array(templateRowSchema),
  },
  getListPage: {
    method: 'GET',
    path: `${T}/getListPage`,
    permission: P,
    summary: 'Information templates with their fields, paged, filtered and sorted',
    tags,
    query: templateListQuery,
    response: zPage(templateRowSchema),
  },
  getUnbind: {
    method: 'GET',
    path: `${T}/getUnbind`,
    permission: P,
    summary: 'Templates not bound to any owner',
    tags,
    response: z.array(templateRowSchema),
  },
  getOwnerByMenuId: {
    method: 'GET',
    path: `${T}/getOwnerByMenuId`,
    permission: P,
    summary: "The owners a template is bound to (site owners outside the caller's scope left out)",
    tags,
    query: templateIdQuery,
    response: z.array(templateOwnerRowSchema),
  },
  getDataByOwner: {
    method: 'GET',
    path: `${T}/getDataByOwner`,
    permission: P,
    summary: 'The templates bound to an owner, with their fields and the values of that owner',
    tags,
    query: templateOwnerQuery,
    response: z.array(templateOwnerDataSchema),
  },
  addMenu: {
    method: 'POST',
    path: `${T}/addMenu`,
    permission: P,
    summary: 'Add a template (menuName and directoryName required; fields as a JSON array)',
    tags,
    body: templateAddBody,
    response: z.object({ menuId: z.number().int() }),
  },
  updateMenu: {
    method: 'POST',
    path: `${T}/updateMenu`,
    permission: P,
    summary: 'Edit a template; a given field list replaces the fields (values of removed fields are deleted)',
    tags,
    body: templateEditBody,
    response: z.null(),
  },
  deleteMenu: {
    method: 'POST',
    path: `${T}/deleteMenu`,
    permission: P,
    summary: 'Delete a template that is bound to no owner',
    tags,
    body: templateIdBody,
    response: z.null(),
  },
  bind: {
    method: 'POST',
    path: `${T}/bind`,
    permission: P,
    summary: 'Bind a template to an owner (platform:<id>, section:<id> or another identifier)',
    tags,
    body: templateBindBody,
    response: z.null(),
  },
  unbind: {
    method: 'POST',
    path: `${T}/unbind`,
    permission: P,
    summary: "Unbind a template from an owner; the owner's values of that template are deleted",
    tags,
    body: templateBindBody,
    response: z.null(),
  },
  updateArray: {
    method: 'POST',
    path: `${T}/updateArray`,
    permission: P,
    summary: 'Set a file or image field of an owner: a JSON array of file ids',
    tags,
    body: templateUpdateArrayBody,
    response: z.null(),
  },
  updateObject: {
    method: 'POST',
    path: `${T}/updateObject`,
    permission: P,
    summary: 'Set several fields of an owner at once: data is a JSON object {field: value}, null clears',
    tags,
    body: templateUpdateObjectBody,
    response: z.null(),
  },
  deleteField: {
    method: 'POST',
    path: `${T}/deleteField`,
    permission: P,
    summary: 'Delete a field of a template, with its values for every owner',
    tags,
    body: templateDeleteFieldBody,
    response: z.null(),
  },
  renameField: {
    method: 'POST',
    path: `${T}/renameField`,
    permission: P,
    summary: 'Rename a field of a template; the values follow',
    tags,
    body: templateRenameFieldBody,
    response: z.null(),
  },
});
