import { useQuery } from '@tanstack/react-query';
import { regionsRoutes, type RegionNode } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { currentLanguage } from '../../shared/i18n.ts';

export interface RegionFormValues {
  code: string;
  parentCode?: string | undefined;
  nameEn: string;
  nameZh?: string | undefined;
  nameKo?: string | undefined;
  sort?: number | undefined;
}

/** Region names come in the caller's language, so the language is part of the key. */
export const regionKeys = {
  all: ['regions'] as const,
  tree: (lang: string) => ['regions', 'tree', lang] as const,
};

/** Changes are never cancelled by a later change to the same address. */
const change = { keepEarlier: true } as const;

export const fetchRegionTree = () => call(regionsRoutes.tree, {}, { keepEarlier: true });

/** The administrative region tree (cached: it changes rarely). */
export function useRegionTree(enabled = true) {
  const lang = currentLanguage();
  return useQuery({ queryKey: regionKeys.tree(lang), queryFn: fetchRegionTree, staleTime: 5 * 60_000, enabled });
}

const blank = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

export const addRegion = (v: RegionFormValues) =>
  call(
    regionsRoutes.add,
    {
      code: v.code.trim(),
      parentCode: v.parentCode,
      nameEn: v.nameEn.trim(),
      nameZh: blank(v.nameZh),
      nameKo: blank(v.nameKo),
      sort: v.sort,
    },
    change,
  );
export const editRegion = (v: RegionFormValues) =>
  call(
    regionsRoutes.edit,
    { code: v.code, nameEn: v.nameEn.trim(), nameZh: blank(v.nameZh), nameKo: blank(v.nameKo), sort: v.sort },
    change,
  );
export const deleteRegion = (code: string) => call(regionsRoutes.delete, { code }, change);

/** The node with this code, depth first. */
export function findRegion(nodes: readonly RegionNode[], code: string): RegionNode | undefined {
  for (const n of nodes) {
    if (n.code === code) return n;
    const below = n.children ? findRegion(n.children, code) : undefined;
    if (below) return below;
  }
  return undefined;
}

/** Whether a cascader value (codes from the country down) ends at a region without subordinate regions. */
export function isFullySelected(tree: readonly RegionNode[], path: readonly string[] | undefined): boolean {
  if (!path || path.length === 0) return true;
  const last = findRegion(tree, path[path.length - 1]!);
  return !last || !last.children || last.children.length === 0;
}
