import { sql, type SqlBool } from 'kysely';
import type { TsItem, TsItemCheck, TsSite, TsState } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, isDbId, likePattern, orderBy } from '../devices/common.ts';

/** Tailings supervision records: every read is limited to the caller's data scope by the record's site. */

const day = (column: string) => sql<string | null>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

const SORTABLE: Record<string, string> = {
  inspectionDate: 'r.inspection_date',
  deadline: 'r.deadline',
  platformName: 'p.name',
  state: 'r.state',
  completedDate: 'r.completed_date',
  inspector: 'r.inspector',
  createdAt: 'r.created_at',
};

export interface TsFilter {
  platformId?: number | undefined;
  state?: TsState | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  keyword?: string | undefined;
  overdue?: boolean | undefined;
}

/** Today's date (yyyy-MM-dd) by the database's clock, UTC. */
const today = sql<string>`(now() at time zone 'utc')::date`;

function base(db: Db, scope: DataScope, f: TsFilter) {
  let q = whereInScope(
    db.k
      .selectFrom('ts_records as r')
      .innerJoin('platforms as p', 'p.id', 'r.platform_id')
      .leftJoin('enterprises as e', 'e.id', 'p.enterprise_id')
      .leftJoin('users as u', 'u.id', 'r.created_by'),
    scope,
    'r.platform_id',
  );
  if (f.platformId !== undefined) q = q.where('r.platform_id', '=', isDbId(f.platformId) ? f.platformId : 0);
  if (f.state) q = q.where('r.state', '=', f.state);
  if (f.startDate) q = q.where(sql<SqlBool>`r.inspection_date >= ${f.startDate}::date`);
  if (f.endDate) q = q.where(sql<SqlBool>`r.inspection_date <= ${f.endDate}::date`);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<SqlBool>`(lower(r.inspector) like ${k} or lower(coalesce(r.responsible_person, '')) like ${k}
        or lower(coalesce(r.findings, '')) like ${k} or lower(coalesce(r.requirement, '')) like ${k}
        or lower(p.name) like ${k})`,
    );
  }
  if (f.overdue === true)
    q = q.where(sql<SqlBool>`(r.state = 'incomplete' and r.deadline is not null and r.deadline < ${today})`);
  if (f.overdue === false)
    q = q.where(sql<SqlBool>`not (r.state = 'incomplete' and r.deadline is not null and r.deadline < ${today})`);
  return q;
}

function selectRows(db: Db, scope: DataScope, f: TsFilter = {}) {
  return base(db, scope, f).select([
    'r.id',
    'r.platform_id',
    'p.name as platform_name',
    'e.name as enterprise_name',
    day('r.inspection_date').as('inspection_date'),
    'r.inspector',
    'r.responsible_person',
    'r.items',
    'r.dry_beach_length',
    'r.findings',
    'r.requirement',
    day('r.deadline').as('deadline'),
    'r.state',
    sql<boolean>`(r.state = 'incomplete' and r.deadline is not null and r.deadline < ${today})`.as('overdue'),
    day('r.completed_date').as('completed_date'),
    'r.completion_note',
    'r.attachments',
    'u.name as created_by_name',
    'r.created_at',
    'r.updated_at',
  ]);
}

