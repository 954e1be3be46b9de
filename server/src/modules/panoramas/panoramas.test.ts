import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Status, type PanoramaDetail, type PanoramaRow } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { addDevice, addTerminal, deviceBody, roleWith, userToken } from '../devices/testkit.ts';
import { multipart, pdf } from '../files/files.testkit.ts';
import { panoramaPng, pngOf } from '../threeD/threeD.testkit.ts';

const V = '/api/v2/data/vr';
type Page<T> = { list: T[]; total: number };

describe('panoramas with hotspots', () => {
  let t: TestApp;
  let admin: string;
  let user: string;
  let siteA: number;
  let siteB: number;
  let devA: number;
  let devB: number;
  let foreignPano: number;

  const upload = async (token: string, fields: Record<string, string>, filename: string, data: Buffer, lang = 'en') => {
    const body = multipart([
      ...Object.entries(fields).map(([name, value]) => ({ name, value })),
      { name: 'file', filename, data },
    ]);
    const res = await t.raw('POST', `${V}/upload`, {
      token,
      payload: body.payload,
      headers: { ...body.headers, language: lang },
    });
    return res.json() as { status: number; info: string; data: PanoramaRow };
  };
  const stored = () => {
    const dir = path.join(t.config.dataDir, 'panoramas');
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.startsWith('.')) : [];
  };

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    siteA = await buildPlatform(t, { type: 'tailings', name: 'Pond A' });
    siteB = await buildPlatform(t, { type: 'tailings', name: 'Pond B' });
    const ta = await addTerminal(t, admin, siteA, 'TVRA');
    const tb = await addTerminal(t, admin, siteB, 'TVRB');
    devA = await addDevice(t, admin, deviceBody(siteA, ta.terminalId, 'VRA'));
    devB = await addDevice(t, admin, deviceBody(siteB, tb.terminalId, 'VRB'));
    const rc = await roleWith(t, admin, 'vrEditor', ['threeDimensional:show', 'threeDimensional:manage']);
    user = await userToken(t, admin, { account: 'vrA', roleCode: rc, platformIds: [siteA] });
    const f = await upload(admin, { platformId: String(siteB), name: 'B entrance' }, 'b.png', panoramaPng(512));
    expect(f.status, f.info).toBe(0);
    foreignPano = f.data.id;
  });
  afterAll(() => t.close());

  it('uploads panoramas, binds hotspots to devices and links them', async () => {
    const a1 = await upload(user, { platformId: String(siteA), name: 'Dam crest' }, 'crest.png', panoramaPng(1024));
    expect(a1.status, a1.info).toBe(0);
    expect(a1.data).toMatchObject({ width: 1024, height: 512, platformName: 'Pond A', hotspots: 0 });
    const a2 = await upload(user, { platformId: String(siteA), name: 'Spillway' }, 'spill.png', panoramaPng(512));
    const img = await t.raw('GET', `${V}/getImage?id=${a1.data.id}`, { token: user });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    await t.db.k
      .updateTable('devices')
      .set({ state: 'alert', last_values: JSON.stringify({ dispX: 1.5 }) })
      .where('id', '=', devA)
      .execute();
    const save = await t.api('POST', `${V}/saveHotspots`, {
      token: user,
      form: true,
      body: {
        id: a1.data.id,
        hotspots: JSON.stringify([
          { kind: 'device', yaw: 30, pitch: -10, deviceId: devA },
          { kind: 'link', yaw: -90, pitch: 0, targetId: a2.data.id, label: 'To spillway' },
        ]),
      },
    });
    expect(save.status, save.info).toBe(0);
    const d = await t.api<PanoramaDetail>('GET', `${V}/getDetail`, { token: user, query: { id: String(a1.data.id) } });
    expect(d.data.spots).toEqual([
      expect.objectContaining({
        kind: 'device',
        yaw: 30,
        pitch: -10,
        device: expect.objectContaining({ deviceId: devA, state: 'alert', values: { dispX: 1.5 } }),
        target: null,
      }),
      expect.objectContaining({
        kind: 'link',
        label: 'To spillway',
        target: { id: a2.data.id, name: 'Spillway' },
        device: null,
      }),
    ]);
    const list = await t.api<Page<PanoramaRow>>('GET', `${V}/getListPage`, {
      token: user,
      query: { sortField: 'name' },
    });
    expect(list.data.list.map((p) => [p.name, p.hotspots])).toEqual([
      ['Dam crest', 2],
      ['Spillway', 0],
    ]);
    // One name per site, even under parallel uploads.
    const same = await Promise.all(
      Array.from({ length: 20 }, () =>
        upload(user, { platformId: String(siteA), name: 'Gate' }, 'g.png', panoramaPng(512)),
      ),
    );
    expect(same.filter((r) => r.status === 0)).toHaveLength(1);
    expect(
      same.filter((r) => r.status !== 0).every((r) => r.info === 'The site already has a panorama of this name'),
    ).toBe(true);
    expect(stored()).toHaveLength(4);
  });

  it('refuses an image that is not a panorama, and other files, keeping nothing', async () => {
    const before = stored().length;
    const rows = async () => (await t.db.k.selectFrom('panoramas').select('id').execute()).length;
    const n = await rows();
    const square = await upload(
      user,
      { platformId: String(siteA) },
      'square.png',
      pngOf(600, 600, () => [9, 9, 9]),
    );
    expect(square.status).toBe(Status.invalid);
    expect(square.info).toBe(
      'square.png is not a panorama: an equirectangular photo is twice as wide as it is high (600 × 600 px)',
    );
    const zh = await upload(
      user,
      { platformId: String(siteA) },
      'square.png',
      pngOf(600, 600, () => [9, 9, 9]),
      'zh',
    );
    expect(zh.info).toContain('不是全景图');
    const doc = await upload(user, { platformId: String(siteA) }, 'doc.jpg', pdf());
    expect(doc.info).toBe('doc.jpg is not a JPEG or PNG image');
    const renamed = await upload(user, { platformId: String(siteA) }, 'pano.jpg', panoramaPng(512));
    expect(renamed.info).toBe('pano.jpg is not a JPEG or PNG image');
    const tiny = await upload(
      user,
      { platformId: String(siteA) },
      'tiny.png',
      pngOf(200, 100, () => [1, 2, 3]),
    );
    expect(tiny.info).toBe('A panorama must be 512 to 16384 px wide (200 px)');
    expect({ files: stored().length, rows: await rows() }).toEqual({ files: before, rows: n });
  });

  it("keeps foreign sites' panoramas and devices out of reach", async () => {
    const list = await t.api<Page<PanoramaRow>>('GET', `${V}/getListPage`, {
      token: user,
      query: { platformId: String(siteB) },
    });
    expect(list.data.total).toBe(0);
    const missing = await t.api('GET', `${V}/getDetail`, { token: user, query: { id: '999999' } });
    const foreign = await t.api('GET', `${V}/getDetail`, { token: user, query: { id: String(foreignPano) } });
    expect(missing.status).toBe(Status.notFound);
    expect({ s: foreign.status, i: foreign.info }).toEqual({ s: missing.status, i: missing.info });
    const img = await t.api('GET', `${V}/getImage`, { token: user, query: { id: String(foreignPano) } });
    expect({ s: img.status, i: img.info }).toEqual({ s: missing.status, i: missing.info });
    for (const [route, body] of [
      ['edit', { id: foreignPano, name: 'Mine' }],
      ['delete', { id: foreignPano }],
      ['saveHotspots', { id: foreignPano, hotspots: [] }],
    ] as const) {
      const r = await t.api('POST', `${V}/${route}`, { token: user, body });
      expect({ s: r.status, i: r.info }, route).toEqual({ s: missing.status, i: missing.info });
    }
    expect((await upload(user, { platformId: String(siteB) }, 'x.png', panoramaPng(512))).status).toBe(Status.notFound);
    const own = (await t.api<Page<PanoramaRow>>('GET', `${V}/getListPage`, { token: user })).data.list[0]!;
    const dev = await t.api('POST', `${V}/saveHotspots`, {
      token: user,
      body: { id: own.id, hotspots: [{ kind: 'device', yaw: 0, pitch: 0, deviceId: devB }] },
    });
    expect(dev.info).toBe(`Device ${devB} does not exist on this site`);
    const link = await t.api('POST', `${V}/saveHotspots`, {
      token: user,
      body: { id: own.id, hotspots: [{ kind: 'link', yaw: 0, pitch: 0, targetId: foreignPano }] },
    });
    expect(link.info).toBe(`Panorama ${foreignPano} is not another panorama of this site`);
    const range = await t.api('POST', `${V}/saveHotspots`, {
      token: user,
      body: { id: own.id, hotspots: [{ kind: 'device', yaw: 200, pitch: 0, deviceId: devA }] },
    });
    expect(range.status).toBe(Status.invalid);
    const d = await t.api<PanoramaDetail>('GET', `${V}/getDetail`, { token: user, query: { id: String(own.id) } });
    expect(d.data.spots).toHaveLength(2);
    const devs = await t.api<{ deviceId: number }[]>('GET', `${V}/getDevices`, {
      token: user,
      query: { platformId: String(siteA) },
    });
    expect(devs.data.map((x) => x.deviceId)).toEqual([devA]);
    const fd = await t.api('GET', `${V}/getDevices`, { token: user, query: { platformId: String(siteB) } });
    expect(fd.status).toBe(Status.notFound);
    const plain = await userToken(t, admin, { account: 'vrPlain', roleCode: 'user', platformIds: [siteA] });
    expect((await t.api('GET', `${V}/getListPage`, { token: plain })).status).toBe(Status.noPermission);
  });
});
