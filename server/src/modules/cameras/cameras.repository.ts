import { sql, type SqlBool } from 'kysely';
import type { Camera, CameraGroupNode, CameraType, CameraVendor } from '@geosentry/contract';
import type { Db } from '../../platform/db/db.ts';
import { isSuperAdmin, whereInScope, type SessionUser } from '../../platform/auth/access.ts';
import { iso, isDbId, likePattern, naturalKey, orderBy } from '../../platform/db/sql.ts';
import { cam } from './cameras.tables.ts';
import { givesSubStream } from './cameras.rtsp.ts';

/**
 * Camera SQL. Every read of cameras goes through `visible(...)`: the caller's data scope (the camera's site) and his
 * role's camera configuration (restricted roles see the cameras of their groups, with the groups below, and their
 * single cameras). A camera outside either answers like a missing one.
 */

/** The role camera configuration's part of visibility, on `c` (cameras) and `g` (its group). */
const roleSees = (roleId: number) =>
  sql<SqlBool>`(not exists (select 1 from camera_role_config rc where rc.role_id = ${roleId} and rc.restricted)
    or exists (select 1 from camera_role_config rc where rc.role_id = ${roleId}
      and (c.id = any(rc.camera_ids) or g.path && rc.group_ids)))`;

export function visible(db: Db, user: SessionUser) {
  const q = whereInScope(
    cam(db)
      .selectFrom('cameras as c')
      .innerJoin('camera_groups as g', 'g.id', 'c.group_id')
      .innerJoin('platforms as p', 'p.id', 'c.platform_id'),
    user.scope,
    'c.platform_id',
  );
  return isSuperAdmin(user) ? q : q.where(roleSees(user.roleId));
}

export interface RoleConfigRow {
  restricted: boolean;
  groupIds: number[];
  cameraIds: number[];
}

export async function roleConfig(db: Db, roleId: number): Promise<RoleConfigRow> {
  const r = await cam(db)
    .selectFrom('camera_role_config')
    .select(['restricted', 'group_ids', 'camera_ids'])
    .where('role_id', '=', roleId)
    .executeTakeFirst();
  return { restricted: r?.restricted ?? false, groupIds: r?.group_ids ?? [], cameraIds: r?.camera_ids ?? [] };
}

/** The caller's own configuration (a super administrator is never restricted). */
export async function callerConfig(db: Db, user: SessionUser): Promise<RoleConfigRow> {
  if (isSuperAdmin(user)) return { restricted: false, groupIds: [], cameraIds: [] };
  return roleConfig(db, user.roleId);
}

export async function saveRoleConfig(db: Db, roleId: number, c: RoleConfigRow): Promise<void> {
  await cam(db)
    .insertInto('camera_role_config')
    .values({ role_id: roleId, restricted: c.restricted, group_ids: c.groupIds, camera_ids: c.cameraIds })
    .onConflict((oc) =>
      oc.column('role_id').doUpdateSet({
        restricted: c.restricted,
        group_ids: c.groupIds,
        camera_ids: c.cameraIds,
        updated_at: sql`now()`,
      }),
    )
    .execute();
}

export interface GroupRow {
  id: number;
  parentId: number | null;
  name: string;
  level: number;
  path: number[];
  sort: number;
}

export async function allGroups(db: Db): Promise<GroupRow[]> {
  const rows = await cam(db)
    .selectFrom('camera_groups')
    .select(['id', 'parent_id', 'name', 'level', 'path', 'sort'])
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    parentId: r.parent_id,
    name: r.name,
    level: r.level,
    path: r.path,
    sort: Number(r.sort),
  }));
}

export async function getGroup(db: Db, id: number): Promise<GroupRow | undefined> {
  if (!isDbId(id)) return undefined;
  return (await allGroups(db)).find((g) => g.id === id);
}

