import {
  GENERAL_ENTERPRISE_TYPES,
  enterprisesRoutes,
  tailingsEnterprisesRoutes,
  type EnterpriseOption,
  type EnterpriseRow,
  type EnterpriseVariant,
  type Page,
  type PlatformType,
} from '@geosentry/contract';
import { request } from '../../shared/api.ts';
import { KEYS } from '../../shared/storage.ts';

export type SortOrder = 'ascend' | 'descend';
export const ENTERPRISE_SORT_FIELDS = ['name', 'code', 'createdAt'] as const;
export type EnterpriseSortField = (typeof ENTERPRISE_SORT_FIELDS)[number];

export interface EnterpriseListParams {
  pageNum: number;
  pageSize: number;
  sortField?: EnterpriseSortField | undefined;
  sortOrder?: SortOrder | undefined;
  keyword?: string | undefined;
}

export interface EnterpriseFormValues {
  name: string;
  code?: string | undefined;
  description?: string | undefined;
  parentId?: number | null | undefined;
  address?: string | undefined;
}

/** The site kinds whose sites each variant's enterprises own. */
export const VARIANT_KINDS: Record<EnterpriseVariant, readonly PlatformType[]> = {
  general: ['disaster', 'sideslope', 'reservoir', 'river', 'bridge'],
  tailings: ['tailings'],
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

function path(variant: EnterpriseVariant, route: keyof typeof enterprisesRoutes): string {
  if (variant === 'tailings') return tailingsEnterprisesRoutes[route].path;
  return enterprisesRoutes[route].path.replace(':enterpriseType', generalEnterpriseType());
}

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;
const text = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

export const fetchEnterprises = (variant: EnterpriseVariant, p: EnterpriseListParams) =>
  request<Page<EnterpriseRow>>('GET', path(variant, 'list'), { ...p });
export const fetchEnterpriseOptions = (variant: EnterpriseVariant) =>
  request<EnterpriseOption[]>('GET', path(variant, 'all'), {}, { keepEarlier: true });

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
  request<{ enterpriseId: number }>('POST', path(variant, 'add'), fields(v), change);
export const editEnterprise = (variant: EnterpriseVariant, enterpriseId: number, v: EnterpriseFormValues) =>
  request<null>('POST', path(variant, 'edit'), { enterpriseId, ...fields(v) }, change);
export const deleteEnterprise = (variant: EnterpriseVariant, enterpriseId: number) =>
  request<null>('POST', path(variant, 'delete'), { enterpriseId }, change);
export const bindPlatform = (variant: EnterpriseVariant, enterpriseId: number, platformId: number) =>
  request<null>('POST', path(variant, 'bind'), { enterpriseId, platformId }, change);
export const unbindPlatform = (variant: EnterpriseVariant, enterpriseId: number, platformId: number) =>
  request<null>('POST', path(variant, 'unbind'), { enterpriseId, platformId }, change);
