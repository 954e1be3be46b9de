import { z } from 'zod';
import { zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { optCount, optText } from '../platforms/fields.ts';

/**
 * Administrative regions: a tree of at most four levels (1 country, 2 province, 3 city, 4 county or
 * district). A site's region must be a leaf: "fully selected" (spec §5).
 */
export const REGION_LEVELS = [1, 2, 3, 4] as const;
export const REGION_LEVEL_NAMES = ['country', 'province', 'city', 'district'] as const;

const regionCode = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9-]+$/)
  .describe('Region code: letters, digits and hyphens (China: GB/T 2260; Korea: KR + administrative code)');

const regionNames = {
  nameEn: zText(100).describe('English name'),
  nameZh: optText(100, 'Chinese name (defaults to the English name)'),
  nameKo: optText(100, 'Korean name (defaults to the English name)'),
  sort: optCount('Order among its siblings'),
};

export const regionAddBody = z.object({
  code: regionCode,
  parentCode: optText(20, 'Parent region code; left out for a country'),
  ...regionNames,
});
export const regionEditBody = z.object({ code: regionCode, ...regionNames });
export const regionCodeBody = z.object({ code: regionCode });

/** One node of the region tree; leaves have no `children`. `name` is in the caller's language. */
export interface RegionNode {
  code: string;
  parentCode: string | null;
  level: number;
  name: string;
  nameEn: string;
  nameZh: string;
  nameKo: string;
  sort: number;
  children?: RegionNode[];
}
export const regionNodeSchema: z.ZodType<RegionNode> = z.object({
  code: z.string(),
  parentCode: z.string().nullable(),
  level: z.number().int(),
  name: z.string(),
  nameEn: z.string(),
  nameZh: z.string(),
  nameKo: z.string(),
  sort: z.number(),
  get children() {
    return z.array(regionNodeSchema).optional();
  },
});

const tags = ['regions'];
export const regionsRoutes = routeTable({
  tree: {
    method: 'GET',
    path: '/api/v2/data/information/region/getTree',
    permission: LOGIN,
    summary: 'The administrative region tree (country > province > city > county/district), names in en, zh, ko',
    tags,
    response: z.array(regionNodeSchema),
  },
  add: {
    method: 'POST',
    path: '/api/v2/data/information/region/add',
    permission: perm('system:data'),
    summary: 'Add a region under a parent (at most 4 levels); refused under a region that sites use',
    tags,
    body: regionAddBody,
    response: z.object({ code: z.string() }),
  },
  edit: {
    method: 'POST',
    path: '/api/v2/data/information/region/edit',
    permission: perm('system:data'),
    summary: "Rename a region (its code and place in the tree don't change)",
    tags,
    body: regionEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: '/api/v2/data/information/region/delete',
    permission: perm('system:data'),
    summary: 'Delete a region; refused while it has subordinate regions or sites',
    tags,
    body: regionCodeBody,
    response: z.null(),
  },
});
