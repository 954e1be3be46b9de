import { sql, type SqlBool } from 'kysely';
import type { TsItem, TsItemCheck, TsPerson, TsPondStatus, TsProblemType, TsSite, TsState } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';
import { overdueSql } from '../../platform/rectification.ts';

/** Tailings supervision records: every read is limited to the caller's data scope by the record's site. */

const day = (column: string) => sql<string | null>`to_char(${sql.ref(column)}, 'YYYY-MM-DD')`;

const SORTABLE: Record<string, string> = {
  inspectionDate: 'r.inspection_date',
  deadline: 'r.deadline',
  platformName: 'p.name',
  state: 'r.state',
  completedDate: 'r.completed_date',
  inspector: 'r.inspector',
  problemType: 'r.problem_type',
  responsiblePerson: 'rp.name',
  createdAt: 'r.created_at',
};

export interface TsFilter {
  platformId?: number | undefined;
  state?: TsState | undefined;
  problemType?: TsProblemType | undefined;
  responsiblePersonId?: number | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  keyword?: string | undefined;
  overdue?: boolean | undefined;
}

/** The pond status: the tailings site's `status` detail. */
const pondStatus = sql<string | null>`p.details->>'status'`;

function base(db: Db, scope: DataScope, f: TsFilter) {
  let q = whereInScope(
    db.k
      .selectFrom('ts_records as r')
      .innerJoin('platforms as p', 'p.id', 'r.platform_id')
      .leftJoin('enterprises as e', 'e.id', 'p.enterprise_id')
      .leftJoin('responsible_persons as rp', 'rp.id', 'r.responsible_person_id')
      .leftJoin('users as u', 'u.id', 'r.created_by'),
    scope,
    'r.platform_id',
  );
  if (f.platformId !== undefined) q = q.where('r.platform_id', '=', isDbId(f.platformId) ? f.platformId : 0);
  if (f.state) q = q.where('r.state', '=', f.state);
  if (f.problemType) q = q.where('r.problem_type', '=', f.problemType);
  if (f.responsiblePersonId !== undefined)
    q = q.where('r.responsible_person_id', '=', isDbId(f.responsiblePersonId) ? f.responsiblePersonId : 0);
  if (f.startDate) q = q.where(sql<SqlBool>`r.inspection_date >= ${f.startDate}::date`);
  if (f.endDate) q = q.where(sql<SqlBool>`r.inspection_date <= ${f.endDate}::date`);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<SqlBool>`(lower(r.inspector) like ${k} or lower(coalesce(rp.name, '')) like ${k}
        or lower(coalesce(r.regulatory_person, '')) like ${k} or lower(coalesce(r.findings, '')) like ${k}
        or lower(coalesce(r.requirement, '')) like ${k} or lower(coalesce(r.result, '')) like ${k}
        or lower(p.name) like ${k})`,
    );
  }
  if (f.overdue === true) q = q.where(sql<SqlBool>`${overdueSql('r')}`);
  if (f.overdue === false) q = q.where(sql<SqlBool>`not ${overdueSql('r')}`);
  return q;
}

function selectRows(db: Db, scope: DataScope, f: TsFilter = {}) {
  return base(db, scope, f).select([
    'r.id',
    'r.platform_id',
    'p.name as platform_name',
    'p.enterprise_id',
    'e.name as enterprise_name',
    pondStatus.as('pond_status'),
    day('r.inspection_date').as('inspection_date'),
    'r.inspector',
    'r.problem_type',
    'r.responsible_person_id',
    'rp.name as responsible_name',
    'rp.phone as responsible_phone',
    'r.regulatory_person',
    'r.items',
    'r.dry_beach_length',
    'r.findings',
    'r.requirement',
    day('r.deadline').as('deadline'),
    'r.state',
    overdueSql('r').as('overdue'),
    day('r.completed_date').as('completed_date'),
    'r.result',
    'r.attachments',
    'r.result_attachments',
    'u.name as created_by_name',
    'r.created_at',
    'r.updated_at',
  ]);
}

export interface TsRaw {
  id: number;
  platformId: number;
  platformName: string;
  enterpriseId: number | null;
  enterpriseName: string | null;
  pondStatus: TsPondStatus | null;
  inspectionDate: string;
  inspector: string;
  problemType: TsProblemType | null;
  responsiblePersonId: number | null;
  responsiblePerson: string | null;
  responsiblePhone: string | null;
  regulatoryPerson: string | null;
  items: Record<TsItem, TsItemCheck>;
  dryBeachLength: number | null;
  findings: string | null;
  requirement: string | null;
  deadline: string | null;
  state: TsState;
  overdue: boolean;
  completedDate: string | null;
  result: string | null;
  attachments: string[];
  resultAttachments: string[];
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

const fileIds = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);

