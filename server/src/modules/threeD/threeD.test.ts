import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type ThreeDScene, type ThreeDSite } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';
import { multipart, png } from '../files/files.testkit.ts';
import { checkGlb } from './threeD.glb.ts';
import { PREVIEW_TRIANGLES } from './threeD.lod.ts';
import { glbOf, terrainGlb } from './threeD.testkit.ts';

const B = '/api/v2/data/threeD';
const LIMIT = 2 * 1024 * 1024;

describe('3D models and device placements', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let viewer: string;
  let siteA: number;
  let siteB: number;
  let bridge: number;
  let devA: number;
  let devB: number;

  const upload = async (token: string, fields: Record<string, string>, filename: string, data: Buffer) => {
    const body = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', filename, data },
    ]);
    const res = await t.raw('POST', `${B}/uploadModel`, {
      token,
      payload: body.payload,
      headers: { ...body.headers, language: 'en' },
    });
    return res.json() as { status: number; info: string; data: { triangles: number; url: string } | null };
  };
  const stored = () => {
    const dir = path.join(t.config.dataDir, 'threeD');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.glb')) : [];
  };
  const models = async () => (await t.db.k.selectFrom('three_d_models').selectAll().execute()).length;

  beforeAll(async () => {
    t = await testApp({ threeDMaxModelBytes: LIMIT });
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'reservoir', name: 'Dam A' });
    siteB = await buildPlatform(t, { type: 'tailings', name: 'Pond B' });
    bridge = await buildPlatform(t, { type: 'bridge', name: 'Bridge C' });
    const ta = await addTerminal(t, admin, siteA, 'T3DA');
    const tb = await addTerminal(t, admin, siteB, 'T3DB');
    devA = await addDevice(t, admin, deviceBody(siteA, ta.terminalId, '3DA'));
    devB = await addDevice(t, admin, deviceBody(siteB, tb.terminalId, '3DB'));
    const rc = await roleWith(t, admin, 'threeDEditor', ['threeDimensional:show', 'threeDimensional:manage']);
    user = await userToken(t, admin, { account: 'threeDA', roleCode: rc, platformIds: [siteA, bridge] });
    const rv = await roleWith(t, admin, 'threeDViewer', ['threeDimensional:show']);
    viewer = await userToken(t, admin, { account: 'threeDV', roleCode: rv, platformIds: [siteA] });
  });
  afterAll(() => t.close());

  it('uploads a GLB, serves it, and places devices', async () => {
    const glb = terrainGlb(20);
    const r = await upload(user, { platformId: String(siteA) }, 'dam.glb', glb);
    expect(r.status, r.info).toBe(0);
    expect(r.data!.triangles).toBe(800);
    const file = await t.raw('GET', `${B}/getModelFile?platformId=${siteA}`, { token: user });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('model/gltf-binary');
    expect(file.rawPayload.equals(glb)).toBe(true);

    const save = await t.api('POST', `${B}/savePlacements`, {
      token: user,
      form: true,
      body: { platformId: siteA, placements: JSON.stringify([{ deviceId: devA, x: 10, y: 4.5, z: -20 }]) },
    });
    expect(save.status, save.info).toBe(0);
    await t.db.k
      .updateTable('devices')
      .set({ state: 'alarm', last_values: JSON.stringify({ dispX: 3.25, note: 'x' }) })
      .where('id', '=', devA)
      .execute();
    const scene = await t.api<ThreeDScene>('GET', `${B}/getScene`, {
      token: viewer,
      query: { platformId: String(siteA) },
    });
    expect(scene.status).toBe(0);
    expect(scene.data.model).toMatchObject({ name: 'dam.glb', triangles: 800, size: glb.length });
    expect(scene.data.devices).toEqual([
      expect.objectContaining({
        deviceId: devA,
        state: 'alarm',
        values: { dispX: 3.25 },
        placement: { x: 10, y: 4.5, z: -20 },
      }),
    ]);
    // A viewer may look but not change.
    expect((await upload(viewer, { platformId: String(siteA) }, 'x.glb', glb)).status).toBe(Status.noPermission);
  });

  it('refuses a bogus, broken or oversized model with a clear message and keeps nothing', async () => {
    const before = { files: stored().length, rows: await models() };
    const cases: [string, Buffer, RegExp][] = [
      ['picture.glb', png(), /not a glTF binary model .*'glTF'/],
      ['cut.glb', terrainGlb(4).subarray(0, 200), /does not match the file/],
      ['badjson.glb', glbOf({ asset: { version: '2.0' } }), /./],
      ['v1.glb', glbOf({ asset: { version: '1.0' } }), /only glTF version 2/],
      ['ext.glb', glbOf({ asset: { version: '2.0' }, buffers: [{ uri: 'data.bin', byteLength: 4 }] }), /outside files/],
    ];
    // A JSON chunk that does not parse.
    const bad = glbOf({ asset: { version: '2.0' } });
    bad.write('{{{{', 20, 'latin1');
    cases[2] = ['badjson.glb', bad, /JSON chunk does not parse/];
    for (const [name, data, message] of cases) {
      const r = await upload(user, { platformId: String(siteA) }, name, data);
      expect(r.status, name).toBe(Status.invalid);
      expect(r.info, name).toMatch(message);
    }
    const big = terrainGlb(300);
    expect(big.length).toBeGreaterThan(LIMIT);
    const r = await upload(user, { platformId: String(siteA) }, 'big.glb', big);
    expect(r.status).toBe(Status.tooLarge);
    expect(r.info).toBe('The model is larger than 2 MB');
    expect({ files: stored().length, rows: await models() }).toEqual(before);
    // Translated.
    const body = multipart([
      { name: 'platformId', value: String(siteA) },
      { name: 'file', filename: 'p.glb', data: png() },
    ]);
    const zh = await t.raw('POST', `${B}/uploadModel`, {
      token: user,
      payload: body.payload,
      headers: { ...body.headers, language: 'zh' },
    });
    expect((zh.json() as { info: string }).info).toContain('不是 glTF 二进制模型');
  });

  it('keeps foreign sites, their models and devices out of reach', async () => {
    await upload(admin, { platformId: String(siteB) }, 'pond.glb', terrainGlb(6));
    const sites = await t.api<ThreeDSite[]>('GET', `${B}/getSites`, { token: user });
    expect(sites.data.map((s) => s.platformId)).toEqual([siteA]);
    const missing = await t.api('GET', `${B}/getScene`, { token: user, query: { platformId: '999999' } });
    const foreign = await t.api('GET', `${B}/getScene`, { token: user, query: { platformId: String(siteB) } });
    expect(missing.status).toBe(Status.notFound);
    expect({ status: foreign.status, info: foreign.info }).toEqual({ status: missing.status, info: missing.info });
    const file = await t.api('GET', `${B}/getModelFile`, { token: user, query: { platformId: String(siteB) } });
    expect({ status: file.status, info: file.info }).toEqual({ status: missing.status, info: missing.info });
    expect((await upload(user, { platformId: String(siteB) }, 'x.glb', terrainGlb(2))).status).toBe(Status.notFound);
    expect((await t.api('POST', `${B}/deleteModel`, { token: user, body: { platformId: siteB } })).status).toBe(
      Status.notFound,
    );
    // A device of another site cannot be placed on this one; nothing changes.
    const place = await t.api('POST', `${B}/savePlacements`, {
      token: user,
      body: { platformId: siteA, placements: [{ deviceId: devB, x: 1, y: 2, z: 3 }] },
    });
    expect(place.status).toBe(Status.invalid);
    expect(place.info).toBe(`Device ${devB} does not exist on this site`);
    const recent = await t.api('GET', `${B}/getDeviceRecent`, { token: user, query: { deviceId: String(devB) } });
    expect(recent.status).toBe(Status.notFound);
    const scene = await t.api<ThreeDScene>('GET', `${B}/getScene`, {
      token: user,
      query: { platformId: String(siteA) },
    });
    expect(scene.data.devices.map((d) => d.placement)).toEqual([{ x: 10, y: 4.5, z: -20 }]);
    // Bridge sites have no scene.
    const b = await t.api('GET', `${B}/getScene`, { token: user, query: { platformId: String(bridge) } });
    expect(b.info).toBe('Bridge and slope sites have no 3D scene');
    // Out-of-range coordinates and duplicates are refused.
    const far = await t.api('POST', `${B}/savePlacements`, {
      token: user,
      body: { platformId: siteA, placements: [{ deviceId: devA, x: 1e9, y: 0, z: 0 }] },
    });
    expect(far.status).toBe(Status.invalid);
    const twice = await t.api('POST', `${B}/savePlacements`, {
      token: user,
      body: {
        platformId: siteA,
        placements: [
          { deviceId: devA, x: 1, y: 0, z: 0 },
          { deviceId: devA, x: 2, y: 0, z: 0 },
        ],
      },
    });
    expect(twice.info).toBe(`Device ${devA} is placed twice`);
  });

  it("serves a large model with its preview, a lighter level of detail, to the site's users only", async () => {
    const site = await buildPlatform(t, { type: 'tailings', name: 'Pond E' });
    const small = await upload(admin, { platformId: String(site) }, 'small.glb', terrainGlb(20));
    expect(small.status, small.info).toBe(0);
    const sceneOf = async () =>
      (await t.api<ThreeDScene>('GET', `${B}/getScene`, { token: admin, query: { platformId: String(site) } })).data!;
    expect((await sceneOf()).model!.previewUrl).toBeNull();

    const big = terrainGlb(190); // 72,200 triangles, 1.8 MB
    const r = await upload(admin, { platformId: String(site) }, 'big.glb', big);
    expect(r.status, r.info).toBe(0);
    const model = (await sceneOf()).model!;
    expect(model.triangles).toBe(72_200);
    expect(model.previewUrl).toContain('detail=preview');
    const file = await t.raw('GET', model.previewUrl!, { token: admin });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('model/gltf-binary');
    const check = checkGlb(file.rawPayload);
    expect(check.ok && check.triangles).toBeGreaterThan(PREVIEW_TRIANGLES * 0.8);
    expect(check.ok && check.triangles).toBeLessThanOrEqual(PREVIEW_TRIANGLES);
    expect(file.rawPayload.length).toBeLessThan(big.length);
    // A user without the site gets the preview no more than the model.
    const foreign = await t.raw('GET', model.previewUrl!, { token: viewer });
    expect(foreign.json()).toMatchObject({ status: Status.notFound });
    // Deleting the model deletes its preview.
    const dir = path.join(t.config.dataDir, 'threeD');
    const key = (
      await t.db.k
        .selectFrom('three_d_models')
        .select('file_key')
        .where('platform_id', '=', site)
        .executeTakeFirstOrThrow()
    ).file_key;
    expect(fs.existsSync(path.join(dir, `${key}.lod`))).toBe(true);
    const del = await t.api('POST', `${B}/deleteModel`, { token: admin, form: true, body: { platformId: site } });
    expect(del.status, del.info).toBe(0);
    expect(fs.existsSync(path.join(dir, `${key}.lod`))).toBe(false);
  });

  it("shows a 3D Tiles tileset of DATA_DIR on a site, its files to the site's users only", async () => {
    const root = path.join(t.config.dataDir, 'threeD', 'tilesets');
    const folder = path.join(root, 'dam-tiles');
    fs.mkdirSync(path.join(folder, 'content'), { recursive: true });
    const tileset = {
      asset: { version: '1.1' },
      geometricError: 100,
      root: {
        boundingVolume: { box: [0, 0, 0, 100, 0, 0, 0, 100, 0, 0, 0, 20] },
        geometricError: 0,
        refine: 'REPLACE',
        content: { uri: 'content/dam.glb' },
      },
    };
    fs.writeFileSync(path.join(folder, 'tileset.json'), JSON.stringify(tileset));
    const glb = terrainGlb(10);
    fs.writeFileSync(path.join(folder, 'content', 'dam.glb'), glb);
    fs.mkdirSync(path.join(root, 'no-tileset'), { recursive: true });
    fs.writeFileSync(path.join(t.config.dataDir, 'secret.txt'), 'secret');
    fs.symlinkSync(path.join(t.config.dataDir, 'secret.txt'), path.join(folder, 'content', 'link.bin'));

    const list = await t.api<{ name: string; sites: number }[]>('GET', `${B}/getTilesets`, { token: admin });
    expect(list.data).toEqual([{ name: 'dam-tiles', sites: 0 }]);
    expect((await t.api('GET', `${B}/getTilesets`, { token: viewer })).status).toBe(Status.noPermission);

    const set = (token: string, platformId: number, name: string) =>
      t.api('POST', `${B}/setTileset`, { token, form: true, body: { platformId, name } });
    const missing = await set(user, siteA, 'no-tileset');
    expect(missing.status).toBe(Status.invalid);
    expect(missing.info).toContain('no-tileset');
    expect((await set(user, siteA, '../threeD')).status).toBe(Status.invalid);
    expect((await set(user, siteB, 'dam-tiles')).status).toBe(Status.notFound); // a foreign site
    expect((await set(user, siteA, 'dam-tiles')).status).toBe(0);
    expect((await set(admin, siteB, 'dam-tiles')).status).toBe(0);

    const scene = await t.api<ThreeDScene>('GET', `${B}/getScene`, {
      token: viewer,
      query: { platformId: String(siteA) },
    });
    expect(scene.data.tileset).toEqual({ name: 'dam-tiles', url: `${B}/tiles/${siteA}/tileset.json` });
    const json = await t.raw('GET', scene.data.tileset!.url, { token: viewer });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json.body)).toEqual(tileset);
    const content = await t.raw('GET', `${B}/tiles/${siteA}/content/dam.glb`, { token: viewer });
    expect(content.headers['content-type']).toBe('model/gltf-binary');
    expect(content.rawPayload.equals(glb)).toBe(true);
    // Out of the folder, by '..', an encoded '..', or a link: as missing. A foreign site's tiles: as missing.
    for (const rel of [
      '../tilesets/dam-tiles/tileset.json',
      '..%2F..%2Fsecret.txt',
      'content/link.bin',
      'nothing.json',
    ]) {
      const r = await t.raw('GET', `${B}/tiles/${siteA}/${rel}`, { token: viewer });
      expect(r.json(), rel).toMatchObject({ status: Status.notFound });
    }
    const foreign = await t.raw('GET', `${B}/tiles/${siteB}/tileset.json`, { token: viewer });
    expect(foreign.json()).toMatchObject({ status: Status.notFound });
    const anon = await t.raw('GET', `${B}/tiles/${siteA}/tileset.json`);
    expect(anon.json()).toMatchObject({ status: Status.notLoggedIn });

    expect((await t.api('GET', `${B}/getTilesets`, { token: admin })).data).toEqual([{ name: 'dam-tiles', sites: 2 }]);
    expect((await set(user, siteA, '')).status).toBe(0);
    const after = await t.api<ThreeDScene>('GET', `${B}/getScene`, {
      token: viewer,
      query: { platformId: String(siteA) },
    });
    expect(after.data.tileset).toBeNull();
    // Each change is in the audit log, with who made it.
    const audit = await t.api<{ list: { account: string; action: string; target: string; detail: unknown }[] }>(
      'GET',
      '/api/v2/manage/audit/getListPage',
      { token: admin, query: { action: 'threeD.tileset', pageSize: '10' } },
    );
    expect(audit.data.list.map((r) => [r.account, r.target, r.detail])).toEqual([
      ['threeDA', `threeD:${siteA}`, { name: null }],
      ['admin', `threeD:${siteB}`, { name: 'dam-tiles' }],
      ['threeDA', `threeD:${siteA}`, { name: 'dam-tiles' }],
    ]);
  });

  it('keeps one model per site under 100 parallel uploads', async () => {
    const site = await buildPlatform(t, { type: 'river', name: 'River D' });
    const rs = await Promise.all(
      Array.from({ length: 100 }, (_, i) => upload(admin, { platformId: String(site) }, `m${i}.glb`, terrainGlb(3))),
    );
    expect(rs.every((r) => r.status === 0)).toBe(true);
    const rows = await t.db.k.selectFrom('three_d_models').select('file_key').where('platform_id', '=', site).execute();
    expect(rows).toHaveLength(1);
    const keys = new Set(
      (await t.db.k.selectFrom('three_d_models').select('file_key').execute()).map((r) => `${r.file_key}.glb`),
    );
    expect(new Set(stored())).toEqual(keys);
  });
});
