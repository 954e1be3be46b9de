// The tsManagement feature's contract: tailings supervision (TS) records, spec §2 TSManagement, §3 Tailings
// ("supervision record": affiliated enterprise, pond name, pond status, problem type, rectification content,
// documents, result and result document, responsible person, regulatory person, completion status and time),
// §4 ("Tailings rectification: completed or incomplete").
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { RECTIFICATION_STATES, type RectificationState } from '../api/rectification.ts';
import { TAILINGS_STATUSES } from '../platforms/details.ts';
import {
  fromJsonText,
  optChoice,
  optDate,
  optFileIds,
  optFlag,
  optId,
  optNumber,
  optText,
} from '../platforms/fields.ts';

/** What an inspection of a tailings pond looks at (the order of the form and of the record's card). */
export const TS_ITEMS = [
  'damCrestSlopes',
  'dryBeachLength',
  'seepageDrainage',
  'floodDischarge',
  'monitoringFacilities',
] as const;
export type TsItem = (typeof TS_ITEMS)[number];
export const TS_ITEM_RESULTS = ['ok', 'problem'] as const;
export type TsItemResult = (typeof TS_ITEM_RESULTS)[number];
/** What kind of problem a record is about (its problem type), in the order of the pickers. */
export const TS_PROBLEM_TYPES = [
  'damSafety',
  'seepage',
  'drainage',
  'floodDischarge',
  'monitoringFacilities',
  'dryBeach',
  'management',
  'other',
] as const;
export type TsProblemType = (typeof TS_PROBLEM_TYPES)[number];
/** Spec §4: the rectification of a tailings supervision record is completed or incomplete (the shared model). */
export const TS_STATES = RECTIFICATION_STATES;
export type TsState = RectificationState;
/**
 * At most 3 documents and at most 3 result documents (spec §5: at most 3 files), each uploaded as kind
 * 'attachment' (Word, PDF, jpg, png) for the record's site.
 */
export const TS_MAX_ATTACHMENTS = 3;

export const tsItemCheck = z.object({
  result: z.enum(TS_ITEM_RESULTS),
  note: optText(500, 'What was seen; required when the result is problem'),
});
export type TsItemCheck = z.output<typeof tsItemCheck>;

const date = (what: string) => z.iso.date().describe(`${what}, yyyy-MM-dd`);

const tsFields = {
  platformId: zInt().describe('The tailings site inspected'),
  inspectionDate: date('Inspection date'),
  inspector: zText(100).describe('Who inspected'),
  problemType: optChoice(
    TS_PROBLEM_TYPES,
    'Problem type; required when an item has a problem (a type alone also makes the record a problem)',
  ),
  /** Every item of TS_ITEMS with its result; a JSON string in a form. */
  items: z
    .preprocess(
      fromJsonText,
      z.object(Object.fromEntries(TS_ITEMS.map((k) => [k, tsItemCheck])) as Record<TsItem, typeof tsItemCheck>),
    )
    .describe(
      '{damCrestSlopes, dryBeachLength, seepageDrainage, floodDischarge, monitoringFacilities}: {result, note}',
    ),
  dryBeachLength: optNumber('Measured dry beach length, m', 0, 100000),
  findings: optText(4000, 'Findings'),
  requirement: optText(4000, 'Rectification content (what must be rectified); required when there is a problem'),
  deadline: optDate('Rectification deadline; required when there is a problem'),
  attachments: optFileIds('Document file ids (upload kind attachment), at most 3'),
  responsiblePersonId: optId("The responsible person (a responsible person of the site's, or one bound to no site)"),
  regulatoryPerson: optText(100, 'The regulatory person (supervisor of the authority)'),
  state: z.enum(TS_STATES).describe('Completion status (rectification completed or incomplete)'),
  completedDate: optDate('Completion time (date); required when completed'),
  result: optText(4000, 'Result of the rectification'),
  resultAttachments: optFileIds('Result document file ids (upload kind attachment), at most 3'),
};

export const tsAddBody = z.object(tsFields);
export const tsEditBody = z.object({ id: zInt(), ...tsFields });
export const tsIdBody = z.object({ id: zInt() });
export const tsSetRectifiedBody = z.object({
  id: zInt(),
  completedDate: date('Completion date'),
  result: optText(4000, 'Result of the rectification'),
  resultAttachments: optFileIds('Result document file ids, at most 3 (left out: the stored ones are kept)'),
});
export const TS_SORT_FIELDS = [
  'inspectionDate',
  'deadline',
  'platformName',
  'state',
  'completedDate',
  'inspector',
  'problemType',
  'responsiblePerson',
  'createdAt',
] as const;
export const tsListQuery = pageQuery(10).extend({
  platformId: optId('Records of this site'),
  state: optChoice(TS_STATES, 'Rectification state'),
  startDate: optDate('Inspected on or after'),
  endDate: optDate('Inspected on or before'),
  problemType: optChoice(TS_PROBLEM_TYPES, 'Problem type'),
  responsiblePersonId: optId('Records of this responsible person'),
  keyword: zOptText(100),
  overdue: optFlag('Only incomplete records past their deadline'),
});

