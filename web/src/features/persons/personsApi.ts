import {
  PERSON_SORT_FIELDS,
  personsRoutes,
  rolesRoutes,
  type Page,
  type PersonRow,
  type RoleRow,
} from '@geosentry/contract';
import { callUntyped } from '../../shared/api.ts';
import { blankToUndefined, change, picker } from '../../shared/query.ts';
import type { PagedParams } from '../../shared/table/serverTable.ts';

export { PERSON_SORT_FIELDS };

export interface PersonListParams extends PagedParams {
  keyword?: string | undefined;
  roleId?: number | undefined;
  platformId?: number | undefined;
}

export interface PersonFormValues {
  name: string;
  phone: string;
  title?: string;
  company?: string;
  companyAddress?: string;
  email?: string;
  roleId?: number | null;
  platformIds?: number[];
}

export const personKeys = {
  all: ['persons'] as const,
  list: (p: PersonListParams) => ['persons', 'list', p] as const,
  roles: ['roles', 'all'] as const,
};

export const fetchPersons = (p: PersonListParams) => callUntyped<Page<PersonRow>>(personsRoutes.list, { ...p });
/** Every role (needs system:user), for the role picker. */
export const fetchRoles = () => callUntyped<RoleRow[]>(rolesRoutes.all, {}, { ...picker, silent: true });

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

export const addPerson = (v: PersonFormValues) => callUntyped<{ id: number }>(personsRoutes.add, fields(v), change);
export const editPerson = (id: number, v: PersonFormValues) =>
  callUntyped<null>(personsRoutes.edit, { id, ...fields(v) }, change);
export const deletePerson = (id: number) => callUntyped<null>(personsRoutes.delete, { id }, change);
