// The tsManagement feature's contract: tailings supervision (TS) records, spec §2 TSManagement, §3 Tailings
// ("supervision record"), §4 ("Tailings rectification: completed or incomplete").
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
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
/** Spec §4: the rectification of a tailings supervision record is completed or incomplete. */
export const TS_STATES = ['completed', 'incomplete'] as const;
export type TsState = (typeof TS_STATES)[number];
/** At most 3 attachments (spec §5: at most 3 files), uploaded as kind 'attachment' (Word, PDF, jpg, png). */
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
  responsiblePerson: optText(100, "The pond's responsible person"),
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
  requirement: optText(4000, 'Rectification requirement; required when an item has a problem'),
  deadline: optDate('Rectification deadline; required when an item has a problem'),
  state: z.enum(TS_STATES).describe('Rectification state'),
  completedDate: optDate('Completion date; required when completed'),
  completionNote: optText(4000, 'How it was rectified'),
  attachments: optFileIds('Attachment file ids (upload kind attachment), at most 3'),
};

export const tsAddBody = z.object(tsFields);
export const tsEditBody = z.object({ id: zInt(), ...tsFields });
export const tsIdBody = z.object({ id: zInt() });
export const tsSetRectifiedBody = z.object({
  id: zInt(),
  completedDate: date('Completion date'),
  completionNote: optText(4000, 'How it was rectified'),
});
export const TS_SORT_FIELDS = [
  'inspectionDate',
  'deadline',
  'platformName',
  'state',
  'completedDate',
  'inspector',
  'createdAt',
] as const;
export const tsListQuery = pageQuery(10).extend({
  platformId: optId('Records of this site'),
  state: optChoice(TS_STATES, 'Rectification state'),
  startDate: optDate('Inspected on or after'),
  endDate: optDate('Inspected on or before'),
  keyword: zOptText(100),
  overdue: optFlag('Only incomplete records past their deadline'),
});

export interface TsAttachment {
  file_id: string;
  name: string | null;
  mime: string | null;
}

export interface TsRecord {
  id: number;
  platformId: number;
  platformName: string;
  /** The site's enterprise (tailings enterprise), when bound. */
  enterpriseName: string | null;
  inspectionDate: string;
  inspector: string;
  responsiblePerson: string | null;
  items: Record<TsItem, TsItemCheck>;
  /** How many items have a problem. */
  problems: number;
  dryBeachLength: number | null;
  findings: string | null;
  requirement: string | null;
  deadline: string | null;
  state: TsState;
  /** Incomplete with its deadline before today (server date). */
  overdue: boolean;
  completedDate: string | null;
  completionNote: string | null;
  attachments: TsAttachment[];
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A tailings site the caller may keep records for (the screen's site picker). */
export interface TsSite {
  platformId: number;
  name: string;
  enterpriseName: string | null;
}

const tags = ['tsManagement'];
const B = '/api/v2/data/information/tsManagement';
const P = perm('information:TSManagement');
export const tsManagementRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${B}/getListPage`,
    permission: P,
    summary:
      "Tailings supervision records of the sites in the caller's data scope, paged (default 10); filters platformId, state, startDate, endDate, keyword, overdue; sortField inspectionDate|deadline|platformName|state|completedDate|inspector|createdAt (default newest inspection first)",
    tags,
    query: tsListQuery,
  },
  sites: {
    method: 'GET',
    path: `${B}/getSites`,
    permission: P,
    summary: "The tailings sites in the caller's data scope, by name (for pickers)",
    tags,
  },
  add: {
    method: 'POST',
    path: `${B}/add`,
    permission: P,
    summary: 'Add a tailings supervision record',
    tags,
    body: tsAddBody,
  },
  edit: {
    method: 'POST',
    path: `${B}/edit`,
    permission: P,
    summary: 'Edit a tailings supervision record (attachments left out are kept)',
    tags,
    body: tsEditBody,
  },
  delete: {
    method: 'POST',
    path: `${B}/delete`,
    permission: P,
    summary: 'Delete a tailings supervision record',
    tags,
    body: tsIdBody,
  },
  setRectified: {
    method: 'POST',
    path: `${B}/setRectified`,
    permission: P,
    summary: 'Mark the rectification of a record completed, with its date and note',
    tags,
    body: tsSetRectifiedBody,
  },
});
