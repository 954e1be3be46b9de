import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DataScope } from '../auth/access.ts';
import type { Database } from './schema.ts';

/** SQL helpers shared by the feature modules. */

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
