import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
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

export const platformSummarySchema = z.object({
  platformId: z.number().int(),
  type: z.enum(PLATFORM_TYPES),
  name: z.string(),
  description: z.string().nullable(),
  manager: z.string().nullable(),
  lon: z.number().nullable(),
  lat: z.number().nullable(),
  createdAt: z.string(),
});
export type PlatformSummary = z.output<typeof platformSummarySchema>;

/** A site as lists and getById answer it: the common fields and the kind's details. */
export const platformRowSchema = platformSummarySchema.extend({
  subType: z.string().nullable(),
  alt: z.number().nullable(),
  regionCode: z.string().nullable(),
  /** Region codes from the country down to the site's region (a cascader's value). */
  regionPath: z.array(z.string()),
  /** The names of `regionPath`, in the caller's language. */
  regionNames: z.array(z.string()),
  enterpriseId: z.number().int().nullable(),
  enterpriseName: z.string().nullable(),
  organization: z.string().nullable(),
  pictures: z.array(z.string()),
  files: z.array(z.string()),
  /** The kind's own fields (see `PlatformDetailsOf<type>`). */
  details: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type PlatformRow = z.output<typeof platformRowSchema>;

/** A site for data-scope pickers: id, kind and name. */
export const platformOptionSchema = z.object({
  platformId: z.number().int(),
  type: z.enum(PLATFORM_TYPES),
  name: z.string(),
});
export type PlatformOption = z.output<typeof platformOptionSchema>;

/** A site a picker offers: one of the caller's data scope, with its kind and region. */
export const selectableSiteSchema = z.object({
  platformId: z.number().int(),
  name: z.string(),
  type: z.enum(PLATFORM_TYPES),
  regionCode: z.string().nullable(),
  /** The region's name in the caller's language (the leaf of its path); null without a region. */
  regionName: z.string().nullable(),
});
export type SelectableSite = z.output<typeof selectableSiteSchema>;

/** A road segment of a slope (spec §3 "Slope / construction site"). */
export const roadSegmentRowSchema = z.object({
  platformId: z.number().int(),
  platformName: z.string(),
  name: z.string().nullable(),
  code: z.string().nullable(),
  segment: z.string().nullable(),
  description: z.string().nullable(),
  regionCode: z.string().nullable(),
});
export type RoadSegmentRow = z.output<typeof roadSegmentRowSchema>;

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
    response: zPage(platformRowSchema),
  },
  get: {
    method: 'GET',
    path: '/api/v2/data/information/platform/getById',
    permission: LOGIN,
    summary: "One site within the caller's data scope (a foreign id answers like a missing one)",
    tags,
    query: platformIdQuery,
    response: platformRowSchema,
  },
  selectable: {
    method: 'GET',
    path: '/api/v2/data/information/platform/getSelectable',
    permission: LOGIN,
    summary: "The sites a picker offers: every site of the caller's data scope (id, name, kind, region), by name",
    tags,
    response: z.array(selectableSiteSchema),
  },
  options: {
    method: 'GET',
    path: '/api/v2/data/information/platform/getOptions',
    permission: perm('system:data'),
    summary: 'Every site (id, kind, name) for data-scope pickers',
    tags,
    response: z.array(platformOptionSchema),
  },
  add: {
    method: 'POST',
    path: '/api/v2/data/information/platform/:type/add',
    permission: perm('information:platform:{type}'),
    summary:
      "Create a site of one kind; details are validated by the kind's schema. A caller who does not see every site is given the new one.",
    tags,
    body: platformAddBody,
    response: z.object({ platformId: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: '/api/v2/data/information/platform/:type/edit',
    permission: perm('information:platform:{type}'),
    summary: 'Edit a site (platformId and fields); details, pictures and files are kept when left out',
    tags,
    body: platformEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: '/api/v2/data/information/platform/:type/delete',
    permission: perm('information:platform:{type}'),
    summary: 'Delete a site; refused while it still has devices or sections',
    tags,
    body: platformIdBody,
    response: z.null(),
  },
  roadSegments: {
    method: 'GET',
    path: '/api/v2/data/information/platform/getRoadSegment',
    permission: perm('information:road'),
    summary: "Road segments of the slopes within the caller's data scope",
    tags,
    response: z.array(roadSegmentRowSchema),
  },
});
