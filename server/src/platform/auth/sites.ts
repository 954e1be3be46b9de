import type { Db } from '../db/db.ts';
import { isDbId } from '../db/sql.ts';
import { whereInScope, type DataScope } from './access.ts';

/** The sites (platforms) a caller may name: checks shared by the feature modules. */

export interface Site {
  id: number;
  name: string;
  type: string;
}

/** A site within the caller's scope, or undefined when missing or foreign (the same answer). */
export async function findSite(db: Db, scope: DataScope, id: number): Promise<Site | undefined> {
  if (!isDbId(id)) return undefined;
  return whereInScope(
    db.k.selectFrom('platforms').select(['id', 'name', 'type']).where('id', '=', id),
    scope,
    'id',
  ).executeTakeFirst();
}

/** The subset of ids naming sites inside the scope. */
export async function sitesInScope(db: Db, scope: DataScope, ids: readonly number[]): Promise<Set<number>> {
  const valid = [...new Set(ids.filter((x) => isDbId(x)))];
  if (!valid.length) return new Set();
  const rows = await whereInScope(
    db.k.selectFrom('platforms').select('id').where('id', 'in', valid),
    scope,
    'id',
  ).execute();
  return new Set(rows.map((r) => r.id));
}
