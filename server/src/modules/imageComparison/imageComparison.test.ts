// Image comparison: two pictures of a site side by side in every format; a picture of another site, a document or
// a foreign file answers like a missing one, in every format. The site's camera snapshots are pictures too, for
// those who see the camera (data scope and role camera configuration).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { Status, type ImageComparison } from '@geosentry/contract';
import { buildPlatform, testApp, type TestApp } from '../../../test/harness.ts';
import { roleWith, userToken } from '../devices/testkit.ts';
import { jpeg, pdf, png, upload } from '../files/files.testkit.ts';
import { TestRtspServer, publishTestStream, stopProcess, waitLive } from '../cameras/cameras.testkit.ts';

const P = '/api/v2/data/report/image/getImageComparison';

describe('image comparison', () => {
  let t: TestApp;
  let admin: string;
  let site: number;
  let other: number;
  let before: string;
  let after: string;
  let elsewhere: string;
  let document: string;
  let outsider: string;
  const get = (q: Record<string, string>, token = admin, lang = 'en') =>
    t.api<ImageComparison>('GET', P, { token, lang, query: q });

  beforeAll(async () => {
    t = await testApp();
    admin = await t.token();
    site = await buildPlatform(t, { type: 'tailings', name: 'East tailings' });
    other = await buildPlatform(t, { type: 'tailings', name: 'West tailings' });
    const up = async (platformId: number, filename: string, data: Buffer, kind = 'picture') => {
      const r = await upload(t, admin, { kind, platformId: String(platformId) }, [{ filename, data }]);
      expect(r.status, r.info).toBe(0);
      return (r.data as { fileId: string }).fileId;
    };
    before = await up(site, 'crest-march.png', png());
    after = await up(site, 'crest-june.jpg', jpeg());
    elsewhere = await up(other, 'west.png', png());
    document = await up(site, 'plan.pdf', pdf(), 'document');
    await roleWith(t, admin, 'imgReport', ['monitor', 'monitor:report']);
    outsider = await userToken(t, admin, { account: 'img-outsider', roleCode: 'imgReport', platformIds: [other] });
  }, 120_000);
  afterAll(() => t.close());

  const base = () => ({
    platformId: String(site),
    beforeFileId: before,
    afterFileId: after,
    beforeTakenAt: '2026-03-01 09:00',
    afterTakenAt: '2026-06-01 09:00',
    beforeNote: 'Hairline crack, 2 mm',
    afterNote: 'Crack 9 mm, seepage below',
    subject: 'Dam crest, left abutment',
    timeZone: 'Asia/Shanghai',
  });

  it('puts both pictures side by side with their dates, notes and the interval', async () => {
    const r = await get(base());
    expect(r.status).toBe(0);
    const doc = r.data.document;
    expect(doc.title).toBe('East tailings Image comparison');
    expect(doc.meta).toContainEqual({ label: 'Interval', value: '92 days' });
    const block = doc.sections[0]!.blocks[0]!;
    expect(block).toMatchObject({
      kind: 'images',
      images: [
        { fileId: before, takenAt: '2026-03-01T01:00:00.000Z', note: 'Hairline crack, 2 mm' },
        { fileId: after, takenAt: '2026-06-01T01:00:00.000Z', note: 'Crack 9 mm, seepage below' },
      ],
    });
  });

  it('draws the pictures into the PDF and the Word file, in the caller’s language', async () => {
    const res = await t.raw('GET', `${P}?${new URLSearchParams({ ...base(), format: 'pdf' })}`, {
      token: admin,
      headers: { language: 'zh' },
    });
    expect(res.statusCode).toBe(200);
    const file = path.join(os.tmpdir(), `imgcmp-${process.pid}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    try {
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
      expect(text).toContain('East tailings 图片对比');
      // Captions wrap under their picture: compare without line breaks.
      expect(text.replace(/\s+/g, ' ')).toContain(
        '后期 · crest-june.jpg · 2026-06-01 09:00 · Crack 9 mm, seepage below',
      );
      const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
      // Two pictures (a PNG with transparency adds its mask as an 'smask' row).
      expect(images.split('\n').filter((l) => l.trim().split(/\s+/)[2] === 'image')).toHaveLength(2);
    } finally {
      fs.rmSync(file, { force: true });
    }
    const w = await t.raw('GET', `${P}?${new URLSearchParams({ ...base(), format: 'docx' })}`, { token: admin });
    const zip = await JSZip.loadAsync(w.rawPayload);
    expect(Object.keys(zip.files).filter((f) => f.startsWith('word/media/'))).toHaveLength(2);
  });

  it('lists the pictures of a site in scope only', async () => {
    const mine = await t.api<{ list: { fileId: string; name: string }[]; total: number }>(
      'GET',
      '/api/v2/data/report/image/getSitePictures',
      { token: admin, query: { platformId: String(site) } },
    );
    expect(mine.data.total).toBe(2);
    expect(mine.data.list.map((f) => f.name).sort()).toEqual(['crest-june.jpg', 'crest-march.png']);
    const foreign = await t.api<{ total: number }>('GET', '/api/v2/data/report/image/getSitePictures', {
      token: outsider,
      query: { platformId: String(site) },
    });
    expect(foreign.data.total).toBe(0);
  });

  it('a picture of another site, a document or a foreign file answers like a missing one, in every format', async () => {
    const missing = await get({ ...base(), afterFileId: 'f'.repeat(32) });
    expect(missing.status).toBe(Status.notFound);
    expect(await get({ ...base(), afterFileId: elsewhere })).toEqual(missing);
    expect(await get({ ...base(), afterFileId: document })).toEqual(missing);
    const foreignSite = await get(base(), outsider);
    const noSite = await get({ ...base(), platformId: '999999' }, outsider);
    expect(foreignSite).toEqual(noSite);
    for (const format of ['xlsx', 'pdf', 'docx']) {
      const r = await t.raw('GET', `${P}?${new URLSearchParams({ ...base(), format })}`, { token: outsider });
      expect(r.headers['content-type']).toMatch(/json/);
      expect(r.json().status).toBe(Status.notFound);
    }
    const bad = await get({ ...base(), beforeTakenAt: 'last spring' });
    expect(bad.status).toBe(Status.invalid);
  });

  it('offers the site’s camera snapshots with their dates, to those who see the cameras', async () => {
    const rtsp = new TestRtspServer();
    await rtsp.listen();
    const pub = publishTestStream(rtsp.url(), { size: '320x180' });
    try {
      await waitLive(rtsp);
      const C = '/api/v2/data/camera';
      const post = <T>(p: string, body: Record<string, unknown>, token = admin) =>
        t.api<T>('POST', `${C}/${p}`, { token, body });
      const groupA = (await post<{ id: number }>('group/add', { name: 'Tailings' })).data.id;
      const groupB = (await post<{ id: number }>('group/add', { name: 'Elsewhere' })).data.id;
      const camera = (groupId: number, platformId: number, name: string, serialNumber: string) =>
        post<{ id: number }>('camera/add', {
          groupId,
          platformId,
          name,
          serialNumber,
          channel: 1,
          type: 'bullet',
          vendor: 'onvif',
          ip: '127.0.0.1',
          rtspUrl: rtsp.url(),
        });
      const crest = (await camera(groupA, site, 'Crest camera', 'IC-1')).data.id;
      const west = (await camera(groupB, other, 'West camera', 'IC-2')).data.id;
      const take = async (cameraId: number) => {
        const r = await post<{ id: number; takenAt: string }>('snapshot/take', { cameraId });
        expect(r.status, r.info).toBe(0);
        return r.data;
      };
      const first = await take(crest);
      const second = await take(crest);
      const foreignShot = await take(west);
      const pictures = (token: string, query: Record<string, string> = {}) =>
        t.api<{
          list: { fileId: string; source: string; name: string; cameraName: string | null; takenAt: string }[];
          total: number;
        }>('GET', '/api/v2/data/report/image/getSitePictures', {
          token,
          query: { platformId: String(site), ...query },
        });

      // The site's two files and its camera's two snapshots, newest first, with their dates.
      const all = await pictures(admin);
      expect(all.status).toBe(0);
      expect(all.data.total).toBe(4);
      expect(all.data.list.slice(0, 2)).toEqual([
        {
          fileId: `snap-${second.id}`,
          source: 'camera',
          name: 'Crest camera',
          cameraName: 'Crest camera',
          size: expect.any(Number),
          takenAt: second.takenAt,
          createdAt: second.takenAt,
        },
        expect.objectContaining({ fileId: `snap-${first.id}`, source: 'camera', takenAt: first.takenAt }),
      ]);
      expect(all.data.list.slice(2).map((p) => [p.source, p.cameraName])).toEqual([
        ['file', null],
        ['file', null],
      ]);
      expect(JSON.stringify(all.data)).not.toContain(`snap-${foreignShot.id}`);
      // Pages cut the merged list; the keyword matches a camera's name too.
      const page2 = await pictures(admin, { pageNum: '2', pageSize: '3' });
      expect([page2.data.total, page2.data.list.length]).toEqual([4, 1]);
      expect(page2.data.list[0]?.source).toBe('file');
      expect((await pictures(admin, { keyword: 'crest cam' })).data.list.map((p) => p.fileId)).toEqual([
        `snap-${second.id}`,
        `snap-${first.id}`,
      ]);

      // A file beside a snapshot: the snapshot's date by default, its camera in the caption, drawn in the PDF.
      const q = {
        platformId: String(site),
        beforeFileId: before,
        afterFileId: `snap-${second.id}`,
        beforeTakenAt: '2026-03-01 09:00',
        timeZone: 'Asia/Shanghai',
      };
      const r = await get(q);
      expect(r.status, r.info).toBe(0);
      expect(r.data.document.sections[0]!.blocks[0]).toMatchObject({
        kind: 'images',
        images: [
          { fileId: before, takenAt: '2026-03-01T01:00:00.000Z' },
          { fileId: `snap-${second.id}`, caption: 'After · Camera Crest camera', takenAt: second.takenAt },
        ],
      });
      const file = path.join(os.tmpdir(), `imgcmp-snap-${process.pid}.pdf`);
      const res = await t.raw('GET', `${P}?${new URLSearchParams({ ...q, format: 'pdf' })}`, { token: admin });
      expect(res.statusCode).toBe(200);
      fs.writeFileSync(file, res.rawPayload);
      try {
        const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
        expect(images.split('\n').filter((l) => l.trim().split(/\s+/)[2] === 'image').length).toBeGreaterThanOrEqual(2);
      } finally {
        fs.rmSync(file, { force: true });
      }

      // A snapshot of another site's camera, or a missing one: like a missing file.
      const missing = await get({ ...q, afterFileId: 'f'.repeat(32) });
      expect(missing.status).toBe(Status.notFound);
      expect(await get({ ...q, afterFileId: `snap-${foreignShot.id}` })).toEqual(missing);
      expect(await get({ ...q, afterFileId: 'snap-99999999' })).toEqual(missing);

      // Outside the site's scope: no snapshot listed, none compared, none fetched.
      expect((await pictures(outsider)).data).toMatchObject({ total: 0, list: [] });
      const snapFile = (id: number, token: string) =>
        t.api('GET', `${C}/snapshot/file`, { query: { id: String(id), token } });
      expect((await snapFile(second.id, outsider)).status).toBe(Status.notFound);

      // In scope with the report permission only: sees the snapshots and their pictures (the report's screen).
      const reporter = await userToken(t, admin, {
        account: 'img-reporter',
        roleCode: 'imgReport',
        platformIds: [site],
      });
      expect((await pictures(reporter)).data.total).toBe(4);
      expect((await get(q, reporter)).status).toBe(0);
      const shown = await t.raw('GET', `${C}/snapshot/file?id=${second.id}&token=${reporter}`);
      expect(shown.headers['content-type']).toBe('image/jpeg');

      // A role camera configuration that leaves the camera out: the files only, and the snapshot is missing.
      const roles = await t.api<{ id: number; code: string }[]>('GET', '/api/v2/manage/role/getAll', { token: admin });
      const roleId = roles.data.find((x) => x.code === 'imgReport')?.id ?? 0;
      expect((await post('role/setConfig', { roleId, restricted: true, groupIds: [groupB] })).status).toBe(0);
      const narrowed = await pictures(reporter);
      expect([narrowed.data.total, narrowed.data.list.map((p) => p.source)]).toEqual([2, ['file', 'file']]);
      expect(await get(q, reporter)).toEqual(await get({ ...q, afterFileId: 'f'.repeat(32) }, reporter));
      expect((await snapFile(second.id, reporter)).status).toBe(Status.notFound);
      const pdfRefused = await t.raw('GET', `${P}?${new URLSearchParams({ ...q, format: 'pdf' })}`, {
        token: reporter,
      });
      expect(pdfRefused.json().status).toBe(Status.notFound);
    } finally {
      await stopProcess(pub);
      await rtsp.close();
    }
  }, 120_000);
});
