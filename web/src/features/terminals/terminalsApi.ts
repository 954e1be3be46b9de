import { terminalListQuery, terminalsRoutes, TERMINAL_SORT_FIELDS, type TerminalStatus } from '@geosentry/contract';
import type { z } from 'zod';
import { call } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';
import type { PagedParams } from '../../shared/table/serverTable.ts';

export { TERMINAL_SORT_FIELDS };

/** The list's paging and its filters, as the contract reads them. */
export type TerminalListParams = PagedParams &
  Partial<Pick<z.output<typeof terminalListQuery>, 'keyword' | 'platformId' | 'status'>>;

export interface TerminalFormValues {
  platformId: number;
  name: string;
  serial: string;
  manufacturer?: string;
  model?: string;
  protocolType: string;
  port?: number | null;
  type?: string;
  parentId?: number | null;
  status?: TerminalStatus;
}

export const terminalKeys = {
  all: ['terminals'] as const,
  list: (p: TerminalListParams) => ['terminals', 'list', p] as const,
  ofSite: (platformId: number | undefined) => ['terminals', 'all', platformId ?? null] as const,
};

export const fetchTerminals = (p: TerminalListParams) => call(terminalsRoutes.list, { ...p });
/** Every terminal of the caller's scope, or of one site (pickers). */
export const fetchAllTerminals = (platformId?: number) => call(terminalsRoutes.all, { platformId }, picker);

function fields(v: TerminalFormValues) {
  return {
    platformId: v.platformId,
    name: v.name.trim(),
    serial: v.serial.trim(),
    manufacturer: blankToUndefined(v.manufacturer),
    model: blankToUndefined(v.model),
    protocolType: v.protocolType.trim(),
    port: v.port ?? undefined,
    type: blankToUndefined(v.type),
    parentId: v.parentId ?? undefined,
    status: v.status,
  };
}

export const addTerminal = (v: TerminalFormValues) => call(terminalsRoutes.add, fields(v), change);
export const editTerminal = (terminalId: number, v: TerminalFormValues) =>
  call(terminalsRoutes.edit, { terminalId, ...fields(v) }, change);
export const deleteTerminal = (terminalId: number) => call(terminalsRoutes.delete, { terminalId }, change);
export const rotateTerminalKey = (terminalId: number) => call(terminalsRoutes.rotateKey, { terminalId }, change);