export interface TsRaw {
  id: number;
  platformId: number;
  platformName: string;
  enterpriseName: string | null;
  inspectionDate: string;
  inspector: string;
  responsiblePerson: string | null;
  items: Record<TsItem, TsItemCheck>;
  dryBeachLength: number | null;
  findings: string | null;
  requirement: string | null;
  deadline: string | null;
  state: TsState;
  overdue: boolean;
  completedDate: string | null;
  completionNote: string | null;
  attachments: string[];
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): TsRaw => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  enterpriseName: r.enterprise_name ?? null,
  inspectionDate: r.inspection_date ?? '',
  inspector: r.inspector,
  responsiblePerson: r.responsible_person,
  items: (r.items ?? {}) as Record<TsItem, TsItemCheck>,
  dryBeachLength: r.dry_beach_length,
  findings: r.findings,
  requirement: r.requirement,
  deadline: r.deadline,
  state: r.state as TsState,
  overdue: r.overdue === true,
  completedDate: r.completed_date,
  completionNote: r.completion_note,
  attachments: Array.isArray(r.attachments) ? (r.attachments as string[]) : [],
  createdBy: r.created_by_name ?? null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export async function listTs(
  db: Db,
  scope: DataScope,
  f: TsFilter & { pageNum: number; pageSize: number; sortField?: string | undefined; sortOrder?: string | undefined },
): Promise<{ list: TsRaw[]; total: number }> {
  const col = SORTABLE[f.sortField ?? ''];
  const [rows, total] = await Promise.all([
    selectRows(db, scope, f)
      .orderBy(col ? orderBy(col, f.sortOrder) : sql`r.inspection_date desc`)
      .orderBy('r.id', 'desc')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    base(db, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

/** One record within the scope; a foreign one answers undefined, like a missing one. */
export async function getTs(db: Db, scope: DataScope, id: number): Promise<TsRaw | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await selectRows(db, scope).where('r.id', '=', id).executeTakeFirst();
  return r ? present(r) : undefined;
}

export interface TsWrite {
  platformId: number;
  inspectionDate: string;
  inspector: string;
  responsiblePerson?: string | undefined;
  items: Record<TsItem, TsItemCheck>;
  dryBeachLength?: number | undefined;
  findings?: string | undefined;
  requirement?: string | undefined;
  deadline?: string | undefined;
  state: TsState;
  completedDate?: string | undefined;
  completionNote?: string | undefined;
  attachments: string[];
}

const columns = (w: TsWrite) => ({
  platform_id: w.platformId,
  inspection_date: w.inspectionDate,
  inspector: w.inspector,
  responsible_person: w.responsiblePerson ?? null,
  items: JSON.stringify(w.items),
  dry_beach_length: w.dryBeachLength ?? null,
  findings: w.findings ?? null,
  requirement: w.requirement ?? null,
  deadline: w.deadline ?? null,
  state: w.state,
  completed_date: w.state === 'completed' ? (w.completedDate ?? null) : null,
  completion_note: w.completionNote ?? null,
  attachments: JSON.stringify(w.attachments),
});

export async function insertTs(db: Db, w: TsWrite, userId: number): Promise<number> {
  const r = await db.k
    .insertInto('ts_records')
    .values({ ...columns(w), created_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function updateTs(db: Db, id: number, w: TsWrite): Promise<void> {
  await db.k
    .updateTable('ts_records')
    .set({ ...columns(w), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

export async function setRectified(db: Db, id: number, completedDate: string, note: string | undefined): Promise<void> {
  await db.k
    .updateTable('ts_records')
    .set({
      state: 'completed',
      completed_date: completedDate,
      ...(note !== undefined ? { completion_note: note } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteTs(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('ts_records').where('id', '=', id).execute();
}

/** Today's date by the database clock (UTC), yyyy-MM-dd: dates are checked against it. */
export async function todayOf(db: Db): Promise<string> {
  const r = await sql<{ d: string }>`select to_char(${today}, 'YYYY-MM-DD') as d`.execute(db.k);
  return r.rows[0]!.d;
}

/** The tailings sites within the scope, by name. */
export async function tailingsSites(db: Db, scope: DataScope): Promise<TsSite[]> {
  const rows = await whereInScope(
    db.k
      .selectFrom('platforms as p')
      .leftJoin('enterprises as e', 'e.id', 'p.enterprise_id')
      .select(['p.id', 'p.name', 'e.name as enterprise_name'])
      .where('p.type', '=', 'tailings'),
    scope,
    'p.id',
  )
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({ platformId: r.id, name: r.name, enterpriseName: r.enterprise_name ?? null }));
}
