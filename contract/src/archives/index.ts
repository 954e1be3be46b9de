// The archives feature's contract (safety supervision, spec §2 /archives: supervise, plan, Safety; §6
// supervisor:dynamic, supervisor:plan, supervisor:archive). Its calls are not shown by the spec: they live under
// /api/v2/data/archives/... in the spec's style (GET lists with pageNum and pageSize, POST forms for changes).
import { z } from 'zod';
import { zPage } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import {
  archiveContactSchema,
  archiveIdBody,
  archiveIdQuery,
  archiveSiteSchema,
  documentAddBody,
  documentEditBody,
  documentListQuery,
  documentSchema,
  documentVersionAddBody,
  documentVersionSchema,
  drillAddBody,
  folderAddBody,
  folderQuery,
  folderSchema,
  inspectionAddBody,
  inspectionEditBody,
  inspectionListQuery,
  inspectionRectifyBody,
  inspectionSchema,
  planAddBody,
  planApproveBody,
  planDetailSchema,
  planEditBody,
  planListQuery,
  planSchema,
  planVersionAddBody,
} from './schemas.ts';

export * from './catalogue.ts';
export * from './schemas.ts';

const B = '/api/v2/data/archives';
const DYNAMIC = perm('supervisor:dynamic');
const PLAN = perm('supervisor:plan');
const ARCHIVE = perm('supervisor:archive');
const ANY = perm('supervisor:dynamic', 'supervisor:plan', 'supervisor:archive');
const tags = ['archives'];
const id = z.object({ id: z.number().int() });

