import type { z } from 'zod';
import { PERSON_SORT_FIELDS, personAddBody, personListQuery, personsRoutes, rolesRoutes } from '@geosentry/contract';
import { call } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';

export { PERSON_SORT_FIELDS };

/** The list's query as the page holds it (the contract's, with paging given). */
export type PersonListParams = z.output<typeof personListQuery>;

/** The person form's values: the contract's body, a cleared role picker giving null and the sites optional. */
export type PersonFormValues = Omit<z.output<typeof personAddBody>, 'roleId' | 'platformIds'> & {
  roleId?: number | null;
  platformIds?: number[];
};

export const personKeys = {
  all: ['persons'] as const,
  list: (p: PersonListParams) => ['persons', 'list', p] as const,
  roles: ['roles', 'all'] as const,
};

export const fetchPersons = (p: PersonListParams) => call(personsRoutes.list, { ...p });
/** Every role (needs system:user), for the role picker. */
export const fetchRoles = () => call(rolesRoutes.all, {}, { ...picker, silent: true });

function fields(v: PersonFormValues) {
  return {
    name: v.name.trim(),
    phone: v.phone.trim(),
    title: blankToUndefined(v.title),
    company: blankToUndefined(v.company),
    companyAddress: blankToUndefined(v.companyAddress),
    email: blankToUndefined(v.email),
    roleId: v.roleId ?? undefined,
    // An empty list is sent as an empty text: the person is then bound to no site.
    platformIds: (v.platformIds ?? []).join(','),
  };
}

export const addPerson = (v: PersonFormValues) => call(personsRoutes.add, fields(v), change);
export const editPerson = (id: number, v: PersonFormValues) => call(personsRoutes.edit, { id, ...fields(v) }, change);
export const deletePerson = (id: number) => call(personsRoutes.delete, { id }, change);