/** Visible cameras per group (the group itself). */
export async function visibleCountsByGroup(db: Db, user: SessionUser): Promise<Map<number, number>> {
  const rows = await visible(db, user)
    .select(['c.group_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('c.group_id')
    .execute();
  return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
}

export async function insertGroup(db: Db, g: { name: string; parent: GroupRow | null; sort: number }): Promise<number> {
  return cam(db)
    .transaction()
    .execute(async (tx) => {
      const r = await tx
        .insertInto('camera_groups')
        .values({ name: g.name, parent_id: g.parent?.id ?? null, level: (g.parent?.level ?? 0) + 1, sort: g.sort })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .updateTable('camera_groups')
        .set({ path: [...(g.parent?.path ?? []), r.id] })
        .where('id', '=', r.id)
        .execute();
      return r.id;
    });
}

export async function updateGroup(db: Db, id: number, name: string, sort: number | undefined): Promise<void> {
  await cam(db)
    .updateTable('camera_groups')
    .set({ name, ...(sort !== undefined ? { sort } : {}), updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Cameras in the group or below it: all of them, and those the caller sees. */
export async function groupCameraCounts(
  db: Db,
  user: SessionUser,
  groupId: number,
): Promise<{ all: number; visible: number }> {
  const [all, vis] = await Promise.all([
    cam(db)
      .selectFrom('cameras as c')
      .innerJoin('camera_groups as g', 'g.id', 'c.group_id')
      .where(sql<SqlBool>`${groupId} = any(g.path)`)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    visible(db, user)
      .where(sql<SqlBool>`${groupId} = any(g.path)`)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { all: Number(all.n), visible: Number(vis.n) };
}

/** Deletes a group with the groups below, their cameras and snapshots; answers the snapshot files to remove. */
export async function deleteGroup(
  db: Db,
  groupId: number,
): Promise<{ groups: number; cameras: number; snapshots: { id: number; cameraId: number; platformId: number }[] }> {
  return cam(db)
    .transaction()
    .execute(async (tx) => {
      const snaps = await tx
        .selectFrom('camera_snapshots as s')
        .innerJoin('cameras as c', 'c.id', 's.camera_id')
        .innerJoin('camera_groups as g', 'g.id', 'c.group_id')
        .where(sql<SqlBool>`${groupId} = any(g.path)`)
        .select(['s.id', 's.camera_id', 's.platform_id'])
        .execute();
      const cams = await tx
        .selectFrom('cameras as c')
        .innerJoin('camera_groups as g', 'g.id', 'c.group_id')
        .where(sql<SqlBool>`${groupId} = any(g.path)`)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      const groups = await tx
        .deleteFrom('camera_groups')
        .where(sql<SqlBool>`${groupId} = any(path)`)
        .executeTakeFirst();
      return {
        groups: Number(groups.numDeletedRows),
        cameras: Number(cams.n),
        snapshots: snaps.map((s) => ({ id: s.id, cameraId: s.camera_id, platformId: s.platform_id })),
      };
    });
}

const SORTABLE: Record<string, string> = {
  name: naturalKey('c.name'),
  platformName: naturalKey('p.name'),
  groupName: naturalKey('g.name'),
  channel: 'c.channel',
  vendor: 'c.vendor',
  createdAt: 'c.created_at',
};

export interface CameraFilter {
  groupId?: number | undefined;
  platformId?: number | undefined;
  vendor?: string | undefined;
  keyword?: string | undefined;
  ids?: number[] | undefined;
}

/** A camera with what the service needs and never answers (the encrypted VM password). */
export type CameraRow = Camera & { vmPasswordEnc: string | null };

function selectCameras(db: Db, user: SessionUser, f: CameraFilter) {
  let q = visible(db, user);
  if (f.groupId !== undefined) q = q.where(sql<SqlBool>`${isDbId(f.groupId) ? f.groupId : 0} = any(g.path)`);
  if (f.platformId !== undefined) q = q.where('c.platform_id', '=', isDbId(f.platformId) ? f.platformId : 0);
  if (f.vendor) q = q.where('c.vendor', '=', f.vendor);
  if (f.ids)
    q = f.ids.length
      ? q.where(
          'c.id',
          'in',
          f.ids.filter((x) => isDbId(x)),
        )
      : q.where(sql<SqlBool>`false`);
  if (f.keyword) {
    const k = likePattern(f.keyword);
    q = q.where(
      sql<SqlBool>`(lower(c.name) like ${k} or lower(c.serial_number) like ${k} or lower(c.ip) like ${k}
        or lower(coalesce(c.address, '')) like ${k} or lower(coalesce(c.principal, '')) like ${k} or lower(p.name) like ${k})`,
    );
  }
  return q;
}

const columns = [
  'c.id',
  'c.group_id',
  'g.name as group_name',
  'g.path as group_path',
  'c.platform_id',
  'p.name as platform_name',
  'c.name',
  'c.serial_number',
  'c.channel',
  'c.type',
  'c.vendor',
  'c.vm_code',
  'c.vm_user',
  'c.vm_password_enc',
  'c.ip',
  'c.rtsp_url',
  'c.sub_rtsp_url',
  'c.onvif_url',
  'c.ptz',
  'c.lon',
  'c.lat',
  'c.address',
  'c.principal',
  'c.created_at',
  'c.updated_at',
] as const;

type Rows = Awaited<ReturnType<ReturnType<typeof fetchRows>['execute']>>;

async function present(db: Db, rows: Rows): Promise<CameraRow[]> {
  const names = new Map((await allGroups(db)).map((g) => [g.id, g.name]));
  return rows.map((r) => ({
    id: r.id,
    groupId: r.group_id,
    groupName: r.group_name,
    groupPath: r.group_path.map((id) => names.get(id) ?? ''),
    platformId: r.platform_id,
    platformName: r.platform_name,
    name: r.name,
    serialNumber: r.serial_number,
    channel: r.channel,
    type: r.type as CameraType,
    vendor: r.vendor as CameraVendor,
    vmCode: r.vm_code,
    vmUser: r.vm_user,
    hasVmPassword: r.vm_password_enc !== null,
    vmPasswordEnc: r.vm_password_enc,
    ip: r.ip,
    rtspUrl: r.rtsp_url,
    subRtspUrl: r.sub_rtsp_url,
    hasSubStream: givesSubStream({
      vendor: r.vendor as CameraVendor,
      rtspUrl: r.rtsp_url,
      subRtspUrl: r.sub_rtsp_url,
    }),
    onvifUrl: r.onvif_url,
    ptz: r.ptz,
    lon: r.lon,
    lat: r.lat,
    address: r.address,
    principal: r.principal,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  }));
}

function fetchRows(db: Db, user: SessionUser, f: CameraFilter) {
  return selectCameras(db, user, f).select(columns);
}

export async function listCameras(
  db: Db,
  user: SessionUser,
  f: CameraFilter & {
    pageNum: number;
    pageSize: number;
    sortField?: string | undefined;
    sortOrder?: string | undefined;
  },
): Promise<{ list: CameraRow[]; total: number }> {
  const col = SORTABLE[f.sortField ?? ''];
  const [rows, total] = await Promise.all([
    fetchRows(db, user, f)
      .orderBy(col ? orderBy(col, f.sortOrder) : sql`g.path, ${sql.raw(naturalKey('c.name'))}`)
      .orderBy('c.id')
      .limit(f.pageSize)
      .offset((f.pageNum - 1) * f.pageSize)
      .execute(),
    selectCameras(db, user, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: await present(db, rows), total: Number(total.n) };
}

/** One camera the caller sees; undefined when missing or foreign (the same answer). */
export async function getCamera(db: Db, user: SessionUser, id: number): Promise<CameraRow | undefined> {
  if (!isDbId(id)) return undefined;
  const rows = await fetchRows(db, user, {}).where('c.id', '=', id).execute();
  return (await present(db, rows))[0];
}

/** The cameras of these ids the caller sees. */
export async function camerasByIds(db: Db, user: SessionUser, ids: number[]): Promise<CameraRow[]> {
  return present(db, await fetchRows(db, user, { ids }).execute());
}

/** A camera by id without any scope (the server's own work: tasks, alerts). */
export async function cameraById(db: Db, id: number): Promise<CameraRow | undefined> {
  const rows = await cam(db)
    .selectFrom('cameras as c')
    .innerJoin('camera_groups as g', 'g.id', 'c.group_id')
    .innerJoin('platforms as p', 'p.id', 'c.platform_id')
    .select(columns)
    .where('c.id', '=', id)
    .execute();
  return (await present(db, rows))[0];
}

/** Cameras of a site (no scope: the server's own work). */
export async function cameraIdsOfSite(db: Db, platformId: number): Promise<number[]> {
  const rows = await cam(db).selectFrom('cameras').select('id').where('platform_id', '=', platformId).execute();
  return rows.map((r) => r.id);
}

export interface CameraWrite {
  groupId: number;
  platformId: number;
  name: string;
  serialNumber: string;
  channel: number;
  type: string;
  vendor: string;
  vmCode?: string | undefined;
  vmUser?: string | undefined;
  ip: string;
  rtspUrl?: string | undefined;
  subRtspUrl?: string | undefined;
  onvifUrl?: string | undefined;
  ptz?: boolean | undefined;
  lon?: number | undefined;
  lat?: number | undefined;
  address?: string | undefined;
  principal?: string | undefined;
}

const values = (w: CameraWrite) => ({
  group_id: w.groupId,
  platform_id: w.platformId,
  name: w.name,
  serial_number: w.serialNumber,
  channel: w.channel,
  type: w.type,
  vendor: w.vendor,
  vm_code: w.vmCode ?? null,
  vm_user: w.vmUser ?? null,
  ip: w.ip,
  rtsp_url: w.rtspUrl ?? null,
  sub_rtsp_url: w.subRtspUrl ?? null,
  onvif_url: w.onvifUrl ?? null,
  ptz: w.ptz ?? false,
  lon: w.lon ?? null,
  lat: w.lat ?? null,
  address: w.address ?? null,
  principal: w.principal ?? null,
});

export async function insertCamera(db: Db, w: CameraWrite, passwordEnc: string | null): Promise<number> {
  const r = await cam(db)
    .insertInto('cameras')
    .values({ ...values(w), vm_password_enc: passwordEnc })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** passwordEnc: undefined keeps the stored one. */
export async function updateCamera(
  db: Db,
  id: number,
  w: CameraWrite,
  passwordEnc: string | null | undefined,
): Promise<void> {
  await cam(db)
    .updateTable('cameras')
    .set({
      ...values(w),
      ...(passwordEnc !== undefined ? { vm_password_enc: passwordEnc } : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteCamera(db: Db, id: number): Promise<{ id: number; platformId: number }[]> {
  return cam(db)
    .transaction()
    .execute(async (tx) => {
      const snaps = await tx
        .selectFrom('camera_snapshots')
        .select(['id', 'platform_id'])
        .where('camera_id', '=', id)
        .execute();
      await tx.deleteFrom('cameras').where('id', '=', id).execute();
      return snaps.map((s) => ({ id: s.id, platformId: s.platform_id }));
    });
}

export async function roleExists(db: Db, roleId: number): Promise<{ code: string } | undefined> {
  if (!isDbId(roleId)) return undefined;
  return db.k.selectFrom('roles').select('code').where('id', '=', roleId).executeTakeFirst();
}

/** Builds the tree of the given groups. */
export function toTree(groups: GroupRow[], counts: Map<number, number>): CameraGroupNode[] {
  const nodes = new Map<number, CameraGroupNode>(
    groups.map((g) => [
      g.id,
      {
        id: g.id,
        parentId: g.parentId,
        name: g.name,
        level: g.level,
        sort: g.sort,
        cameraCount: counts.get(g.id) ?? 0,
        children: [],
      },
    ]),
  );
  const roots: CameraGroupNode[] = [];
  for (const g of groups) {
    const n = nodes.get(g.id);
    if (!n) continue;
    const parent = g.parentId !== null ? nodes.get(g.parentId) : undefined;
    if (parent) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}
