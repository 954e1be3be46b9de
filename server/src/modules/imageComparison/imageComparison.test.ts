// Image comparison: two pictures of a site side by side in every format; a picture of another site, a document or
// a foreign file answers like a missing one, in every format.
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
});
