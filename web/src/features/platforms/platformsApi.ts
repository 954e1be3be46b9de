import {
  PLATFORM_SORT_FIELDS,
  enterprisesRoutes,
  enterpriseVariantOf,
  platformListQuery,
  platformsRoutes,
  tailingsEnterprisesRoutes,
  type EnterpriseOption,
  type PlatformType,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call, callAt } from '../../shared/api.ts';

export { PLATFORM_SORT_FIELDS };
export type PlatformSortField = (typeof PLATFORM_SORT_FIELDS)[number];

/** The list's query as the page holds it (the contract's, with paging given). */
export type PlatformListParams = z.output<typeof platformListQuery>;

/** What the form sends: the common fields of a site and the kind's details. */
export interface PlatformInput {
  name: string;
  subType?: string | undefined;
  description?: string | undefined;
  manager?: string | undefined;
  regionCode?: string | undefined;
  lon?: number | undefined;
  lat?: number | undefined;
  alt?: number | undefined;
  enterpriseId?: number | undefined;
  organization?: string | undefined;
  details: Record<string, unknown>;
  /** File ids, sent as JSON text so that an empty list clears them. */
  pictures?: string | undefined;
  files?: string | undefined;
}

export const platformKeys = {
  all: ['platforms'] as const,
  kind: (kind: PlatformType) => ['platforms', kind] as const,
  list: (kind: PlatformType, p: PlatformListParams) => ['platforms', kind, 'list', p] as const,
  pick: (kind: PlatformType, keyword: string) => ['platforms', kind, 'pick', keyword] as const,
  enterprises: (variant: string) => ['enterprises', variant, 'all'] as const,
};

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;

export const fetchPlatforms = (kind: PlatformType, p: PlatformListParams) =>
  callAt(platformsRoutes.list, { type: kind }, { ...p });

/**
 * Sites of one kind for pickers (first 50 matching the keyword). Silent: a user without the kind's
 * permission simply gets no options.
 */
export const fetchPlatformChoices = (kind: PlatformType, keyword: string) =>
  callAt(
    platformsRoutes.list,
    { type: kind },
    { pageNum: 1, pageSize: 50, keyword: keyword || undefined, sortField: 'name', sortOrder: 'ascend' },
    { keepEarlier: true, silent: true },
  ).then((p) => p.list);

export const addPlatform = (kind: PlatformType, v: PlatformInput) =>
  callAt(platformsRoutes.add, { type: kind }, { ...v }, change);
export const editPlatform = (kind: PlatformType, platformId: number, v: PlatformInput) =>
  callAt(platformsRoutes.edit, { type: kind }, { platformId, ...v }, change);
export const deletePlatform = (kind: PlatformType, platformId: number) =>
  callAt(platformsRoutes.delete, { type: kind }, { platformId }, change);

/** The enterprises a site of this kind may be related to (tailings sites: tailings enterprises). */
export function fetchEnterpriseOptions(kind: PlatformType): Promise<EnterpriseOption[]> {
  if (enterpriseVariantOf(kind) === 'tailings') return call(tailingsEnterprisesRoutes.all, {}, { keepEarlier: true });
  return callAt(enterprisesRoutes.all, { enterpriseType: 'general' }, {}, { keepEarlier: true });
}
