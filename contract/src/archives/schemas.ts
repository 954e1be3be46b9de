// Request and answer shapes of the archives feature (safety supervision).
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zText } from '../api/zod.ts';
import { RECTIFICATION_STATES } from '../api/rectification.ts';
import { fromJsonText, optChoice, optDate, optFileIds, optFlag, optId, optText } from '../platforms/fields.ts';
import {
  EXPIRY_STATUSES,
  INSPECTION_ITEM_RESULTS,
  MAX_INSPECTION_ITEMS,
  MAX_INSPECTION_PROBLEMS,
  MAX_REMIND_DAYS,
  PLAN_KINDS,
  PLAN_STATUSES,
  SAFETY_DOC_TYPES,
} from './catalogue.ts';

const date = (what: string) => z.iso.date().describe(`${what}, yyyy-MM-dd`);
const remindDays = z
  .preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v), z.number().int())
  .pipe(z.number().int().min(1).max(MAX_REMIND_DAYS))
  .optional()
  .describe(`Days before the end that the reminder is sent (1 to ${MAX_REMIND_DAYS}, default 30)`);

/** A file as a record names it: its id, name and type (null when the file is gone). */
export const archiveFileSchema = z.object({
  file_id: z.string(),
  name: z.string().nullable(),
  mime: z.string().nullable(),
});
export type ArchiveFile = z.output<typeof archiveFileSchema>;

/** A site the caller may keep safety records for (the screens' site picker): every site in the data scope. */
export const archiveSiteSchema = z.object({ platformId: z.number().int(), name: z.string(), type: z.string() });
export type ArchiveSite = z.output<typeof archiveSiteSchema>;

/** A contact who may be reminded (an alert contact with an email address), with the language of the mail. */
export const archiveContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  language: z.enum(['en', 'zh', 'ko']),
});
export type ArchiveContact = z.output<typeof archiveContactSchema>;

// ------------------------------------------------------------------------------------ dynamic supervision

export const inspectionItemSchema = z.object({
  name: zText(200),
  result: z.enum(INSPECTION_ITEM_RESULTS),
  note: optText(500, 'What was seen; required when the result is problem'),
});
export const inspectionProblemSchema = z.object({
  description: zText(2000),
  photos: z.array(z.string().trim().min(1).max(64)).max(20).optional().default([]),
});
export type InspectionItem = z.output<typeof inspectionItemSchema>;
export type InspectionProblem = z.output<typeof inspectionProblemSchema>;

const inspectionFields = {
  platformId: zInt().describe('The site inspected'),
  inspectionDate: date('Inspection date'),
  inspector: zText(100).describe('Who inspected'),
  items: z
    .preprocess(fromJsonText, z.array(inspectionItemSchema).min(1).max(MAX_INSPECTION_ITEMS))
    .describe('The items checked: [{name, result ok|problem, note}] (a JSON string in a form), at least one'),
  problems: z
    .preprocess(
      (v) => (v === undefined || v === '' || v === null ? [] : fromJsonText(v)),
      z.array(inspectionProblemSchema).max(MAX_INSPECTION_PROBLEMS),
    )
    .describe('Problems found: [{description, photos: picture file ids, at most 3}] (a JSON string in a form)'),
  requirement: optText(4000, 'Rectification required; required when there is a problem'),
  deadline: optDate('Rectification deadline; required when there is a problem'),
  state: z.enum(RECTIFICATION_STATES).describe('Rectification completed or incomplete'),
  completedDate: optDate('Completion date; required when completed'),
  result: optText(4000, 'Result of the inspection and its rectification'),
};
export const inspectionAddBody = z.object(inspectionFields);
export const inspectionEditBody = z.object({ id: zInt(), ...inspectionFields });
export const archiveIdBody = z.object({ id: zInt() });
export const archiveIdQuery = z.object({ id: zInt() });
export const inspectionRectifyBody = z.object({
  id: zInt(),
  completedDate: date('Completion date'),
  result: optText(4000, 'Result of the rectification'),
});
export const INSPECTION_SORT_FIELDS = [
  'inspectionDate',
  'platformName',
  'inspector',
  'state',
  'deadline',
  'completedDate',
  'problemCount',
  'createdAt',
] as const;
export const inspectionListQuery = pageQuery(10).extend({
  platformId: optId('Inspections of this site'),
  state: optChoice(RECTIFICATION_STATES, 'Rectification state'),
  startDate: optDate('Inspected on or after'),
  endDate: optDate('Inspected on or before'),
  withProblems: optFlag('Only inspections that found problems (true) or none (false)'),
  overdue: optFlag('Only incomplete inspections past their deadline'),
  keyword: zOptText(100),
});

export const inspectionSchema = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  inspectionDate: z.string(),
  inspector: z.string(),
  items: z.array(z.object({ name: z.string(), result: z.enum(INSPECTION_ITEM_RESULTS), note: z.string().optional() })),
  problems: z.array(z.object({ description: z.string(), photos: z.array(archiveFileSchema) })),
  /** Problems found plus items with a problem that no problem describes: the number shown in the list. */
  problemCount: z.number().int(),
  requirement: z.string().nullable(),
  deadline: z.string().nullable(),
  state: z.enum(RECTIFICATION_STATES),
  overdue: z.boolean(),
  completedDate: z.string().nullable(),
  result: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Inspection = z.output<typeof inspectionSchema>;

// -------------------------------------------------------------------------------------- plan management

