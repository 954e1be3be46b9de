import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type TerminalRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, DEVICE, roleWith, TERMINAL, userToken } from '../devices/testkit.ts';
import { authenticateTerminal, hashTerminalKey } from './terminals.service.ts';

type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number };

describe('terminals', () => {
  let t: TestApp;
  let admin: string;
  let siteA: number;
  let siteB: number;
  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'disaster', name: 'Landslide A' });
    siteB = await buildPlatform(t, { type: 'reservoir', name: 'Reservoir B' });
  });
  afterAll(() => t.close());

  it('adds a terminal with every field and shows its key once, stored only as a salted hash', async () => {
    const r = await t.api<{ terminalId: number; key: string }>('POST', `${TERMINAL}/add`, {
      token: admin,
      form: true,
      body: {
        platformId: siteA,
        name: 'Main logger',
        serial: 'TERM-001',
        manufacturer: 'Acme',
        model: 'DL-9',
        protocolType: 'MQTT',
        port: '1883',
        type: 'RTU',
        status: 'vibration',
      },
    });
    expect(r.status).toBe(0);
    expect(r.info).toBe('Added successfully');
    expect(r.data.key.length).toBeGreaterThanOrEqual(40);
    const stored = await t.db.k
      .selectFrom('terminals')
      .selectAll()
      .where('id', '=', r.data.terminalId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(r.data.key);
    expect(stored.key_hash).toBe(hashTerminalKey(stored.key_salt, r.data.key));
    expect(stored.key_salt).toMatch(/^[0-9a-f]{32}$/);

    const list = await t.api<Page<TerminalRow>>('GET', `${TERMINAL}/getListPage`, { token: admin });
    expect(list.status).toBe(0);
    expect(JSON.stringify(list)).not.toContain(r.data.key);
    expect(JSON.stringify(list)).not.toMatch(/key_?hash|key_?salt|"key"/i);
    const row = list.data.list.find((x) => x.terminalId === r.data.terminalId)!;
    expect(row).toMatchObject({
      platformId: siteA,
      platformName: 'Landslide A',
      name: 'Main logger',
      serial: 'TERM-001',
      manufacturer: 'Acme',
      model: 'DL-9',
      protocolType: 'MQTT',
      port: 1883,
      type: 'RTU',
      status: 'vibration',
      parentId: null,
      deviceCount: 0,
    });
    for (const path of ['getAll', 'getListByRoleId']) {
      const all = await t.api<TerminalRow[]>('GET', `${TERMINAL}/${path}`, { token: admin, query: { roleId: '1' } });
      expect(all.data.some((x) => x.terminalId === r.data.terminalId)).toBe(true);
      expect(JSON.stringify(all)).not.toContain(r.data.key);
    }
  });

  it('validates required fields, port and status, and keeps the terminal id unique', async () => {
    const missing = await t.api<{ errors: { field: string; rule: string }[] }>('POST', `${TERMINAL}/add`, {
      token: admin,
      body: { platformId: siteA },
    });
    expect(missing.status).toBe(Status.invalid);
    expect(missing.data.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['name', 'serial', 'protocolType']));
    const badPort = await t.api('POST', `${TERMINAL}/add`, {
      token: admin,
      body: { platformId: siteA, name: 'X', serial: 'X-1', protocolType: 'TCP', port: 70000 },
    });
    expect(badPort.status).toBe(Status.invalid);
    const badStatus = await t.api('POST', `${TERMINAL}/add`, {
      token: admin,
      body: { platformId: siteA, name: 'X', serial: 'X-1', protocolType: 'TCP', status: 'broken' },
    });
    expect(badStatus.status).toBe(Status.invalid);
    await addTerminal(t, admin, siteA, 'DUP-1');
    const dup = await t.api('POST', `${TERMINAL}/add`, {
      token: admin,
      body: { platformId: siteB, name: 'Other', serial: 'DUP-1', protocolType: 'MQTT' },
    });
    expect(dup.status).toBe(Status.conflict);
    expect(dup.info).toMatch(/terminal id already exists/);
    const noSite = await t.api('POST', `${TERMINAL}/add`, {
      token: admin,
      body: { platformId: 999999, name: 'Y', serial: 'Y-1', protocolType: 'MQTT' },
    });
    expect(noSite.status).toBe(Status.notFound);
  });

  it('links a subordinate terminal of the same site and refuses loops and other sites', async () => {
    const parent = await addTerminal(t, admin, siteA, 'P-1');
    const child = await addTerminal(t, admin, siteA, 'C-1', { parentId: parent.terminalId });
    const other = await addTerminal(t, admin, siteB, 'O-1');
    const rows = await t.api<TerminalRow[]>('GET', `${TERMINAL}/getAll`, {
      token: admin,
      query: { platformId: String(siteA) },
    });
    expect(rows.data.find((x) => x.terminalId === child.terminalId)).toMatchObject({
      parentId: parent.terminalId,
      parentName: 'Logger P-1',
    });
    expect(rows.data.every((x) => x.platformId === siteA)).toBe(true);
    const loop = await t.api('POST', `${TERMINAL}/edit`, {
      token: admin,
      body: {
        terminalId: parent.terminalId,
        platformId: siteA,
        name: 'Logger P-1',
        serial: 'P-1',
        protocolType: 'MQTT',
        parentId: child.terminalId,
      },
    });
    expect(loop.status).toBe(Status.invalid);
    expect(loop.info).toMatch(/without a loop/);
    const self = await t.api('POST', `${TERMINAL}/edit`, {
      token: admin,
      body: {
        terminalId: parent.terminalId,
        platformId: siteA,
        name: 'Logger P-1',
        serial: 'P-1',
        protocolType: 'MQTT',
        parentId: parent.terminalId,
      },
    });
    expect(self.status).toBe(Status.invalid);
    const cross = await t.api('POST', `${TERMINAL}/add`, {
      token: admin,
      body: { platformId: siteA, name: 'Z', serial: 'Z-1', protocolType: 'MQTT', parentId: other.terminalId },
    });
    expect(cross.status).toBe(Status.invalid);
  });

  it('edits a terminal without touching its key', async () => {
    const { terminalId, key } = await addTerminal(t, admin, siteA, 'E-1');
    const r = await t.api('POST', `${TERMINAL}/edit`, {
      token: admin,
      body: {
        terminalId,
        platformId: siteA,
        name: 'Renamed',
        serial: 'E-1b',
        protocolType: 'HTTP',
        status: 'collapse',
      },
    });
    expect(r.status).toBe(0);
    const row = (await t.api<TerminalRow[]>('GET', `${TERMINAL}/getAll`, { token: admin })).data.find(
      (x) => x.terminalId === terminalId,
    )!;
    expect(row).toMatchObject({
      name: 'Renamed',
      serial: 'E-1b',
      protocolType: 'HTTP',
      status: 'collapse',
      manufacturer: null,
      port: null,
    });
    expect(await authenticateTerminal(t.db, terminalId, key)).not.toBeNull();
  });

  it('authenticates a terminal by id and key, lists its bound devices, and rotation invalidates the old key', async () => {
    const { terminalId, key } = await addTerminal(t, admin, siteA, 'AUTH-1');
    await addDevice(t, admin, deviceBody(siteA, terminalId, 'auth1'));
    const ok = await authenticateTerminal(t.db, terminalId, key);
    expect(ok).toEqual({ terminalId, deviceNumbers: new Set(['DEV-auth1']) });
    expect(await authenticateTerminal(t.db, String(terminalId), key)).not.toBeNull();
    expect(await authenticateTerminal(t.db, terminalId, `${key}x`)).toBeNull();
    expect(await authenticateTerminal(t.db, terminalId, '')).toBeNull();
    expect(await authenticateTerminal(t.db, 999999, key)).toBeNull();
    expect(await authenticateTerminal(t.db, 'not-a-number', key)).toBeNull();
    expect(await authenticateTerminal(t.db, '99999999999', key)).toBeNull();

    const rot = await t.api<{ terminalId: number; key: string }>('POST', `${TERMINAL}/rotateKey`, {
      token: admin,
      body: { terminalId },
    });
    expect(rot.status).toBe(0);
    expect(rot.info).toMatch(/shown only once/);
    expect(rot.data.key).not.toBe(key);
    expect(await authenticateTerminal(t.db, terminalId, key)).toBeNull();
    expect(await authenticateTerminal(t.db, terminalId, rot.data.key)).toEqual({
      terminalId,
      deviceNumbers: new Set(['DEV-auth1']),
    });
  });

  it('refuses to delete a terminal while devices are bound, naming them, and deletes it after', async () => {
    const { terminalId } = await addTerminal(t, admin, siteA, 'DEL-1');
    const d1 = await addDevice(t, admin, deviceBody(siteA, terminalId, 'del1'));
    const d2 = await addDevice(t, admin, deviceBody(siteA, terminalId, 'del2'));
    const refused = await t.api('POST', `${TERMINAL}/delete`, { token: admin, body: { terminalId } });
    expect(refused.status).toBe(Status.conflict);
    expect(refused.info).toContain('Device del1');
    expect(refused.info).toContain('Device del2');
    const zh = await t.api('POST', `${TERMINAL}/delete`, { token: admin, body: { terminalId }, lang: 'zh' });
    expect(zh.info).toMatch(/终端仍绑定设备/);
    // Moving it to another site is refused too.
    const moved = await t.api('POST', `${TERMINAL}/edit`, {
      token: admin,
      body: { terminalId, platformId: siteB, name: 'Logger DEL-1', serial: 'DEL-1', protocolType: 'MQTT' },
    });
    expect(moved.status).toBe(Status.conflict);
    await t.api('POST', `${DEVICE}/module/device/deleteDeviceData`, { token: admin, body: { deviceId: d1 } });
    await t.api('POST', `${DEVICE}/common/delete`, { token: admin, body: { deviceId: d2 } });
    const del = await t.api('POST', `${TERMINAL}/delete`, { token: admin, body: { terminalId } });
    expect(del.status).toBe(0);
    const again = await t.api('POST', `${TERMINAL}/delete`, { token: admin, body: { terminalId } });
    expect(again.status).toBe(Status.notFound);
  });

  it('pages, filters and sorts the list', async () => {
    const r = await t.api<Page<TerminalRow>>('GET', `${TERMINAL}/getListPage`, {
      token: admin,
      query: { pageNum: '1', pageSize: '2', sortField: 'serial', sortOrder: 'descend' },
    });
    expect(r.data.list.length).toBe(2);
    expect(r.data.pageSize).toBe(2);
    const serials = r.data.list.map((x) => x.serial);
    expect([...serials].sort().reverse()).toEqual(serials);
    const kw = await t.api<Page<TerminalRow>>('GET', `${TERMINAL}/getListPage`, {
      token: admin,
      query: { keyword: 'auth-1' },
    });
    expect(kw.data.list.map((x) => x.serial)).toEqual(['AUTH-1']);
    const bySite = await t.api<Page<TerminalRow>>('GET', `${TERMINAL}/getListPage`, {
      token: admin,
      query: { platformId: String(siteB) },
    });
    expect(bySite.data.list.every((x) => x.platformId === siteB)).toBe(true);
    expect(bySite.data.total).toBe(bySite.data.list.length);
  });

  it('limits terminals to the data scope: a foreign id answers like a missing one', async () => {
    await roleWith(t, admin, 'termEditor', ['information:terminal']);
    const tokA = await userToken(t, admin, { account: 'termA', roleCode: 'termEditor', platformIds: [siteA] });
    const foreign = await addTerminal(t, admin, siteB, 'FOREIGN-1');
    const list = await t.api<Page<TerminalRow>>('GET', `${TERMINAL}/getListPage`, { token: tokA });
    expect(list.data.list.length).toBeGreaterThan(0);
    expect(list.data.list.every((x) => x.platformId === siteA)).toBe(true);
    expect(
      (await t.api<TerminalRow[]>('GET', `${TERMINAL}/getListByRoleId`, { token: tokA })).data.every(
        (x) => x.platformId === siteA,
      ),
    ).toBe(true);
    expect(
      (await t.api<TerminalRow[]>('GET', `${TERMINAL}/getAll`, { token: tokA, query: { platformId: String(siteB) } }))
        .data,
    ).toEqual([]);

    for (const path of ['delete', 'rotateKey']) {
      const f = await t.api('POST', `${TERMINAL}/${path}`, { token: tokA, body: { terminalId: foreign.terminalId } });
      const m = await t.api('POST', `${TERMINAL}/${path}`, { token: tokA, body: { terminalId: 987654 } });
      expect(f).toEqual(m);
      expect(f.status).toBe(Status.notFound);
    }
    const edit = await t.api('POST', `${TERMINAL}/edit`, {
      token: tokA,
      body: {
        terminalId: foreign.terminalId,
        platformId: siteA,
        name: 'Mine',
        serial: 'FOREIGN-1',
        protocolType: 'MQTT',
      },
    });
    expect(edit.status).toBe(Status.notFound);
    const addForeign = await t.api('POST', `${TERMINAL}/add`, {
      token: tokA,
      body: { platformId: siteB, name: 'Sneaky', serial: 'SNEAK-1', protocolType: 'MQTT' },
    });
    expect(addForeign.status).toBe(Status.notFound);
    expect(await authenticateTerminal(t.db, foreign.terminalId, foreign.key)).not.toBeNull();

    // Without the permission: 1003.
    const plain = await userToken(t, admin, { account: 'termPlain', roleCode: 'user', platformIds: [siteA] });
    expect((await t.api('GET', `${TERMINAL}/getListPage`, { token: plain })).status).toBe(Status.noPermission);
  });
});
