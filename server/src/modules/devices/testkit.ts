import { buildUser, type TestApp } from '../../../test/harness.ts';

/** Test fixtures of the equipment features (used by their *.test.ts files only). */

type PermNode = { id: number; code: string; children?: PermNode[] };

/** Creates a role holding the given permission codes (through the role and permission API); returns its code. */
export async function roleWith(t: TestApp, admin: string, code: string, permissionCodes: string[]): Promise<string> {
  const add = await t.api<{ id: number }>('POST', '/api/v2/manage/role/add', {
    token: admin,
    body: { name: code, code },
  });
  if (add.status !== 0) throw new Error(`role add failed: ${add.info}`);
  const tree = await t.api<PermNode[]>('GET', '/api/v2/manage/permission/getTree', { token: admin });
  const flat = tree.data.flatMap((p) => [p, ...(p.children ?? [])]);
  const ids = permissionCodes.map((c) => {
    const p = flat.find((x) => x.code === c);
    if (!p) throw new Error(`no permission ${c}`);
    return p.id;
  });
  const set = await t.api('POST', '/api/v2/manage/role/setPermissions', {
    token: admin,
    body: { roleId: add.data.id, permissionIds: ids },
  });
  if (set.status !== 0) throw new Error(`setPermissions failed: ${set.info}`);
  return code;
}

/** Creates a user with a role and a data scope, and logs in; answers the token. */
export async function userToken(
  t: TestApp,
  admin: string,
  u: { account: string; roleCode: string; platformIds?: number[]; scopeAll?: boolean },
): Promise<string> {
  const password = `${u.account}-Pass-word-9`;
  await buildUser(t, admin, {
    account: u.account,
    password,
    roleCode: u.roleCode,
    platformIds: u.platformIds ?? [],
    scopeAll: u.scopeAll ?? false,
  });
  return t.token(u.account, password);
}

export const TERMINAL = '/api/v2/data/information/terminal';
export const DEVICE = '/api/v2/data/information/device';

/** Adds a terminal through the API; answers its id and key. */
export async function addTerminal(
  t: TestApp,
  token: string,
  platformId: number,
  serial: string,
  extra: Record<string, unknown> = {},
): Promise<{ terminalId: number; key: string }> {
  const r = await t.api<{ terminalId: number; key: string }>('POST', `${TERMINAL}/add`, {
    token,
    body: {
      platformId,
      name: `Logger ${serial}`,
      serial,
      protocolType: 'MQTT',
      manufacturer: 'Acme',
      model: 'DL-1',
      port: 1883,
      ...extra,
    },
  });
  if (r.status !== 0) throw new Error(`terminal add failed: ${r.status} ${r.info}`);
  return r.data;
}

/** A valid common/add body. */
export function deviceBody(
  platformId: number,
  terminalId: number,
  n: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    deviceName: `Device ${n}`,
    number: `DEV-${n}`,
    moduleId: 2,
    platformId,
    terminalId,
    ip: '192.168.1.20',
    port: 502,
    ...extra,
  };
}

export async function addDevice(t: TestApp, token: string, body: Record<string, unknown>): Promise<number> {
  const r = await t.api<{ deviceId: number }>('POST', `${DEVICE}/common/add`, { token, body });
  if (r.status !== 0) throw new Error(`device add failed: ${r.status} ${r.info}`);
  return r.data.deviceId;
}
