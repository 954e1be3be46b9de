import {
  TS_SORT_FIELDS,
  tsAddBody,
  tsListQuery,
  tsManagementRoutes,
  type TsProblemType,
  type TsState,
} from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';

export { TS_SORT_FIELDS };

/** The list's query as the page holds it (the contract's, with paging given). */
export type TsListParams = z.output<typeof tsListQuery>;

/** The form's values: dates as yyyy-MM-dd strings (the drawer converts its pickers' values). */
export interface TsFormValues {
  platformId: number;
  inspectionDate: string;
  inspector: string;
  problemType?: TsProblemType | null | undefined;
  items: z.output<typeof tsAddBody>['items'];
  dryBeachLength?: number | null | undefined;
  findings?: string | undefined;
  requirement?: string | undefined;
  deadline?: string | undefined;
  attachments: string[];
  responsiblePersonId?: number | null | undefined;
  regulatoryPerson?: string | undefined;
  state: TsState;
  completedDate?: string | undefined;
  result?: string | undefined;
  resultAttachments: string[];
}

/** Marking a record rectified: its completion date, result and result documents. */
export interface TsRectifyValues {
  completedDate: string;
  result?: string | undefined;
  resultAttachments: string[];
}

export const tsKeys = {
  all: ['ts-management'] as const,
  list: (p: TsListParams) => ['ts-management', 'list', p] as const,
  sites: ['ts-management', 'sites'] as const,
  persons: (platformId: number | undefined) => ['ts-management', 'persons', platformId ?? 'all'] as const,
};

export const fetchTsRecords = (p: TsListParams) => call(tsManagementRoutes.list, { ...p });
export const fetchTsSites = () => call(tsManagementRoutes.sites, {}, picker);
/** The responsible persons who may be chosen for a site's records (all visible ones without a site). */
export const fetchTsPersons = (platformId?: number) =>
  call(tsManagementRoutes.persons, platformId === undefined ? {} : { platformId }, picker);

function fields(v: TsFormValues) {
  return {
    platformId: v.platformId,
    inspectionDate: v.inspectionDate,
    inspector: v.inspector.trim(),
    problemType: v.problemType ?? undefined,
    items: Object.fromEntries(
      Object.entries(v.items).map(([k, c]) => [
        k,
        { result: c.result, ...(blankToUndefined(c.note) ? { note: blankToUndefined(c.note) } : {}) },
      ]),
    ),
    dryBeachLength: v.dryBeachLength ?? undefined,
    findings: blankToUndefined(v.findings),
    requirement: blankToUndefined(v.requirement),
    deadline: v.deadline || undefined,
    // '' is an empty list (a form cannot send an empty array); ids are comma-separated otherwise.
    attachments: v.attachments.join(','),
    responsiblePersonId: v.responsiblePersonId ?? undefined,
    regulatoryPerson: blankToUndefined(v.regulatoryPerson),
    state: v.state,
    completedDate: v.state === 'completed' ? v.completedDate || undefined : undefined,
    result: blankToUndefined(v.result),
    resultAttachments: v.resultAttachments.join(','),
  };
}

export const addTsRecord = (v: TsFormValues) => call(tsManagementRoutes.add, fields(v), change);
export const editTsRecord = (id: number, v: TsFormValues) =>
  call(tsManagementRoutes.edit, { id, ...fields(v) }, change);
export const deleteTsRecord = (id: number) => call(tsManagementRoutes.delete, { id }, change);
export const setTsRectified = (id: number, v: TsRectifyValues) =>
  call(
    tsManagementRoutes.setRectified,
    {
      id,
      completedDate: v.completedDate,
      result: blankToUndefined(v.result),
      resultAttachments: v.resultAttachments.join(','),
    },
    change,
  );
