import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DataScope } from '../auth/access.ts';
import type { Database } from './schema.ts';

/** SQL helpers shared by the feature modules. */

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

/**
 * A text column's natural sort key as SQL (for orderBy): every run of digits padded to 10, so "Camera 2" comes
 * before "Camera 10" as a person expects. Case-insensitive; not indexable, for lists of hundreds to thousands.
 */
export function naturalKey(column: string): string {
  return `regexp_replace(regexp_replace(lower(${column}), '([0-9]+)', '0000000000\\1', 'g'), '0*([0-9]{10})', '\\1', 'g')`;
}

/** A JSON column as read: PGlite answers it parsed, some drivers as text. */
export const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

/** `column in scope` as a SQL condition (for raw aggregates). */
export function scopeSql(scope: DataScope, column: string): RawBuilder<boolean> {
  if (scope.all) return sql<boolean>`true`;
  if (scope.platformIds.length === 0) return sql<boolean>`false`;
  return sql<boolean>`${sql.ref(column)} = any(${[...scope.platformIds]}::int[])`;
}

/** A query executor: the app's handle or a transaction of the caller. */
export type Exec = Kysely<Database>;

/** The paging and sort of a list query. */
export interface Paging {
  pageNum: number;
  pageSize: number;
  sortField?: string | undefined;
  sortOrder?: string | undefined;
}

/** A list of integers as SQL parameters (`in (${ids(xs)})`). */
export const ids = (xs: readonly number[]): RawBuilder<unknown> => sql.join(xs.map((x) => sql`${x}`));