type Raw = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): TsRaw => ({
  id: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  enterpriseId: r.enterprise_id,
  enterpriseName: r.enterprise_name ?? null,
  pondStatus: (r.pond_status ?? null) as TsPondStatus | null,
  inspectionDate: r.inspection_date ?? '',
  inspector: r.inspector,
  problemType: (r.problem_type ?? null) as TsProblemType | null,
  responsiblePersonId: r.responsible_person_id,
  responsiblePerson: r.responsible_name ?? null,
  responsiblePhone: r.responsible_phone ?? null,
  regulatoryPerson: r.regulatory_person,
  items: (r.items ?? {}) as Record<TsItem, TsItemCheck>,
  dryBeachLength: r.dry_beach_length,
  findings: r.findings,
  requirement: r.requirement,
  deadline: r.deadline,
  state: r.state as TsState,
  overdue: r.overdue === true,
  completedDate: r.completed_date,
  result: r.result,
  attachments: fileIds(r.attachments),
  resultAttachments: fileIds(r.result_attachments),
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
  problemType?: TsProblemType | undefined;
  items: Record<TsItem, TsItemCheck>;
  dryBeachLength?: number | undefined;
  findings?: string | undefined;
  requirement?: string | undefined;
  deadline?: string | undefined;
  attachments: string[];
  responsiblePersonId?: number | undefined;
  regulatoryPerson?: string | undefined;
  state: TsState;
  completedDate?: string | undefined;
  result?: string | undefined;
  resultAttachments: string[];
}

const columns = (w: TsWrite) => ({
  platform_id: w.platformId,
  inspection_date: w.inspectionDate,
  inspector: w.inspector,
  problem_type: w.problemType ?? null,
  items: JSON.stringify(w.items),
  dry_beach_length: w.dryBeachLength ?? null,
  findings: w.findings ?? null,
  requirement: w.requirement ?? null,
  deadline: w.deadline ?? null,
  attachments: JSON.stringify(w.attachments),
  responsible_person_id: w.responsiblePersonId ?? null,
  regulatory_person: w.regulatoryPerson ?? null,
  state: w.state,
  completed_date: w.state === 'completed' ? (w.completedDate ?? null) : null,
  result: w.result ?? null,
  result_attachments: JSON.stringify(w.resultAttachments),
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

export interface TsRectification {
  completedDate: string;
  result?: string | undefined;
  resultAttachments?: string[] | undefined;
}

export async function setRectified(db: Db, id: number, r: TsRectification): Promise<void> {
  await db.k
    .updateTable('ts_records')
    .set({
      state: 'completed',
      completed_date: r.completedDate,
      ...(r.result !== undefined ? { result: r.result } : {}),
      ...(r.resultAttachments !== undefined ? { result_attachments: JSON.stringify(r.resultAttachments) } : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteTs(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('ts_records').where('id', '=', id).execute();
}

/** The tailings sites within the scope, by name. */
export async function tailingsSites(db: Db, scope: DataScope): Promise<TsSite[]> {
  const rows = await whereInScope(
    db.k
      .selectFrom('platforms as p')
      .leftJoin('enterprises as e', 'e.id', 'p.enterprise_id')
      .select(['p.id', 'p.name', 'p.enterprise_id', 'e.name as enterprise_name', pondStatus.as('pond_status')])
      .where('p.type', '=', 'tailings'),
    scope,
    'p.id',
  )
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    platformId: r.id,
    name: r.name,
    enterpriseId: r.enterprise_id,
    enterpriseName: r.enterprise_name ?? null,
    pondStatus: (r.pond_status ?? null) as TsPondStatus | null,
  }));
}

/**
 * The responsible persons who may be chosen for a site's records: bound to that site or to no site (with
 * no site given: those visible to the scope, i.e. bound to no site or to one of its sites). By name.
 */
export async function choosablePersons(db: Db, scope: DataScope, platformId?: number): Promise<TsPerson[]> {
  const bound = (ids: readonly number[]) =>
    sql<SqlBool>`exists (select 1 from person_platforms pp where pp.person_id = rp.id and pp.platform_id in (${sql.join(
      ids.map((x) => sql`${x}`),
    )}))`;
  const unbound = sql<SqlBool>`not exists (select 1 from person_platforms pp where pp.person_id = rp.id)`;
  let q = db.k.selectFrom('responsible_persons as rp').select(['rp.id', 'rp.name', 'rp.phone', 'rp.title']);
  if (platformId !== undefined) q = q.where(sql<SqlBool>`(${unbound} or ${bound([platformId])})`);
  else if (!scope.all)
    q = q.where(scope.platformIds.length ? sql<SqlBool>`(${unbound} or ${bound(scope.platformIds)})` : unbound);
  return q.orderBy('rp.name').orderBy('rp.id').execute();
}
