import { sql } from 'kysely';
import type { MultiStatisticRow, MultiStatisticsType } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';

// ---- monitor types of a site ----------------------------------------------------------------------------

/** Module ids bound to a site or used by its devices, with the number of its devices of each. */
export async function siteModules(db: Db, platformId: number): Promise<{ moduleId: number; deviceCount: number }[]> {
  const rows = await sql<{ module_id: number; n: number }>`
    select m.module_id, (select count(*) from devices d where d.platform_id = ${platformId} and d.module_id = m.module_id) as n
    from (
      select module_id from platform_modules where platform_id = ${platformId}
      union
      select module_id from devices where platform_id = ${platformId}
    ) m
    order by m.module_id`.execute(db.k);
  return rows.rows.map((r) => ({ moduleId: Number(r.module_id), deviceCount: Number(r.n) }));
}

export async function bindModules(db: Db, platformId: number, moduleIds: readonly number[]): Promise<void> {
  const ids = [...new Set(moduleIds)];
  if (!ids.length) return;
  await db.k
    .insertInto('platform_modules')
    .values(ids.map((m) => ({ platform_id: platformId, module_id: m })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function countSiteDevicesOfModule(db: Db, platformId: number, moduleId: number): Promise<number> {
  const r = await db.k
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('platform_id', '=', platformId)
    .where('module_id', '=', moduleId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function unbindModule(db: Db, platformId: number, moduleId: number): Promise<void> {
  await db.k
    .deleteFrom('platform_modules')
    .where('platform_id', '=', platformId)
    .where('module_id', '=', moduleId)
    .execute();
}

// ---- multi-module statistics ----------------------------------------------------------------------------

const SORTABLE: Record<string, string> = {
  multiName: 'm.multi_name',
  multiStatisticsType: 'm.multi_statistics_type',
  platformName: 'p.name',
  createdAt: 'm.created_at',
};

function base(db: Db, scope: DataScope) {
  return whereInScope(
    db.k.selectFrom('multi_statistics as m').innerJoin('platforms as p', 'p.id', 'm.platform_id'),
    scope,
    'm.platform_id',
  );
}

function selectRows(db: Db, scope: DataScope) {
  return base(db, scope).select([
    'm.sid',
    'm.platform_id',
    'p.name as platform_name',
    'm.multi_name',
    'm.multi_statistics_type',
    'm.module_id',
    'm.quantity',
    'm.created_at',
  ]);
}
type Raw = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;

async function withDevices(db: Db, rows: Raw[]): Promise<MultiStatisticRow[]> {
  const sids = rows.map((r) => r.sid);
  const members = sids.length
    ? await db.k
        .selectFrom('multi_statistic_devices as md')
        .innerJoin('devices as d', 'd.id', 'md.device_id')
        .select(['md.sid', 'd.id', 'd.device_name', 'd.number', 'd.module_id'])
        .where('md.sid', 'in', sids)
        .orderBy('md.sid')
        .orderBy('md.sort')
        .execute()
    : [];
  return rows.map((r) => ({
    sid: r.sid,
    platformId: r.platform_id,
    platformName: r.platform_name,
    multiName: r.multi_name,
    multiStatisticsType: r.multi_statistics_type as MultiStatisticsType,
    moduleId: r.module_id,
    quantity: r.quantity,
    devices: members
      .filter((m) => m.sid === r.sid)
      .map((m) => ({ deviceId: m.id, deviceName: m.device_name, number: m.number, moduleId: m.module_id })),
    createdAt: iso(r.created_at),
  }));
}

export async function listMulti(
  db: Db,
  scope: DataScope,
  f: {
    pageNum: number;
    pageSize: number;
    platformId?: number | undefined;
    keyword?: string | undefined;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: MultiStatisticRow[]; total: number }> {
  let q = selectRows(db, scope);
  let c = base(db, scope);
  if (f.platformId !== undefined) {
    const id = isDbId(f.platformId) ? f.platformId : 0;
    q = q.where('m.platform_id', '=', id);
    c = c.where('m.platform_id', '=', id);
  }
  if (f.keyword) {
    q = q.where(sql`lower(m.multi_name)`, 'like', likePattern(f.keyword));
    c = c.where(sql`lower(m.multi_name)`, 'like', likePattern(f.keyword));
  }
  const [rows, total] = await Promise.all([
    q
      .orderBy(orderBy(SORTABLE[f.sortField ?? ''] ?? 'm.sid', f.sortOrder))
      .orderBy('m.sid')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: await withDevices(db, rows), total: Number(total.n) };
}

export async function multiNames(
  db: Db,
  scope: DataScope,
  platformId?: number,
): Promise<{ sid: number; multiName: string; platformId: number }[]> {
  let q = base(db, scope).select(['m.sid', 'm.multi_name', 'm.platform_id']);
  if (platformId !== undefined) q = q.where('m.platform_id', '=', isDbId(platformId) ? platformId : 0);
  return (await q.orderBy('m.multi_name').orderBy('m.sid').execute()).map((r) => ({
    sid: r.sid,
    multiName: r.multi_name,
    platformId: r.platform_id,
  }));
}

export async function getMulti(db: Db, scope: DataScope, sid: number): Promise<MultiStatisticRow | undefined> {
  if (!isDbId(sid)) return undefined;
  const r = await selectRows(db, scope).where('m.sid', '=', sid).executeTakeFirst();
  return r ? (await withDevices(db, [r]))[0] : undefined;
}

/** How many of these ids are devices of the site. */
export async function countSiteDevices(db: Db, platformId: number, deviceIds: readonly number[]): Promise<number> {
  const ids = [...new Set(deviceIds.filter((x) => isDbId(x)))];
  if (!ids.length) return 0;
  const r = await db.k
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('platform_id', '=', platformId)
    .where('id', 'in', ids)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export interface MultiWrite {
  platformId: number;
  multiName: string;
  multiStatisticsType: MultiStatisticsType;
  moduleId?: number | undefined;
  quantity?: string | undefined;
  deviceIds: number[];
}

export async function saveMulti(db: Db, sid: number | null, w: MultiWrite): Promise<number> {
  return db.k.transaction().execute(async (trx) => {
    const cols = {
      platform_id: w.platformId,
      multi_name: w.multiName,
      multi_statistics_type: w.multiStatisticsType,
      module_id: w.moduleId ?? null,
      quantity: w.quantity ?? null,
    };
    let id: number;
    if (sid === null) {
      id = (await trx.insertInto('multi_statistics').values(cols).returning('sid').executeTakeFirstOrThrow()).sid;
    } else {
      id = sid;
      await trx
        .updateTable('multi_statistics')
        .set({ ...cols, updated_at: new Date() })
        .where('sid', '=', sid)
        .execute();
      await trx.deleteFrom('multi_statistic_devices').where('sid', '=', sid).execute();
    }
    const ids = [...new Set(w.deviceIds)];
    await trx
      .insertInto('multi_statistic_devices')
      .values(ids.map((d, i) => ({ sid: id, device_id: d, sort: i })))
      .execute();
    return id;
  });
}

export async function deleteMulti(db: Db, sid: number): Promise<void> {
  await db.k.deleteFrom('multi_statistics').where('sid', '=', sid).execute();
}
