// Fixtures shared by the site registry's tests (sites, regions, enterprises, sections).
import { sql } from 'kysely';
import { buildUser, type TestApp } from '../../../test/harness.ts';

export const SITE = '/api/v2/data/information/platform';
export const REGION = '/api/v2/data/information/region';
export const ENTERPRISE = '/api/v2/data/information/enterprise';
export const SEGMENT = '/api/v2/data/information/segment';

/** Creates a role holding these permission codes. */
export async function roleWith(t: TestApp, admin: string, code: string, permissionCodes: string[]): Promise<void> {
  const add = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
    token: admin,
    body: { name: code, code },
  });
  if (add.status !== 0) throw new Error(`add role failed: ${add.info}`);
  const tree = await t.api<{ id: number; code: string; children?: { id: number; code: string }[] }[]>(
    'GET',
    '/api/v2/manage/permission/getTree',
    { token: admin },
  );
  const all = tree.data.flatMap((x) => [x, ...(x.children ?? [])]);
  const ids = permissionCodes.map((c) => {
    const p = all.find((x) => x.code === c);
    if (!p) throw new Error(`no permission ${c}`);
    return p.id;
  });
  const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
    token: admin,
    body: { roleId: add.data.id, permissionIds: ids },
  });
  if (set.status !== 0) throw new Error(`set permissions failed: ${set.info}`);
}

/** A user of a role limited to some sites; returns their token. */
export async function scopedUser(
  t: TestApp,
  admin: string,
  account: string,
  roleCode: string,
  platformIds: number[],
): Promise<string> {
  const password = 'Scoped-user-pass-1';
  await buildUser(t, admin, { account, password, roleCode, platformIds });
  return t.token(account, password);
}

/** Adds a site through the API; throws unless it succeeds. */
export async function addSite(t: TestApp, token: string, type: string, body: Record<string, unknown>): Promise<number> {
  const r = await t.api<{ platformId: number }>('POST', `${SITE}/${type}/add`, { token, body });
  if (r.status !== 0) throw new Error(`add site failed: ${r.status} ${r.info}`);
  return r.data.platformId;
}

export const BRIDGE_DETAILS = { code: 'G5-K1203', custodyUnit: 'Highway Bureau', bridgeType: 'beam' };

/**
 * Adds a device of a monitor type to a site straight into the devices table. Before the equipment
 * migration lands there is no such table: a minimal stand-in with the same columns is made.
 */
export async function addDevice(t: TestApp, platformId: number, moduleId: number, name: string): Promise<number> {
  await sql`create table if not exists devices (
    id serial primary key, device_name text not null, number text not null,
    module_id smallint not null, platform_id integer references platforms(id) on delete set null)`.execute(t.db.k);
  const r = await sql<{ id: number }>`insert into devices (device_name, number, module_id, platform_id)
    values (${name}, ${`N-${name}`}, ${moduleId}, ${platformId}) returning id`.execute(t.db.k);
  return Number(r.rows[0]!.id);
}

/** A snapshot of a table, to show that a refused call changed nothing. */
export async function snapshot(t: TestApp, table: string): Promise<unknown[]> {
  return (await sql`select * from ${sql.table(table)} order by 1`.execute(t.db.k)).rows;
}
