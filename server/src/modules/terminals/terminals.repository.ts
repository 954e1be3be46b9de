import { sql, type Kysely } from 'kysely';
import type { TerminalRow, TerminalStatus } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import type { Database } from '../../platform/db/schema.ts';
import { whereInScope, type DataScope } from '../../platform/auth/access.ts';
import { iso, isDbId, likePattern, orderBy } from '../../platform/db/sql.ts';

const SORTABLE: Record<string, string> = {
  name: 't.name',
  serial: 't.serial',
  manufacturer: 't.manufacturer',
  model: 't.model',
  status: 't.status',
  platformName: 'p.name',
  createdAt: 't.created_at',
};

export interface TerminalFilter {
  pageNum: number;
  pageSize: number;
  keyword?: string | undefined;
  platformId?: number | undefined;
  status?: string | undefined;
  sortField?: string | undefined;
  sortOrder?: string | undefined;
}

function base(db: Db, scope: DataScope) {
  return whereInScope(
    db.k
      .selectFrom('terminals as t')
      .innerJoin('platforms as p', 'p.id', 't.platform_id')
      .leftJoin('terminals as pt', 'pt.id', 't.parent_id'),
    scope,
    't.platform_id',
  );
}

// The key columns are never selected here: lists and answers cannot carry them.
function selectRows(db: Db, scope: DataScope) {
  return base(db, scope).select([
    't.id',
    't.platform_id',
    'p.name as platform_name',
    't.name',
    't.serial',
    't.manufacturer',
    't.model',
    't.protocol_type',
    't.port',
    't.type',
    't.parent_id',
    'pt.name as parent_name',
    't.status',
    't.key_rotated_at',
    't.created_at',
    't.updated_at',
    sql<number>`(select count(*) from devices d where d.terminal_id = t.id)`.as('device_count'),
  ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;
const present = (r: Raw): TerminalRow => ({
  terminalId: r.id,
  platformId: r.platform_id,
  platformName: r.platform_name,
  name: r.name,
  serial: r.serial,
  manufacturer: r.manufacturer,
  model: r.model,
  protocolType: r.protocol_type,
  port: r.port,
  type: r.type,
  parentId: r.parent_id,
  parentName: r.parent_name ?? null,
  status: r.status as TerminalStatus,
  deviceCount: Number(r.device_count),
  keyRotatedAt: iso(r.key_rotated_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
});

export async function listTerminals(
  db: Db,
  scope: DataScope,
  f: TerminalFilter,
): Promise<{ list: TerminalRow[]; total: number }> {
  let q = selectRows(db, scope);
  let c = base(db, scope);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    const match = sql<boolean>`(lower(t.name) like ${k} or lower(t.serial) like ${k} or lower(coalesce(t.manufacturer, '')) like ${k} or lower(coalesce(t.model, '')) like ${k})`;
    q = q.where(match);
    c = c.where(match);
  }
  if (f.platformId !== undefined) {
    q = q.where('t.platform_id', '=', isDbId(f.platformId) ? f.platformId : 0);
    c = c.where('t.platform_id', '=', isDbId(f.platformId) ? f.platformId : 0);
  }
  if (f.status) {
    q = q.where('t.status', '=', f.status);
    c = c.where('t.status', '=', f.status);
  }
  const [rows, total] = await Promise.all([
    q
      .orderBy(orderBy(SORTABLE[f.sortField ?? ''] ?? 't.id', f.sortOrder))
      .orderBy('t.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(present), total: Number(total.n) };
}

export async function allTerminals(db: Db, scope: DataScope, platformId?: number): Promise<TerminalRow[]> {
  let q = selectRows(db, scope);
  if (platformId !== undefined) q = q.where('t.platform_id', '=', isDbId(platformId) ? platformId : 0);
  return (await q.orderBy('p.name').orderBy('t.name').orderBy('t.id').execute()).map(present);
}

export async function getTerminal(db: Db, scope: DataScope, id: number): Promise<TerminalRow | undefined> {
  if (!isDbId(id)) return undefined;
  const r = await selectRows(db, scope).where('t.id', '=', id).executeTakeFirst();
  return r ? present(r) : undefined;
}

export interface TerminalWrite {
  platformId: number;
  name: string;
  serial: string;
  manufacturer?: string | undefined;
  model?: string | undefined;
  protocolType: string;
  port?: number | undefined;
  type?: string | undefined;
  parentId?: number | undefined;
  status?: TerminalStatus | undefined;
}

const columns = (w: TerminalWrite) => ({
  platform_id: w.platformId,
  name: w.name,
  serial: w.serial,
  manufacturer: w.manufacturer ?? null,
  model: w.model ?? null,
  protocol_type: w.protocolType,
  port: w.port ?? null,
  type: w.type ?? null,
  parent_id: w.parentId ?? null,
  status: w.status ?? 'normal',
});

export async function insertTerminal(db: Db, w: TerminalWrite, key: { salt: string; hash: string }): Promise<number> {
  const r = await db.k
    .insertInto('terminals')
    .values({ ...columns(w), key_salt: key.salt, key_hash: key.hash })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Updates a terminal; when it moves to another site its subordinate terminals are detached. */
export async function updateTerminal(db: Db, id: number, w: TerminalWrite, moved: boolean): Promise<void> {
  await db.k.transaction().execute(async (trx) => {
    await trx
      .updateTable('terminals')
      .set({ ...columns(w), updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    if (moved)
      await trx
        .updateTable('terminals')
        .set({ parent_id: null, updated_at: new Date() })
        .where('parent_id', '=', id)
        .execute();
  });
}

export async function deleteTerminal(db: Db, id: number): Promise<void> {
  await db.k.deleteFrom('terminals').where('id', '=', id).execute();
}

export async function setTerminalKey(db: Db, id: number, key: { salt: string; hash: string }): Promise<void> {
  await db.k
    .updateTable('terminals')
    .set({ key_salt: key.salt, key_hash: key.hash, key_rotated_at: new Date(), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** The salted key hash of a terminal (authentication only). */
export async function terminalKeyRecord(
  db: Db,
  id: number,
): Promise<{ key_salt: string; key_hash: string } | undefined> {
  if (!isDbId(id)) return undefined;
  return db.k.selectFrom('terminals').select(['key_salt', 'key_hash']).where('id', '=', id).executeTakeFirst();
}

/** Names of the devices bound to a terminal. */
export async function terminalDeviceNames(db: Db, id: number): Promise<string[]> {
  const rows = await db.k
    .selectFrom('devices')
    .select('device_name')
    .where('terminal_id', '=', id)
    .orderBy('device_name')
    .execute();
  return rows.map((r) => r.device_name);
}

/** Numbers of the devices a terminal may publish for: bound to it and to a site. */
export async function terminalDeviceNumbers(db: Kysely<Database>, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom('devices')
    .select('number')
    .where('terminal_id', '=', id)
    .where('platform_id', 'is not', null)
    .execute();
  return rows.map((r) => r.number);
}

/** The ancestors of a terminal (parent, grandparent, ...), stopping at a loop or after 100 steps. */
export async function terminalAncestors(db: Db, id: number): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from terminals where id = ${id}
      union all
      select t.id, t.parent_id, up.depth + 1 from terminals t join up on t.id = up.parent_id where up.depth < 100
    )
    select id from up where depth > 0`.execute(db.k);
  return rows.rows.map((r) => r.id);
}
