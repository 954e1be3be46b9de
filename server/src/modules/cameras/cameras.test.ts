import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Status,
  type Camera,
  type CameraGroupNode,
  type CameraSnapshot,
  type LiveStream,
  type Page,
} from '@geosentry/contract';
import { testApp, type TestApp } from '../../../test/harness.ts';
import { addSite, snapshot } from '../platforms/platforms.testkit.ts';
import { roleWith, userToken } from '../devices/testkit.ts';
import { TestRtspServer, publishTestStream, stopProcess, waitLive } from './cameras.testkit.ts';
import { execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const B = '/api/v2/data/camera';
const PASSWORD = 'Secret-cam-pass-1';
/** Seconds of each camera recorded for an alert in these tests. */
const ALERT_CLIP = 6;

/** What ffprobe says of a clip: its first video stream and its length (s). */
function probe(file: string): { codec: string; profile: string; width: number; height: number; duration: number } {
  const out = JSON.parse(
    execFileSync(
      'ffprobe',
      [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_type,codec_name,profile,width,height:format=duration',
        '-of',
        'json',
        file,
      ],
      { encoding: 'utf8' },
    ),
  ) as {
    streams: { codec_type: string; codec_name: string; profile: string; width: number; height: number }[];
    format: { duration: string };
  };
  const v = out.streams.find((x) => x.codec_type === 'video');
  return {
    codec: v?.codec_name ?? '',
    profile: v?.profile ?? '',
    width: v?.width ?? 0,
    height: v?.height ?? 0,
    duration: Number(out.format.duration),
  };
}

/** The command lines of every process on the machine (what `ps` shows any local user). */
function commandLines(): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      out.push({ pid: Number(pid), cmd: fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ') });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, fn: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await wait(100);
  }
}

/** A local ONVIF device service that records the SOAP calls it receives. */
async function onvifDevice(): Promise<{
  url: string;
  calls: { action: string; body: string }[];
  close(): Promise<void>;
}> {
  const calls: { action: string; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const action = /<s:Body><(?:\w+:)?(\w+)/.exec(body)?.[1] ?? '';
      calls.push({ action, body });
      const ok = /<Username>ptz<\/Username>/.test(body) && /PasswordDigest">[A-Za-z0-9+/=]{28}</.test(body);
      res.setHeader('content-type', 'application/soap+xml');
      if (!ok) {
        res.statusCode = 400;
        res.end(
          '<s:Envelope><s:Body><s:Fault><s:Reason><s:Text>Sender not authorized</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>',
        );
        return;
      }
      const inner =
        action === 'GetProfiles'
          ? '<trt:GetProfilesResponse><trt:Profiles token="prof1" fixed="true"><tt:Name>main</tt:Name></trt:Profiles></trt:GetProfilesResponse>'
          : action === 'GetPresets'
            ? '<tptz:GetPresetsResponse><tptz:Preset token="1"><tt:Name>Dam crest</tt:Name></tptz:Preset><tptz:Preset token="2"><tt:Name>Spillway</tt:Name></tptz:Preset></tptz:GetPresetsResponse>'
            : `<tptz:${action}Response/>`;
      res.end(
        `<?xml version="1.0"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body>${inner}</s:Body></s:Envelope>`,
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/onvif/device_service`,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('cameras', () => {
  let t: TestApp;
  let admin: string;
  let slope: number;
  let dam: number;
  let top: number;
  let mid: number;
  let leaf: number;
  let other: number;
  let rtsp: TestRtspServer;
  let pub: ChildProcess;
  let cameraId: number;
  let foreignCamera: number;
  /** Sees the slope only, every camera permission. */
  let scoped: string;

  const post = <T = unknown>(path: string, body: Record<string, unknown>, token = admin) =>
    t.api<T>('POST', `${B}/${path}`, { token, body });
  const get = <T = unknown>(path: string, query: Record<string, string>, token = admin) =>
    t.api<T>('GET', `${B}/${path}`, { token, query });
  const cam = (extra: Record<string, unknown> = {}) => ({
    groupId: leaf,
    platformId: slope,
    name: 'Slope crest east',
    serialNumber: 'DS-2DE4425IW',
    channel: 1,
    type: 'bullet',
    vendor: 'onvif',
    vmCode: 'VM-001',
    vmUser: 'viewer',
    vmPassword: PASSWORD,
    ip: '127.0.0.1',
    rtspUrl: rtsp.url(),
    lon: 102.7,
    lat: 25.0,
    address: 'K12+300 slope crest',
    principal: 'Li Wei',
    ...extra,
  });

  beforeAll(async () => {
    // The camera asks its players for the VM user and password (Digest, as most field cameras do).
    rtsp = new TestRtspServer({ user: 'viewer', password: PASSWORD, scheme: 'digest' });
    await rtsp.listen();
    pub = publishTestStream(rtsp.url(), { size: '320x180' });
    t = await testApp({
      camera: {
        maxStreams: 3,
        maxStreamsPerUser: 2,
        streamUrlMs: 60_000,
        idleMs: 3000,
        ffmpeg: 'ffmpeg',
        alertClipSeconds: ALERT_CLIP,
        mediaServer: null,
      },
    });
    admin = await t.token();
    slope = await addSite(t, admin, 'sideslope', { name: 'K12 slope', lon: 102.7, lat: 25.0 });
    dam = await addSite(t, admin, 'reservoir', { name: 'Hongshui dam', lon: 102.8, lat: 25.1 });
    top = (await post<{ id: number }>('group/add', { name: 'Yunnan' })).data.id;
    mid = (await post<{ id: number }>('group/add', { name: 'Kunming', parentId: top })).data.id;
    leaf = (await post<{ id: number }>('group/add', { name: 'K12 slope', parentId: mid })).data.id;
    other = (await post<{ id: number }>('group/add', { name: 'Dams' })).data.id;
    await roleWith(t, admin, 'camOps', ['camera:real-time', 'camera:camera', 'camera:group', 'camera:cameraTask']);
    scoped = await userToken(t, admin, { account: 'slopeOps', roleCode: 'camOps', platformIds: [slope] });
    await waitLive(rtsp);
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await stopProcess(pub);
    await rtsp?.close();
  });

  it('adds a camera with every field; the VM password is encrypted at rest and never answered', async () => {
    const r = await post<{ id: number }>('camera/add', cam());
    expect(r.status).toBe(0);
    cameraId = r.data.id;
    const row = await t.db.k
      .withTables<{ cameras: { id: number; vm_password_enc: string | null } }>()
      .selectFrom('cameras')
      .select('vm_password_enc')
      .where('id', '=', cameraId)
      .executeTakeFirstOrThrow();
    expect(row.vm_password_enc).toMatch(/^v1\./);
    expect(row.vm_password_enc).not.toContain('Secret-cam-pass-1');
    const list = await get<Page<Camera>>('camera/getListPage', { groupId: String(top) });
    expect(list.data.total).toBe(1);
    const c = list.data.list[0];
    expect(c).toMatchObject({
      name: 'Slope crest east',
      channel: 1,
      vendor: 'onvif',
      hasVmPassword: true,
      groupPath: ['Yunnan', 'Kunming', 'K12 slope'],
      platformName: 'K12 slope',
    });
    expect(JSON.stringify(list)).not.toContain('Secret-cam-pass-1');
    expect(JSON.stringify(list)).not.toContain('vm_password');
    // Edit without a password keeps it.
    expect((await post('camera/edit', { id: cameraId, ...cam({ vmPassword: '' }) })).status).toBe(0);
    expect((await get<Page<Camera>>('camera/getListPage', {})).data.list[0]?.hasVmPassword).toBe(true);
    foreignCamera = (
      await post<{ id: number }>(
        'camera/add',
        cam({ groupId: other, platformId: dam, name: 'Dam spillway', serialNumber: 'DH-1' }),
      )
    ).data.id;
  });

  it('refuses bad input with a clear message and saves nothing', async () => {
    const before = await snapshot(t, 'cameras');
    const groupsBefore = await snapshot(t, 'camera_groups');
    const bad: [Record<string, unknown>, number][] = [
      [{ channel: 0 }, Status.badRequest],
      [{ channel: 17 }, Status.badRequest],
      [{ ip: '300.1.2.3' }, Status.badRequest],
      [{ ip: 'camera.local' }, Status.badRequest],
      [{ rtspUrl: 'http://127.0.0.1/live' }, Status.badRequest],
      [{ rtspUrl: 'rtsp://' }, Status.badRequest],
      [{ rtspUrl: 'rtsp://admin:pw@127.0.0.1/live' }, Status.badRequest],
      [{ vendor: 'onvif', rtspUrl: '' }, Status.invalid],
      [{ ptz: true }, Status.invalid],
      [{ serialNumber: 'DS-2DE4425IW' }, Status.conflict],
      [{ platformId: 999999 }, Status.notFound],
      [{ groupId: 999999 }, Status.notFound],
    ];
    for (const [extra, status] of bad) {
      const r = await post('camera/add', cam({ serialNumber: 'NEW-1', ...extra }));
      expect(r.status, JSON.stringify(extra)).not.toBe(0);
      if (status !== Status.badRequest) expect(r.status, JSON.stringify(extra)).toBe(status);
      expect(r.info).toBeTruthy();
    }
    // A login cannot carry a colon (RTSP and ONVIF split user:password at the first one): said, translated.
    const colon = await t.api<{ errors: { field: string; rule: string }[] }>('POST', `${B}/camera/add`, {
      token: admin,
      lang: 'zh',
      body: cam({ serialNumber: 'NEW-1', vmUser: 'site:admin' }),
    });
    expect(colon.status).toBe(Status.invalid);
    expect(colon.data.errors).toEqual([expect.objectContaining({ field: 'vmUser', rule: 'vmUser' })]);
    expect(colon.info).toContain('vmUser 不能包含冒号');
    const deep = await post('group/add', { name: 'Level 4', parentId: leaf });
    expect(deep.status).toBe(Status.invalid);
    expect(deep.info).toBe('Camera groups are at most 3 levels deep');
    expect(await snapshot(t, 'cameras')).toEqual(before);
    expect(await snapshot(t, 'camera_groups')).toEqual(groupsBefore);
  });

  it('sorts camera names as a person reads them: Pier 2 before Pier 10', async () => {
    const group = (await post<{ id: number }>('group/add', { name: 'Natural order' })).data.id;
    const names = ['Pier 10', 'pier 2', 'Pier 1', 'Pier 2a', 'Pier 02b'];
    for (const [i, name] of names.entries())
      expect((await post('camera/add', cam({ groupId: group, name, serialNumber: `NAT-${i}` }))).status).toBe(0);
    const sorted = async (sortOrder: string) =>
      (
        await get<Page<Camera>>('camera/getListPage', { groupId: String(group), sortField: 'name', sortOrder })
      ).data.list.map((c) => c.name);
    expect(await sorted('ascend')).toEqual(['Pier 1', 'pier 2', 'Pier 2a', 'Pier 02b', 'Pier 10']);
    expect(await sorted('descend')).toEqual(['Pier 10', 'Pier 02b', 'Pier 2a', 'pier 2', 'Pier 1']);
    // Without a sort field: by group, then by name the same way.
    expect(
      (await get<Page<Camera>>('camera/getListPage', { groupId: String(group) })).data.list.map((c) => c.name),
    ).toEqual(['Pier 1', 'pier 2', 'Pier 2a', 'Pier 02b', 'Pier 10']);
    expect((await post('group/delete', { id: group })).status).toBe(0);
  });

  it('a camera outside the data scope answers like a missing one: list, stream, PTZ, snapshots, edit', async () => {
    const list = await get<Page<Camera>>('camera/getListPage', {}, scoped);
    expect(list.data.list.map((c) => c.id)).toEqual([cameraId]);
    for (const id of [foreignCamera, 99999999]) {
      const answers = await Promise.all([
        post('live/open', { cameraId: id }, scoped),
        post('ptz/stop', { cameraId: id }, scoped),
        post('snapshot/take', { cameraId: id }, scoped),
        post('camera/edit', { id, ...cam({ serialNumber: 'X' }) }, scoped),
        post('camera/delete', { id }, scoped),
      ]);
      for (const a of answers) expect([a.status, a.info]).toEqual([Status.notFound, 'The camera does not exist']);
    }
    const snaps = await get<Page<CameraSnapshot>>('snapshot/getListPage', { cameraId: String(foreignCamera) }, scoped);
    expect(snaps.data.total).toBe(0);
    // A group holding a foreign camera is not deleted by a scoped user.
    const del = await post('group/delete', { id: other }, scoped);
    expect(del.status).toBe(Status.forbidden);
  });

  it('role camera configuration narrows what a role sees; nobody grants beyond what he sees', async () => {
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const camOps = roles.data.find((r) => r.code === 'camOps')?.id ?? 0;
    await roleWith(t, admin, 'viewers', ['camera:real-time', 'system:role']);
    const viewer = await userToken(t, admin, { account: 'viewer1', roleCode: 'viewers', scopeAll: true });
    expect((await get<Page<Camera>>('camera/getListPage', {}, viewer)).data.total).toBe(2);
    const all = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const viewersId = all.data.find((r) => r.code === 'viewers')?.id ?? 0;
    expect(
      (await post('role/setConfig', { roleId: viewersId, restricted: true, groupIds: [mid], cameraIds: [] })).status,
    ).toBe(0);
    const seen = await get<Page<Camera>>('camera/getListPage', {}, viewer);
    expect(seen.data.list.map((c) => c.id)).toEqual([cameraId]);
    const tree = await get<CameraGroupNode[]>('group/getTree', {}, viewer);
    expect(JSON.stringify(tree)).not.toContain('Dams');
    expect((await post('live/open', { cameraId: foreignCamera }, viewer)).status).toBe(Status.notFound);
    // Own role: refused; granting a group he does not see: refused; granting the unrestricted view: refused.
    expect((await post('role/setConfig', { roleId: viewersId, restricted: false }, viewer)).status).toBe(
      Status.forbidden,
    );
    expect((await post('role/setConfig', { roleId: camOps, restricted: true, groupIds: [other] }, viewer)).status).toBe(
      Status.forbidden,
    );
    expect((await post('role/setConfig', { roleId: camOps, restricted: false }, viewer)).status).toBe(Status.forbidden);
    expect(
      (await post('role/setConfig', { roleId: camOps, restricted: true, cameraIds: [foreignCamera] }, viewer)).status,
    ).toBe(Status.notFound);
    expect((await get<{ restricted: boolean }>('role/getConfig', { roleId: String(camOps) })).data.restricted).toBe(
      false,
    );
  });

  it('live view: remuxes to HLS behind signed, expiring addresses; limits; stops when nobody watches', async () => {
    const open = await post<LiveStream>('live/open', { cameraId }, scoped);
    expect(open.status).toBe(0);
    await until('the first playlist', async () => (await t.raw('GET', open.data.url)).statusCode === 200);
    const playlist = (await t.raw('GET', open.data.url)).body;
    expect(playlist).toContain('#EXTM3U');
    const seg = /^(seg_\d+\.ts\?[^\s]+)$/m.exec(playlist)?.[1] ?? '';
    const base = open.data.url.replace(/index\.m3u8.*$/, '');
    const ts = await t.raw('GET', base + seg);
    expect(ts.statusCode).toBe(200);
    expect(ts.rawPayload[0]).toBe(0x47); // MPEG-TS sync byte
    expect(t.built.cameras.live.processes()).toBe(1);
    // Tampered or expired addresses are refused.
    expect((await t.raw('GET', open.data.url.replace(/sig=[^&]+/, 'sig=AAAA'))).statusCode).toBe(404);
    const signed = (exp: number) =>
      crypto.createHmac('sha256', t.ctx.secret).update(`live.${open.data.streamId}.${exp}`).digest('base64url');
    const at = (exp: number) => open.data.url.replace(/exp=\d+&sig=[^&]+/, `exp=${exp}&sig=${signed(exp)}`);
    expect((await t.raw('GET', at(Math.floor(Date.now() / 1000) + 30))).statusCode).toBe(200);
    expect((await t.raw('GET', at(Math.floor(Date.now() / 1000) - 1))).statusCode).toBe(404);
    // Per-user limit (2).
    await post('camera/add', cam({ serialNumber: 'S-2', name: 'Slope 2' }));
    await post('camera/add', cam({ serialNumber: 'S-3', name: 'Slope 3' }));
    const ids = (await get<Page<Camera>>('camera/getListPage', { platformId: String(slope) })).data.list.map(
      (c) => c.id,
    );
    const second = await post<LiveStream>('live/open', { cameraId: ids.find((i) => i !== cameraId) }, scoped);
    expect(second.status).toBe(0);
    const third = await post(
      'live/open',
      { cameraId: ids.find((i) => i !== cameraId && i !== ids.find((j) => j !== cameraId)) },
      scoped,
    );
    expect(third.status).toBe(Status.invalid);
    expect(third.info).toBe('The camera concurrency limit (2) is reached, please close a video first');
    // The limits hold under 90 parallel requests for the three cameras: no third stream.
    const burst = await Promise.all(
      Array.from({ length: 90 }, (_, i) => post<LiveStream>('live/open', { cameraId: ids[i % 3] }, scoped)),
    );
    expect(new Set(burst.filter((b) => b.status === 0).map((b) => b.data.streamId)).size).toBe(2);
    expect(t.built.cameras.live.processes()).toBe(2);
    await post('live/close', { streamId: second.data.streamId }, scoped);
    // A closed viewer's address stops working; the stream stops when nobody watches; nothing is left over.
    await post('live/close', { streamId: open.data.streamId }, scoped);
    expect((await t.raw('GET', open.data.url)).statusCode).toBe(404);
    await until('no ffmpeg left', () => t.built.cameras.live.processes() === 0);
    await until('no RTSP player left', () => rtsp.players() === 0);
  }, 60_000);

  it('plays the sub stream where the camera gives one, the main stream otherwise', async () => {
    rtsp.alias('/sub');
    const withSub = await post<{ id: number }>(
      'camera/add',
      cam({ serialNumber: 'SUB-1', name: 'Slope with sub stream', subRtspUrl: rtsp.url('/sub') }),
    );
    expect(withSub.status).toBe(0);
    const list = (await get<Page<Camera>>('camera/getListPage', { platformId: String(slope) })).data.list;
    expect(list.find((c) => c.id === withSub.data.id)).toMatchObject({
      subRtspUrl: rtsp.url('/sub'),
      hasSubStream: true,
    });
    expect(list.find((c) => c.id === cameraId)).toMatchObject({ subRtspUrl: null, hasSubStream: false });

    const before = rtsp.requests.filter((r) => r.includes('/sub')).length;
    const sub = await post<LiveStream>('live/open', { cameraId: withSub.data.id, quality: 'sub' }, scoped);
    expect([sub.status, sub.data.quality]).toEqual([0, 'sub']);
    await until('the sub stream plays', async () => (await t.raw('GET', sub.data.url)).statusCode === 200);
    expect(rtsp.requests.filter((r) => r.includes('/sub')).length).toBeGreaterThan(before);
    // The same camera's main stream is another stream (another process); a camera without a sub stream answers
    // its main stream when asked for the sub one.
    const main = await post<LiveStream>('live/open', { cameraId: withSub.data.id }, scoped);
    expect([main.status, main.data.quality]).toEqual([0, 'main']);
    expect(main.data.streamId).not.toBe(sub.data.streamId);
    expect(t.built.cameras.live.processes()).toBe(2);
    await post('live/close', { streamId: main.data.streamId }, scoped);
    const fallback = await post<LiveStream>('live/open', { cameraId, quality: 'sub' }, scoped);
    expect([fallback.status, fallback.data.quality]).toEqual([0, 'main']);
    expect((await post('live/open', { cameraId, quality: 'best' }, scoped)).status).toBe(Status.invalid);
    for (const v of [sub, fallback]) await post('live/close', { streamId: v.data.streamId }, scoped);
    // An external media server's address names the stream where its template has a {quality} place.
    const cfg = t.ctx.config.camera;
    try {
      cfg.mediaServer = '/media/cam{camera}/{quality}/index.m3u8';
      const ext = await post<LiveStream>('live/open', { cameraId: withSub.data.id, quality: 'sub' }, scoped);
      expect([ext.data.quality, ext.data.url]).toEqual(['sub', `/media/cam${withSub.data.id}/sub/index.m3u8`]);
      const extMain = await post<LiveStream>('live/open', { cameraId, quality: 'sub' }, scoped);
      expect([extMain.data.quality, extMain.data.url]).toEqual(['main', `/media/cam${cameraId}/main/index.m3u8`]);
      cfg.mediaServer = '/media/cam{camera}.m3u8';
      const plain = await post<LiveStream>('live/open', { cameraId: withSub.data.id, quality: 'sub' }, scoped);
      expect([plain.data.quality, plain.data.url]).toEqual(['main', `/media/cam${withSub.data.id}.m3u8`]);
    } finally {
      cfg.mediaServer = null;
    }
    await post('camera/delete', { id: withSub.data.id });
    await until('no ffmpeg left', () => t.built.cameras.live.processes() === 0);
  }, 60_000);

  it('the VM password reaches the camera but never a command line: live stream and snapshot', async () => {
    const leaks = (where: string) => {
      const bad = commandLines().filter(
        (p) => p.cmd.includes(PASSWORD) || p.cmd.includes(encodeURIComponent(PASSWORD)),
      );
      expect(
        bad.map((p) => p.cmd.replace(PASSWORD, '<password>')),
        where,
      ).toEqual([]);
    };
    const ffmpegs = () => commandLines().filter((p) => /(^|\/)ffmpeg\s/.test(p.cmd) && !p.cmd.includes('lavfi'));
    const accepted = rtsp.auth.accepted;
    const open = await post<LiveStream>('live/open', { cameraId });
    expect(open.status).toBe(0);
    await until('the stream plays', async () => (await t.raw('GET', open.data.url)).statusCode === 200);
    // It plays: the playlist names segments that are MPEG-TS.
    const playlist = (await t.raw('GET', open.data.url)).body;
    const seg = /^(seg_\d+\.ts\?[^\s]+)$/m.exec(playlist)?.[1] ?? '';
    const ts = await t.raw('GET', open.data.url.replace(/index\.m3u8.*$/, '') + seg);
    expect([ts.statusCode, ts.rawPayload[0]]).toEqual([200, 0x47]);
    // The camera received the credentials (it refuses players without them) ...
    expect(rtsp.auth.accepted).toBeGreaterThan(accepted);
    // ... and while the remuxer runs, no process shows the password.
    expect(ffmpegs().length).toBeGreaterThanOrEqual(1);
    leaks('while the stream plays');
    // A snapshot: watch the command lines while the grabber runs.
    let grabbers = 0;
    let done = false;
    const take = post<CameraSnapshot>('snapshot/take', { cameraId }).finally(() => (done = true));
    while (!done) {
      grabbers = Math.max(grabbers, ffmpegs().length);
      leaks('while a snapshot is taken');
      await wait(10);
    }
    expect((await take).status).toBe(0);
    expect(grabbers).toBeGreaterThanOrEqual(2); // the remuxer and the grabber were both seen
    await post('live/close', { streamId: open.data.streamId });
    await until('no ffmpeg left', () => t.built.cameras.live.processes() === 0);
  }, 60_000);

  it('a camera asking for credentials refuses a player without them', async () => {
    const refused = rtsp.auth.refused;
    const r = await post<{ id: number }>('camera/add', cam({ serialNumber: 'NOPASS', vmUser: '', vmPassword: '' }));
    expect(r.status).toBe(0);
    const shot = await post('snapshot/take', { cameraId: r.data.id });
    expect([shot.status, shot.info]).toEqual([Status.invalid, 'The camera cannot be reached']);
    expect(rtsp.auth.refused).toBeGreaterThan(refused);
    await post('camera/delete', { id: r.data.id });
  }, 30_000);

  it('a camera that goes away is reported lost and reconnects; no stray process or socket', async () => {
    const open = await post<LiveStream>('live/open', { cameraId }, scoped);
    const state = async () =>
      (await get<{ state: string }>('live/status', { streamId: open.data.streamId }, scoped)).data.state;
    await until('playing', async () => (await state()) === 'playing');
    await stopProcess(pub);
    rtsp.dropAll();
    await until('lost', async () => (await state()) === 'lost');
    pub = publishTestStream(rtsp.url(), { size: '320x180' });
    await waitLive(rtsp);
    await until(
      'playing again',
      async () => {
        await t.raw('GET', open.data.url); // the viewer keeps fetching
        return (await state()) === 'playing';
      },
      30_000,
    );
    expect(t.built.cameras.live.processes()).toBe(1);
    expect(rtsp.players()).toBe(1);
    // Nobody fetches: the stream stops by itself (idle 3 s).
    await until('idle stop', () => t.built.cameras.live.processes() === 0, 15_000);
    await until('no RTSP player left', () => rtsp.players() === 0);
    const { started, exited } = t.built.cameras.live.counters;
    expect(exited).toBe(started);
  }, 60_000);

  it('an unreachable camera: a clear message, no stream', async () => {
    const r = await post<{ id: number }>(
      'camera/add',
      cam({ serialNumber: 'GONE', rtspUrl: 'rtsp://127.0.0.1:1/live' }),
    );
    const open = await post('live/open', { cameraId: r.data.id });
    expect([open.status, open.info]).toEqual([Status.invalid, 'The camera cannot be reached']);
    expect(t.built.cameras.live.processes()).toBe(0);
    await post('camera/delete', { id: r.data.id });
  });

  it('PTZ over ONVIF with a WS-Security digest, at the spec speeds; hidden for cameras without PTZ', async () => {
    const dev = await onvifDevice();
    try {
      const ptzCam = (
        await post<{ id: number }>(
          'camera/add',
          cam({ serialNumber: 'PTZ-1', type: 'ptz', ptz: true, onvifUrl: dev.url, vmUser: 'ptz' }),
        )
      ).data.id;
      expect((await post('ptz/move', { cameraId: ptzCam, direction: 'left', speed: 'slow' })).status).toBe(0);
      expect((await post('ptz/stop', { cameraId: ptzCam })).status).toBe(0);
      const presets = await get<{ token: string; name: string }[]>('ptz/getPresets', { cameraId: String(ptzCam) });
      expect(presets.data).toEqual([
        { token: '1', name: 'Dam crest' },
        { token: '2', name: 'Spillway' },
      ]);
      expect((await post('ptz/gotoPreset', { cameraId: ptzCam, presetToken: '2', speed: 'fast' })).status).toBe(0);
      const moves = dev.calls.filter((c) => c.action !== 'GetProfiles');
      expect(moves.map((c) => c.action)).toEqual(['ContinuousMove', 'Stop', 'GetPresets', 'GotoPreset']);
      expect(moves[0]?.body).toContain('<tt:PanTilt x="-0.2" y="0"/>');
      expect(moves[0]?.body).toContain('<tptz:ProfileToken>prof1</tptz:ProfileToken>');
      expect(moves[3]?.body).toContain('<tptz:PresetToken>2</tptz:PresetToken>');
      expect(moves[3]?.body).toContain('x="1"');
      expect(dev.calls.every((c) => !c.body.includes('Secret-cam-pass-1'))).toBe(true);
      const none = await post('ptz/move', { cameraId, direction: 'up', speed: 'fast' });
      expect([none.status, none.info]).toEqual([Status.invalid, 'This camera has no PTZ']);
    } finally {
      await dev.close();
    }
  });

  it('snapshots: taken by hand, by a task on schedule, and for an alert; listed per camera and date', async () => {
    const shot = await post<CameraSnapshot>('snapshot/take', { cameraId }, scoped);
    expect(shot.status).toBe(0);
    const file = await t.raw('GET', `${B}/snapshot/file?id=${shot.data.id}&token=${scoped}`);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.rawPayload.subarray(0, 2).toString('hex')).toBe('ffd8');
    const task = await post<{ id: number }>(
      'task/add',
      { name: 'Morning record', cameraIds: [cameraId], times: '08:00,17:30', retentionDays: 30 },
      scoped,
    );
    expect(task.status).toBe(0);
    const tasks = await get<Page<{ name: string; cameraNames: string[] }>>('task/getListPage', {}, scoped);
    expect(tasks.data.list.map((x) => [x.name, x.cameraNames])).toEqual([['Morning record', ['Slope crest east']]]);
    const outsiderTasks = await get<Page<unknown>>(
      'task/getListPage',
      {},
      await userToken(t, admin, { account: 'damTasks', roleCode: 'camOps', platformIds: [dam] }),
    );
    expect(outsiderTasks.data.total).toBe(0);
    expect(
      (await post('task/add', { name: 'Bad', cameraIds: [cameraId], times: '25:00', retentionDays: 30 }, scoped))
        .status,
    ).not.toBe(0);
    expect(
      (
        await post(
          'task/add',
          { name: 'Foreign', cameraIds: [foreignCamera], times: '08:00', retentionDays: 30 },
          scoped,
        )
      ).status,
    ).toBe(Status.notFound);
    const at8 = new Date(`2026-06-01T08:00:10${offsetOf(t.config.timeZone)}`);
    await t.built.cameras.snapshots.tick(at8);
    t.built.cameras.onAlert({ alertId: 4242, kind: 'raised', platformId: slope } as never);
    await t.built.cameras.snapshots.idle();
    const today = new Date().toISOString().slice(0, 10);
    const page = await get<Page<CameraSnapshot>>(
      'snapshot/getListPage',
      { cameraId: String(cameraId), date: today },
      scoped,
    );
    expect([...new Set(page.data.list.map((s) => s.source))].sort()).toEqual(['alert', 'manual', 'task']);
    const forAlert = await get<Page<CameraSnapshot>>('snapshot/getListPage', { alertId: '4242' });
    expect(forAlert.data.total).toBeGreaterThanOrEqual(1);
    const alertShot = forAlert.data.list.find((s) => s.source === 'alert' && s.media === 'jpeg')!;
    // The alert's pictures as the alerts screen asks for them: a duty engineer of the site with only the alert
    // permission sees them; a user outside the site's scope gets none, list or file, like missing ones.
    await roleWith(t, admin, 'alertDuty', ['alert-predict:alert']);
    const duty = await userToken(t, admin, { account: 'slopeDuty', roleCode: 'alertDuty', platformIds: [slope] });
    const dutySees = await get<Page<CameraSnapshot>>('snapshot/getListPage', { alertId: '4242' }, duty);
    expect(dutySees.data.list.map((s) => s.id)).toContain(alertShot.id);
    const dutyFile = await t.raw('GET', `${B}/snapshot/file?id=${alertShot.id}&token=${duty}`);
    expect(dutyFile.headers['content-type']).toBe('image/jpeg');
    const farDuty = await userToken(t, admin, { account: 'damDuty', roleCode: 'alertDuty', platformIds: [dam] });
    const outsider = await userToken(t, admin, { account: 'damOps', roleCode: 'camOps', platformIds: [dam] });
    for (const who of [farDuty, outsider]) {
      const list = await get<Page<CameraSnapshot>>('snapshot/getListPage', { alertId: '4242' }, who);
      expect([list.status, list.data.total, list.data.list]).toEqual([0, 0, []]);
      for (const id of [alertShot.id, shot.data.id]) {
        const f = await t.api('GET', `${B}/snapshot/file`, { query: { id: String(id), token: who } });
        expect([f.status, f.info]).toEqual([Status.notFound, 'The snapshot does not exist']);
      }
    }
    // A role whose camera configuration leaves the camera out sees no picture of it either.
    const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
    const dutyRole = roles.data.find((r) => r.code === 'alertDuty')?.id ?? 0;
    expect((await post('role/setConfig', { roleId: dutyRole, restricted: true, groupIds: [other] })).status).toBe(0);
    expect((await get<Page<CameraSnapshot>>('snapshot/getListPage', { alertId: '4242' }, duty)).data.total).toBe(0);
    expect(
      (await t.api('GET', `${B}/snapshot/file`, { query: { id: String(alertShot.id), token: duty } })).status,
    ).toBe(Status.notFound);
  }, 60_000);

  it('recordings: a task and an alert record clips, remuxed H.264 MP4s, listed and served as video/mp4', async () => {
    const task = (extra: Record<string, unknown>) =>
      post<{ id: number }>(
        'task/add',
        { name: 'Evening clip', cameraIds: [cameraId], times: '19:00', retentionDays: 7, ...extra },
        scoped,
      );
    // A recording needs its length, 5 to 300 s: a clear message, nothing saved.
    const before = (await get<Page<unknown>>('task/getListPage', {}, scoped)).data.total;
    for (const extra of [
      { kind: 'recording' },
      { kind: 'recording', durationSec: 4 },
      { kind: 'recording', durationSec: 301 },
    ]) {
      const r = await task(extra);
      expect([r.status, r.info], JSON.stringify(extra)).toEqual([
        Status.invalid,
        expect.stringContaining('durationSec is required for a recording: a whole number of seconds from 5 to 300'),
      ]);
    }
    const zh = await t.api('POST', `${B}/task/add`, {
      token: scoped,
      lang: 'zh',
      body: {
        name: 'Bad',
        cameraIds: [cameraId],
        times: '19:00',
        retentionDays: 7,
        kind: 'recording',
        durationSec: 301,
      },
    });
    expect(zh.info).toContain('录像任务必填');
    expect((await get<Page<unknown>>('task/getListPage', {}, scoped)).data.total).toBe(before);

    const added = await task({ kind: 'recording', durationSec: 5 });
    expect(added.status).toBe(0);
    const tasks = await get<Page<{ id: number; kind: string; durationSec: number | null }>>(
      'task/getListPage',
      {},
      scoped,
    );
    expect(tasks.data.list.find((x) => x.id === added.data.id)).toMatchObject({ kind: 'recording', durationSec: 5 });

    // The task's time comes and an alert fires: both record, while no command line shows the password.
    const at19 = new Date(`2026-06-01T19:00:10${offsetOf(t.config.timeZone)}`);
    let done = false;
    const leaks: string[] = [];
    let recorders = 0;
    const watch = (async () => {
      while (!done) {
        recorders = Math.max(recorders, t.built.cameras.snapshots.captures());
        for (const p of commandLines())
          if (p.cmd.includes(PASSWORD) || p.cmd.includes(encodeURIComponent(PASSWORD))) leaks.push(p.cmd);
        await wait(50);
      }
    })();
    await t.built.cameras.snapshots.tick(at19);
    t.built.cameras.onAlert({ alertId: 4343, kind: 'raised', platformId: slope } as never);
    await t.built.cameras.snapshots.idle();
    done = true;
    await watch;
    expect(leaks).toEqual([]);
    expect(recorders).toBeGreaterThanOrEqual(2); // the task's clip and the alert's recorded side by side

    const today = new Date().toISOString().slice(0, 10);
    const page = await get<Page<CameraSnapshot>>(
      'snapshot/getListPage',
      { cameraId: String(cameraId), date: today, pageSize: '100' },
      scoped,
    );
    const taskClip = page.data.list.find((s) => s.taskId === added.data.id)!;
    const forAlert = await get<Page<CameraSnapshot>>('snapshot/getListPage', { alertId: '4343' }, scoped);
    const alertClip = forAlert.data.list.find((s) => s.cameraId === cameraId && s.media === 'mp4')!;
    // The alert has its picture as well as its clip.
    expect(
      forAlert.data.list
        .filter((s) => s.cameraId === cameraId)
        .map((s) => s.media)
        .sort(),
    ).toEqual(['jpeg', 'mp4']);
    expect(taskClip).toMatchObject({ media: 'mp4', source: 'task' });
    expect(alertClip).toMatchObject({ media: 'mp4', source: 'alert', alertId: 4343 });
    const outsider = await userToken(t, admin, { account: 'damClips', roleCode: 'camOps', platformIds: [dam] });
    for (const [clip, seconds] of [
      [taskClip, 5],
      [alertClip, ALERT_CLIP],
    ] as const) {
      expect(Math.abs(clip.durationMs! - seconds * 1000), `listed length of a ${seconds} s clip`).toBeLessThanOrEqual(
        1500,
      );
      const file = path.join(t.config.dataDir, 'cameras', String(slope), String(cameraId), `${clip.id}.mp4`);
      const p = probe(file);
      // H.264 as the camera sends it (the test camera's x264 ultrafast gives Constrained Baseline; a transcode by
      // ffmpeg's libx264 defaults would be High), of the asked length.
      expect([p.codec, p.profile, p.width, p.height]).toEqual(['h264', 'Constrained Baseline', 320, 180]);
      expect(Math.abs(p.duration - seconds), `ffprobe length of a ${seconds} s clip`).toBeLessThanOrEqual(1.5);
      expect(clip.size).toBe(fs.statSync(file).size);
      // Served as video/mp4 to a user of the site, whole or by range (a <video> seeks) ...
      const url = `${B}/snapshot/file?id=${clip.id}&token=${scoped}`;
      const whole = await t.raw('GET', url);
      expect([whole.statusCode, whole.headers['content-type'], Number(whole.headers['content-length'])]).toEqual([
        200,
        'video/mp4',
        clip.size,
      ]);
      expect(whole.rawPayload.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const part = await t.raw('GET', url, { headers: { range: 'bytes=4-7' } });
      expect([part.statusCode, part.headers['content-range'], part.rawPayload.toString('latin1')]).toEqual([
        206,
        `bytes 4-7/${clip.size}`,
        'ftyp',
      ]);
      // ... and like a missing one to a user outside the site.
      const f = await t.api('GET', `${B}/snapshot/file`, { query: { id: String(clip.id), token: outsider } });
      expect([f.status, f.info]).toEqual([Status.notFound, 'The snapshot does not exist']);
    }
    // The image comparison offers the alert's picture but no clip: a clip is no picture to compare.
    const pictures = await t.api<Page<{ fileId: string }>>('GET', '/api/v2/data/report/image/getSitePictures', {
      token: admin,
      query: { platformId: String(slope), pageSize: '100' },
    });
    const offered = pictures.data.list.map((p) => p.fileId);
    const alertShot = forAlert.data.list.find((s) => s.cameraId === cameraId && s.media === 'jpeg')!;
    expect(offered).toContain(`snap-${alertShot.id}`);
    expect(offered.filter((id) => id === `snap-${taskClip.id}` || id === `snap-${alertClip.id}`)).toEqual([]);
    // No temporary file is left beside the clips.
    const dir = path.join(t.config.dataDir, 'cameras', String(slope), String(cameraId));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(t.built.cameras.snapshots.captures()).toBe(0);
  }, 90_000);

  it('deleting a group deletes the groups below, their cameras and snapshots (spec §8)', async () => {
    const r = await post<{ groups: number; cameras: number; snapshots: number }>('group/delete', { id: top });
    expect(r.status).toBe(0);
    expect(r.data.groups).toBe(3);
    expect(r.data.cameras).toBeGreaterThanOrEqual(3);
    expect(r.data.snapshots).toBeGreaterThanOrEqual(3);
    expect((await get<Page<Camera>>('camera/getListPage', {})).data.list.map((c) => c.id)).toEqual([foreignCamera]);
  });
});

/** The UTC offset of a zone now, as +hh:mm. */
function offsetOf(zone: string): string {
  const s = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).format(
    new Date(2026, 5, 1),
  );
  const m = /GMT([+-]\d{2}:\d{2})?/.exec(s);
  return m?.[1] ?? '+00:00';
}
