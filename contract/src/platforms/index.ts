import { z } from 'zod';
import { pageQuery, zInt, zOptText, zText } from '../api/zod.ts';
import { LOGIN, perm, routeTable } from '../api/routes.ts';
import { PLATFORM_TYPES, type PlatformType } from './kinds.ts';
import { platformDetailsSchemas } from './details.ts';
import { fromJsonText, optFileIds, optId, optNumber, optText } from './fields.ts';

export * from './kinds.ts';
export * from './details.ts';

export const platformTypeParam = z.object({ type: z.enum(PLATFORM_TYPES) });

/** Sites list: paged; filter by keyword (name, type label, manager), region (and below it) and enterprise. */
export const platformListQuery = pageQuery().extend({
  keyword: zOptText(100),
  regionCode: optText(20, 'Region code: sites in this region or any region below it'),
  enterpriseId: optId('Sites bound to this enterprise'),
});
export const platformIdBody = z.object({ platformId: zInt() });
export const platformIdQuery = z.object({ platformId: zInt() });

/** Sort fields of the sites list. */
export const PLATFORM_SORT_FIELDS = ['name', 'createdAt', 'regionCode'] as const;

/**
 * The common fields of a site, of every kind (spec §3 "Platform"). `details` carries the kind's own fields
 * (an object, or a JSON string in a form field) and is validated by `platformDetailsSchemas[type]`.
 * On edit, leaving out `details`, `pictures` or `files` keeps what is stored; every other field is replaced.
 */
export const platformFields = {
  name: zText(100).describe('Name (for a bridge: the bridge name)'),
  subType: optText(100, 'Type label of the site (e.g. landslide, cut, fill; the bridge platform type)'),
  description: optText(2000, 'Description'),
  manager: optText(100, 'Manager'),
  regionCode: optText(20, 'Administrative region code: a leaf of the region tree (fully selected)'),
  lon: optNumber('Longitude, degrees, -180 to 180', -180, 180),
  lat: optNumber('Latitude, degrees, -90 to 90', -90, 90),
  alt: optNumber('Altitude, m', -12000, 12000),
  enterpriseId: optId('Related enterprise (tailings sites: a tailings enterprise)'),
  organization: optText(200, 'Subordinate organisation'),
  pictures: optFileIds('Schematic pictures: file ids'),
  files: optFileIds('Files: file ids'),
  details: z
    .preprocess(fromJsonText, z.record(z.string(), z.unknown()).optional())
    .describe("The kind's own fields: see platformDetailsSchemas"),
};
export const platformAddBody = z.object(platformFields);
export const platformEditBody = z.object({ platformId: zInt(), ...platformFields });

/** The add body of one kind with its details schema, for forms: `platformAddBodyFor('bridge')`. */
export function platformAddBodyFor<T extends PlatformType>(type: T) {
  return platformAddBody.extend({ details: platformDetailsSchemas[type] });
}
/** The edit body of one kind with its details schema. */
export function platformEditBodyFor<T extends PlatformType>(type: T) {
  return platformEditBody.extend({ details: platformDetailsSchemas[type] });
}

export interface PlatformSummary {
  platformId: number;
  type: PlatformType;
  name: string;
  description: string | null;
  manager: string | null;
  lon: number | null;
  lat: number | null;
  createdAt: string;
}

/** A site as lists and getById answer it: the common fields and the kind's details. */
export interface PlatformRow extends PlatformSummary {
  subType: string | null;
  alt: number | null;
  regionCode: string | null;
  /** Region codes from the country down to the site's region (a cascader's value). */
  regionPath: string[];
  /** The names of `regionPath`, in the caller's language. */
  regionNames: string[];
  enterpriseId: number | null;
  enterpriseName: string | null;
  organization: string | null;
  pictures: string[];
  files: string[];
  /** The kind's own fields (see `PlatformDetailsOf<type>`). */
  details: Record<string, unknown>;
  updatedAt: string;
}

/** A road segment of a slope (spec §3 "Slope / construction site"). */
export interface RoadSegmentRow {
  platformId: number;
  platformName: string;
  name: string | null;
  code: string | null;
  segment: string | null;
  description: string | null;
  regionCode: string | null;
}

const tags = ['platforms'];
export const platformsRoutes = routeTable({
  list: {
    method: 'GET',
    path: '/api/v2/data/information/platform/:type/getListPage',
    permission: perm('information:platform:{type}'),
    summary:
      "Sites of one kind (bridge included) within the caller's data scope: paged, keyword/region/enterprise filters, sortField name|createdAt|regionCode",
    tags,
    query: platformListQuery,
  },
  get: {
    method: 'GET',
    path: '/api/v2/data/information/platform/getById',
    permission: LOGIN,
    summary: "One site within the caller's data scope (a foreign id answers like a missing one)",
    tags,
    query: platformIdQuery,
  },
  options: {
    method: 'GET',
    path: '/api/v2/data/information/platform/getOptions',
    permission: perm('system:data'),
    summary: 'Every site (id, kind, name) for data-scope pickers',
    tags,
  },
  add: {
    method: 'POST',
    path: '/api/v2/data/information/platform/:type/add',
    permission: perm('information:platform:{type}'),
    summary:
      "Create a site of one kind; details are validated by the kind's schema. A caller who does not see every site is given the new one.",
    tags,
    body: platformAddBody,
  },
  edit: {
    method: 'POST',
    path: '/api/v2/data/information/platform/:type/edit',
    permission: perm('information:platform:{type}'),
    summary: 'Edit a site (platformId and fields); details, pictures and files are kept when left out',
    tags,
    body: platformEditBody,
  },
  delete: {
    method: 'POST',
    path: '/api/v2/data/information/platform/:type/delete',
    permission: perm('information:platform:{type}'),
    summary: 'Delete a site; refused while it still has devices or sections',
    tags,
    body: platformIdBody,
  },
  roadSegments: {
    method: 'GET',
    path: '/api/v2/data/information/platform/getRoadSegment',
    permission: perm('information:road'),
    summary: "Road segments of the slopes within the caller's data scope",
    tags,
  },
});
