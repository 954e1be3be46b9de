import {
  INSPECTION_SORT_FIELDS,
  PLAN_SORT_FIELDS,
  SAFETY_SORT_FIELDS,
  archivesRoutes,
  type documentListQuery,
  type inspectionListQuery,
  type planListQuery,
  type InspectionItem,
  type PlanKind,
  type RectificationState,
  type SafetyDocType,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';

export { INSPECTION_SORT_FIELDS, PLAN_SORT_FIELDS, SAFETY_SORT_FIELDS };

export type InspectionListParams = z.output<typeof inspectionListQuery>;
export type PlanListParams = z.output<typeof planListQuery>;
export type DocumentListParams = z.output<typeof documentListQuery>;

const r = archivesRoutes;

export const archivesKeys = {
  all: ['archives'] as const,
  sites: ['archives', 'sites'] as const,
  contacts: ['archives', 'contacts'] as const,
  inspections: (p: InspectionListParams) => ['archives', 'inspections', p] as const,
  plans: (p: PlanListParams) => ['archives', 'plans', p] as const,
  plan: (id: number) => ['archives', 'plan', id] as const,
  folders: (platformId: number) => ['archives', 'folders', platformId] as const,
  documents: (p: DocumentListParams) => ['archives', 'documents', p] as const,
  versions: (id: number) => ['archives', 'versions', id] as const,
};

export const fetchSites = () => call(r.sites, {}, picker);
export const fetchContacts = () => call(r.contacts, {}, picker);

// Dynamic supervision.
export interface InspectionValues {
  platformId: number;
  inspectionDate: string;
  inspector: string;
  items: InspectionItem[];
  problems: { description: string; photos: string[] }[];
  requirement?: string | undefined;
  deadline?: string | undefined;
  state: RectificationState;
  completedDate?: string | undefined;
  result?: string | undefined;
}
const inspectionFields = (v: InspectionValues) => ({
  platformId: v.platformId,
  inspectionDate: v.inspectionDate,
  inspector: v.inspector.trim(),
  // Lists travel as JSON text in a form.
  items: JSON.stringify(
    v.items.map((i) => ({ name: i.name.trim(), result: i.result, note: blankToUndefined(i.note) })),
  ),
  problems: JSON.stringify(v.problems.map((p) => ({ description: p.description.trim(), photos: p.photos }))),
  requirement: blankToUndefined(v.requirement),
  deadline: v.deadline || undefined,
  state: v.state,
  completedDate: v.state === 'completed' ? v.completedDate || undefined : undefined,
  result: blankToUndefined(v.result),
});
export const fetchInspections = (p: InspectionListParams) => call(r.inspectionList, { ...p });
export const addInspection = (v: InspectionValues) => call(r.inspectionAdd, inspectionFields(v), change);
export const editInspection = (id: number, v: InspectionValues) =>
  call(r.inspectionEdit, { id, ...inspectionFields(v) }, change);
export const rectifyInspection = (id: number, completedDate: string, result?: string) =>
  call(r.inspectionRectify, { id, completedDate, result: blankToUndefined(result) }, change);
export const deleteInspection = (id: number) => call(r.inspectionDelete, { id }, change);

// Plans.
export interface VersionValues {
  validFrom: string;
  validTo: string;
  summary?: string | undefined;
  files: string[];
}
export interface PlanValues extends VersionValues {
  platformId: number;
  kind: PlanKind;
  name: string;
  contactId?: number | undefined;
  remindDays?: number | undefined;
}
const versionFields = (v: VersionValues) => ({
  validFrom: v.validFrom,
  validTo: v.validTo,
  summary: blankToUndefined(v.summary),
  files: v.files.join(','),
});
export const fetchPlans = (p: PlanListParams) => call(r.planList, { ...p });
export const fetchPlan = (id: number) => call(r.planDetail, { id });
export const addPlan = (v: PlanValues) =>
  call(
    r.planAdd,
    {
      platformId: v.platformId,
      kind: v.kind,
      name: v.name.trim(),
      contactId: v.contactId,
      remindDays: v.remindDays,
      ...versionFields(v),
    },
    change,
  );
export const editPlan = (
  id: number,
  v: { kind: PlanKind; name: string; contactId?: number | undefined; remindDays?: number | undefined },
) => call(r.planEdit, { id, ...v, name: v.name.trim() }, change);
export const deletePlan = (id: number) => call(r.planDelete, { id }, change);
export const addPlanVersion = (planId: number, v: VersionValues) =>
  call(r.planVersionAdd, { planId, ...versionFields(v) }, change);
export const approvePlanVersion = (versionId: number) => call(r.planVersionApprove, { versionId }, change);
export const addDrill = (
  planId: number,
  v: {
    drillDate: string;
    participants: string;
    participantCount?: number | undefined;
    notes?: string;
    files: string[];
  },
) =>
  call(
    r.drillAdd,
    {
      planId,
      drillDate: v.drillDate,
      participants: v.participants.trim(),
      participantCount: v.participantCount,
      notes: blankToUndefined(v.notes),
      files: v.files.join(','),
    },
    change,
  );
export const deleteDrill = (id: number) => call(r.drillDelete, { id }, change);

// Security files.
export interface DocumentValues {
  folderId?: number | undefined;
  name: string;
  docType: SafetyDocType;
  expiresOn?: string | undefined;
  contactId?: number | undefined;
  remindDays?: number | undefined;
}
export const fetchFolders = (platformId: number) => call(r.folders, { platformId }, picker);
export const addFolder = (platformId: number, name: string, parentId?: number) =>
  call(r.folderAdd, { platformId, name: name.trim(), parentId }, change);
export const deleteFolder = (id: number) => call(r.folderDelete, { id }, change);
export const fetchDocuments = (p: DocumentListParams) => call(r.documentList, { ...p });
export const fetchDocumentVersions = (id: number) => call(r.documentVersions, { id });
export const addDocument = (platformId: number, v: DocumentValues, fileId: string, note?: string) =>
  call(
    r.documentAdd,
    {
      platformId,
      ...v,
      name: v.name.trim(),
      expiresOn: v.expiresOn || undefined,
      fileId,
      note: blankToUndefined(note),
    },
    change,
  );
export const editDocument = (id: number, v: DocumentValues) =>
  call(r.documentEdit, { id, ...v, name: v.name.trim(), expiresOn: v.expiresOn || undefined }, change);
export const addDocumentVersion = (documentId: number, fileId: string, note?: string) =>
  call(r.documentVersionAdd, { documentId, fileId, note: blankToUndefined(note) }, change);
export const deleteDocument = (id: number) => call(r.documentDelete, { id }, change);
