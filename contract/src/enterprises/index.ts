import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { optId, optText } from '../platforms/fields.ts';
import { PLATFORM_TYPES, type PlatformType } from '../platforms/kinds.ts';

/**
 * Enterprises / management organisations (spec §3). Two variants: 'tailings' (owners of tailings ponds,
 * role information:enterprise:tailings) and 'general' (every other kind, role information:enterprise).
 * The path's {enterpriseType} is the variant or, as the spec's client sends it, a site kind (default disaster).
 */
export const ENTERPRISE_VARIANTS = ['general', 'tailings'] as const;
export type EnterpriseVariant = (typeof ENTERPRISE_VARIANTS)[number];

/** Values of {enterpriseType} in the general routes' path (the tailings routes have their own path). */
export const GENERAL_ENTERPRISE_TYPES = [
  'general',
  'disaster',
  'landslide',
  'sideslope',
  'reservoir',
  'river',
  'bridge',
] as const;
export const enterpriseTypeParam = z.object({ enterpriseType: z.enum(GENERAL_ENTERPRISE_TYPES) });

/** The variant whose enterprises a site of this kind binds. */
export function enterpriseVariantOf(type: PlatformType | string): EnterpriseVariant {
  return type === 'tailings' ? 'tailings' : 'general';
}

export const ENTERPRISE_SORT_FIELDS = ['name', 'code', 'createdAt'] as const;
export const enterpriseListQuery = pageQuery().extend({ keyword: zOptText(100) });

export const enterpriseFields = {
  name: zText(100).describe('Name: unique within the variant'),
  code: optText(100, 'Code'),
  description: optText(2000, 'Description'),
  parentId: optId('Higher group: another enterprise of the same variant'),
  address: optText(300, 'Address'),
};
export const enterpriseAddBody = z.object(enterpriseFields);
export const enterpriseEditBody = z.object({ enterpriseId: zInt(), ...enterpriseFields });
export const enterpriseIdBody = z.object({ enterpriseId: zInt() });
export const enterpriseBindBody = z.object({ enterpriseId: zInt(), platformId: zInt() });

export const enterpriseRowSchema = z.object({
  enterpriseId: z.number().int(),
  enterpriseType: z.enum(ENTERPRISE_VARIANTS),
  name: z.string(),
  code: z.string().nullable(),
  description: z.string().nullable(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  address: z.string().nullable(),
  /** The bound sites within the caller's data scope. */
  platforms: z.array(z.object({ platformId: z.number().int(), type: z.enum(PLATFORM_TYPES), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EnterpriseRow = z.output<typeof enterpriseRowSchema>;

export const enterpriseOptionSchema = z.object({
  enterpriseId: z.number().int(),
  name: z.string(),
  code: z.string().nullable(),
  parentId: z.number().int().nullable(),
});
export type EnterpriseOption = z.output<typeof enterpriseOptionSchema>;

function enterpriseRoutes(segment: string, code: string, variant: string) {
  const base = `/api/v2/data/information/enterprise/${segment}`;
  const tags = ['enterprises'];
  const p = perm(code);
  return routeTable({
    list: {
      method: 'GET',
      path: `${base}/getListPage`,
      permission: p,
      summary: `Enterprises (${variant}), paged; keyword; sortField name|code|createdAt`,
      tags,
      query: enterpriseListQuery,
      response: zPage(enterpriseRowSchema),
    },
    all: {
      method: 'GET',
      path: `${base}/getAll`,
      permission: LOGIN,
      summary: `Every enterprise (${variant}) for pickers: id, name, code, higher group`,
      tags,
      response: z.array(enterpriseOptionSchema),
    },
    add: {
      method: 'POST',
      path: `${base}/add`,
      permission: p,
      summary: `Add an enterprise (${variant})`,
      tags,
      body: enterpriseAddBody,
      response: z.object({ enterpriseId: z.number().int() }),
    },
    edit: {
      method: 'POST',
      path: `${base}/edit`,
      permission: p,
      summary: `Edit an enterprise (${variant})`,
      tags,
      body: enterpriseEditBody,
      response: z.null(),
    },
    delete: {
      method: 'POST',
      path: `${base}/delete`,
      permission: p,
      summary: `Delete an enterprise (${variant}); refused while sites are bound to it`,
      tags,
      body: enterpriseIdBody,
      response: z.null(),
    },
    bind: {
      method: 'POST',
      path: `${base}/bindPlatform`,
      permission: p,
      summary: `Bind a site within the caller's data scope to an enterprise (${variant})`,
      tags,
      body: enterpriseBindBody,
      response: z.null(),
    },
    unbind: {
      method: 'POST',
      path: `${base}/unbindPlatform`,
      permission: p,
      summary: `Unbind a site from its enterprise (${variant})`,
      tags,
      body: enterpriseBindBody,
      response: z.null(),
    },
  });
}

/** General enterprises / management organisations: {enterpriseType} is 'general' or a non-tailings site kind. */
export const enterprisesRoutes = enterpriseRoutes(':enterpriseType', 'information:enterprise', 'general');
/** Tailings enterprises. */
export const tailingsEnterprisesRoutes = enterpriseRoutes('tailings', 'information:enterprise:tailings', 'tailings');
