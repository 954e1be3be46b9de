import {
  enterprisesRoutes,
  enterpriseVariantOf,
  platformsRoutes,
  tailingsEnterprisesRoutes,
  type EnterpriseOption,
  type Page,
  type PlatformRow,
  type PlatformType,
} from '@geosentry/contract';
import { request } from '../../shared/api.ts';

export type SortOrder = 'ascend' | 'descend';
export const PLATFORM_SORT_FIELDS = ['name', 'createdAt', 'regionCode'] as const;
export type PlatformSortField = (typeof PLATFORM_SORT_FIELDS)[number];

export interface PlatformListParams {
  pageNum: number;
  pageSize: number;
  sortField?: PlatformSortField | undefined;
  sortOrder?: SortOrder | undefined;
  keyword?: string | undefined;
  regionCode?: string | undefined;
  enterpriseId?: number | undefined;
}

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

const withType = (path: string, kind: PlatformType): string => path.replace(':type', kind);
/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;

export const fetchPlatforms = (kind: PlatformType, p: PlatformListParams) =>
  request<Page<PlatformRow>>('GET', withType(platformsRoutes.list.path, kind), { ...p });

/**
 * Sites of one kind for pickers (first 50 matching the keyword). Silent: a user without the kind's
 * permission simply gets no options.
 */
export const fetchPlatformChoices = (kind: PlatformType, keyword: string) =>
  request<Page<PlatformRow>>(
    'GET',
    withType(platformsRoutes.list.path, kind),
    { pageNum: 1, pageSize: 50, keyword: keyword || undefined, sortField: 'name', sortOrder: 'ascend' },
    { keepEarlier: true, silent: true },
  ).then((p) => p.list);

export const addPlatform = (kind: PlatformType, v: PlatformInput) =>
  request<{ platformId: number }>('POST', withType(platformsRoutes.add.path, kind), { ...v }, change);
export const editPlatform = (kind: PlatformType, platformId: number, v: PlatformInput) =>
  request<null>('POST', withType(platformsRoutes.edit.path, kind), { platformId, ...v }, change);
export const deletePlatform = (kind: PlatformType, platformId: number) =>
  request<null>('POST', withType(platformsRoutes.delete.path, kind), { platformId }, change);

/** The enterprises a site of this kind may be related to (tailings sites: tailings enterprises). */
export function fetchEnterpriseOptions(kind: PlatformType): Promise<EnterpriseOption[]> {
  if (enterpriseVariantOf(kind) === 'tailings')
    return request<EnterpriseOption[]>('GET', tailingsEnterprisesRoutes.all.path, {}, { keepEarlier: true });
  return request<EnterpriseOption[]>(
    'GET',
    enterprisesRoutes.all.path.replace(':enterpriseType', 'general'),
    {},
    { keepEarlier: true },
  );
}
