// The persons feature's contract: responsible persons (spec §3).
import { z } from 'zod';
import { pageQuery, zInt, zIntList, zOptText, zPage, zText } from '../api/zod.ts';
import { perm, routeTable } from '../api/routes.ts';
import { optEmail, optInt, PHONE_PATTERN } from '../devices/fields.ts';

/**
 * A responsible person. Phone and email must be well formed (spec §5). roleId: the role the person is
 * listed under (getListByRoleId); defaults to the caller's role. platformIds: the sites the person is
 * responsible for; a person without sites is visible in every data scope.
 */
export const personFields = {
  name: zText(100),
  phone: z.string().trim().regex(PHONE_PATTERN),
  title: zOptText(100),
  company: zOptText(200),
  companyAddress: zOptText(300),
  email: optEmail(),
  roleId: optInt(),
  platformIds: zIntList().optional().default([]),
};
export const personAddBody = z.object(personFields);
export const personEditBody = z.object({ id: zInt(), ...personFields });
export const personIdBody = z.object({ id: zInt() });
export const PERSON_SORT_FIELDS = ['name', 'phone', 'title', 'company', 'createdAt'] as const;
/** Default page size 10000 (spec §9). */
export const personListQuery = pageQuery(10000).extend({
  keyword: zOptText(100),
  roleId: optInt(),
  platformId: optInt(),
});
export const personRoleQuery = z.object({ roleId: optInt() });

export const personRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  title: z.string().nullable(),
  company: z.string().nullable(),
  companyAddress: z.string().nullable(),
  email: z.string().nullable(),
  roleId: z.number().int().nullable(),
  roleName: z.string().nullable(),
  /** The person's sites within the caller's data scope. */
  platformIds: z.array(z.number().int()),
  createdAt: z.string(),
});
export type PersonRow = z.output<typeof personRowSchema>;

const tags = ['persons'];
const R = '/api/v2/data/information/responsible';
const P = perm('information:responsible');
export const personsRoutes = routeTable({
  list: {
    method: 'GET',
    path: `${R}/getListPage`,
    permission: P,
    summary: 'Responsible persons, paged (default 10000), filtered and sorted',
    tags,
    query: personListQuery,
    response: zPage(personRowSchema),
  },
  listByRole: {
    method: 'GET',
    path: `${R}/getListByRoleId`,
    permission: P,
    summary: "Responsible persons listed under a role (default: the caller's role)",
    tags,
    query: personRoleQuery,
    response: z.array(personRowSchema),
  },
  add: {
    method: 'POST',
    path: `${R}/add`,
    permission: P,
    summary: 'Add a responsible person',
    tags,
    body: personAddBody,
    response: z.object({ id: z.number().int() }),
  },
  edit: {
    method: 'POST',
    path: `${R}/edit`,
    permission: P,
    summary: 'Edit a responsible person',
    tags,
    body: personEditBody,
    response: z.null(),
  },
  delete: {
    method: 'POST',
    path: `${R}/delete`,
    permission: P,
    summary: 'Delete a responsible person',
    tags,
    body: personIdBody,
    response: z.null(),
  },
});
