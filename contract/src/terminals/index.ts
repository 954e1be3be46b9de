// The terminals feature's contract: schemas, route table, catalogues.
import { z } from 'zod';
import { pageQuery, zInt, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { optEnum, optInt, portNumber } from '../devices/fields.ts';

/** Terminal status (spec §4). */
export const TERMINAL_STATUSES = ['normal', 'vibration', 'collapse'] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

/** Suggested protocol types (free text, required). */
export const TERMINAL_PROTOCOL_SUGGESTIONS = ['MQTT', 'HTTP', 'Modbus-RTU', 'Modbus-TCP', 'TCP', 'UDP'] as const;

/**
 * The fields of a terminal (data logger, spec §3). `serial` is the terminal's own id (spec "id"), unique.
 * The key is never sent by the client: the server makes it, shows it once, and keeps only a salted hash.
 */
export const terminalFields = {
  platformId: zInt(),
  name: zText(100),
  serial: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.:-]+$/),
  manufacturer: zOptText(100),
  model: zOptText(100),
  protocolType: zText(50),
  port: optInt(portNumber()),
  type: zOptText(50),
  /** Subordinate terminal: the parent terminal (same site). */
  parentId: optInt(),
  status: optEnum(TERMINAL_STATUSES),
};
export const terminalAddBody = z.object(terminalFields);
export const terminalEditBody = z.object({ terminalId: zInt(), ...terminalFields });
export const terminalIdBody = z.object({ terminalId: zInt() });

export const TERMINAL_SORT_FIELDS = [
  'name',
  'serial',
  'manufacturer',
  'model',
  'status',
  'platformName',
  'createdAt',
] as const;
export const terminalListQuery = pageQuery().extend({
  keyword: zOptText(100),
  platformId: optInt(),
  status: optEnum(TERMINAL_STATUSES),
});
export const terminalAllQuery = z.object({ platformId: optInt() });
export const terminalRoleQuery = z.object({ roleId: optInt() });

/** A terminal as lists show it: never its key. */
export const terminalRowSchema = z.object({
  terminalId: z.number().int(),
  platformId: z.number().int(),
  platformName: z.string(),
  name: z.string(),
  serial: z.string(),
  manufacturer: z.string().nullable(),
  model: z.string().nullable(),
  protocolType: z.string(),
  port: z.number().int().nullable(),
  type: z.string().nullable(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  status: z.enum(TERMINAL_STATUSES),
  deviceCount: z.number().int(),
  keyRotatedAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TerminalRow = z.output<typeof terminalRowSchema>;

/** The answer of add and rotateKey: the key, shown this once (the server keeps only a salted hash). */
export const terminalKeyAnswerSchema = z.object({ terminalId: z.number().int(), key: z.string() });
export type TerminalKeyAnswer = z.output<typeof terminalKeyAnswerSchema>;

const tags = ['terminals'];
const T = '/api/v2/data/information/terminal';
const P = perm('information:terminal');
export const terminalsRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${T}/getListPage`,
    permission: P,
    summary: "Terminals in the caller's data scope, paged, filtered and sorted",
    tags,
    query: terminalListQuery,
    response: zPage(terminalRowSchema),
  },
  all: {
    method: 'GET',
    path: `${T}/getAll`,
    // Also the terminal picker of the monitoring device screen.
    permission: perm('information:terminal', 'information:device'),
    summary: "Every terminal in the caller's data scope (optionally of one site)",
    tags,
    query: terminalAllQuery,
    response: z.array(terminalRowSchema),
  },
  listByRole: {
    method: 'GET',
    path: `${T}/getListByRoleId`,
    permission: P,
    summary: "Terminals of the sites in the caller's data scope (roleId accepted for compatibility)",
    tags,
    query: terminalRoleQuery,
    response: z.array(terminalRowSchema),
  },
  add: {
    method: 'POST',
    path: `${T}/add`,
    permission: P,
    summary: 'Add a terminal; the answer carries its key, shown this once',
    tags,
    body: terminalAddBody,
    response: terminalKeyAnswerSchema,
  },
  edit: {
    method: 'POST',
    path: `${T}/edit`,
    permission: P,
    summary: 'Edit a terminal (its key is unchanged)',
    tags,
    body: terminalEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${T}/delete`,
    permission: P,
    summary: 'Delete a terminal (refused while devices are bound to it)',
    tags,
    body: terminalIdBody,
    response: z.null(),
  },
  rotateKey: {
    method: 'POST',
    path: `${T}/rotateKey`,
    permission: P,
    summary: 'Issue a new key (shown this once); the old key stops working',
    tags,
    body: terminalIdBody,
    response: terminalKeyAnswerSchema,
  },
});