const versionFields = {
  validFrom: date('Valid from'),
  validTo: date('Valid to (the last day of validity)'),
  summary: optText(4000, 'What this version says or changes'),
  files: optFileIds('The plan documents (upload kind attachment), at most 3'),
};
export const planAddBody = z.object({
  platformId: zInt().describe('The site of the plan'),
  kind: z.enum(PLAN_KINDS).describe('emergency or prevention'),
  name: zText(200),
  contactId: optId('The contact reminded before the plan expires (an alert contact with an email address)'),
  remindDays,
  ...versionFields,
});
export const planEditBody = z.object({
  id: zInt(),
  kind: z.enum(PLAN_KINDS),
  name: zText(200),
  contactId: optId('The contact reminded before the plan expires; left out: nobody'),
  remindDays,
});
export const planVersionAddBody = z.object({ planId: zInt(), ...versionFields });
export const planApproveBody = z.object({ versionId: zInt() });
export const drillAddBody = z.object({
  planId: zInt(),
  drillDate: date('Drill date'),
  participants: zText(2000).describe('Who took part (names, teams)'),
  participantCount: z
    .preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v), z.number().int())
    .pipe(z.number().int().min(1).max(100000))
    .optional()
    .describe('How many took part'),
  notes: optText(4000, 'Notes: scenario, findings, improvements'),
  files: optFileIds('Drill files (photos, reports; upload kind attachment), at most 3'),
});
export const PLAN_SORT_FIELDS = [
  'name',
  'platformName',
  'kind',
  'validTo',
  'version',
  'approvedAt',
  'createdAt',
] as const;
export const planListQuery = pageQuery(10).extend({
  platformId: optId('Plans of this site'),
  kind: optChoice(PLAN_KINDS, 'Plan kind'),
  status: optChoice(PLAN_STATUSES, 'Plan status'),
  keyword: zOptText(100),
});

export const planVersionSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  validFrom: z.string(),
  validTo: z.string(),
  summary: z.string().nullable(),
  files: z.array(archiveFileSchema),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type PlanVersion = z.output<typeof planVersionSchema>;
export const drillSchema = z.object({
  id: z.number().int(),
  planId: z.number().int(),
  drillDate: z.string(),
  participants: z.string(),
  participantCount: z.number().int().nullable(),
  notes: z.string().nullable(),
  files: z.array(archiveFileSchema),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type Drill = z.output<typeof drillSchema>;
export const planSchema = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  kind: z.enum(PLAN_KINDS),
  name: z.string(),
  contactId: z.number().int().nullable(),
  contactName: z.string().nullable(),
  remindDays: z.number().int(),
  status: z.enum(PLAN_STATUSES),
  /** The newest approved version (null: none approved yet), the newest version of any kind, and the counts. */
  version: z.number().int().nullable(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  latestVersion: z.number().int(),
  pendingVersions: z.number().int(),
  drills: z.number().int(),
  lastDrill: z.string().nullable(),
  createdAt: z.string(),
});
export type Plan = z.output<typeof planSchema>;
export const planDetailSchema = planSchema.extend({
  versions: z.array(planVersionSchema),
  drillList: z.array(drillSchema),
});
export type PlanDetail = z.output<typeof planDetailSchema>;

// ------------------------------------------------------------------------------------ security files

export const folderAddBody = z.object({
  platformId: zInt(),
  parentId: optId('The folder it is made in; left out: the top'),
  name: zText(100),
});
export const folderQuery = z.object({ platformId: zInt() });
export const folderSchema = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  documents: z.number().int(),
});
export type SafetyFolder = z.output<typeof folderSchema>;

const docFields = {
  folderId: optId('The folder; left out: the top of the site'),
  name: zText(200),
  docType: z.enum(SAFETY_DOC_TYPES),
  expiresOn: optDate('Expiry date; required for certificates and licences'),
  contactId: optId('The contact reminded before the expiry (an alert contact with an email address)'),
  remindDays,
};
export const documentAddBody = z.object({
  platformId: zInt(),
  ...docFields,
  fileId: z.string().trim().min(1).max(64).describe('The uploaded file (upload kind attachment, for this site)'),
  note: optText(1000, 'A note on this version'),
});
export const documentEditBody = z.object({ id: zInt(), ...docFields });
export const documentVersionAddBody = z.object({
  documentId: zInt(),
  fileId: z.string().trim().min(1).max(64).describe('The uploaded file of the new version'),
  note: optText(1000, 'What changed'),
});
export const SAFETY_SORT_FIELDS = ['name', 'docType', 'expiresOn', 'version', 'updatedAt', 'uploadedBy'] as const;
export const documentListQuery = pageQuery(10).extend({
  platformId: optId('Documents of this site'),
  folderId: optId('Documents of this folder (and not of its sub-folders)'),
  docType: optChoice(SAFETY_DOC_TYPES, 'Document type'),
  expiry: optChoice(EXPIRY_STATUSES, 'Expiry status'),
  keyword: zOptText(100),
});
export const documentVersionSchema = z.object({
  id: z.number().int(),
  version: z.number().int(),
  file: archiveFileSchema,
  note: z.string().nullable(),
  uploadedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type SafetyDocumentVersion = z.output<typeof documentVersionSchema>;
export const documentSchema = z.object({
  id: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  folderId: z.number().int().nullable(),
  folderName: z.string().nullable(),
  name: z.string(),
  docType: z.enum(SAFETY_DOC_TYPES),
  expiresOn: z.string().nullable(),
  expiry: z.enum(EXPIRY_STATUSES),
  contactId: z.number().int().nullable(),
  contactName: z.string().nullable(),
  remindDays: z.number().int(),
  /** The newest version: its number, file, uploader and time. */
  version: z.number().int(),
  file: archiveFileSchema,
  uploadedBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type SafetyDocument = z.output<typeof documentSchema>;
