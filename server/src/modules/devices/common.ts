import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';

/** Helpers shared by the equipment modules (devices, terminals, monitor types, persons, external files). */

/** A LIKE pattern matching the text anywhere, case-insensitively (compare with lower(column)). */
export const likePattern = (s: string): string => `%${s.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/** Ids are PostgreSQL integers: anything else cannot exist (and must not reach the database as a parameter). */
export const isDbId = (n: number | null | undefined): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 2147483647;

export const isoOrNull = (d: Date | string | null | undefined): string | null => (d ? new Date(d).toISOString() : null);
export const iso = (d: Date | string): string => new Date(d).toISOString();

/** ORDER BY of an allow-listed column: `nulls last`, then the given tie-breaker. */
export function orderBy(column: string, order: string | undefined): RawBuilder<unknown> {
  return sql`${sql.raw(column)} ${order === 'descend' ? sql`desc` : sql`asc`} nulls last`;
}

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