export const archivesRoutes = routeTable({
  sites: {
    method: 'GET',
    path: `${B}/getSites`,
    permission: ANY,
    summary: "The sites in the caller's data scope, by name (the safety screens' site picker)",
    tags,
    response: z.array(archiveSiteSchema),
  },
  contacts: {
    method: 'GET',
    path: `${B}/getContacts`,
    permission: perm('supervisor:plan', 'supervisor:archive'),
    summary: 'The alert contacts with an email address, who may be reminded of expiring plans and certificates',
    tags,
    response: z.array(archiveContactSchema),
  },
  // Dynamic supervision (supervise).
  inspectionList: {
    method: 'GET',
    path: `${B}/supervise/getListPage`,
    permission: DYNAMIC,
    summary:
      "Inspections of the sites in the caller's data scope, paged (default 10); filters platformId, state, startDate, endDate, withProblems, overdue, keyword; sortField inspectionDate|platformName|inspector|state|deadline|completedDate|problemCount|createdAt (default newest first)",
    tags,
    query: inspectionListQuery,
    response: zPage(inspectionSchema),
  },
  inspectionAdd: {
    method: 'POST',
    path: `${B}/supervise/add`,
    permission: DYNAMIC,
    summary:
      'Record an inspection: items checked, problems found with their photos, the rectification required and its deadline, the result',
    tags,
    body: inspectionAddBody,
    response: id,
  },
  inspectionEdit: {
    method: 'POST',
    path: `${B}/supervise/edit`,
    permission: DYNAMIC,
    summary: 'Edit an inspection',
    tags,
    body: inspectionEditBody,
    response: z.null(),
  },
  inspectionRectify: {
    method: 'POST',
    path: `${B}/supervise/setRectified`,
    permission: DYNAMIC,
    summary: "Mark an inspection's rectification completed, with its date and result",
    tags,
    body: inspectionRectifyBody,
    response: z.null(),
  },
  inspectionDelete: {
    method: 'POST',
    path: `${B}/supervise/delete`,
    permission: DYNAMIC,
    summary: 'Delete an inspection',
    tags,
    body: archiveIdBody,
    response: z.null(),
  },
  // Plan management (plan).
  planList: {
    method: 'GET',
    path: `${B}/plan/getListPage`,
    permission: PLAN,
    summary:
      "Emergency and prevention plans of the sites in the caller's data scope, paged (default 10), each with its newest approved version; filters platformId, kind, status, keyword; sortField name|platformName|kind|validTo|version|approvedAt|createdAt",
    tags,
    query: planListQuery,
    response: zPage(planSchema),
  },
  planDetail: {
    method: 'GET',
    path: `${B}/plan/getDetail`,
    permission: PLAN,
    summary: 'A plan with every version (old ones stay readable) and the drills held under it',
    tags,
    query: archiveIdQuery,
    response: planDetailSchema,
  },
  planAdd: {
    method: 'POST',
    path: `${B}/plan/add`,
    permission: PLAN,
    summary: 'Add a plan with its first version (not yet approved)',
    tags,
    body: planAddBody,
    response: id,
  },
  planEdit: {
    method: 'POST',
    path: `${B}/plan/edit`,
    permission: PLAN,
    summary: "Edit a plan's name, kind and reminder (its versions are added, never changed once approved)",
    tags,
    body: planEditBody,
    response: z.null(),
  },
  planDelete: {
    method: 'POST',
    path: `${B}/plan/delete`,
    permission: PLAN,
    summary: 'Delete a plan with its versions and drills',
    tags,
    body: archiveIdBody,
    response: z.null(),
  },
  planVersionAdd: {
    method: 'POST',
    path: `${B}/plan/addVersion`,
    permission: PLAN,
    summary: 'Add a new version of a plan (the next number; earlier versions are kept)',
    tags,
    body: planVersionAddBody,
    response: id,
  },
  planVersionApprove: {
    method: 'POST',
    path: `${B}/plan/approveVersion`,
    permission: PLAN,
    summary: 'Approve a plan version (records who and when; a version is approved once)',
    tags,
    body: planApproveBody,
    response: z.object({ approvedBy: z.string(), approvedAt: z.string() }),
  },
  drillAdd: {
    method: 'POST',
    path: `${B}/plan/addDrill`,
    permission: PLAN,
    summary: 'Record a drill held under a plan: date, participants, notes, files',
    tags,
    body: drillAddBody,
    response: id,
  },
  drillDelete: {
    method: 'POST',
    path: `${B}/plan/deleteDrill`,
    permission: PLAN,
    summary: 'Delete a drill record',
    tags,
    body: archiveIdBody,
    response: z.null(),
  },
  // Security file management (Safety).
  folders: {
    method: 'GET',
    path: `${B}/safety/getFolders`,
    permission: ARCHIVE,
    summary: "A site's folders (parentId null: at the top), by name, with their document counts",
    tags,
    query: folderQuery,
    response: z.array(folderSchema),
  },
  folderAdd: {
    method: 'POST',
    path: `${B}/safety/addFolder`,
    permission: ARCHIVE,
    summary: 'Make a folder in a site (or in one of its folders)',
    tags,
    body: folderAddBody,
    response: id,
  },
  folderDelete: {
    method: 'POST',
    path: `${B}/safety/deleteFolder`,
    permission: ARCHIVE,
    summary: 'Delete an empty folder',
    tags,
    body: archiveIdBody,
    response: z.null(),
  },
  documentList: {
    method: 'GET',
    path: `${B}/safety/getListPage`,
    permission: ARCHIVE,
    summary:
      "Security files of the sites in the caller's data scope, paged (default 10), each with its newest version; filters platformId, folderId, docType, expiry, keyword; sortField name|docType|expiresOn|version|updatedAt|uploadedBy",
    tags,
    query: documentListQuery,
    response: zPage(documentSchema),
  },
  documentVersions: {
    method: 'GET',
    path: `${B}/safety/getVersions`,
    permission: ARCHIVE,
    summary: "A security file's versions, newest first (each downloadable through /api/v2/file/download)",
    tags,
    query: archiveIdQuery,
    response: z.array(documentVersionSchema),
  },
  documentAdd: {
    method: 'POST',
    path: `${B}/safety/add`,
    permission: ARCHIVE,
    summary:
      'File an uploaded file (POST /api/v2/file/upload, kind attachment, with the platformId) as a security file, version 1',
    tags,
    body: documentAddBody,
    response: id,
  },
  documentEdit: {
    method: 'POST',
    path: `${B}/safety/edit`,
    permission: ARCHIVE,
    summary: "Edit a security file's folder, name, type, expiry and reminder",
    tags,
    body: documentEditBody,
    response: z.null(),
  },
  documentVersionAdd: {
    method: 'POST',
    path: `${B}/safety/addVersion`,
    permission: ARCHIVE,
    summary: 'Add a new version of a security file (earlier versions stay downloadable)',
    tags,
    body: documentVersionAddBody,
    response: id,
  },
  documentDelete: {
    method: 'POST',
    path: `${B}/safety/delete`,
    permission: ARCHIVE,
    summary: 'Delete a security file with its versions',
    tags,
    body: archiveIdBody,
    response: z.null(),
  },
});
