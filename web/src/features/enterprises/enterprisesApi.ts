import {
  ENTERPRISE_SORT_FIELDS,
  GENERAL_ENTERPRISE_TYPES,
  PLATFORM_TYPES,
  enterpriseAddBody,
  enterpriseListQuery,
  enterpriseVariantOf,
  enterprisesRoutes,
  tailingsEnterprisesRoutes,
  type EnterpriseVariant,
  type PlatformType,
} from '@geosentry/contract';
import type { z } from 'zod';
import { callAt } from '../../shared/api.ts';
import { KEYS } from '../../shared/storage.ts';

export { ENTERPRISE_SORT_FIELDS };
export type EnterpriseSortField = (typeof ENTERPRISE_SORT_FIELDS)[number];

/** The list's query as the page holds it (the contract's, with paging given). */
export type EnterpriseListParams = z.output<typeof enterpriseListQuery>;

/** The enterprise form's values: the contract's body, a cleared higher-group picker giving null. */
export type EnterpriseFormValues = Omit<z.output<typeof enterpriseAddBody>, 'parentId'> & {
  parentId?: number | null | undefined;
};

/** The site kinds whose sites each variant's enterprises own. */
export const VARIANT_KINDS: Record<EnterpriseVariant, readonly PlatformType[]> = {
  general: PLATFORM_TYPES.filter((k) => enterpriseVariantOf(k) === 'general'),
  tailings: PLATFORM_TYPES.filter((k) => enterpriseVariantOf(k) === 'tailings'),
};

/** Same keys as the platforms feature uses for its enterprise pickers, so both refresh together. */
export const enterpriseKeys = {
  all: ['enterprises'] as const,
  variant: (v: EnterpriseVariant) => ['enterprises', v] as const,
  list: (v: EnterpriseVariant, p: EnterpriseListParams) => ['enterprises', v, 'list', p] as const,
  options: (v: EnterpriseVariant) => ['enterprises', v, 'all'] as const,
};

/**
 * The {enterpriseType} of the general routes: the platform type kept at login when the general routes serve
 * it, otherwise 'disaster' (spec §7: enterprise type comes from local storage, default disaster).
 */
export function generalEnterpriseType(): string {
  const stored = localStorage.getItem(KEYS.platformType);
  return stored && (GENERAL_ENTERPRISE_TYPES as readonly string[]).includes(stored) ? stored : 'disaster';
}

/** The routes of a variant (the general ones with their {enterpriseType}). */
const routesOf = (variant: EnterpriseVariant) =>
  variant === 'tailings' ? tailingsEnterprisesRoutes : enterprisesRoutes;
const at = (variant: EnterpriseVariant): Record<string, string> =>
  variant === 'tailings' ? {} : { enterpriseType: generalEnterpriseType() };

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;
const text = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

export const fetchEnterprises = (variant: EnterpriseVariant, p: EnterpriseListParams) =>
  callAt(routesOf(variant).list, at(variant), { ...p });
export const fetchEnterpriseOptions = (variant: EnterpriseVariant) =>
  callAt(routesOf(variant).all, at(variant), {}, { keepEarlier: true });

function fields(v: EnterpriseFormValues) {
  return {
    name: v.name.trim(),
    code: text(v.code),
    description: text(v.description),
    parentId: v.parentId ?? undefined,
    address: text(v.address),
  };
}

export const addEnterprise = (variant: EnterpriseVariant, v: EnterpriseFormValues) =>
  callAt(routesOf(variant).add, at(variant), fields(v), change);
export const editEnterprise = (variant: EnterpriseVariant, enterpriseId: number, v: EnterpriseFormValues) =>
  callAt(routesOf(variant).edit, at(variant), { enterpriseId, ...fields(v) }, change);
export const deleteEnterprise = (variant: EnterpriseVariant, enterpriseId: number) =>
  callAt(routesOf(variant).delete, at(variant), { enterpriseId }, change);
export const bindPlatform = (variant: EnterpriseVariant, enterpriseId: number, platformId: number) =>
  callAt(routesOf(variant).bind, at(variant), { enterpriseId, platformId }, change);
export const unbindPlatform = (variant: EnterpriseVariant, enterpriseId: number, platformId: number) =>
  callAt(routesOf(variant).unbind, at(variant), { enterpriseId, platformId }, change);