export const tsAttachmentSchema = z.object({
  file_id: z.string(),
  name: z.string().nullable(),
  mime: z.string().nullable(),
});
export type TsAttachment = z.output<typeof tsAttachmentSchema>;

export type TsPondStatus = (typeof TAILINGS_STATUSES)[number];

export const tsRecordSchema = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  /** The pond name: the tailings site's name. */
  platformName: z.string(),
  /** The affiliated enterprise: the site's bound enterprise, when there is one. */
  enterpriseId: z.number().int().nullable(),
  enterpriseName: z.string().nullable(),
  /** The pond status: the site's `status` detail, when set. */
  pondStatus: z.enum(TAILINGS_STATUSES).nullable(),
  inspectionDate: z.string(),
  inspector: z.string(),
  problemType: z.enum(TS_PROBLEM_TYPES).nullable(),
  responsiblePersonId: z.number().int().nullable(),
  /** The responsible person's name and phone (null when none, or the person was removed). */
  responsiblePerson: z.string().nullable(),
  responsiblePhone: z.string().nullable(),
  regulatoryPerson: z.string().nullable(),
  items: z.record(z.enum(TS_ITEMS), z.object({ result: z.enum(TS_ITEM_RESULTS), note: z.string().optional() })),
  /** How many items have a problem. */
  problems: z.number().int(),
  dryBeachLength: z.number().nullable(),
  findings: z.string().nullable(),
  requirement: z.string().nullable(),
  deadline: z.string().nullable(),
  state: z.enum(TS_STATES),
  /** Incomplete with its deadline before today (server date). */
  overdue: z.boolean(),
  completedDate: z.string().nullable(),
  result: z.string().nullable(),
  /** The documents. */
  attachments: z.array(tsAttachmentSchema),
  resultAttachments: z.array(tsAttachmentSchema),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TsRecord = z.output<typeof tsRecordSchema>;

/** A tailings site the caller may keep records for (the screen's site picker). */
export const tsSiteSchema = z.object({
  platformId: z.number().int(),
  name: z.string(),
  enterpriseId: z.number().int().nullable(),
  enterpriseName: z.string().nullable(),
  pondStatus: z.enum(TAILINGS_STATUSES).nullable(),
});
export type TsSite = z.output<typeof tsSiteSchema>;

/** A responsible person who may be chosen for a site's records. */
export const tsPersonSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  title: z.string().nullable(),
});
export type TsPerson = z.output<typeof tsPersonSchema>;
export const tsPersonsQuery = z.object({
  platformId: optId('Persons who may be chosen for this site (bound to it, or to no site); all visible if left out'),
});

const tags = ['tsManagement'];
const B = '/api/v2/data/information/tsManagement';
const P = perm('information:TSManagement');
export const tsManagementRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${B}/getListPage`,
    permission: P,
    summary:
      "Tailings supervision records of the sites in the caller's data scope, paged (default 10); filters platformId, state, problemType, responsiblePersonId, startDate, endDate, keyword, overdue; sortField inspectionDate|deadline|platformName|state|completedDate|inspector|problemType|responsiblePerson|createdAt (default newest inspection first)",
    tags,
    query: tsListQuery,
    response: zPage(tsRecordSchema),
  },
  sites: {
    method: 'GET',
    path: `${B}/getSites`,
    permission: P,
    summary:
      "The tailings sites in the caller's data scope, by name, with their enterprise and pond status (for pickers)",
    tags,
    response: z.array(tsSiteSchema),
  },
  persons: {
    method: 'GET',
    path: `${B}/getPersons`,
    permission: P,
    summary:
      "Responsible persons in the caller's data scope who may be chosen for a site's records (bound to the site or to no site), by name",
    tags,
    query: tsPersonsQuery,
    response: z.array(tsPersonSchema),
  },
  add: {
    method: 'POST',
    path: `${B}/add`,
    permission: P,
    summary: 'Add a tailings supervision record',
    tags,
    body: tsAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${B}/edit`,
    permission: P,
    summary: 'Edit a tailings supervision record (documents or result documents left out are kept)',
    tags,
    body: tsEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${B}/delete`,
    permission: P,
    summary: 'Delete a tailings supervision record',
    tags,
    body: tsIdBody,
    response: z.null(),
  },
  setRectified: {
    method: 'POST',
    path: `${B}/setRectified`,
    permission: P,
    summary: 'Mark the rectification of a record completed, with its date, result and result documents',
    tags,
    body: tsSetRectifiedBody,
    response: z.null(),
  },
});
